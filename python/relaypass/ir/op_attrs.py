"""Operator attributes set from Python (tvm.ir.register_op_attr, Op.get_attr, Op.reset_attr).

relaypass keeps two kinds: ``target.<compiler>`` predicates (BYOC; kept by the C++ registry,
which AnnotateTarget reads) and a program's own attributes, whose keys start with a lowercase
letter (TVM's tests use "ftest"): relaypass never reads those, it only stores them, per operator
and with TVM's priority levels (a higher level replaces the value, a lower one is ignored, the
same level twice is an error). TOpPattern and TOpIsStateful are the operator's own fields: every
operator reads them, and an operator registered from Python (relay.op.op.register) sets them
(a built-in operator has them at level 10, so setting them again at that level is TVM's
"already registered" error). The other attributes TVM's compiler reads (FTVMCompute, ...;
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


_OWN_FIELDS = ("TOpPattern", "TOpIsStateful")
_own_levels = {}  # (op name, key) -> level, for operators registered from Python


def _register_own_field(op_name, key, value, level):
    name = _core.Op.get(op_name).name
    old = _own_levels.get((name, key), 10 if not _core.is_user_op(name) else None)
    if old is not None and old == level:
        raise TVMError("Attribute {} of {} is already registered with same plevel={}"
                       .format(key, name, level))
    if old is not None and old > level:
        return
    if key == "TOpPattern":
        _core.set_user_op_pattern(name, int(value))
    else:
        _core.set_user_op_stateful(name, bool(value))
    _own_levels[(name, key)] = level


def register(op_name, key, value, level=10):
    """Set ``op_name``'s attribute ``key`` (TVM's OpRegEntry::set_attr with ``level``)."""
    if key.startswith("target."):
        _core.register_op_target_attr(op_name, key, value)
        return
    if key in _OWN_FIELDS:
        _register_own_field(op_name, key, value, level)
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
    if key == "TOpPattern":
        return op.op_pattern
    if key == "TOpIsStateful":
        return op.is_stateful
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


# OpRegEntry's setters as TVM's Python has them on Op; they change operators registered from
# Python only (a built-in operator is fixed: TVMError).
def _set_num_inputs(self, n):
    """Set the number of inputs (TVM's Op.set_num_inputs)."""
    _core.set_user_op_num_inputs(self.name, int(n))


def _add_argument(self, name, type, description):  # noqa: A002 (TVM's parameter name)
    """Describe an argument (TVM's Op.add_argument); the library keeps no argument docs, it
    checks that the operator may be changed."""
    if not _core.is_user_op(self.name):
        raise TVMError("operator {} was not registered with relay.op.op.register: a built-in "
                       "operator cannot be changed".format(self.name))


def _add_type_rel(self, rel_name, type_rel_func=None):
    """Attach one of TVM's named type relations (Identity, Broadcast, BroadcastComp) (TVM's
    Op.add_type_rel); a relation written in Python is not available."""
    if type_rel_func is not None:
        raise OpNotImplemented("Op.add_type_rel: a type relation written in Python is not "
                               "available; relaypass has the named relations Identity, "
                               "Broadcast and BroadcastComp")
    _core.set_user_op_type_relation(self.name, str(rel_name))


def _set_support_level(self, level):
    """Set the support level (TVM's Op.set_support_level)."""
    _core.set_user_op_support_level(self.name, int(level))


def _install():
    for name, fn in (("set_num_inputs", _set_num_inputs), ("add_argument", _add_argument),
                     ("add_type_rel", _add_type_rel), ("set_support_level", _set_support_level)):
        if not hasattr(_core.Op, name):
            setattr(_core.Op, name, fn)
    if not hasattr(_core.Op, "get_attr"):
        _core.Op.get_attr = lambda self, attr_name: get(self, attr_name)
        _core.Op.get_attr.__doc__ = get.__doc__
    if not hasattr(_core.Op, "reset_attr"):
        _core.Op.reset_attr = lambda self, attr_name: reset(self, attr_name)
        _core.Op.reset_attr.__doc__ = reset.__doc__


_install()
