"""relay.testing.inception_v3: TVM's Inception V3 for images of about 299x299 (Szegedy et al.
2015, adopted from MXNet's symbol): every convolution is conv2d (``<name>_conv1_weight``),
batch_norm without scale (``<name>_bn``, epsilon 2e-5) and relu; the Inception blocks 7A-7E
concatenate their towers on the channels; an 8x8 average pool, batch_flatten, dense
(``fc1_weight``) with bias ``fc2_bias`` (TVM's names) and softmax end it."""
# pylint: disable=invalid-name
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import create_workload


def Conv(data, num_filter, kernel=(1, 1), stride=(1, 1), pad=(0, 0), name=None, suffix=""):
    """conv2d + batch_norm (no scale) + relu, named ``<name><suffix>_conv1`` / ``..._bn``."""
    conv = layers.conv2d(data=data, channels=int(num_filter), kernel_size=kernel, strides=stride,
                         padding=pad, name="%s%s_conv1" % (name, suffix))
    bn = layers.batch_norm_infer(data=conv, epsilon=2e-5, scale=False,
                                 name="%s%s_bn" % (name, suffix))
    return _op.nn.relu(data=bn)


def Pooling(data, kernel, stride, pad, pool_type, name):
    """max_pool2d, or avg_pool2d counting the padding; ``name`` is unused (as in TVM)."""
    if pool_type == "max":
        return _op.nn.max_pool2d(data=data, pool_size=kernel, strides=stride, padding=pad)
    if pool_type == "avg":
        return _op.nn.avg_pool2d(data=data, pool_size=kernel, strides=stride, padding=pad,
                                 count_include_pad=True)
    raise ValueError("Invalid pooling type: " + pool_type)


def _tower(data, name, convs):
    """A chain of Conv calls on ``data``: convs are (num_filter, kernel, pad, stride, suffix)."""
    for num_filter, kernel, pad, stride, suffix in convs:
        data = Conv(data, num_filter, kernel=kernel, stride=stride, pad=pad, name=name,
                    suffix=suffix)
    return data


def _pool(data, stride, pad, pool, name):
    return Pooling(data=data, kernel=(3, 3), stride=stride, pad=pad, pool_type=pool,
                   name="%s_pool_%s_pool" % (pool, name))


_ONE, _S1, _S2, _P0 = (1, 1), (1, 1), (2, 2), (0, 0)


def Inception7A(data, num_1x1, num_3x3_red, num_3x3_1, num_3x3_2, num_5x5_red, num_5x5, pool,
                proj, name):
    tower_1x1 = Conv(data, num_1x1, name="%s_conv" % name)
    tower_5x5 = _tower(data, "%s_tower" % name, [
        (num_5x5_red, _ONE, _P0, _S1, "_conv"), (num_5x5, (5, 5), (2, 2), _S1, "_conv_1")])
    tower_3x3 = _tower(data, "%s_tower_1" % name, [
        (num_3x3_red, _ONE, _P0, _S1, "_conv"), (num_3x3_1, (3, 3), (1, 1), _S1, "_conv_1"),
        (num_3x3_2, (3, 3), (1, 1), _S1, "_conv_2")])
    pooling = _pool(data, _S1, (1, 1), pool, name)
    cproj = Conv(pooling, proj, name="%s_tower_2" % name, suffix="_conv")
    return _op.concatenate((tower_1x1, tower_5x5, tower_3x3, cproj), axis=1)


def Inception7B(data, num_3x3, num_d3x3_red, num_d3x3_1, num_d3x3_2, pool, name):
    """The first downsampling block (``pool`` is unused: max pooling, as in TVM)."""
    tower_3x3 = Conv(data, num_3x3, kernel=(3, 3), pad=_P0, stride=_S2, name="%s_conv" % name)
    tower_d3x3 = _tower(data, "%s_tower" % name, [
        (num_d3x3_red, _ONE, _P0, _S1, "_conv"), (num_d3x3_1, (3, 3), (1, 1), _S1, "_conv_1"),
        (num_d3x3_2, (3, 3), _P0, _S2, "_conv_2")])
    pooling = Pooling(data=data, kernel=(3, 3), stride=_S2, pad=_P0, pool_type="max",
                      name="max_pool_%s_pool" % name)
    return _op.concatenate((tower_3x3, tower_d3x3, pooling), axis=1)


def Inception7C(data, num_1x1, num_d7_red, num_d7_1, num_d7_2, num_q7_red, num_q7_1, num_q7_2,
                num_q7_3, num_q7_4, pool, proj, name):
    tower_1x1 = Conv(data=data, num_filter=num_1x1, kernel=_ONE, name="%s_conv" % name)
    tower_d7 = _tower(data, "%s_tower" % name, [
        (num_d7_red, _ONE, _P0, _S1, "_conv"), (num_d7_1, (1, 7), (0, 3), _S1, "_conv_1"),
        (num_d7_2, (7, 1), (3, 0), _S1, "_conv_2")])
    tower_q7 = _tower(data, "%s_tower_1" % name, [
        (num_q7_red, _ONE, _P0, _S1, "_conv"), (num_q7_1, (7, 1), (3, 0), _S1, "_conv_1"),
        (num_q7_2, (1, 7), (0, 3), _S1, "_conv_2"), (num_q7_3, (7, 1), (3, 0), _S1, "_conv_3"),
        (num_q7_4, (1, 7), (0, 3), _S1, "_conv_4")])
    pooling = _pool(data, _S1, (1, 1), pool, name)
    cproj = Conv(data=pooling, num_filter=proj, kernel=_ONE, name="%s_tower_2" % name,
                 suffix="_conv")
    return _op.concatenate((tower_1x1, tower_d7, tower_q7, cproj), axis=1)


def Inception7D(data, num_3x3_red, num_3x3, num_d7_3x3_red, num_d7_1, num_d7_2, num_d7_3x3, pool,
                name):
    tower_3x3 = _tower(data, "%s_tower" % name, [
        (num_3x3_red, _ONE, _P0, _S1, "_conv"), (num_3x3, (3, 3), _P0, _S2, "_conv_1")])
    tower_d7_3x3 = _tower(data, "%s_tower_1" % name, [
        (num_d7_3x3_red, _ONE, _P0, _S1, "_conv"), (num_d7_1, (1, 7), (0, 3), _S1, "_conv_1"),
        (num_d7_2, (7, 1), (3, 0), _S1, "_conv_2"), (num_d7_3x3, (3, 3), _P0, _S2, "_conv_3")])
    pooling = _pool(data, _S2, _P0, pool, name)
    return _op.concatenate((tower_3x3, tower_d7_3x3, pooling), axis=1)


def Inception7E(data, num_1x1, num_d3_red, num_d3_1, num_d3_2, num_3x3_d3_red, num_3x3,
                num_3x3_d3_1, num_3x3_d3_2, pool, proj, name):
    tower_1x1 = Conv(data=data, num_filter=num_1x1, kernel=_ONE, name="%s_conv" % name)
    tower_d3 = Conv(data=data, num_filter=num_d3_red, name="%s_tower" % name, suffix="_conv")
    tower_d3_a = Conv(data=tower_d3, num_filter=num_d3_1, kernel=(1, 3), pad=(0, 1),
                      name="%s_tower" % name, suffix="_mixed_conv")
    tower_d3_b = Conv(data=tower_d3, num_filter=num_d3_2, kernel=(3, 1), pad=(1, 0),
                      name="%s_tower" % name, suffix="_mixed_conv_1")
    tower_3x3_d3 = _tower(data, "%s_tower_1" % name, [
        (num_3x3_d3_red, _ONE, _P0, _S1, "_conv"), (num_3x3, (3, 3), (1, 1), _S1, "_conv_1")])
    tower_3x3_d3_a = Conv(data=tower_3x3_d3, num_filter=num_3x3_d3_1, kernel=(1, 3), pad=(0, 1),
                          name="%s_tower_1" % name, suffix="_mixed_conv")
    tower_3x3_d3_b = Conv(data=tower_3x3_d3, num_filter=num_3x3_d3_2, kernel=(3, 1), pad=(1, 0),
                          name="%s_tower_1" % name, suffix="_mixed_conv_1")
    pooling = _pool(data, _S1, (1, 1), pool, name)
    cproj = Conv(data=pooling, num_filter=proj, kernel=_ONE, name="%s_tower_2" % name,
                 suffix="_conv")
    return _op.concatenate(
        (tower_1x1, tower_d3_a, tower_d3_b, tower_3x3_d3_a, tower_3x3_d3_b, cproj), axis=1)


def get_net(batch_size, num_classes, image_shape, dtype):
    """The network as a relay.Function of ``data`` ((batch_size,) + image_shape)."""
    data = var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    # stage 1
    net = Conv(data, 32, kernel=(3, 3), stride=_S2, name="conv")
    net = Conv(net, 32, kernel=(3, 3), name="conv_1")
    net = Conv(net, 64, kernel=(3, 3), pad=(1, 1), name="conv_2")
    net = Pooling(data=net, kernel=(3, 3), stride=_S2, pool_type="max", pad=_P0, name="pool")
    # stage 2
    net = Conv(net, 80, kernel=_ONE, name="conv_3")
    net = Conv(net, 192, kernel=(3, 3), name="conv_4")
    net = Pooling(data=net, kernel=(3, 3), stride=_S2, pool_type="max", pad=_P0, name="pool1")
    # stage 3
    net = Inception7A(net, 64, 64, 96, 96, 48, 64, "avg", 32, "mixed")
    net = Inception7A(net, 64, 64, 96, 96, 48, 64, "avg", 64, "mixed_1")
    net = Inception7A(net, 64, 64, 96, 96, 48, 64, "avg", 64, "mixed_2")
    net = Inception7B(net, 384, 64, 96, 96, "max", "mixed_3")
    # stage 4
    net = Inception7C(net, 192, 128, 128, 192, 128, 128, 128, 128, 192, "avg", 192, "mixed_4")
    net = Inception7C(net, 192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192, "mixed_5")
    net = Inception7C(net, 192, 160, 160, 192, 160, 160, 160, 160, 192, "avg", 192, "mixed_6")
    net = Inception7C(net, 192, 192, 192, 192, 192, 192, 192, 192, 192, "avg", 192, "mixed_7")
    net = Inception7D(net, 192, 320, 192, 192, 192, 192, "max", "mixed_8")
    # stage 5
    net = Inception7E(net, 320, 384, 384, 384, 448, 384, 384, 384, "avg", 192, "mixed_9")
    net = Inception7E(net, 320, 384, 384, 384, 448, 384, 384, 384, "max", 192, "mixed_10")
    # pool and classify
    net = Pooling(data=net, kernel=(8, 8), stride=_S1, pool_type="avg", pad=_P0,
                  name="global_pool")
    net = _op.nn.dense(_op.nn.batch_flatten(net), var("fc1_weight"), units=num_classes)
    net = _op.nn.softmax(data=_op.nn.bias_add(net, var("fc2_bias"), axis=-1))
    return Function(analysis.free_vars(net), net)


def get_workload(batch_size=1, num_classes=1000, image_shape=(3, 299, 299), dtype="float32"):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, num_classes, image_shape, dtype))
