"""relay.testing.vgg: TVM's VGG 11/13/16/19 (Simonyan and Zisserman 2014): five stacks of 3x3
conv2d + bias_add (+ batch_norm) + relu, each ended by a 2x2 max pool, then fc6 and fc7 (4096
units, relu, dropout) and fc8 (num_classes), softmax."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers as wrapper
from .init import create_workload

# num_layers: (convolutions per stack, channels per stack)
_SPECS = {
    11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
    13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
    16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
    19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512]),
}


def get_feature(internal_layer, layers, filters, batch_norm=False):
    """The convolution stacks: stack i has layers[i] convs of filters[i] channels
    (``conv<i>_<j>``, ``conv<i>_<j>_bias``, ``bn<i>_<j>``, counted from 1)."""
    for i, num in enumerate(layers):
        for j in range(num):
            suffix = "%s_%s" % (i + 1, j + 1)
            internal_layer = wrapper.conv2d(data=internal_layer, kernel_size=(3, 3),
                                            padding=(1, 1), channels=filters[i],
                                            name="conv" + suffix)
            internal_layer = _op.nn.bias_add(internal_layer, var("conv%s_bias" % suffix))
            if batch_norm:
                internal_layer = wrapper.batch_norm_infer(data=internal_layer, name="bn" + suffix)
            internal_layer = _op.nn.relu(data=internal_layer)
        internal_layer = _op.nn.max_pool2d(data=internal_layer, pool_size=(2, 2), strides=(2, 2))
    return internal_layer


def get_classifier(input_data, num_classes):
    """batch_flatten, fc6 and fc7 (4096 units, relu, dropout 0.5), fc8 (num_classes)."""
    net = _op.nn.batch_flatten(data=input_data)
    for name in ("fc6", "fc7"):
        net = _op.nn.relu(data=wrapper.dense_add_bias(data=net, units=4096, name=name))
        net = _op.nn.dropout(data=net, rate=0.5)
    return wrapper.dense_add_bias(data=net, units=num_classes, name="fc8")


def get_net(batch_size, image_shape, num_classes, dtype, num_layers=11, batch_norm=False):
    """The network as a relay.Function; ``num_layers`` 11, 13, 16 or 19 (else ValueError)."""
    if num_layers not in _SPECS:
        raise ValueError("Invalide num_layers {}. Choices are 11,13,16,19.".format(num_layers))
    layers, filters = _SPECS[num_layers]
    data = var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    feature = get_feature(data, layers, filters, batch_norm)
    symbol = _op.nn.softmax(data=get_classifier(feature, num_classes))
    return Function(analysis.free_vars(symbol), symbol)


def get_workload(batch_size, num_classes=1000, image_shape=(3, 224, 224), dtype="float32",
                 num_layers=11, batch_norm=False):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, image_shape, num_classes, dtype, num_layers,
                                   batch_norm))
