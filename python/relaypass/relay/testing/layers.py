"""relay.testing.layers: TVM's small layer helpers, which make the weights they are not given
as free variables named after the layer (``<name>_weight``, ``<name>_gamma``, ...)."""
from .. import op as _op
from ..expr import var


def _name(kwargs):
    return kwargs.pop("name")


def batch_norm_infer(data, gamma=None, beta=None, moving_mean=None, moving_var=None, **kwargs):
    """relay.nn.batch_norm's first output; missing parameters become ``<name>_gamma``,
    ``<name>_beta``, ``<name>_moving_mean``, ``<name>_moving_var``."""
    name = _name(kwargs)
    gamma = gamma if gamma else var(name + "_gamma")
    beta = beta if beta else var(name + "_beta")
    moving_mean = moving_mean if moving_mean else var(name + "_moving_mean")
    moving_var = moving_var if moving_var else var(name + "_moving_var")
    return _op.nn.batch_norm(data, gamma=gamma, beta=beta, moving_mean=moving_mean,
                             moving_var=moving_var, **kwargs)[0]


def conv2d(data, weight=None, **kwargs):
    """relay.nn.conv2d with ``<name>_weight`` when ``weight`` is not given."""
    name = _name(kwargs)
    return _op.nn.conv2d(data, weight if weight else var(name + "_weight"), **kwargs)


def conv3d(data, weight=None, **kwargs):
    """relay.nn.conv3d with ``<name>_weight`` when ``weight`` is not given."""
    name = _name(kwargs)
    return _op.nn.conv3d(data, weight if weight else var(name + "_weight"), **kwargs)


def conv2d_transpose(data, weight=None, **kwargs):
    """relay.nn.conv2d_transpose with ``<name>_weight`` when ``weight`` is not given."""
    name = _name(kwargs)
    return _op.nn.conv2d_transpose(data, weight if weight else var(name + "_weight"), **kwargs)


def dense_add_bias(data, weight=None, bias=None, units=None, **kwargs):
    """relay.nn.dense then bias_add on the last axis (``<name>_weight``, ``<name>_bias``)."""
    name = _name(kwargs)
    weight = weight if weight else var(name + "_weight")
    bias = bias if bias else var(name + "_bias")
    return _op.nn.bias_add(_op.nn.dense(data, weight, units, **kwargs), bias, axis=-1)


def conv_kernel_layout(data_layout, is_depthwise=False):
    """The kernel layout that goes with ``data_layout`` ("NCHW" or "NHWC")."""
    mapping = {"NCHW": "OIHW", "NHWC": "HWOI" if is_depthwise else "HWIO"}
    assert data_layout in mapping, "Unknown data layout %s" % data_layout
    return mapping[data_layout]
