"""tvm.runtime: the pieces relaypass has (NDArray, devices, the Object base names)."""
from .nd import NDArray, Device, cpu, device  # noqa: F401
from . import nd as ndarray  # noqa: F401
