"""relay.testing.synthetic: TVM's small synthetic network (dense, conv2d, softmax, batch_norm on
one input), for tests that need a real-looking graph quickly.

TVM's network reshapes each dense result back with reshape_like(y, data). While relaypass's
operator registry has no reshape_like, it reshapes to ``[-1, C, H, W]`` (data's shape, the batch
left free) instead: the same values and types, for any batch size (so ChangeBatch works)."""
from ... import _core
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import Constant, create_workload


def _has_reshape_like():
    return "reshape_like" in _core.list_op_names()


def get_net(input_shape=(1, 3, 24, 12), dtype="float32", wtype=None):
    """The network as a relay.Function of ``data`` (``input_shape``, ``dtype``) and its weights
    (``wtype``, default ``dtype``)."""
    wtype = dtype if wtype is None else wtype
    data = var("data", shape=input_shape, dtype=dtype)
    dense_shape = [-1, input_shape[3]]
    conv_shape = [input_shape[1], input_shape[1], 3, 3]

    def dense_branch(x, weight_name):
        w = var(weight_name, shape=[input_shape[3], dense_shape[1]], dtype=wtype)
        y = _op.nn.relu(_op.nn.dense(_op.reshape(x, dense_shape), w))
        if _has_reshape_like():
            return _op.reshape_like(y, data)
        return _op.reshape(y, [-1] + list(input_shape[1:]))

    def conv_branch(x, weight_name):
        w = var(weight_name, shape=conv_shape, dtype=wtype)
        return _op.nn.softmax(_op.nn.conv2d(x, w, padding=1, kernel_size=3))

    added = _op.add(dense_branch(data, "dense_weight"), conv_branch(data, "conv_weight"))
    biased = layers.batch_norm_infer(
        _op.nn.bias_add(added, var("bias", dtype=wtype)), name="batch_norm")
    added = _op.add(dense_branch(biased, "dense2_weight"), conv_branch(biased, "conv2_weight"))
    return Function(analysis.free_vars(added), added)


def get_workload(input_shape=(1, 3, 24, 12), dtype="float32", wtype=None):
    """(mod, params): the network through create_workload with the Constant initializer."""
    return create_workload(get_net(input_shape=input_shape, dtype=dtype, wtype=wtype),
                           initializer=Constant())
