"""relay.build_module: relay.build, relay.optimize, create_executor and bind_params_by_name, as
TVM v0.13's, on relaypass's evaluator.

relay.build optimizes the module as TVM's BuildModule does (the relay.optimize passes at the
PassContext's opt_level, FuseOps, LabelOps) and keeps it as Relay: the result runs on the
evaluator through tvm.contrib.graph_executor, and its graph JSON and parameters are TVM's
(docs/python.md says where they differ). Only CPU targets ("llvm", "c") run: any other target
is an error that names it.
"""
import warnings


from .. import _core
from .. import nd as _nd
from ..ir import IRModule
from .expr import Function
from ..runtime.arguments import coerce_argument as _coerce_argument
from ..runtime.arguments import check_adt_argument as _check_adt_argument
from ..runtime.arguments import constructor_of_tag
from ..runtime.arguments import check_argument as _check_argument
from .backend.executor import Executor
from .backend.runtime import Runtime
from .backend.interpreter import ConstructorValue, RefValue
from .backend.executor_factory import AOTExecutorFactoryModule, GraphExecutorFactoryModule

from .build_options import (  # noqa: F401 (relay.vm takes them from there too)
    _as_module,
    _as_ndarray,
    _check_target,
    _params_dict,
    _target_scope,
)


def bind_params_by_name(func, params):
    """Parameters of ``func`` named in ``params`` become constants (TVM's function)."""
    return _core.bind_params_by_name(func, {k: _as_ndarray(v) for k, v in params.items()})


def optimize(mod, target=None, params=None):
    """relay.optimize: ``(optimized module, params)`` as TVM's BuildModule optimizes (the
    current PassContext's opt_level, required and disabled passes)."""
    if not isinstance(mod, (IRModule, Function)):
        raise ValueError("Type of input parameter mod must be tvm.IRModule")
    mod = _as_module(mod)
    _check_target(target)
    with _target_scope(target):
        optimized = _core.optimize(mod, _params_dict(params))
    return optimized, {}


def build(ir_mod, target=None, target_host=None, executor=Executor("graph"),
          runtime=Runtime("cpp"), workspace_memory_pools=None, constant_memory_pools=None,
          params=None, mod_name="default"):
    """relay.build: a GraphExecutorFactoryModule (``lib["default"](dev)`` makes the executor;
    ``graph_json, lib, params = relay.build(...)`` still works, with TVM's DeprecationWarning).
    """
    ir_mod = _as_module(ir_mod)
    if target_host is not None:
        warnings.warn(
            "target_host parameter is going to be deprecated. Please pass in "
            "tvm.target.Target(target, host=target_host) instead."
        )
    _check_target(target, target_host)
    if not isinstance(mod_name, str) or not mod_name:
        raise ValueError("mod_name must be a non-empty str")
    if not isinstance(executor, Executor):
        raise TypeError("executor must be a tvm.relay.backend.Executor")
    if not isinstance(runtime, Runtime):
        raise TypeError("runtime must be a tvm.relay.backend.Runtime")
    scope = _target_scope(target)
    with scope:
        built = _core.build_graph(ir_mod, _params_dict(params), mod_name)
    # The int8 GEMM variant TVM's code for this target would use (docs/python.md).
    built.int8_isa = _core.int8_isa_for_target(scope.mcpu, list(scope.mattr))
    if executor.name == "aot":
        return AOTExecutorFactoryModule(ir_mod, target, executor, runtime, built)
    return GraphExecutorFactoryModule(ir_mod, target, executor, runtime, built)


class Executor_:  # noqa: N801 (the base of the executors create_executor returns)
    """TVM's relay.backend.interpreter.Executor: ``evaluate(expr=None, binds=None)`` gives a
    function of main's parameters (positional or by name)."""

    def __init__(self, mod, params=None):
        self.mod = mod if mod is not None else IRModule()
        self.params = dict(params or {})

    def _main(self, expr):
        mod = self.mod if expr is None else IRModule.from_expr(expr)
        if self.params:
            mod = IRModule.from_expr(mod["main"]) if expr is None else mod
            mod["main"] = bind_params_by_name(mod["main"], self.params)
        return mod

    def evaluate(self, expr=None, binds=None):
        raise NotImplementedError


def _arguments(names, args, kwargs):
    values = list(args)
    if len(values) > len(names):
        raise ValueError("main takes {} arguments, got {}".format(len(names), len(values)))
    for name in names[len(values):]:
        if name not in kwargs:
            raise ValueError("missing argument '{}' of main".format(name))
        values.append(kwargs[name])
    # Keywords naming no parameter are ignored, as TVM's Executor._convert_args ignores them
    # (TVM's own tests pass every input, also those a converted model no longer uses).
    return values


def _to_value(value, mod=None):
    """An executor argument as NDArrays nested in lists: on an explicit stack (a tuple argument
    may nest as deep as the program's type, a list as deep as it is long), refusing a sequence
    that contains itself. A runtime ADT of a constructor's tag (what TVM's VM takes for a List)
    becomes a ConstructorValue of ``mod``'s constructor of that tag; tag 0 is a tuple."""
    from ..runtime.container import ADT
    from .expr import Constant

    def leaf(v):
        if isinstance(v, RefValue):
            return RefValue(_to_value(v.value, mod))
        if isinstance(v, ConstructorValue):  # an ADT value: converted by the evaluator
            return v
        return v.data if isinstance(v, Constant) else _as_ndarray(v)

    def is_sequence(v):
        return isinstance(v, (tuple, list, ADT))

    def tag_of(v):
        return v.tag if isinstance(v, ADT) and mod is not None else 0

    def close(fields, tag):
        return fields if tag == 0 else ConstructorValue(tag, fields, constructor_of_tag(mod, tag))

    if not is_sequence(value):
        return leaf(value)
    out = []
    # Each frame: the items left, the fields converted so far, the sequence's id, its tag, and
    # where its result goes in the parent's fields (None for the root).
    stack = [(iter(value), out, id(value), tag_of(value), None)]
    open_ids = {id(value)}
    while stack:
        items, fields, ident, tag, slot = stack[-1]
        item = next(items, _END)
        if item is _END:
            open_ids.discard(ident)
            stack.pop()
            if slot is None:
                return close(fields, tag)
            slot[0][slot[1]] = close(fields, tag)
            continue
        if not is_sequence(item):
            fields.append(leaf(item))
            continue
        if id(item) in open_ids:
            raise ValueError(
                "an executor argument contains itself (a {} that is its own element)".format(
                    type(item).__name__
                )
            )
        nested = []
        fields.append(nested)
        open_ids.add(id(item))
        stack.append((iter(item), nested, id(item), tag_of(item), (fields, len(fields) - 1)))
    return out


_END = object()


def _prepare_for_interpreter(mod):
    """What TVM's interpreter runs before it interprets (its Prepare) that changes the numbers:
    SimplifyInference, so batch_norm, layer_norm, instance_norm, group_norm and l2_normalize
    compute as the same elementwise arithmetic, in the data's dtype, as the other executors. The
    module is type-checked before (kernels trust types) and after."""
    from .transform import SimplifyInference

    return _core.infer_types(SimplifyInference()(_core.infer_types(mod)))


def _as_adt(value):
    """A result as TVM's interpreter returns it: a tuple is an ADT (tag 0) of its fields, nested
    tuples included (on an explicit stack: tuples nest as deep as the program's type)."""
    from ..runtime.container import ADT

    if not isinstance(value, tuple):
        return value
    root = ADT(0, list(value))
    stack = [root]
    while stack:
        adt = stack.pop()
        for i, field in enumerate(adt._fields):
            if isinstance(field, tuple):
                adt._fields[i] = ADT(0, list(field))
                stack.append(adt._fields[i])
    return root


class Interpreter(Executor_):
    """create_executor("debug"): main interpreted without optimization (only TVM's interpreter
    preparation, SimplifyInference), on one evaluator made once per evaluate()."""

    def evaluate(self, expr=None, binds=None):
        from .expr import GlobalVar, Let, Expr, const

        if binds:
            # As TVM: each bound variable is let-bound to its value around the expression.
            for var, value in binds.items():
                value = value if isinstance(value, Expr) else const(_to_value(value))
                expr = Let(var, value, expr)
        if isinstance(expr, GlobalVar):
            mod = IRModule(dict(self.mod.functions), dict(self.mod.type_definitions))
            mod["main"] = self.mod[expr]
            return Interpreter(mod, self.params).evaluate()
        if expr is not None and not isinstance(expr, Function):
            # A closed expression runs as the body of a main without parameters, type-checked
            # with the module's functions.
            mod = IRModule(dict(self.mod.functions), dict(self.mod.type_definitions))
            mod["main"] = Function([], expr)
            return _as_adt(_core.ModuleRunner(_prepare_for_interpreter(mod)).run_main([]))
        if isinstance(expr, Function) and self.mod is not None and not self.params:
            # TVM's EvalFunction: the function is evaluated in the module, so it may call its
            # global functions and build its ADTs.
            mod = IRModule(dict(self.mod.functions), dict(self.mod.type_definitions))
            mod["main"] = expr
        else:
            mod = self._main(expr)
        # As TVM's executors: the module is type-checked before it runs (kernels trust types).
        mod = _prepare_for_interpreter(mod)
        main = mod["main"]
        names = [p.name_hint for p in main.params]
        runner = _core.ModuleRunner(mod)

        def run(*args, **kwargs):
            values = _arguments(names, args, kwargs)
            values = [_to_value(_coerce_argument(p, v), mod) for p, v in zip(main.params, values)]
            for param, value in zip(main.params, values):
                if isinstance(value, _nd.NDArray):
                    _check_argument(param, value)
                else:
                    _check_adt_argument(param, value, mod)
            return _as_adt(runner.run_main(values))

        return run


class GraphExecutor(Executor_):
    """create_executor("graph"): relay.build at the PassContext's opt_level, run on the graph
    executor (built once per evaluate())."""

    def __init__(self, mod, device=None, target="llvm", params=None):
        super().__init__(mod, params)
        self.target = target

    def evaluate(self, expr=None, binds=None):
        from ..contrib.graph_executor import GraphModule

        mod = self.mod if expr is None else IRModule.from_expr(expr)
        factory = build(mod, target=self.target, params=self.params)
        gmod = GraphModule(factory["default"](None))
        # Parameters given in params are bound at build: the function takes the others.
        names = [p.name_hint for p in mod["main"].params if p.name_hint not in self.params]

        def run(*args, **kwargs):
            values = _arguments(names, args, kwargs)
            # By position, as TVM's (the graph's inputs start with main's unbound parameters,
            # in order), so parameters that share a name each get their own value.
            for index, value in enumerate(values):
                gmod.set_input(index, value)
            gmod.run()
            outputs = iter([gmod.get_output(i) for i in range(gmod.get_num_outputs())])
            return _unflatten(outputs, ret_type)

        ret_type = factory.optimized_mod["main"].checked_type.ret_type
        return run


def _unflatten(flat, ret_type):
    """The graph's flat outputs in the shape of main's result type (TVM's _unflatten): a tuple
    is a Python list of its fields, as TVM's GraphExecutor returns it (the VM returns ADTs)."""
    if isinstance(ret_type, _core.TupleType):
        return [_unflatten(flat, field) for field in ret_type.fields]
    return next(flat)


class VMExecutor(Executor_):
    """create_executor("vm"): relay.vm.compile at the PassContext's opt_level, run on the VM."""

    def __init__(self, mod, device=None, target="llvm", params=None):
        super().__init__(mod, params)
        self.device = device
        self.target = target

    def evaluate(self, expr=None, binds=None):
        from . import vm as _vm
        from ..runtime.vm import VirtualMachine

        mod = self.mod if expr is None else IRModule.from_expr(expr)
        exe = _vm.compile(mod, target=self.target, params=self.params)
        machine = VirtualMachine(exe, self.device)
        names = [p.name_hint for p in mod["main"].params if p.name_hint not in self.params]

        def run(*args, **kwargs):
            return machine.run(*_arguments(names, args, kwargs))

        return run


def create_executor(kind="debug", mod=None, device=None, target="llvm", params=None):
    """An executor of ``mod`` (TVM's relay.create_executor): "debug" interprets main as written;
    "graph" and "aot" build it with relay.build, "vm" with relay.vm.compile, at the current
    PassContext's opt_level. Every kind runs on relaypass's CPU evaluator."""
    if mod is None:
        mod = IRModule()
    if target is not None:
        _check_target(target)
    _nd._check_device(device)
    if kind == "debug":
        return Interpreter(mod, params)
    if kind in ("graph", "aot"):
        return GraphExecutor(mod, device, target, params)
    if kind == "vm":
        return VMExecutor(mod, device, target, params)
    raise RuntimeError("unknown execution strategy: {0}".format(kind))


def build_config(opt_level=2, required_pass=None, disabled_pass=None, trace=None):
    """TVM's deprecated relay.build_config: a PassContext with these settings."""
    from ..transform import PassContext

    warnings.warn(
        "relay.build_config will be deprecated. Please use tvm.transform.PassContext directly",
        DeprecationWarning)
    if trace is not None:
        from .._errors import OpNotImplemented

        raise OpNotImplemented("relay.build_config: pass tracing (trace=) is not available")
    return PassContext(opt_level=opt_level, required_pass=required_pass,
                       disabled_pass=disabled_pass)
