"""tvm.relay.param_dict: relay.save_param_dict and relay.load_param_dict, which are
tvm.runtime's (as in TVM v0.13)."""
from .. import runtime as _runtime


def save_param_dict(params):
    """Save a dict of NDArrays (or NumPy arrays) to TVM's parameter-file bytes (a bytearray)."""
    return _runtime.save_param_dict(params)


def load_param_dict(param_bytes):
    """Load TVM's parameter-file bytes into a dict of NDArrays."""
    return _runtime.load_param_dict(param_bytes)
