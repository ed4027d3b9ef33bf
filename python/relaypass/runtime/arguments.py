"""Arguments of the executors (the VM, the debug executor) checked against the function's
declared parameter types: the evaluator trusts its inputs, so nothing reaches it that does not
fit."""
import numpy as _np

from .. import _core
from .. import nd as _nd


def _exactly_integral(array, target):
    """Whether every value of a float ``array`` is a whole number within ``target``'s range."""
    with _np.errstate(invalid="ignore"):
        info = _np.iinfo(target)
        return bool(_np.all(_np.isfinite(array)) and _np.all(_np.floor(array) == array)
                    and _np.all(array >= info.min) and _np.all(array <= info.max))


def cast_within_kind(array, dtype, what):
    """``array`` as ``dtype`` where NumPy casts within the same kind (float64 to float32, as
    TVM's copyfrom converts), between integer dtypes, or from floats that are whole numbers into
    an integer dtype; a TypeError naming ``what`` otherwise."""
    target = _np.dtype(dtype) if dtype != "bool" else _np.dtype(bool)
    if array.dtype == target:
        return array
    # Signed and unsigned integers count as one kind: TVM's copyfrom casts an int64 array (NumPy's
    # default for Python ints) into a uint8 input.
    integers = array.dtype.kind in "iu" and target.kind in "iu"
    if array.dtype.kind == "f" and target.kind in "iu" and _exactly_integral(array, target):
        # TVM's copyfrom casts floats into an integer input (a Python 2.0 for an int32 scalar);
        # here only where no value changes: 2.5, NaN or an out-of-range value stays an error.
        return array.astype(target)
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


def constructor_of_tag(mod, tag):
    """The constructor of ``mod`` with that tag (a runtime ADT argument's); a TVMError and
    ValueError when the module has none."""
    from .._errors import TVMValueError

    try:
        return mod.get_constructor(tag)
    except Exception:  # the module's lookup error: restated for the caller's argument
        raise TVMValueError("an ADT argument has the tag {}, which no constructor of the module "
                            "has (a constructor's tag is its `.tag`)".format(tag)) from None


def check_adt_argument(param, value, mod):
    """An argument whose declared type holds algebraic data types (a List, an Option, a tuple
    of them) must be built as that type says: each ADT value a ConstructorValue of a
    constructor of that type with one field per constructor input, each field of its input's
    type (the type's parameters bound to the type call's arguments), tensors of their declared
    shape and dtype, tuples of their length. The evaluator trusts its inputs, so a malformed
    value is a TVMError and a ValueError naming the argument and where in it, before anything
    runs. Walked with an explicit stack: a list argument nests as deep as it is long. Types this
    does not describe (functions, references, type variables of main) are not checked."""
    from .._errors import TVMValueError
    from ..relay.backend.interpreter import ConstructorValue

    declared = param.type_annotation
    if declared is None or isinstance(declared, _core.TensorType):
        return

    def fail(depth, where, message):
        place = " at depth {} ({})".format(depth, where) if depth else ""
        raise TVMValueError("argument '{}'{}: {}".format(param.name_hint, place, message))

    # (type, its type-variable bindings, value, nesting depth, the step that led here)
    stack = [(declared, {}, value, 0, "")]
    while stack:
        ty, env, v, depth, where = stack.pop()
        while isinstance(ty, _core.TypeVar) and ty.name_hint in env:
            ty, env = env[ty.name_hint]  # bound by an enclosing type call (List[A] in Cons)
        if isinstance(ty, _core.TypeVar):
            continue  # a type parameter of main itself: not described here
        if isinstance(ty, _core.TensorType):
            if not isinstance(v, _nd.NDArray):
                fail(depth, where, "expected a tensor of type {}, got a {}".format(
                    ty, type(v).__name__))
            shape = tuple(int(d) if isinstance(d, int) else -1 for d in ty.shape)
            if len(v.shape) != len(shape) or v.dtype != ty.dtype or any(
                    d >= 0 and d != a for d, a in zip(shape, v.shape)):
                fail(depth, where, "a tensor of shape {} and dtype {} where {} is declared"
                     .format(tuple(v.shape), v.dtype, ty))
        elif isinstance(ty, _core.TupleType):
            if not isinstance(v, (list, tuple)) or len(v) != len(ty.fields):
                fail(depth, where, "expected a tuple of {} fields ({}), got a {}".format(
                    len(ty.fields), ty, type(v).__name__))
            for i, (field_ty, field) in enumerate(zip(ty.fields, v)):
                stack.append((field_ty, env, field, depth + 1, "tuple field {}".format(i)))
        elif isinstance(ty, (_core.TypeCall, _core.GlobalTypeVar)):
            head = ty.func if isinstance(ty, _core.TypeCall) else ty
            args = list(ty.args) if isinstance(ty, _core.TypeCall) else []
            if not isinstance(v, ConstructorValue):
                fail(depth, where, "expected a value of the ADT {}, got a {}".format(
                    head.name_hint, type(v).__name__))
            if not v.constructor.belong_to.same_as(head):
                fail(depth, where, "the constructor {} does not build {}".format(
                    v.constructor.name_hint, head.name_hint))
            inputs = list(v.constructor.inputs)
            if len(v.fields) != len(inputs):
                fail(depth, where, "{} takes {} fields, got {}".format(
                    v.constructor.name_hint, len(inputs), len(v.fields)))
            inner = {tv.name_hint: (arg, env) for tv, arg in zip(mod[head].type_vars, args)}
            for i, (input_ty, field) in enumerate(zip(inputs, v.fields)):
                stack.append((input_ty, inner, field, depth + 1,
                              "field {} of {}".format(i, v.constructor.name_hint)))
