"""What every converter sees: the import's settings, the node being converted and the helpers
TVM's converters use on expressions being built (types, shapes, constant values, PyTorch's type
promotion)."""
import numpy as np

from ... import analysis
from ... import expr as _expr
from ... import transform
from ....ir import IRModule
from . import dtypes
from .errors import missing_relay_op
from .registry import available_ops


class ConversionContext:
    """One import's state shared by the converters."""

    def __init__(self, default_dtype="float32"):
        self.default_dtype = default_dtype
        self.current_kind = None  # the op kind being converted, for error messages
        self.quantized = False  # a quantized graph (its uint8 tensors are quantized tensors)
        self._types = {}
        self._ops = available_ops()
        self.maybe_prelude = None  # the Prelude, once a run-time list needs it (lists.py)

    @property
    def prelude(self):
        """TVM's Prelude in the module being built, made at the first run-time list: its List
        ADT, list functions and tensor arrays (TVM's from_pytorch always makes one)."""
        if self.maybe_prelude is None:
            from ...prelude import Prelude

            self.maybe_prelude = Prelude(IRModule())
        return self.maybe_prelude

    # Operators the library has
    def require(self, relay_op):
        """Raises TVM's missing-conversion error for the current node when ``relay_op`` is not
        a registered operator (a converter case that needs it)."""
        if relay_op not in self._ops:
            raise missing_relay_op(self.current_kind, relay_op)

    # Types
    def infer_type(self, expr):
        """The checked type of ``expr``, inferred from the types of its already-typed parts."""
        if isinstance(expr, _expr.Var):
            return expr.type_annotation
        found = self._types.get(expr)
        if found is None:
            found = self._infer_in_prelude(expr) if self.maybe_prelude is not None else \
                transform.InferTypeLocal(expr)
            self._types[expr] = found
        return found

    def _infer_in_prelude(self, expr):
        """The type of an expression that may call the Prelude's functions and constructors:
        checked as the body of a main added to a copy of the Prelude's module (TVM's
        infer_type(expr, mod))."""
        mod = IRModule.from_expr(expr)
        mod.update(self.maybe_prelude.mod)
        return transform.InferType()(mod)["main"].body.checked_type

    def infer_shape(self, expr):
        """The shape of a tensor expression as a tuple of ints, -1 for an extent known only at
        run time (`?`): callers that use an extent as a number check it."""
        return tuple(int(d) for d in self.infer_type(expr).shape)

    def infer_dtype(self, expr):
        return str(self.infer_type(expr).dtype)

    def shape_of(self, data):
        """The shape of an expression, a list or an array (TVM's get_dims)."""
        if isinstance(data, _expr.Expr):
            return self.infer_shape(data)
        if isinstance(data, list):
            return data
        if hasattr(data, "shape"):
            return tuple(data.shape)
        raise AssertionError("Data type {} could not be parsed".format(type(data)))

    # Values known at import time
    def try_infer_value(self, value):
        """(NumPy value, True) when ``value`` folds to a constant, else (value, False)."""
        if not isinstance(value, _expr.Expr):
            return value, True
        if isinstance(value, _expr.Constant):
            return value.data.numpy(), True
        if analysis.free_vars(value):
            return value, False
        mod = transform.FoldConstant()(IRModule.from_expr(value))
        body = mod["main"].body
        if isinstance(body, _expr.Constant):
            return body.data.numpy(), True
        return value, False

    def int_value(self, value):
        """An int from a Python number or an expression that folds to one."""
        folded, ok = self.try_infer_value(value)
        if not ok:
            raise NotImplementedError(
                "{}: a value known only at run time (dynamic shapes are not supported by "
                "relaypass's PyTorch frontend)".format(self.current_kind))
        return int(np.asarray(folded).item()) if not isinstance(folded, (int, bool)) else int(folded)

    def int_list(self, values):
        return [self.int_value(v) for v in values]

    # PyTorch's type promotion
    def promote(self, inputs, input_types):
        """``inputs`` as expressions of the dtype PyTorch computes them in (tensor dtypes from
        their inferred types, Python scalars as constants of the result type)."""
        actual = []
        for value, declared in zip(inputs, input_types):
            actual.append(self.infer_dtype(value) if isinstance(value, _expr.Expr) else declared)
        tensor_dtypes = [dt for value, dt in zip(inputs, actual) if not np.isscalar(value)]
        scalars = [value for value in inputs if np.isscalar(value)]
        result = dtypes.result_type(tensor_dtypes, scalars)
        promoted = []
        for value, dtype in zip(inputs, actual):
            if np.isscalar(value):
                promoted.append(_expr.const(value, dtype=result))
            elif dtype == result:
                promoted.append(value)
            else:
                promoted.append(_cast(value, result))
        return promoted


def _cast(value, dtype):
    from ... import op as _op

    return _op.cast(value, dtype)


def wrap_const(value):
    """A Python value as a Relay constant (expressions and lists stay as they are)."""
    if isinstance(value, (_expr.Expr, list)):
        return value
    return _expr.const(value)
