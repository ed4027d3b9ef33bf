"""relay.testing.resnet_3d: TVM's 3D ResNet for action recognition (Hara et al., CVPR 2018),
the 2D ResNet v2 of relay.testing.resnet with conv3d: pre-activation residual units
(batch_norm, relu, conv3d; a 1x1x1 ``_sc`` conv as shortcut when the shape changes), a last
batch_norm + relu, global_avg_pool3d, batch_flatten, dense ``fc1`` and softmax. Layouts NCDHW
(kernels OIDHW) or NDHWC (kernels DHWIO); the batch norms keep axis 1 in either layout, as
TVM's do."""
# pylint: disable=unused-argument
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import create_workload

_EPS = 2e-5


def _bn_relu(data, name):
    return _op.nn.relu(data=layers.batch_norm_infer(data=data, epsilon=_EPS, name=name))


def residual_unit(data, num_filter, stride, dim_match, name, bottle_neck=True,
                  data_layout="NCDHW", kernel_layout="OIDHW"):
    """One residual unit named ``name`` (``<name>_bn1``, ``<name>_conv1``, ...); a bottleneck
    unit has three convs (1x1x1 to num_filter / 4, 3x3x3, 1x1x1 to num_filter), a basic one
    two 3x3x3 convs."""

    def conv(net, channels, kernel, strides, padding, suffix):
        return layers.conv3d(data=net, channels=channels, kernel_size=kernel, strides=strides,
                             padding=padding, name=name + suffix, data_layout=data_layout,
                             kernel_layout=kernel_layout)

    act1 = _bn_relu(data, name + "_bn1")
    if bottle_neck:
        quarter = int(num_filter * 0.25)
        net = conv(act1, quarter, (1, 1, 1), stride, (0, 0, 0), "_conv1")
        net = conv(_bn_relu(net, name + "_bn2"), quarter, (3, 3, 3), (1, 1, 1), (1, 1, 1),
                   "_conv2")
        net = conv(_bn_relu(net, name + "_bn3"), num_filter, (1, 1, 1), (1, 1, 1), (0, 0, 0),
                   "_conv3")
    else:
        net = conv(act1, num_filter, (3, 3, 3), stride, (1, 1, 1), "_conv1")
        net = conv(_bn_relu(net, name + "_bn2"), num_filter, (3, 3, 3), (1, 1, 1), (1, 1, 1),
                   "_conv2")
    if dim_match:
        shortcut = data
    else:
        shortcut = layers.conv3d(data=act1, channels=num_filter, kernel_size=(1, 1, 1),
                                 strides=stride, name=name + "_sc", data_layout=data_layout,
                                 kernel_layout=kernel_layout)
    return _op.add(net, shortcut)


def resnet(units, num_stages, filter_list, num_classes, data_shape, bottle_neck=True,
           layout="NCDHW", dtype="float32"):
    """The network as a relay.Function of ``data`` (data_shape): ``units[i]`` residual units in
    stage i with ``filter_list[i + 1]`` channels (stride 2 from the second stage on)."""
    data_layout = layout
    kernel_layout = "OIDHW" if layout == "NCDHW" else "DHWIO"
    assert len(units) == num_stages
    data = var("data", shape=data_shape, dtype=dtype)
    data = layers.batch_norm_infer(data=data, epsilon=_EPS, scale=False, name="bn_data")
    height = data_shape[3] if layout == "NCDHW" else data_shape[2]
    if height <= 32:  # such as cifar10
        body = layers.conv3d(data=data, channels=filter_list[0], kernel_size=(3, 3, 3),
                             strides=(1, 1, 1), padding=(1, 1, 1), name="conv0",
                             data_layout=data_layout, kernel_layout=kernel_layout)
    else:  # often 224, such as imagenet
        body = layers.conv3d(data=data, channels=filter_list[0], kernel_size=(3, 7, 7),
                             strides=(1, 2, 2), padding=(1, 3, 3), name="conv0",
                             data_layout=data_layout, kernel_layout=kernel_layout)
        body = _bn_relu(body, "bn0")
    for i in range(num_stages):
        stride = (1, 1, 1) if i == 0 else (2, 2, 2)
        body = residual_unit(body, filter_list[i + 1], stride, False,
                             name="stage%d_unit%d" % (i + 1, 1), bottle_neck=bottle_neck,
                             data_layout=data_layout, kernel_layout=kernel_layout)
        for j in range(units[i] - 1):
            body = residual_unit(body, filter_list[i + 1], (1, 1, 1), True,
                                 name="stage%d_unit%d" % (i + 1, j + 2), bottle_neck=bottle_neck,
                                 data_layout=data_layout, kernel_layout=kernel_layout)
    net = _bn_relu(body, "bn1")
    net = _op.nn.batch_flatten(data=_op.nn.global_avg_pool3d(data=net, layout=data_layout))
    net = _op.nn.softmax(data=layers.dense_add_bias(data=net, units=num_classes, name="fc1"))
    return Function(analysis.free_vars(net), net)


_UNITS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
          152: [3, 8, 36, 3], 200: [3, 24, 36, 3], 269: [3, 30, 48, 8]}


def get_net(batch_size, num_classes, num_layers=50, image_shape=(3, 16, 112, 112),
            layout="NCDHW", dtype="float32", **kwargs):
    """The network for ``num_layers`` (TVM's table: small images of height <= 28 take the CIFAR
    variants 6n + 2 / 9n + 2, others 18, 34, 50, 101, 152, 200, 269; else ValueError)."""
    height = image_shape[2] if layout == "NCDHW" else image_shape[1]
    data_shape = (batch_size,) + tuple(image_shape)
    if height <= 28:
        num_stages = 3
        if (num_layers - 2) % 9 == 0 and num_layers >= 164:
            per_unit = [(num_layers - 2) // 9]
            filter_list = [16, 64, 128, 256]
            bottle_neck = True
        elif (num_layers - 2) % 6 == 0 and num_layers < 164:
            per_unit = [(num_layers - 2) // 6]
            filter_list = [16, 16, 32, 64]
            bottle_neck = False
        else:
            raise ValueError("no experiments done on num_layers {}".format(num_layers))
        units = per_unit * num_stages
    else:
        if num_layers >= 50:
            filter_list = [64, 256, 512, 1024, 2048]
            bottle_neck = True
        else:
            filter_list = [64, 64, 128, 256, 512]
            bottle_neck = False
        num_stages = 4
        if num_layers not in _UNITS:
            raise ValueError("no experiments done on num_layers {}".format(num_layers))
        units = _UNITS[num_layers]
    return resnet(units=units, num_stages=num_stages, filter_list=filter_list,
                  num_classes=num_classes, data_shape=data_shape, bottle_neck=bottle_neck,
                  layout=layout, dtype=dtype)


def get_workload(batch_size=1, num_classes=1000, num_layers=18, image_shape=(3, 16, 112, 112),
                 layout="NCDHW", dtype="float32", **kwargs):
    """(mod, params): the network through create_workload (Xavier, seed 0)."""
    net = get_net(batch_size=batch_size, num_classes=num_classes, num_layers=num_layers,
                  image_shape=image_shape, dtype=dtype, layout=layout, **kwargs)
    return create_workload(net)
