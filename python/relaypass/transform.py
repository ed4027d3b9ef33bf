"""tvm.transform (also tvm.ir.transform): passes, Sequential, PassContext and the decorators
that make a pass from Python code."""
import functools
import inspect

from . import _core
from ._core import PassInfo, PassContext  # noqa: F401


class Pass(_core.Pass):
    """A pass: ``pass_(mod)`` returns the transformed module under PassContext.current()."""

    @property
    def name(self):
        return self.info.name


class ModulePass(Pass):
    """A pass over the whole module."""


class FunctionPass(Pass):
    """A pass over each function of the module (relay.transform.FunctionPass)."""


class Sequential(Pass):
    """Runs passes in order, consulting the PassContext (opt_level, required and disabled
    passes) for each member, and running each member's required passes first."""

    def __init__(self, passes=None, opt_level=0, name="sequential", required=None):
        passes = list(passes) if passes is not None else []
        for p in passes:
            if not isinstance(p, _core.Pass):
                raise TypeError("pass must be a Pass, not {}".format(type(p).__name__))
        super().__init__(_core.sequential(passes, opt_level, name, required))
        self._members = passes  # keeps Python-made member passes (and their objects) alive


def _wrap(handle):
    """A C++ pass as the Python class of its kind."""
    kind = handle._kind
    cls = {"module": ModulePass, "function": FunctionPass, "sequential": Pass}.get(kind, Pass)
    return cls(handle)


def _wrap_class_pass(pass_cls, pass_info, base, make_pass, method):
    """A subclass of ``base`` (ModulePass or FunctionPass) whose constructor makes an instance
    of the user's ``pass_cls`` and a pass calling its ``method`` (as TVM's decorators do); other
    attributes are the instance's."""

    class PyPass(base):
        def __init__(self, *args, **kwargs):
            inst = pass_cls(*args, **kwargs)
            bound = getattr(inst, method)

            def _pass_func(*pass_args):
                return bound(*pass_args)

            super().__init__(
                make_pass(_pass_func, pass_info.opt_level, pass_info.name, pass_info.required)
            )
            self._inst = inst

        def __getattr__(self, name):
            return self._inst.__getattribute__(name)

    functools.update_wrapper(PyPass.__init__, pass_cls.__init__)
    PyPass.__name__ = pass_cls.__name__
    PyPass.__doc__ = pass_cls.__doc__
    PyPass.__module__ = pass_cls.__module__
    return PyPass


def _pass_decorator(kind, pass_func, opt_level, name, required, base, make_pass, method):
    """What module_pass and function_pass share (TVM's checks and messages): a pass of class
    ``base`` from a callable, or a class with ``method``; as a decorator or called directly."""
    if opt_level is None:
        raise ValueError("Please provide opt_level for the {} pass.".format(kind))
    required = required if required else []
    if not isinstance(required, (list, tuple)):
        raise TypeError("Required is expected to be the type of list/tuple.")

    def create(pass_arg):
        fname = name if name else pass_arg.__name__
        if inspect.isclass(pass_arg):
            return _wrap_class_pass(pass_arg, PassInfo(opt_level, fname, required), base,
                                    make_pass, method)
        if not callable(pass_arg):
            raise TypeError("pass_func must be a callable for {} pass".format(kind.capitalize()))
        return base(make_pass(pass_arg, opt_level, fname, required))

    if pass_func:
        return create(pass_func)
    return create


def module_pass(pass_func=None, opt_level=None, name=None, required=None):
    """Make a module pass from a function ``(mod, ctx) -> mod`` or a class with
    ``transform_module(self, mod, ctx)``; as a decorator or called directly."""
    return _pass_decorator("module", pass_func, opt_level, name, required, ModulePass,
                           _core.make_module_pass, "transform_module")


def PrintIR(header="", show_meta_data=False):
    """A pass that prints the module (to stderr) and returns it unchanged."""
    return ModulePass(_core.print_ir())


def ApplyPassToFunction(transform, func_name_regex, error_if_no_function_matches_regex=False):
    """Run ``transform`` on the functions whose names fully match ``func_name_regex`` only."""
    inner = _core.apply_pass_to_function(transform, func_name_regex)
    if not error_if_no_function_matches_regex:
        return ModulePass(inner)
    import re

    pattern = re.compile(func_name_regex)

    def _checked(mod, ctx):
        if not any(pattern.fullmatch(gv.name_hint) for gv in mod.get_global_vars()):
            raise ValueError(
                "No function matched the regex '{}' for ApplyPassToFunction".format(
                    func_name_regex)
            )
        return inner._run_in(mod, ctx)

    return ModulePass(_core.make_module_pass(_checked, 0, inner.info.name))
