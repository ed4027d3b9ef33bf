"""TempOpAttr (TVM's relay.testing.temp_op_attr): an operator hook replaced for a `with` block.
relaypass keeps the per-operator hooks FTVMLegalize, FTVMQnnLegalize and FTVMQnnCanonicalize;
the temporary hook is registered above every other one and removed on exit. A program's own
attributes (lowercase keys, tvm.ir.register_op_attr) are swapped in and restored on exit."""
from ... import _core
from ..._errors import OpNotImplemented
from ...ir import op_attrs

_REGISTRARS = {
    "FTVMLegalize": "register_legalize",
    "FTVMQnnLegalize": "register_qnn_legalize",
    "FTVMQnnCanonicalize": "register_qnn_canonicalize",
}
# Above any level a program registers with; nested blocks go one higher each.
_TOP_LEVEL = 1 << 30
_depth = [0]


class TempOpAttr:
    """``with TempOpAttr(op_name, attr_key, attr_value):`` ``attr_value`` is ``op_name``'s
    ``attr_key`` hook inside the block."""

    def __init__(self, op_name, attr_key, attr_value):
        if attr_key not in _REGISTRARS and not op_attrs.is_user_key(attr_key):
            raise OpNotImplemented(
                "TempOpAttr: relaypass keeps the hooks %s and a program's own attributes "
                "(lowercase keys), not %r" % (sorted(_REGISTRARS), attr_key))
        self.op_name = op_name
        self.attr_key = attr_key
        self.attr_value = attr_value
        self._hook = None

    def __enter__(self):
        if op_attrs.is_user_key(self.attr_key):
            self._hook = op_attrs.swap(self.op_name, self.attr_key, (self.attr_value, 10))
            return self
        register = getattr(_core, _REGISTRARS[self.attr_key])
        _depth[0] += 1
        self._hook = register(self.op_name, self.attr_value, _TOP_LEVEL + _depth[0])
        return self

    def __exit__(self, ptype, value, trace):
        if op_attrs.is_user_key(self.attr_key):
            op_attrs.swap(self.op_name, self.attr_key, self._hook)
            self._hook = None
            return
        self._hook.unregister()
        self._hook = None
        _depth[0] -= 1
