"""relay.testing.mlp: TVM's multilayer perceptron (batch_flatten, three dense + bias_add layers
of 128, 64 and num_classes units with relu between them, softmax)."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from .init import create_workload


def get_net(batch_size, num_classes=10, image_shape=(1, 28, 28), dtype="float32"):
    """The network as a relay.Function of ``data`` ((batch_size,) + image_shape) and the weights
    fc1_weight, fc1_bias, ..., fc3_bias (their shapes left to type inference, as TVM does)."""
    data = var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    net = _op.nn.batch_flatten(data)
    for index, units in ((1, 128), (2, 64), (3, num_classes)):
        net = _op.nn.dense(net, var("fc%d_weight" % index), units=units)
        net = _op.nn.bias_add(net, var("fc%d_bias" % index), axis=-1)
        if index < 3:
            net = _op.nn.relu(net)
    net = _op.nn.softmax(data=net)
    return Function(analysis.free_vars(net), net)


def get_workload(batch_size, num_classes=10, image_shape=(1, 28, 28), dtype="float32"):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, num_classes, image_shape, dtype))
