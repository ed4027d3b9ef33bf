"""relay.testing.byoc: TVM's test helper for bring-your-own-codegen flows."""
from .. import op as _op
from ..expr import Var
from ..expr_functor import ExprMutator
from ..op.annotation import compiler_begin, compiler_end


class CcompilerAnnotator(ExprMutator):
    """Marks the region add -> subtract -> multiply for the "ccompiler" codegen, as TVM's
    annotator does: compiler_begin on the add's operands and on the Var operands of the
    subtract and multiply met inside the region, compiler_end after the multiply (only when an
    add was met below it). Other calls are copied."""

    def __init__(self):
        super().__init__()
        self.in_compiler = 0

    def _begin_if_var(self, arg):
        return compiler_begin(arg, "ccompiler") if isinstance(arg, Var) else arg

    def visit_call(self, call):
        name = getattr(call.op, "name", None)
        if name == "add":
            if self.in_compiler == 1:
                lhs = compiler_begin(super().visit(call.args[0]), "ccompiler")
                rhs = compiler_begin(super().visit(call.args[1]), "ccompiler")
                self.in_compiler = 2
                return _op.add(lhs, rhs)
        elif name == "subtract":
            if self.in_compiler == 1:
                lhs = self._begin_if_var(super().visit(call.args[0]))
                rhs = self._begin_if_var(super().visit(call.args[1]))
                return _op.subtract(lhs, rhs)
        elif name == "multiply":
            self.in_compiler = 1
            lhs = self._begin_if_var(super().visit(call.args[0]))
            rhs = self._begin_if_var(super().visit(call.args[1]))
            result = _op.multiply(lhs, rhs)
            if self.in_compiler == 2:
                result = compiler_end(result, "ccompiler")
            self.in_compiler = 0
            return result
        return super().visit_call(call)
