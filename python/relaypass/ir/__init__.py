"""tvm.ir: IRModule, structural equality and hashing, Op, types, and (as submodules) the pass
infrastructure (tvm.ir.transform) and instruments (tvm.ir.instrument)."""
from .. import _core
from .._core import (  # noqa: F401
    IRModule,
    Op,
    GlobalVar,
    RelayExpr,
    Type,
    TensorType,
    TupleType,
    FuncType,
    IncompleteType,
    RefType as RelayRefType,
    Attrs,
    structural_equal,
    structural_hash,
    assert_structural_equal,
)
from .._core import TypeVar, GlobalTypeVar, TypeCall, TypeData, Constructor  # noqa: F401
from . import instrument  # noqa: F401
from . import op  # noqa: F401
from . import transform  # noqa: F401
from . import diagnostics  # noqa: F401
from . import container  # noqa: F401
from .container import Array, Map  # noqa: F401
from . import op_attrs  # noqa: F401 (also gives Op get_attr / reset_attr)

BaseExpr = RelayExpr
DictAttrs = dict

if not hasattr(IRModule, "attrs"):
    # relaypass's modules carry no attributes; TVM's IRModule.attrs is then null.
    IRModule.attrs = property(lambda self: None,
                              doc="The module's attributes: None (relaypass's modules have none).")

if not hasattr(IRModule, "get_type"):
    def _get_type(self, name):
        """TVM's IRModule.get_type: the ADT's GlobalTypeVar, then its constructors."""
        var = self.get_global_type_var(name)
        return tuple([var] + list(self[var].constructors))

    IRModule.get_type = _get_type

    def _import_from_std(self, file_to_import):
        """TVM's IRModule.import_from_std: parses a file of Relay's standard library (prelude.rly,
        nat.rly; gradient.rly) into this module, once; its text may name what the module defines."""
        from ..relay import std_library as std
        from ..parser import parse

        if file_to_import == "gradient.rly":  # built by the C++ library (LazyGradientInit's)
            from .. import _core

            _core.import_grad_cell(self)
            return

        if file_to_import not in std.FILES:
            from .._errors import TVMError

            raise TVMError("import_from_std: no standard library file named " + file_to_import)
        adt, last_function = std.MARKERS[file_to_import]
        if self.get_global_type_vars() and adt in [v.name_hint for v in
                                                    self.get_global_type_vars()]:
            if last_function is None or last_function in [
                    g.name_hint for g in self.get_global_vars()]:
                return  # imported already
        self.update(parse(std.FILES[file_to_import], file_to_import, init_module=self))

    IRModule.import_from_std = _import_from_std


from .type_kind import TypeKind  # noqa: F401,E402
from .json import save_json, load_json  # noqa: F401,E402
from .span import Span, SourceName  # noqa: F401,E402


def register_op_attr(op_name, attr_key, value=None, level=10):
    """Register an operator attribute (a decorator when ``value`` is omitted). relaypass keeps
    the BYOC predicates ``target.<compiler>`` (``value(expr) -> bool`` says whether the call goes
    to that compiler, for AnnotateTarget) and a program's own attributes (lowercase keys, stored
    for Op.get_attr with TVM's ``level`` priorities; ir/op_attrs.py)."""

    def _register(fn):
        op_attrs.register(op_name, attr_key, fn, level)
        return fn

    return _register(value) if value is not None else _register
