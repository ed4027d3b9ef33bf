"""tvm.runtime: NDArrays and devices, parameter files, modules (what relay.build returns and
load_module reads), the VM, and containers."""
from ..nd import NDArray, Device, cpu, device  # noqa: F401
from .. import nd as ndarray  # noqa: F401
from .. import nd  # noqa: F401
from . import params  # noqa: F401
from .params import (  # noqa: F401
    save_param_dict,
    load_param_dict,
    save_param_dict_to_file,
    load_param_dict_from_file,
)
from . import module  # noqa: F401
from .module import Module, BenchmarkResult  # noqa: F401
from . import graph_factory  # noqa: F401
from .graph_factory import load_module  # noqa: F401
from . import container  # noqa: F401
from . import vm  # noqa: F401
from . import executor  # noqa: F401


def enabled(target):
    """tvm.runtime.enabled: whether relaypass runs ``target`` (the CPU: "llvm", "cpu", "c")."""
    return str(target).split()[0] in ("llvm", "cpu", "c", "stackvm")


def convert(value):
    """tvm.runtime.convert: a Python value as the runtime object relaypass uses for it. A list or
    tuple becomes a list (relaypass's Array: the API takes and returns lists), a dict a dict (its
    Map), each element converted; numbers, strings and nodes come back as they are (relaypass
    has no separate IntImm/FloatImm/String objects to wrap them in)."""
    if isinstance(value, (list, tuple)):
        return [convert(v) for v in value]
    if isinstance(value, dict):
        return {convert(k): convert(v) for k, v in value.items()}
    return value


class _ObjectMeta(type):
    def __instancecheck__(cls, instance):
        module = getattr(type(instance), "__module__", "") or ""
        return module.split(".")[0] == "relaypass"


class Object(metaclass=_ObjectMeta):
    """tvm.runtime.Object, the base of TVM's objects: ``isinstance(x, Object)`` holds for
    relaypass's nodes, NDArrays and other objects of the package. It is not constructed."""

    def __init__(self, *args, **kwargs):
        raise TypeError("tvm.runtime.Object is a base class and is not constructed")
