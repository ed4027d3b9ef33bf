"""relay.testing.dcgan: the generator of TVM's DCGAN (Radford et al. 2015): dense to
4x4x(ngf*8), relu, reshape, three conv2d_transpose + batch_norm + relu blocks (g2..g4) doubling
the image each time, a last conv2d_transpose (g5) to ``oshape`` and tanh."""
from .. import analysis
from .. import op as _op
from ..expr import Function, var
from . import layers
from .init import create_workload

_KERNEL_LAYOUTS = {"NCHW": "IOHW", "NHWC": "HWOI"}


def _kernel_layout(layout):
    if layout not in _KERNEL_LAYOUTS:
        raise ValueError("Invalid layout: " + layout)
    return _KERNEL_LAYOUTS[layout]


def deconv2d(data, ishape, oshape, kshape, layout, name, stride=(2, 2)):
    """A conv2d_transpose that enlarges the feature map to ``oshape``'s height and width (the
    padding and output_padding that give that size, as TVM computes them)."""
    pad_y, pad_x = (kshape[0] - 1) // 2, (kshape[1] - 1) // 2
    adj_y = (oshape[-2] + 2 * pad_y - kshape[0]) % stride[0]
    adj_x = (oshape[-1] + 2 * pad_x - kshape[1]) % stride[1]
    return layers.conv2d_transpose(data, kernel_size=kshape, strides=stride, channels=oshape[0],
                                   padding=(pad_y, pad_x), output_padding=(adj_y, adj_x),
                                   data_layout=layout, kernel_layout=_kernel_layout(layout),
                                   name=name)


def deconv2d_bn_relu(data, prefix, **kwargs):
    """deconv2d (``<prefix>_deconv``), batch_norm without scale (``<prefix>_batch_norm``,
    epsilon 1e-5 + 1e-12) and relu."""
    net = deconv2d(data, name="%s_deconv" % prefix, **kwargs)
    bn_axis = kwargs.get("layout", "NCHW").index("C")
    net = layers.batch_norm_infer(net, epsilon=1e-5 + 1e-12, scale=False, axis=bn_axis,
                                  name="%s_batch_norm" % prefix)
    return _op.nn.relu(net)


def get_net(batch_size, random_len=100, oshape=(3, 64, 64), ngf=128, code=None, layout="NCHW",
            dtype="float32"):
    """The generator as a relay.Function of ``data`` (batch_size, random_len), or of ``code``'s
    free variables when a code expression is given; only 64x64 images."""
    assert oshape[-1] == 64, "Only support 64x64 image"
    assert oshape[-2] == 64, "Only support 64x64 image"
    if code is None:
        code = var("data", dtype=dtype, shape=(batch_size, random_len))
    dense = _op.nn.dense(code, weight=var("dense_weight"), units=4 * 4 * ngf * 8)
    relu = _op.nn.relu(dense)
    if layout == "NCHW":
        net = _op.reshape(relu, newshape=(-1, ngf * 8, 4, 4))
    elif layout == "NHWC":
        net = _op.reshape(relu, newshape=(-1, 4, 4, ngf * 8))
    else:
        raise ValueError("Invalid layout: " + layout)
    size, channels = 4, ngf * 8
    for prefix in ("g2", "g3", "g4"):  # 8x8, 16x16, 32x32
        net = deconv2d_bn_relu(net, ishape=(channels, size, size),
                               oshape=(channels // 2, size * 2, size * 2), kshape=(4, 4),
                               layout=layout, prefix=prefix)
        size, channels = size * 2, channels // 2
    net = deconv2d(net, ishape=(ngf, 32, 32), oshape=oshape[-3:], kshape=(4, 4), layout=layout,
                   name="g5_deconv")
    net = _op.tanh(net)
    return Function(analysis.free_vars(net), net)


def get_workload(batch_size, oshape=(3, 64, 64), ngf=128, random_len=100, layout="NCHW",
                 dtype="float32"):
    """(mod, params): the generator through create_workload (Xavier, seed 0)."""
    return create_workload(get_net(batch_size, random_len, oshape=oshape, ngf=ngf, layout=layout,
                                   dtype=dtype))
