"""tvm.relay: the Relay IR, its operators, passes, analysis and evaluator."""
from . import expr  # noqa: F401
from .expr import (  # noqa: F401
    Call,
    Constant,
    Expr,
    Function,
    GlobalVar,
    If,
    Let,
    RefCreate,
    RefRead,
    RefWrite,
    Tuple,
    TupleGetItem,
    TupleWrapper,
    Var,
    bind,
    const,
    var,
)
from .expr import Any  # noqa: F401
from .._unsupported import tir as _tir

_tir.Any = Any  # TVM's relay.Any is tir.Any (the prelude's tensor arrays name it so)
from .expr import TensorType, TupleType, FuncType, RefType, IncompleteType, Type  # noqa: F401
from . import function  # noqa: F401
from . import op  # noqa: F401
from .op import *  # noqa: F401,F403
from .op import nn, annotation, image, random, vision  # noqa: F401
# The star import above also brought relay.op.op under the name `op`: relay.op is the package.
op = __import__("importlib").import_module(__name__ + ".op")
from . import transform  # noqa: F401
from . import dataflow_pattern  # noqa: F401
from . import analysis  # noqa: F401
from . import expr_functor  # noqa: F401
from .expr_functor import ExprFunctor, ExprVisitor, ExprMutator  # noqa: F401
from . import build_module  # noqa: F401
from .build_module import create_executor, build, build_config  # noqa: F401
from . import testing  # noqa: F401
from . import frontend  # noqa: F401
from . import qnn  # noqa: F401
from ..ir import IRModule as Module  # noqa: F401 (older TVM's relay.Module)
from ..parser import fromtext, parse, parse_expr  # noqa: F401



def astext(obj, show_meta_data=True, annotate=None):
    """The text of a module or expression."""
    return obj.astext(show_meta_data)

from .param_dict import save_param_dict, load_param_dict  # noqa: F401,E402
from . import backend  # noqa: F401
from . import ty  # noqa: F401
from . import base  # noqa: F401
from .base import Span, SourceName  # noqa: F401
from .ty import scalar_type, TypeVar, GlobalTypeVar, TypeRelation, TypeCall  # noqa: F401,E402
from .ty import TypeKind  # noqa: F401,E402
from . import adt  # noqa: F401,E402
from . import prelude  # noqa: F401,E402
from .adt import (  # noqa: F401,E402
    Constructor,
    TypeData,
    Clause,
    Match,
    Pattern,
    PatternWildcard,
    PatternVar,
    PatternConstructor,
    PatternTuple,
)
from . import type_functor  # noqa: F401,E402
from .type_functor import TypeFunctor, TypeVisitor, TypeMutator  # noqa: F401,E402
from . import scope_builder  # noqa: F401
from .scope_builder import ScopeBuilder  # noqa: F401
from . import vm  # noqa: F401
from .build_module import optimize, bind_params_by_name  # noqa: F401,E402
from .._unsupported import _Missing  # noqa: E402

SpanCheck = _Missing("tvm.relay.SpanCheck")  # TVM's check that every node has a span
