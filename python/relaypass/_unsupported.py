"""Parts of TVM that relaypass does not implement (tensor expressions, TIR, TOPI, tuning,
compilation). They import without error, so a script that only imports them runs; using any
name from them raises an error that says what is missing."""
import sys
import types

from . import _values
from ._symbolic import SymbolicSizeVar, SymbolicVar
from ._errors import OpNotImplemented


class _Missing:
    """Stands for a name of a part of TVM that relaypass does not have."""

    def __init__(self, qualname):
        self._qualname = qualname

    def _fail(self, *args, **kwargs):
        raise OpNotImplemented(
            "{} is not available: relaypass implements Relay's IR, passes and evaluator, "
            "not this part of TVM".format(self._qualname)
        )

    __call__ = _fail

    def __mro_entries__(self, bases):
        # `class X(tvm.autotvm.FallbackContext):` names the missing base rather than failing in
        # the class machinery.
        self._fail()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Missing(self._qualname + "." + name)

    def __enter__(self):
        self._fail()

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<not available in relaypass: {}>".format(self._qualname)


class MissingModule(types.ModuleType):
    """A module whose every attribute is a _Missing placeholder."""

    def __init__(self, name):
        super().__init__(name, "Not implemented by relaypass: importing works, using fails.")
        self.__path__ = []  # a package, so that submodules import too

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Missing("tvm.{}.{}".format(self.__name__.split(".", 1)[-1], name))


def _missing(name):
    full = "relaypass." + name
    module = sys.modules.get(full)
    if module is None:
        module = MissingModule(full)
        sys.modules[full] = module
    return module


te = _missing("te")
tir = _missing("tir")
autotvm = _missing("autotvm")
auto_scheduler = _missing("auto_scheduler")
meta_schedule = _missing("meta_schedule")
rpc = _missing("rpc")


def _var(name="v", dtype="int32", span=None):
    return SymbolicVar(name, dtype, "tvm.te.var")


def _size_var(name="size", dtype="int32", span=None):
    return SymbolicSizeVar(name, dtype, "tvm.te.size_var")


te.var = _var
te.size_var = _size_var
tir.Var = SymbolicVar
tir.SizeVar = SymbolicSizeVar
tir.IntImm = _values.IntImm
tir.FloatImm = _values.FloatImm
tir.const = _values.const
