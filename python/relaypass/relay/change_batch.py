"""relay.transform.ChangeBatch: TVM's Python function pass that gives chosen parameters a new
batch size (each parameter's batch dimension set to ``batch_size``; the function's types are
then inferred again)."""
from .expr import Function, TensorType, Var
from .expr_functor import ExprMutator


class _ChangeBatchMutator(ExprMutator):
    def __init__(self, data, batch_size):
        super().__init__()
        self.data = data
        self.batch_size = batch_size

    def visit_var(self, var):
        if var not in self.data:
            return var
        ty = var.type_annotation
        shape = [int(d) for d in ty.shape]
        shape[self.data[var]] = self.batch_size
        return Var(var.name_hint, TensorType(shape, ty.dtype))


class _ChangeBatch:
    """Change the batch size.

    data: Dict[relay.Var, int], the parameters to change and the dimension of each that holds
    the batch. batch_size: int, the new batch size."""

    def __init__(self, data, batch_size=16):
        self.data = data
        self.batch_size = batch_size

    def transform_function(self, func, mod, ctx):
        # the return type is dropped so that it is inferred again
        func = Function(func.params, func.body, None, func.type_params, func.attrs)
        return _ChangeBatchMutator(self.data, self.batch_size).visit(func)


def _make(function_pass):
    """ChangeBatch as relay.transform.function_pass makes it (a pass class: ChangeBatch(data,
    batch_size) is the pass)."""
    cls = function_pass(opt_level=1, name="ChangeBatch")(_ChangeBatch)
    cls.__doc__ = _ChangeBatch.__doc__
    return cls
