"""relay.testing.init (create_workload, Xavier, Constant), relay.testing.layers,
relay.testing.synthetic and relay.transform.ChangeBatch (python/relaypass/relay/testing/,
python/relaypass/relay/change_batch.py).

Where expected values come from: the Xavier numbers are TVM v0.13's formula (uniform in
[-sqrt(3 / ((fan_in + fan_out) / 2)), +...] from NumPy's global stream after np.random.seed(seed),
read in python/tvm/relay/testing/init.py) computed here with NumPy; the built-in ResNet workload's
parameters (src/workloads/init.cc, checked bit-exact against TVM elsewhere) must equal what
create_workload draws for the same network; the synthetic network's parameter names, shapes and
Constant values (1 / element count) follow TVM's synthetic.py; ChangeBatch's result shapes follow
from the network's shapes with the batch replaced."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay import testing


def test_create_workload_is_typed_and_xavier_initialised():
    data = relay.var("data", shape=(1, 3, 8, 8))
    w = relay.var("conv_weight", shape=(4, 3, 3, 3))
    b = relay.var("conv_bias", shape=(4,))
    net = relay.Function([data, w, b], relay.nn.bias_add(relay.nn.conv2d(data, w), b))
    mod, params = testing.create_workload(net, seed=7)
    assert mod["main"].checked_type.ret_type.shape == (1, 4, 6, 6)
    assert sorted(params) == ["conv_bias", "conv_weight"]  # "data" gets no value
    np.random.seed(7)
    scale = np.sqrt(3.0 / ((3 * 9 + 4 * 9) / 2.0))
    want = np.random.uniform(-scale, scale, size=(4, 3, 3, 3)).astype("float32")
    np.testing.assert_array_equal(params["conv_weight"].numpy(), want)
    np.testing.assert_array_equal(params["conv_bias"].numpy(), np.zeros(4, "float32"))


def test_matches_the_builtin_resnet_parameters():
    mod, params = testing.resnet.get_workload(num_layers=18, num_classes=10,
                                              image_shape=(3, 32, 32))
    _, again = testing.create_workload(mod["main"])
    assert sorted(again) == sorted(params)
    for name, value in params.items():
        np.testing.assert_array_equal(again[name].numpy(), value.numpy(), err_msg=name)


def test_initializer_names_and_errors():
    init = testing.init.Xavier()
    gamma = np.zeros(3, "float32")
    init("bn_gamma", gamma)
    assert (gamma == 1).all()
    with pytest.raises(ValueError, match="Unknown initialization pattern for x_scale"):
        init("x_scale", np.zeros(3))
    with pytest.raises(ValueError, match="requires at least 2D"):
        init("fc_weight", np.zeros(3))
    with pytest.raises(ValueError, match="Incorrect factor type"):
        testing.init.Xavier(factor_type="median")("fc_weight", np.zeros((2, 2)))
    const = np.zeros((2, 5))
    testing.init.Constant()("fc_weight", const)
    assert np.allclose(const, 0.1)


def test_layers_name_their_weights():
    x = relay.var("data", shape=(1, 8))
    y = testing.layers.dense_add_bias(x, units=4, name="fc")
    names = [v.name_hint for v in relay.analysis.free_vars(y)]
    assert names == ["data", "fc_weight", "fc_bias"]
    z = testing.layers.batch_norm_infer(x, name="bn", axis=1)
    names = [v.name_hint for v in relay.analysis.free_vars(z)]
    assert names == ["data", "bn_gamma", "bn_beta", "bn_moving_mean", "bn_moving_var"]
    assert testing.layers.conv_kernel_layout("NHWC", is_depthwise=True) == "HWOI"


def test_synthetic_workload_and_change_batch():
    mod, params = testing.synthetic.get_workload()
    expected = {"dense_weight": (12, 12), "conv_weight": (3, 3, 3, 3), "bias": (3,),
                "batch_norm_gamma": (3,), "batch_norm_beta": (3,),
                "batch_norm_moving_mean": (3,), "batch_norm_moving_var": (3,),
                "dense2_weight": (12, 12), "conv2_weight": (3, 3, 3, 3)}
    assert {k: tuple(v.shape) for k, v in params.items()} == expected
    np.testing.assert_allclose(params["conv_weight"].numpy(), 1.0 / 81)
    assert mod["main"].checked_type.ret_type.shape == (1, 3, 24, 12)

    data = mod["main"].params[0]
    new = relay.transform.ChangeBatch({data: 0}, batch_size=5)(mod)
    assert new["main"].checked_type.ret_type.shape == (5, 3, 24, 12)
    assert new["main"].params[0].type_annotation.shape == (5, 3, 24, 12)
    # the batch-5 network runs
    x = np.random.RandomState(0).rand(5, 3, 24, 12).astype("float32")
    out = relay.create_executor("debug", mod=new).evaluate()(x, **params)
    assert out.numpy().shape == (5, 3, 24, 12)
