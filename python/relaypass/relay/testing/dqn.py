"""relay.testing.dqn: TVM's Nature DQN (Mnih et al. 2015): three conv2d + bias_add + relu
layers (32 8x8/4, 64 4x4/2, 64 3x3/1), batch_flatten, dense 512 + relu, dense num_actions."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import create_workload

# (name, channels, kernel, stride) of the convolutions, in order.
_CONVS = (("conv1", 32, 8, 4), ("conv2", 64, 4, 2), ("conv3", 64, 3, 1))


def get_net(batch_size, num_actions=18, image_shape=(4, 84, 84), dtype="float32", layout="NCHW"):
    """The network as a relay.Function; ``layout`` "NCHW" or "NHWC" (kernels OIHW / HWIO)."""
    data = var("data", shape=(batch_size,) + tuple(image_shape), dtype=dtype)
    bias_axis = layout.index("C")
    net = data
    for name, channels, kernel, stride in _CONVS:
        bias = var(name + "_bias")
        net = layers.conv2d(net, kernel_size=(kernel, kernel), strides=(stride, stride),
                            padding=(0, 0), channels=channels, name=name, data_layout=layout,
                            kernel_layout=layers.conv_kernel_layout(layout))
        net = _op.nn.relu(_op.nn.bias_add(net, bias, bias_axis))
    net = _op.nn.batch_flatten(net)
    net = _op.nn.relu(layers.dense_add_bias(net, units=512, name="dense1"))
    net = layers.dense_add_bias(net, units=num_actions, name="dense2")
    return Function(analysis.free_vars(net), net)


def get_workload(batch_size, num_actions=18, image_shape=(4, 84, 84), dtype="float32",
                 layout="NCHW"):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, num_actions=num_actions, image_shape=image_shape,
                                   dtype=dtype, layout=layout))
