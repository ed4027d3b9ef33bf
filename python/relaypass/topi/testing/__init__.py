"""tvm.topi.testing: NumPy reference implementations of operators, the functions TVM's Relay
operator tests compare results with (TVM v0.13's names, arguments, defaults, output layouts and
dtypes). Names of TVM's topi.testing not here (schedules, deformable conv, roi_align, ...) are
placeholders that raise OpNotImplemented when used."""
from .conv import (  # noqa: F401
    conv1d_ncw_python,
    conv1d_transpose_ncw_python,
    conv2d_backward_weight_python,
    conv2d_nchw_python,
    conv2d_nhwc_python,
    conv2d_transpose_nchw_python,
    conv2d_transpose_nhwc_python,
    conv3d_ncdhw_python,
    conv3d_ndhwc_python,
    conv3d_transpose_ncdhw_python,
)
from .matmul import batch_matmul  # noqa: F401
from .nn import (  # noqa: F401
    correlation_nchw_python,
    l2_normalize_python,
    log_softmax_python,
    lrn_python,
    nll_loss,
    softmax_python,
)
from .pool import adaptive_pool, pool_grad_nchw, poolnd_python  # noqa: F401
from .resize import resize1d_python, resize2d_python, resize3d_python  # noqa: F401
from .searchsorted import searchsorted_ref  # noqa: F401
from .transform import (  # noqa: F401
    dilate_python,
    gather_python,
    matrix_set_diag,
    one_hot,
    sequence_mask,
    strided_set_python,
    strided_slice_python,
)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from ..._unsupported import _Missing

    return _Missing("tvm.topi.testing." + name)
