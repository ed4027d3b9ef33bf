"""Operator attributes set from Python (tvm.ir.register_op_attr, Op.get_attr, Op.reset_attr).

relaypass keeps two kinds: ``target.<compiler>`` predicates (BYOC; kept by the C++ registry,
which AnnotateTarget reads) and a program's own attributes, whose keys start with a lowercase
letter (TVM's tests use "ftest"): relaypass never reads those, it only stores them, per operator
and with TVM's priority levels (a higher level replaces the value, a lower one is ignored, the
same level twice is an error). The attributes TVM's compiler reads (FTVMCompute, TOpPattern, ...;
CamelCase keys) are refused with OpNotImplemented."""
from .. import _core
from .._errors import OpNotImplemented, TVMError

_USER = {}  # (op name, key) -> (value, level)


def is_user_key(key):
    """Whether ``key`` names a program's own attribute (relaypass only stores it)."""
    return key[:1].islower() and not key.startswith("target.")


def _refuse(what, key):
    return OpNotImplemented(
        "{}: relaypass keeps target.<compiler> attributes and a program's own (keys starting "
        "with a lowercase letter), not TVM's compiler attribute {!r}".format(what, key))


def register(op_name, key, value, level=10):
    """Set ``op_name``'s attribute ``key`` (TVM's OpRegEntry::set_attr with ``level``)."""
    if key.startswith("target."):
        _core.register_op_target_attr(op_name, key, value)
        return
    name = _core.Op.get(op_name).name  # the operator must exist
    if not is_user_key(key):
        raise _refuse("tvm.ir.register_op_attr", key)
    old = _USER.get((name, key))
    if old is not None and old[1] == level:
        raise TVMError("Attribute {} of {} is already registered with same plevel={}"
                       .format(key, name, level))
    if old is None or old[1] < level:
        _USER[(name, key)] = (value, level)


def swap(op_name, key, value):
    """Set the program's attribute ``key`` of ``op_name`` to ``value`` (None: remove it)
    whatever its level; returns the previous (value, level) or None (TempOpAttr)."""
    name = _core.Op.get(op_name).name
    old = _USER.pop((name, key), None)
    if value is not None:
        _USER[(name, key)] = value
    return old


def get(op, key):
    """Op.get_attr: the program's attribute ``key`` of ``op``, None when it has none."""
    if not is_user_key(key):
        raise _refuse("Op.get_attr", key)
    entry = _USER.get((op.name, key))
    return None if entry is None else entry[0]


def reset(op, key):
    """Op.reset_attr: remove ``op``'s attribute ``key``."""
    if key.startswith("target."):
        _core.reset_op_target_attr(op.name, key)
        return
    if not is_user_key(key):
        raise _refuse("Op.reset_attr", key)
    _USER.pop((op.name, key), None)


def _install():
    if not hasattr(_core.Op, "get_attr"):
        _core.Op.get_attr = lambda self, attr_name: get(self, attr_name)
        _core.Op.get_attr.__doc__ = get.__doc__
    if not hasattr(_core.Op, "reset_attr"):
        _core.Op.reset_attr = lambda self, attr_name: reset(self, attr_name)
        _core.Op.reset_attr.__doc__ = reset.__doc__


_install()
