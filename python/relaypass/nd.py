"""tvm.nd: tensors. ``NDArray.numpy()`` is a read-only view of the tensor's buffer (no copy);
``.numpy().copy()`` gives a writable array."""
import numpy as _np

from . import _core

NDArray = _core.NDArray


class Device:
    """A device; relaypass runs on the CPU only (tvm.cpu(0))."""

    def __init__(self, device_type="cpu", device_id=0):
        self.device_type = device_type
        self.device_id = device_id

    def __repr__(self):
        return "{}({})".format(self.device_type, self.device_id)

    def __eq__(self, other):
        return isinstance(other, Device) and (self.device_type, self.device_id) == (
            other.device_type,
            other.device_id,
        )

    def __hash__(self):
        return hash((self.device_type, self.device_id))


def cpu(dev_id=0):
    """The CPU device (tvm.cpu)."""
    return Device("cpu", dev_id)


def device(dev_type, dev_id=0):
    """tvm.device: only "cpu" and "llvm" are available."""
    if str(dev_type).split()[0] not in ("cpu", "llvm", "c"):
        from ._errors import TVMError

        raise TVMError("relaypass runs on the CPU only; device '{}' is not available".format(dev_type))
    return Device("cpu", dev_id)


def array(arr, device=None, mem_scope=None):
    """A new NDArray holding a copy of ``arr`` (a NumPy array, a list or an NDArray)."""
    if isinstance(arr, NDArray):
        return NDArray(arr.numpy())
    if not isinstance(arr, _np.ndarray):
        arr = _np.array(arr)
    return NDArray(arr)


def empty(shape, dtype="float32", device=None, mem_scope=None):
    """A zero-filled NDArray."""
    return NDArray(_np.zeros(shape, dtype=dtype))


def _ndarray_repr(self):
    return "<tvm.nd.NDArray shape={}, cpu(0)>\n{}".format(self.shape, repr(self.numpy()))


NDArray.__repr__ = _ndarray_repr
NDArray.__str__ = lambda self: str(self.numpy())
NDArray.device = property(lambda self: cpu(0))
NDArray.copyto = lambda self, target: array(self) if isinstance(target, Device) else NotImplemented
