"""Arguments of the executors (the VM, the debug executor) checked against the function's
declared parameter types: the evaluator trusts its inputs, so nothing reaches it that does not
fit."""
import numpy as _np

from .. import _core
from .. import nd as _nd


def cast_within_kind(array, dtype, what):
    """``array`` as ``dtype`` where NumPy casts within the same kind (float64 to float32, as
    TVM's copyfrom converts) or between integer dtypes; a TypeError naming ``what`` otherwise."""
    target = _np.dtype(dtype) if dtype != "bool" else _np.dtype(bool)
    if array.dtype == target:
        return array
    # Signed and unsigned integers count as one kind: TVM's copyfrom casts an int64 array (NumPy's
    # default for Python ints) into a uint8 input.
    integers = array.dtype.kind in "iu" and target.kind in "iu"
    if array.dtype == object or not (integers or _np.can_cast(array.dtype, target, "same_kind")):
        raise TypeError(
            "{} is {}, got an array of dtype {} (which does not convert to it without "
            "changing kind)".format(what, dtype, array.dtype)
        )
    return array.astype(target)


def coerce_argument(param, value):
    """``value`` for ``param``: a NumPy array (or list, scalar) converted to the declared dtype
    where NumPy casts within the same kind (as the graph executor's set_input); then checked by
    check_argument. NDArrays, tuples and closures go as they are."""
    declared = param.type_annotation
    if isinstance(value, _nd.NDArray) or not isinstance(declared, _core.TensorType):
        return value
    if isinstance(value, (tuple, list)) and not isinstance(value, _np.ndarray):
        try:
            value = _np.asarray(value)
        except Exception:  # a ragged list: the evaluator's own tuple handling decides
            return value
    if isinstance(value, (_np.ndarray, _np.generic, int, float, bool)):
        array = cast_within_kind(_np.asarray(value), declared.dtype,
                                 "argument '{}'".format(param.name_hint))
        return _nd.array(array)
    return value


def check_argument(param, array):
    """An argument must have the shape and dtype its parameter declares (as TVM's executors
    check): the evaluator itself trusts its inputs. A `?` or symbolic extent takes any size; the
    rank and the other extents must match. The error is a TVMError and a ValueError."""
    from .._errors import TVMValueError

    declared = param.type_annotation
    if not isinstance(declared, _core.TensorType):
        return
    shape = tuple(int(d) if isinstance(d, int) else -1 for d in declared.shape)
    fits = len(array.shape) == len(shape) and all(
        d < 0 or d == a for d, a in zip(shape, array.shape))
    if not fits or array.dtype != declared.dtype:
        raise TVMValueError(
            "argument '{}' has shape {} and dtype {}, but main declares {}".format(
                param.name_hint, tuple(array.shape), array.dtype, declared)
        )
