"""tvm.nd: tensors and devices. ``NDArray.numpy()`` is a read-only view of the tensor's buffer
(no copy); ``.numpy().copy()`` gives a writable array. ``copyfrom`` writes into the array's own
buffer, as TVM's does."""
import numpy as _np

from . import _core
from ._errors import TVMError

NDArray = _core.NDArray

# DLPack's device type codes (TVM's Device.device_type).
_DEVICE_TYPES = {"cpu": 1, "llvm": 1, "c": 1, "stackvm": 1, "cuda": 2, "gpu": 2, "cl": 4,
                 "opencl": 4, "vulkan": 7, "metal": 8, "vpi": 9, "rocm": 10, "ext_dev": 12,
                 "hexagon": 16, "webgpu": 15}
_DEVICE_NAMES = {1: "cpu", 2: "cuda", 4: "opencl", 7: "vulkan", 8: "metal", 9: "vpi", 10: "rocm",
                 12: "ext_dev", 15: "webgpu", 16: "hexagon"}


class Device:
    """A device (TVM's tvm.runtime.Device): ``device_type`` is DLPack's code (1 for the CPU).
    relaypass runs on the CPU only."""

    kDLCPU = 1

    def __init__(self, device_type=1, device_id=0):
        if isinstance(device_type, str):
            device_type = _DEVICE_TYPES.get(device_type.split()[0], -1)
        self.device_type = int(device_type)
        self.device_id = int(device_id)

    @property
    def exist(self):
        return self.device_type == 1

    def sync(self):
        """Waits for the device's work: the evaluator's calls have returned when they finish."""

    @property
    def max_threads_per_block(self):
        return None

    def __repr__(self):
        return "{}({})".format(_DEVICE_NAMES.get(self.device_type, str(self.device_type)), self.device_id)

    def __eq__(self, other):
        return isinstance(other, Device) and (self.device_type, self.device_id) == (
            other.device_type,
            other.device_id,
        )

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.device_type, self.device_id))


def cpu(dev_id=0):
    """The CPU device (tvm.cpu)."""
    return Device(1, dev_id)


def device(dev_type, dev_id=0):
    """tvm.device: a Device by name ("cpu", "llvm", "cuda", ...) or DLPack code, as TVM's (an
    unknown name is a ValueError). Only the CPU exists here: another device can be named, and its
    ``exist`` is False, but running or allocating on it is a TVMError."""
    if isinstance(dev_type, str):
        name = dev_type.split()[0] if dev_type.split() else dev_type
        if name not in _DEVICE_TYPES:
            raise ValueError("Unknown device type %s" % name)
        dev_type = _DEVICE_TYPES[name]
    return Device(dev_type, dev_id)


def _device_of(name):
    def make(dev_id=0):
        return Device(_DEVICE_TYPES[name], dev_id)

    make.__name__ = name
    make.__doc__ = "tvm.{}: the {} device (named, never available in relaypass).".format(name, name)
    return make


cuda = _device_of("cuda")
gpu = _device_of("gpu")
cl = _device_of("cl")
opencl = _device_of("opencl")
vulkan = _device_of("vulkan")
metal = _device_of("metal")
rocm = _device_of("rocm")
ext_dev = _device_of("ext_dev")
hexagon = _device_of("hexagon")
webgpu = _device_of("webgpu")


def _check_device(dev):
    if dev is not None and isinstance(dev, Device) and dev.device_type != 1:
        raise TVMError("relaypass runs on the CPU only; device {} is not available".format(dev))


def _contiguous(arr, dtype=None):
    """``arr`` (converted to ``dtype``) in C order; 0-d stays 0-d (np.ascontiguousarray makes
    it 1-d)."""
    return _np.array(arr, dtype=dtype, order="C", copy=False)


def array(arr, device=None, mem_scope=None):
    """A new NDArray holding a copy of ``arr`` (a NumPy array, a list or an NDArray)."""
    _check_device(device)
    if isinstance(arr, NDArray):
        return NDArray(arr.numpy().copy())
    if not isinstance(arr, _np.ndarray):
        arr = _np.array(arr)
    return NDArray(_contiguous(arr))


def empty(shape, dtype="float32", device=None, mem_scope=None):
    """A new NDArray of ``shape`` and ``dtype`` (zero-filled)."""
    _check_device(device)
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    return NDArray(_np.zeros(shape, dtype=dtype))


def _copyfrom(self, source_array):
    """Copies ``source_array`` (an NDArray, or anything NumPy converts, cast to this array's
    dtype as TVM does) into this array; shapes must match."""
    if isinstance(source_array, NDArray):
        self._copy_bytes_from(source_array)
        return self
    if not isinstance(source_array, _np.ndarray):
        try:
            source_array = _np.array(source_array, dtype=self.dtype)
        except Exception as err:
            raise TypeError(
                "array must be an array_like data, type {} is not supported".format(
                    type(source_array))
            ) from err
    if tuple(source_array.shape) != tuple(self.shape):
        raise ValueError(
            "array shape do not match the shape of NDArray {0} vs {1}".format(
                source_array.shape, self.shape)
        )
    self._copy_bytes_from(NDArray(_contiguous(source_array, self.dtype)))
    return self


def _copyto(self, target, mem_scope=None):
    """A copy on ``target`` (a Device) or into ``target`` (an NDArray)."""
    if isinstance(target, NDArray):
        return target.copyfrom(self)
    if isinstance(target, Device):
        _check_device(target)
        return array(self)
    raise ValueError("Unsupported target type %s" % str(type(target)))


def _ndarray_repr(self):
    return "<tvm.nd.NDArray shape={}, cpu(0)>\n{}".format(self.shape, repr(self.numpy()))


def _dlpack(self, stream=None):
    # NumPy exports only writable arrays: a copy holds the values.
    return self.numpy().copy().__dlpack__()


def from_dlpack(dltensor):
    """tvm.nd.from_dlpack: an NDArray holding a copy of a DLPack tensor (a capsule or any object
    with __dlpack__, such as a torch tensor)."""
    if hasattr(dltensor, "__dlpack__"):
        return array(_np.from_dlpack(dltensor))

    class _Capsule:
        def __init__(self, capsule):
            self.capsule = capsule

        def __dlpack__(self, stream=None):
            return self.capsule

        def __dlpack_device__(self):
            return (1, 0)

    return array(_np.from_dlpack(_Capsule(dltensor)))


def _ndarray_eq(self, other):
    # TVM's NDArray: == is same_as (the same array, not equal values). Other operands get
    # NotImplemented, so NumPy still compares a NumPy array with an NDArray elementwise.
    if not isinstance(other, NDArray):
        return NotImplemented
    return self.same_as(other)


def _ndarray_ne(self, other):
    same = _ndarray_eq(self, other)
    return same if same is NotImplemented else not same


def _ndarray_hash(self):
    # Consistent with same_as: the same array has the same buffer.
    return hash((self.numpy().__array_interface__["data"][0], tuple(self.shape), self.dtype))


NDArray.__eq__ = _ndarray_eq
NDArray.__ne__ = _ndarray_ne
NDArray.__hash__ = _ndarray_hash
NDArray.__repr__ = _ndarray_repr
NDArray.__str__ = lambda self: str(self.numpy())
NDArray.device = property(lambda self: cpu(0))
NDArray.copyfrom = _copyfrom
NDArray.copyto = _copyto
NDArray.to_dlpack = _dlpack
NDArray.__dlpack__ = _dlpack
NDArray.__dlpack_device__ = lambda self: (1, 0)
NDArray.__array__ = lambda self, dtype=None: (self.numpy() if dtype is None else self.numpy().astype(dtype))
