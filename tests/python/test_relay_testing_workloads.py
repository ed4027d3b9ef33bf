"""relay.testing's Python workloads (python/relaypass/relay/testing/: mlp, resnet_3d, dqn, dcgan,
lstm, inception_v3, squeezenet, vgg, densenet, byoc, yolo_detection) and the nn.global_*_pool3d
functions they use.

Where expected values come from:
- Parameter names, their order and the output types: TVM v0.13's python/tvm/relay/testing/
  sources (mlp.py, resnet_3d.py, dqn.py, dcgan.py, lstm.py, inception_v3.py, squeezenet.py,
  vgg.py, densenet.py), read by hand. The expected name lists below are written out from those
  sources' naming loops (``fire%d``, ``conv%s_%s``, ``batch_1_%s``, ...) and counts (e.g.
  DenseNet-121: conv1 + batch1 + 58 dense layers of 10 parameters + 3 transitions of 5 +
  batch2 + dense = 606). The order is TVM's: relay.analysis.free_vars of the network, which
  create_workload follows when it draws the weights.
- Parameter values: TVM's create_workload (a dict name -> type over main's parameters, then for
  each name but "data", np.random.seed(seed) once and Xavier(magnitude 3, "avg") for
  ``*weight``, 0 for ``*bias``/``*beta``/``*mean``, 1 for ``*gamma``/``*var``) replayed here
  with NumPy in TVM's order, so equal arrays mean bit-exact parameters with TVM's.
- Shapes of weights: the operators' type relations (dense: (units, in), conv2d OIHW,
  conv2d_transpose IOHW, conv3d OIDHW / DHWIO) on the networks' shapes, worked by hand.
- Outputs: the mlp and the LSTM are computed again in NumPy from the same parameters; the other
  networks must give finite values of the expected shape (softmax rows summing to 1).
- Printing: TVM's test_ir_text_printer (each workload's text parses back structurally equal);
  ToMixedPrecision: TVM's test_to_mixed_precision::test_lstm (float16 within 0.01 of float32).
- yolo_detection: boxes and suppression worked by hand from TVM's formulas.
- byoc: TVM's CcompilerAnnotator rules (compiler_begin on the add's operands and on Var operands
  of subtract/multiply inside the region, compiler_end after the multiply) applied by hand to
  TVM's test_multi_node_compiler program.
"""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import graph_executor
from relaypass.relay import testing

BN = ("gamma", "beta", "moving_mean", "moving_var")


def _bn(name):
    return ["%s_%s" % (name, suffix) for suffix in BN]


def _param_names(mod):
    return [p.name_hint for p in mod["main"].params]


def _replay(mod, seed=0):
    """TVM's create_workload with Xavier, replayed with NumPy: {name: array}."""
    types = {}
    for p in mod["main"].params:
        types[p.name_hint] = p.checked_type
    np.random.seed(seed)
    out = {}
    for name, ty in types.items():
        if name == "data":
            continue
        shape = tuple(int(d) for d in ty.shape)
        arr = np.zeros(shape).astype(ty.dtype)
        if name.endswith("weight"):
            hw = np.prod(shape[2:]) if len(shape) > 2 else 1.0
            fan_in, fan_out = shape[1] * hw, shape[0] * hw
            factor = hw if "depthwise" in name else (fan_in + fan_out) / 2.0
            scale = np.sqrt(3.0 / factor)
            arr[:] = np.random.uniform(-scale, scale, size=shape)
        elif name.endswith(("gamma", "var")):
            arr[:] = 1.0
        out[name] = arr
    return out


def _assert_tvm_parameters(mod, params, seed=0):
    want = _replay(mod, seed)
    assert list(params) == list(want)
    for name, value in want.items():
        got = params[name].numpy()
        assert got.dtype == value.dtype, name
        np.testing.assert_array_equal(got, value, err_msg=name)


def _out_type(mod):
    ty = mod["main"].checked_type.ret_type
    return tuple(int(d) for d in ty.shape), ty.dtype


def _shapes(mod):
    return {p.name_hint: tuple(int(d) for d in p.checked_type.shape) for p in mod["main"].params}


def _run_graph(mod, params, data):
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target="llvm", params=params)
    module = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    module.set_input("data", data)
    module.run()
    return module.get_output(0).numpy()


# ---------------------------------------------------------------------------------------------
# mlp


def test_mlp_graph_is_tvms_dense_bias_relu_chain_with_softmax():
    mod, params = testing.mlp.get_workload(batch_size=1)
    assert _param_names(mod) == ["data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias",
                                 "fc3_weight", "fc3_bias"]
    assert _out_type(mod) == ((1, 10), "float32")
    text = mod["main"].astext(show_meta_data=False)
    expected_calls = [
        "nn.batch_flatten(%data)", "nn.dense(%0, %fc1_weight, units=128)",
        "nn.bias_add(%1, %fc1_bias, axis=-1)", "nn.relu(%2)",
        "nn.dense(%3, %fc2_weight, units=64)", "nn.bias_add(%4, %fc2_bias, axis=-1)",
        "nn.relu(%5)", "nn.dense(%6, %fc3_weight, units=10)",
        "nn.bias_add(%7, %fc3_bias, axis=-1)", "nn.softmax(%8)"]
    position = 0
    for call in expected_calls:
        found = text.find(call, position)
        assert found >= 0, (call, text)
        position = found
    assert _shapes(mod)["fc1_weight"] == (128, 784)
    # get_net leaves the weights untyped, as TVM's (their types come from inference)
    net = testing.mlp.get_net(1)
    assert net.params[1].type_annotation is None
    _assert_tvm_parameters(mod, params)


def test_mlp_runs_on_the_graph_executor_as_numpy_computes_it():
    mod, params = testing.mlp.get_workload(batch_size=2, num_classes=5, image_shape=(1, 8, 8))
    data = np.random.RandomState(1).uniform(size=(2, 1, 8, 8)).astype("float32")
    out = _run_graph(mod, params, data)
    p = {k: v.numpy().astype("float64") for k, v in params.items()}
    x = data.reshape(2, -1).astype("float64")
    x = np.maximum(x @ p["fc1_weight"].T + p["fc1_bias"], 0)
    x = np.maximum(x @ p["fc2_weight"].T + p["fc2_bias"], 0)
    x = x @ p["fc3_weight"].T + p["fc3_bias"]
    want = np.exp(x - x.max(axis=1, keepdims=True))
    want /= want.sum(axis=1, keepdims=True)
    assert out.shape == (2, 5)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


def test_mlp_dtype_and_signature_defaults():
    mod, _ = testing.mlp.get_workload(4, dtype="float64")
    assert _out_type(mod) == ((4, 10), "float64")
    with pytest.raises(TypeError):
        testing.mlp.get_workload()  # batch_size has no default in TVM


# ---------------------------------------------------------------------------------------------
# dqn and dcgan


def test_dqn_parameters_types_and_values():
    mod, params = testing.dqn.get_workload(batch_size=1)
    names = ["data"]
    for layer in ("conv1", "conv2", "conv3", "dense1", "dense2"):
        names += [layer + "_weight", layer + "_bias"]
    assert _param_names(mod) == names
    assert _out_type(mod) == ((1, 18), "float32")
    shapes = _shapes(mod)
    # 84 -> (84 - 8) / 4 + 1 = 20 -> (20 - 4) / 2 + 1 = 9 -> 9 - 3 + 1 = 7: 64 * 7 * 7 = 3136
    assert shapes["conv1_weight"] == (32, 4, 8, 8)
    assert shapes["dense1_weight"] == (512, 3136)
    assert shapes["dense2_weight"] == (18, 512)
    _assert_tvm_parameters(mod, params)


def test_dqn_nhwc_uses_hwio_kernels_and_runs():
    mod, params = testing.dqn.get_workload(2, num_actions=4, image_shape=(36, 36, 4),
                                           layout="NHWC")
    assert _shapes(mod)["conv1_weight"] == (8, 8, 4, 32)
    out = _run_graph(mod, params, np.ones((2, 36, 36, 4), "float32"))
    assert out.shape == (2, 4) and np.isfinite(out).all()


def test_dcgan_parameters_and_output():
    mod, params = testing.dcgan.get_workload(batch_size=1)
    names = ["data", "dense_weight"]
    for prefix in ("g2", "g3", "g4"):
        names += [prefix + "_deconv_weight"] + _bn(prefix + "_batch_norm")
    names.append("g5_deconv_weight")
    assert _param_names(mod) == names
    assert _out_type(mod) == ((1, 3, 64, 64), "float32")
    shapes = _shapes(mod)
    assert shapes["dense_weight"] == (4 * 4 * 128 * 8, 100)
    assert shapes["g2_deconv_weight"] == (1024, 512, 4, 4)  # IOHW
    assert shapes["g5_deconv_weight"] == (128, 3, 4, 4)
    _assert_tvm_parameters(mod, params)


def test_dcgan_small_runs_and_checks_its_arguments():
    mod, params = testing.dcgan.get_workload(2, ngf=4, random_len=6)
    out = _run_graph(mod, params, np.random.RandomState(0).normal(size=(2, 6)).astype("float32"))
    assert out.shape == (2, 3, 64, 64)
    assert np.isfinite(out).all() and np.abs(out).max() <= 1.0  # tanh
    nhwc, _ = testing.dcgan.get_workload(1, ngf=4, layout="NHWC")
    assert _out_type(nhwc) == ((1, 64, 64, 3), "float32")
    assert _shapes(nhwc)["g2_deconv_weight"] == (4, 4, 16, 32)  # HWOI
    with pytest.raises(AssertionError, match="Only support 64x64 image"):
        testing.dcgan.get_net(1, oshape=(3, 32, 32))
    with pytest.raises(ValueError, match="Invalid layout: NCDHW"):
        testing.dcgan.get_net(1, layout="NCDHW")


# ---------------------------------------------------------------------------------------------
# lstm


def test_lstm_cell_is_tvms_typed_let_chain():
    cell = testing.lstm.lstm_cell(8, batch_size=2, name="x")
    assert [p.name_hint for p in cell.params] == ["inputs", "states", "i2h_weight", "i2h_bias",
                                                  "h2h_weight", "h2h_bias"]
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(cell))
    fn_type = mod["main"].checked_type
    assert tuple(fn_type.arg_types[2].shape) == (32, 8)
    ret = fn_type.ret_type
    assert isinstance(ret, relay.TupleType) and len(ret.fields) == 2
    text = cell.astext()
    for binding in ("%i2h", "%h2h", "%gates", "%slice_gates", "%in_gate", "%forget_gate",
                    "%in_transform", "%out_gate", "%next_c", "%next_h", "%ret"):
        assert "let " + binding in text


def _numpy_lstm(params, inputs, iterations, hidden):
    h = np.zeros((1, hidden))
    c = np.zeros((1, hidden))
    sigmoid = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    for i in range(iterations):
        p = {k: params["%s_%d_%s" % (k.split("_")[0], i, k.split("_")[1])].numpy()
             for k in ("i2h_weight", "i2h_bias", "h2h_weight", "h2h_bias")}
        gates = (inputs[i] @ p["i2h_weight"].T + p["i2h_bias"] + h @ p["h2h_weight"].T
                 + p["h2h_bias"])
        ig, fg, tg, og = np.split(gates, 4, axis=1)
        c = sigmoid(fg) * c + sigmoid(ig) * np.tanh(tg)
        h = sigmoid(og) * np.tanh(c)
    return h


def test_lstm_unrolled_parameters_and_evaluation():
    iterations, hidden = 3, 4
    mod, params = testing.lstm.get_workload(iterations, hidden)
    names = []
    for i in range(iterations):
        names += ["data"] + ["%s_%d_%s" % (k, i, w) for k in ("i2h", "h2h")
                             for w in ("weight", "bias")]
    assert _param_names(mod) == names
    assert _out_type(mod) == ((1, hidden), "float32")
    _assert_tvm_parameters(mod, params)
    inputs = [np.random.RandomState(i).uniform(-1, 1, (1, hidden)).astype("float32")
              for i in range(iterations)]
    args = []
    for i in range(iterations):
        args.append(inputs[i])
        args += [params["%s_%d_%s" % (k, i, w)] for k in ("i2h", "h2h") for w in ("weight", "bias")]
    out = relay.create_executor(mod=mod).evaluate()(*args).numpy()
    np.testing.assert_allclose(out, _numpy_lstm(params, inputs, iterations, hidden), rtol=1e-5,
                               atol=1e-6)


# ---------------------------------------------------------------------------------------------
# squeezenet, vgg, densenet, inception_v3


def _squeezenet_names():
    names = ["data", "conv1_weight", "conv1_bias"]
    for fire in range(1, 9):
        for part in ("input", "left", "right"):
            names += ["fire%d_%s_conv_weight" % (fire, part), "fire%d_%s_conv_bias" % (fire, part)]
    return names + ["conv_final_weight", "conv_final_bias"]


@pytest.mark.parametrize("version, first_conv", [("1.0", (96, 3, 7, 7)), ("1.1", (64, 3, 3, 3))])
def test_squeezenet_parameters(version, first_conv):
    mod, params = testing.squeezenet.get_workload(version=version)
    assert _param_names(mod) == _squeezenet_names()
    assert _out_type(mod) == ((1, 1000), "float32")
    shapes = _shapes(mod)
    assert shapes["conv1_weight"] == first_conv
    assert shapes["fire8_right_conv_weight"] == (256, 64, 3, 3)
    assert shapes["conv_final_weight"] == (1000, 512, 1, 1)
    _assert_tvm_parameters(mod, params)
    with pytest.raises(AssertionError, match="Unsupported SqueezeNet version 2.0"):
        testing.squeezenet.get_workload(version="2.0")


def test_squeezenet_runs_on_the_graph_executor():
    mod, params = testing.squeezenet.get_workload(2, num_classes=10, version="1.1",
                                                  image_shape=(3, 64, 64))
    out = _run_graph(mod, params, np.random.RandomState(0).uniform(size=(2, 3, 64, 64))
                     .astype("float32"))
    assert out.shape == (2, 10)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=1e-5)


def _vgg_names(layers, batch_norm):
    names = ["data"]
    for i, num in enumerate(layers):
        for j in range(num):
            names += ["conv%d_%d_weight" % (i + 1, j + 1), "conv%d_%d_bias" % (i + 1, j + 1)]
            if batch_norm:
                names += _bn("bn%d_%d" % (i + 1, j + 1))
    for fc in ("fc6", "fc7", "fc8"):
        names += [fc + "_weight", fc + "_bias"]
    return names


def test_vgg_parameters_and_run():
    net = testing.vgg.get_net(1, (3, 224, 224), 1000, "float32", num_layers=16)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(net))
    assert _param_names(mod) == _vgg_names([2, 2, 3, 3, 3], False)
    assert _shapes(mod)["fc6_weight"] == (4096, 512 * 7 * 7)
    assert _out_type(mod) == ((1, 1000), "float32")
    mod, params = testing.vgg.get_workload(2, num_classes=10, image_shape=(3, 32, 32),
                                           num_layers=11, batch_norm=True)
    assert _param_names(mod) == _vgg_names([1, 1, 2, 2, 2], True)
    _assert_tvm_parameters(mod, params)
    out = _run_graph(mod, params, np.ones((2, 3, 32, 32), "float32"))
    assert out.shape == (2, 10)
    np.testing.assert_allclose(out.sum(axis=1), 1.0, rtol=1e-5)
    with pytest.raises(ValueError, match="Invalide num_layers 12. Choices are 11,13,16,19."):
        testing.vgg.get_net(1, (3, 32, 32), 10, "float32", num_layers=12)


def test_densenet_121_parameters():
    mod, params = testing.densenet.get_workload()
    names = ["data", "conv1_weight"] + _bn("batch1")
    for block, num_layers in enumerate([6, 12, 24, 16]):
        for i in range(num_layers):
            index = "%d_%d" % (block, i)
            names += _bn("batch_1_" + index) + ["conv2d_1_%s_weight" % index]
            names += _bn("batch_2_" + index) + ["conv2d_2_%s_weight" % index]
        if block != 3:
            names += _bn("batch_t_%d" % block) + ["conv_t_%d_weight" % block]
    names += _bn("batch2") + ["dense_weight", "dense_bias"]
    assert len(names) == 607
    assert _param_names(mod) == names
    assert _out_type(mod) == ((4, 1000), "float32")  # batch_size defaults to 4 in TVM
    shapes = _shapes(mod)
    # TVM's block concatenates its layers' outputs only (16 layers of 32 channels = 512)
    assert shapes["dense_weight"] == (1000, 16 * 32)
    # transition 0: (64 + 6 * 32) // 2 = 128 outputs from the block's 6 * 32 channels
    assert shapes["conv_t_0_weight"] == (128, 6 * 32, 1, 1)
    _assert_tvm_parameters(mod, params)


def test_densenet_runs_on_the_graph_executor():
    mod, params = testing.densenet.get_workload(121, classes=10, batch_size=1)
    out = _run_graph(mod, params, np.random.RandomState(0).uniform(size=(1, 3, 224, 224))
                     .astype("float32"))
    assert out.shape == (1, 10) and np.isfinite(out).all()


def _inception_convs():
    """TVM's Conv names of inception_v3.get_net in free-variable order."""
    names = ["conv", "conv_1", "conv_2", "conv_3", "conv_4"]

    def tower(base, suffixes):
        return ["%s%s" % (base, s) for s in suffixes]

    for block in ("mixed", "mixed_1", "mixed_2"):  # 7A
        names += [block + "_conv"] + tower(block + "_tower", ["_conv", "_conv_1"])
        names += tower(block + "_tower_1", ["_conv", "_conv_1", "_conv_2"])
        names += [block + "_tower_2_conv"]
    names += ["mixed_3_conv"] + tower("mixed_3_tower", ["_conv", "_conv_1", "_conv_2"])  # 7B
    for block in ("mixed_4", "mixed_5", "mixed_6", "mixed_7"):  # 7C
        names += [block + "_conv"] + tower(block + "_tower", ["_conv", "_conv_1", "_conv_2"])
        names += tower(block + "_tower_1", ["_conv", "_conv_1", "_conv_2", "_conv_3", "_conv_4"])
        names += [block + "_tower_2_conv"]
    names += tower("mixed_8_tower", ["_conv", "_conv_1"])  # 7D
    names += tower("mixed_8_tower_1", ["_conv", "_conv_1", "_conv_2", "_conv_3"])
    for block in ("mixed_9", "mixed_10"):  # 7E
        names += [block + "_conv"] + tower(block + "_tower", ["_conv", "_mixed_conv",
                                                              "_mixed_conv_1"])
        names += tower(block + "_tower_1", ["_conv", "_conv_1", "_mixed_conv", "_mixed_conv_1"])
        names += [block + "_tower_2_conv"]
    return names


def test_inception_v3_parameters():
    mod, params = testing.inception_v3.get_workload()
    names = ["data"]
    for conv in _inception_convs():
        names += [conv + "_conv1_weight"] + _bn(conv + "_bn")
    names += ["fc1_weight", "fc2_bias"]  # TVM's names
    assert len(names) == 473
    assert _param_names(mod) == names
    assert _out_type(mod) == ((1, 1000), "float32")
    shapes = _shapes(mod)
    assert shapes["conv_conv1_weight"] == (32, 3, 3, 3)
    assert shapes["fc1_weight"] == (1000, 2048)
    assert shapes["mixed_10_tower_1_mixed_conv_1_conv1_weight"] == (384, 384, 3, 1)
    _assert_tvm_parameters(mod, params)


def test_inception_v3_runs_on_the_graph_executor():
    mod, params = testing.inception_v3.get_workload(1, num_classes=10)
    out = _run_graph(mod, params, np.random.RandomState(0).uniform(size=(1, 3, 299, 299))
                     .astype("float32"))
    assert out.shape == (1, 10)
    np.testing.assert_allclose(out.sum(), 1.0, rtol=1e-5)


# ---------------------------------------------------------------------------------------------
# resnet_3d


def _resnet3d_names(units, bottle_neck, imagenet_stem):
    names = ["data"] + _bn("bn_data") + ["conv0_weight"]
    if imagenet_stem:
        names += _bn("bn0")
    convs = ["_conv1", "_conv2", "_conv3"] if bottle_neck else ["_conv1", "_conv2"]
    for stage, count in enumerate(units):
        for unit in range(count):
            name = "stage%d_unit%d" % (stage + 1, unit + 1)
            for k, conv in enumerate(convs):
                names += _bn("%s_bn%d" % (name, k + 1)) + [name + conv + "_weight"]
            if unit == 0:
                names.append(name + "_sc_weight")
    return names + _bn("bn1") + ["fc1_weight", "fc1_bias"]


def test_resnet_3d_18_parameters():
    mod, params = testing.resnet_3d.get_workload(num_layers=18)
    assert _param_names(mod) == _resnet3d_names([2, 2, 2, 2], False, True)
    assert _out_type(mod) == ((1, 1000), "float32")
    shapes = _shapes(mod)
    assert shapes["conv0_weight"] == (64, 3, 3, 7, 7)
    assert shapes["stage4_unit1_sc_weight"] == (512, 256, 1, 1, 1)
    assert shapes["fc1_weight"] == (1000, 512)
    _assert_tvm_parameters(mod, params)


def test_resnet_3d_50_is_a_bottleneck_net():
    net = testing.resnet_3d.get_net(1, 10, num_layers=50)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(net))
    assert _param_names(mod) == _resnet3d_names([3, 4, 6, 3], True, True)
    assert _shapes(mod)["stage1_unit1_conv1_weight"] == (64, 64, 1, 1, 1)
    assert _out_type(mod) == ((1, 10), "float32")
    with pytest.raises(ValueError, match="no experiments done on num_layers 19"):
        testing.resnet_3d.get_net(1, 10, num_layers=19)


def test_resnet_3d_small_runs_in_both_layouts():
    # height 16 <= 28: TVM's CIFAR variant, (8 - 2) % 6 == 0 gives one basic unit per stage
    mod, params = testing.resnet_3d.get_workload(1, 5, num_layers=8, image_shape=(2, 4, 16, 16))
    assert _param_names(mod) == _resnet3d_names([1, 1, 1], False, False)
    data = np.random.RandomState(0).uniform(size=(1, 2, 4, 16, 16)).astype("float32")
    out = _run_graph(mod, params, data)
    assert out.shape == (1, 5)
    np.testing.assert_allclose(out.sum(), 1.0, rtol=1e-5)
    mod, params = testing.resnet_3d.get_workload(1, 5, num_layers=8, image_shape=(4, 16, 16, 2),
                                                 layout="NDHWC")
    assert _shapes(mod)["conv0_weight"] == (3, 3, 3, 2, 16)  # DHWIO
    assert _out_type(mod) == ((1, 5), "float32")
    out = relay.create_executor(mod=mod).evaluate()(
        np.ones((1, 4, 16, 16, 2), "float32"), **params).numpy()
    assert out.shape == (1, 5) and np.isfinite(out).all()


def test_global_pool3d_are_adaptive_pools_to_one():
    x = relay.var("x", shape=(1, 2, 3, 4, 5))
    avg = relay.nn.global_avg_pool3d(x)
    assert avg.op.name == "nn.adaptive_avg_pool3d"
    assert [int(v) for v in avg.attrs.output_size] == [1, 1, 1]
    mx = relay.nn.global_max_pool3d(x, layout="NCDHW")
    assert mx.op.name == "nn.adaptive_max_pool3d"
    data = np.arange(120, dtype="float32").reshape(1, 2, 3, 4, 5)
    fn = relay.Function([x], relay.Tuple([avg, mx]))
    got_avg, got_max = relay.create_executor().evaluate(fn)(data)
    np.testing.assert_allclose(got_avg.numpy(), data.mean(axis=(2, 3, 4), keepdims=True))
    np.testing.assert_array_equal(got_max.numpy(), data.max(axis=(2, 3, 4), keepdims=True))


# ---------------------------------------------------------------------------------------------
# layers, create_workload, byoc


def test_layers_conv3d_names_its_weight():
    data = relay.var("data", shape=(1, 2, 4, 4, 4))
    out = testing.layers.conv3d(data, channels=3, kernel_size=(1, 1, 1), name="c")
    assert out.op.name == "nn.conv3d"
    assert out.args[1].name_hint == "c_weight"
    with pytest.raises(KeyError):
        testing.layers.conv3d(data, channels=3, kernel_size=(1, 1, 1))


def test_create_workload_keeps_one_value_per_name():
    # TVM keys the parameters by name: a repeated name is drawn once, at its first place.
    a = relay.var("w_weight", shape=(2, 3))
    b = relay.var("w_weight", shape=(2, 3))
    c = relay.var("v_weight", shape=(3, 3))
    net = relay.Function([a, c, b], relay.Tuple([a, b, c]))
    _, params = testing.create_workload(net, seed=3)
    assert list(params) == ["w_weight", "v_weight"]
    np.random.seed(3)
    first = np.random.uniform(-np.sqrt(3 / 2.5), np.sqrt(3 / 2.5), size=(2, 3)).astype("float32")
    np.testing.assert_array_equal(params["w_weight"].numpy(), first)


def test_large_weights_are_drawn_as_one_numpy_call():
    # init fills big weights in chunks; the numbers must be those of one np.random.uniform call
    arr = np.zeros((3, 300000), "float32")
    np.random.seed(5)
    testing.init.Xavier()("big_weight", arr)
    np.random.seed(5)
    scale = np.sqrt(3.0 / ((300000 + 3) / 2.0))
    np.testing.assert_array_equal(arr, np.random.uniform(-scale, scale, size=arr.shape)
                                  .astype("float32"))
    view = np.zeros((300000, 6), "float32")[:, ::2]  # not contiguous: filled in place anyway
    np.random.seed(5)
    testing.init.Xavier()("big_weight", view)
    assert np.count_nonzero(view) == view.size


def test_byoc_ccompiler_annotator_on_tvms_multi_node_program():
    from relaypass.relay.testing import byoc

    x = relay.var("x", shape=(10, 10))
    w = [relay.var("w%d" % i, shape=(10, 10)) for i in range(8)]
    q0 = relay.multiply(relay.subtract(relay.add(x, w[0]), w[1]), w[2])
    q1 = relay.multiply(relay.subtract(relay.add(x, w[3]), w[4]), w[5])
    q2 = relay.subtract(relay.add(x, w[6]), w[7])
    f = relay.Function([x] + w, relay.concatenate((q0, q1, q2), axis=0))
    annotated = byoc.CcompilerAnnotator().visit(f)
    counts = testing.count_ops(annotated)
    # per region: begin on x, w_add, w_sub, w_mul; one end after the multiply; q2 untouched
    assert counts["annotation.compiler_begin"] == 8
    assert counts["annotation.compiler_end"] == 2
    q2_out = annotated.body.args[0].fields[2]
    assert q2_out.op.name == "subtract" and q2_out.args[1].same_as(w[7])
    mod = tvm.IRModule()
    mod["main"] = annotated
    mod = relay.transform.PartitionGraph()(mod)
    mod = relay.transform.InferType()(mod)
    externs = [gv.name_hint for gv in mod.get_global_vars() if gv.name_hint != "main"]
    assert len(externs) == 2
    d = [np.random.RandomState(i).uniform(size=(10, 10)).astype("float32") for i in range(9)]
    out = relay.create_executor(mod=mod).evaluate()(*d).numpy()
    want = np.concatenate([(d[0] + d[1] - d[2]) * d[3], (d[0] + d[4] - d[5]) * d[6],
                           d[0] + d[7] - d[8]], axis=0)
    np.testing.assert_allclose(out, want, rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# yolo_detection (expected boxes worked by hand from TVM's yolo_detection.py formulas)


def test_yolo_layer_boxes():
    yd = testing.yolo_detection
    out = np.full((1, 7, 2, 2), 0.1, "float32")  # 1 anchor, 4 box + objectness + 2 classes
    out[0, :, 1, 0] = [0.5, 0.5, 0.0, 0.0, 0.9, 0.8, 0.3]
    layer = {"type": "Yolo", "output": out, "biases": [10, 20], "mask": [0], "classes": 2}
    dets = yd.fill_network_boxes((100, 100), (100, 100), 0.5, 1, [layer])
    assert len(dets) == 1
    box = dets[0]["bbox"]
    # x = (col 0 + 0.5) / 2, y = (row 1 + 0.5) / 2, w = e^0 * 10 / 100, h = e^0 * 20 / 100
    np.testing.assert_allclose([box.x, box.y, box.w, box.h], [0.25, 0.75, 0.1, 0.2], rtol=1e-6)
    # class probabilities objectness * score, those under the threshold zeroed
    np.testing.assert_allclose(dets[0]["prob"], [0.72, 0.0], rtol=1e-6)
    # absolute boxes on a 200 x 100 image letter-boxed into the 100 x 100 input: new_h = 50
    abs_dets = yd.fill_network_boxes((100, 100), (200, 100), 0.5, 0, [layer])
    b = abs_dets[0]["bbox"]
    np.testing.assert_allclose([b.x, b.y, b.w, b.h],
                               [0.25 * 200, (0.75 - 0.25) / 0.5 * 100, 0.1 * 200, 0.4 * 100],
                               rtol=1e-6)


def test_yolo_nms_sort_and_detections(capsys):
    yd = testing.yolo_detection
    Box = yd.Box
    d1 = {"bbox": Box(0.5, 0.5, 0.2, 0.2), "prob": [0.9, 0.0], "objectness": 0.9}
    d2 = {"bbox": Box(0.52, 0.5, 0.2, 0.2), "prob": [0.8, 0.6], "objectness": 0.8}
    d3 = {"bbox": Box(0.1, 0.1, 0.1, 0.1), "prob": [0.0, 0.0], "objectness": 0}
    dets = [d3, d1, d2]
    yd.do_nms_sort(dets, 2, 0.45)  # IoU(d1, d2) = 0.036 / 0.044 = 0.82
    assert dets[-1] is d3  # zero objectness moves to the end
    assert d1["prob"] == [0.9, 0.0] and d2["prob"] == [0.0, 0.6]
    im = np.zeros((3, 100, 100), "float32")
    valid, det = yd.get_detections(im, d1, 0.5, ["cat", "dog"], 2)
    assert valid and det["category"] == 0 and det["labelstr"] == ["cat 0.9"]
    assert (det["left"], det["right"], det["top"], det["bot"]) == (40, 60, 40, 60)
    assert yd.get_detections(im, d3, 0.5, ["cat", "dog"], 2) == (False, None)
    yd.show_detections(im, [d1, d3], 0.5, ["cat", "dog"], 2)
    # TVM's format passes left, top, right, bot to "left right top bottom"
    assert capsys.readouterr().out == "class:['cat 0.9'] left:40 right:40 top:60 bottom:60\n"


# ---------------------------------------------------------------------------------------------
# uses of the workloads in TVM's own tests


@pytest.mark.parametrize("make", [
    lambda: testing.mlp.get_workload(batch_size=1),
    lambda: testing.lstm.get_workload(1, 1),
    lambda: testing.lstm.get_workload(4, 4),
    lambda: testing.squeezenet.get_workload(batch_size=1, version="1.1"),
    lambda: testing.densenet.get_workload(batch_size=1),
    lambda: testing.dqn.get_workload(batch_size=1),
    lambda: testing.dcgan.get_workload(batch_size=1),
    lambda: testing.resnet_3d.get_workload(batch_size=1),
], ids=["mlp", "lstm-1", "lstm-4", "squeezenet", "densenet", "dqn", "dcgan", "resnet_3d"])
def test_printed_workloads_parse_back_equal(make):
    # TVM's test_ir_text_printer: astext() of each workload parses back structurally equal
    mod, _ = make()
    again = tvm.relay.fromtext(mod.astext())
    tvm.ir.assert_structural_equal(again, mod, map_free_vars=True)


def test_lstm_through_to_mixed_precision_as_tvms_test():
    # TVM's test_to_mixed_precision.py::test_lstm[float16]: every "data" input gets the value
    # of the "data" keyword (TVM's executor binds keywords by name_hint)
    mod, params = testing.lstm.get_workload(iterations=5, num_hidden=4)
    rng = np.random.RandomState(0)
    for i in range(5):
        params["data" if i == 0 else "data%d" % i] = rng.uniform(-10, 10, (1, 4)).astype("float32")
    mod = relay.transform.InferType()(mod)

    def run(m):
        return relay.create_executor("debug", m, device=tvm.device("llvm", 0),
                                     target="llvm").evaluate()(**params).numpy()

    fp32 = run(mod)
    fp16 = run(relay.transform.ToMixedPrecision("float16")(mod))
    np.testing.assert_allclose(fp32, fp16, rtol=0.01, atol=0.01)


# ---------------------------------------------------------------------------------------------
# the package as TVM's


def test_relay_testing_imports_the_workloads_as_tvm_does():
    for name in ("mlp", "resnet", "resnet_3d", "dqn", "dcgan", "mobilenet", "lstm",
                 "inception_v3", "squeezenet", "vgg", "densenet", "yolo_detection",
                 "temp_op_attr", "synthetic"):
        assert hasattr(testing, name), name
    from relaypass.relay.testing import byoc  # noqa: F401  (imported on demand, as in TVM)
