"""relay.transform.SplitArgs: TVM's pass that splits a concatenate of more tensors than a kernel
of the target may take (``max_function_args``, one of them the output) into concatenates of at
most that many, each behind stop_fusion, concatenated again. A negative limit changes nothing."""
from .._errors import TVMValueError
from ..ir import Op
from .expr import Call, Tuple
from .expr_functor import ExprMutator
from .op.annotation import stop_fusion


class _ArgumentSplitter(ExprMutator):
    def __init__(self, max_function_args):
        super().__init__()
        self.max_function_args = max_function_args
        self.concat = Op.get("concatenate")

    def visit_call(self, call):
        new_op = self.visit(call.op)
        new_args = []
        for arg in call.args:  # a loop, not a comprehension: fewer Python frames per level
            new_args.append(self.visit(arg))
        post = call if (new_op == call.op and new_args == list(call.args)) else \
            Call(new_op, new_args, call.attrs, call.type_args)
        if call.op != self.concat or not isinstance(new_args[0], Tuple):
            return post
        limit = self.max_function_args - 1  # one argument is the output
        fields = list(new_args[0].fields)
        if len(fields) < limit:
            return post
        chunks = [fields[i:i + limit] for i in range(0, len(fields), limit)]
        parts = [stop_fusion(Call(new_op, [Tuple(c)], call.attrs)) for c in chunks]
        return Call(new_op, [Tuple(parts)], call.attrs)


class _SplitArgs:
    def __init__(self, max_function_args):
        max_function_args = int(max_function_args)
        if 0 <= max_function_args < 2:
            raise TVMValueError("SplitArgs: max_function_args must be negative (no limit) or at "
                                "least 2 (one argument is the output), got {}"
                                .format(max_function_args))
        self.max_function_args = max_function_args

    def transform_function(self, func, mod, ctx):
        if self.max_function_args < 0:
            return func
        return _ArgumentSplitter(self.max_function_args).visit(func)


def _make(function_pass):
    """SplitArgs(max_function_args) as TVM's function pass (opt_level 1, requires InferType)."""
    return function_pass(opt_level=1, name="SplitArgs", required=["InferType"])(_SplitArgs)
