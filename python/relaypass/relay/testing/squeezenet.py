"""relay.testing.squeezenet: TVM's SqueezeNet 1.0 / 1.1 (Iandola et al. 2016): a first conv2d,
eight fire modules (a 1x1 squeeze conv, then 1x1 and 3x3 expand convs concatenated on the
channels) between max pools, dropout, a 1x1 conv to the classes, global average pool, softmax.
Every conv is followed by bias_add (``<name>_conv_bias``) and relu. NCHW only, as TVM's."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import create_workload


def _make_fire_conv(net, channels, kernel_size, padding=0, prefix=""):
    net = layers.conv2d(net, channels=channels, kernel_size=(kernel_size, kernel_size),
                        padding=(padding, padding), name="%s_conv" % prefix)
    net = _op.nn.bias_add(net, var("%s_conv_bias" % prefix))
    return _op.nn.relu(net)


def _make_fire(net, squeeze_channels, expand1x1_channels, expand3x3_channels, prefix):
    net = _make_fire_conv(net, squeeze_channels, 1, 0, "%s_input" % prefix)
    left = _make_fire_conv(net, expand1x1_channels, 1, 0, "%s_left" % prefix)
    right = _make_fire_conv(net, expand3x3_channels, 3, 1, "%s_right" % prefix)
    return _op.concatenate((left, right), axis=1)


def _max_pool(net):
    return _op.nn.max_pool2d(net, pool_size=(3, 3), strides=(2, 2))


# Per version: the first conv (channels, kernel, padding), then the body as fire modules
# (squeeze, expand 1x1, expand 3x3) and "pool" markers, in TVM's order.
_FIRES_10 = [(16, 64, 64), (16, 64, 64), (32, 128, 128), "pool", (32, 128, 128), (48, 192, 192),
             (48, 192, 192), (64, 256, 256), "pool", (64, 256, 256)]
_FIRES_11 = [(16, 64, 64), (16, 64, 64), "pool", (32, 128, 128), (32, 128, 128), "pool",
             (48, 192, 192), (48, 192, 192), (64, 256, 256), (64, 256, 256)]
_VERSIONS = {"1.0": ((96, 7, 3), _FIRES_10), "1.1": ((64, 3, 1), _FIRES_11)}


def get_net(batch_size, image_shape, num_classes, version, dtype):
    """The network as a relay.Function; ``version`` "1.0" or "1.1"."""
    assert version in ["1.0", "1.1"], (
        "Unsupported SqueezeNet version {}:1.0 or 1.1 expected".format(version))
    (channels, kernel, padding), body = _VERSIONS[version]
    net = var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    net = layers.conv2d(net, channels=channels, kernel_size=(kernel, kernel), strides=(2, 2),
                        padding=(padding, padding), name="conv1")
    net = _op.nn.relu(_op.nn.bias_add(net, var("conv1_bias")))
    net = _max_pool(net)
    fire = 0
    for item in body:
        if item == "pool":
            net = _max_pool(net)
        else:
            fire += 1
            net = _make_fire(net, *item, "fire%d" % fire)
    net = _op.nn.dropout(net, rate=0.5)
    net = layers.conv2d(net, channels=num_classes, kernel_size=(1, 1), name="conv_final")
    net = _op.nn.relu(_op.nn.bias_add(net, var("conv_final_bias")))
    net = _op.nn.batch_flatten(_op.nn.global_avg_pool2d(net))
    net = _op.nn.softmax(net)
    return Function(analysis.free_vars(net), net)


def get_workload(batch_size=1, num_classes=1000, version="1.0", image_shape=(3, 224, 224),
                 dtype="float32"):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, image_shape, num_classes, version, dtype))
