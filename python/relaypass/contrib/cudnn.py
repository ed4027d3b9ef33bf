"""tvm.contrib.cudnn: relaypass runs on the CPU and has no cuDNN. ``exists()`` says so, as TVM's
does when it is built without cuDNN; its other functions are not available."""
from .._unsupported import _Missing


def exists():
    """Whether cuDNN can be used: never in relaypass."""
    return False


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm.contrib.cudnn." + name)
