"""tvm.runtime.params: parameter files in TVM's byte format (docs/artifact.md)."""
from .. import _core
from .. import nd as ndarray
from ..nd import NDArray


def _to_ndarray(params):
    # As TVM's: values that are not NDArrays (NumPy arrays, lists) become NDArrays.
    return {k: (v if isinstance(v, NDArray) else ndarray.array(v)) for k, v in params.items()}


def save_param_dict(params):
    """tvm.runtime.save_param_dict: a dict of NDArrays (or NumPy arrays) as TVM's parameter-file
    bytes, a bytearray (docs/artifact.md)."""
    return bytearray(_core.save_param_dict(_to_ndarray(params)))


def save_param_dict_to_file(params, path):
    """tvm.runtime.save_param_dict_to_file: save_param_dict's bytes written to ``path``."""
    _core.save_param_dict_to_file(_to_ndarray(params), path)


def load_param_dict(param_bytes):
    """tvm.runtime.load_param_dict: the dict of NDArrays in TVM's parameter-file bytes (bytes,
    bytearray or any bytes-like object); damaged bytes raise TVMError."""
    return _core.load_param_dict(param_bytes)


def load_param_dict_from_file(path):
    """tvm.runtime.load_param_dict_from_file: the dict of NDArrays in the file at ``path``."""
    return _core.load_param_dict_from_file(path)
