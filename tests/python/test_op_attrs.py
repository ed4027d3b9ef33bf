"""A program's own operator attributes (python/relaypass/ir/op_attrs.py): tvm.ir.register_op_attr,
Op.get_attr / reset_attr and TempOpAttr with lowercase keys.

Where expected values come from: TVM v0.13's attribute registry semantics (src/ir/op.cc and
include/tvm/node/attr_registry.h, read): an attribute is per operator; a higher level replaces
the value, a lower one is ignored, the same level twice is an error; get_attr of an unset
attribute is None; TempOpAttr restores the previous value. The values are the test's own."""
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing.temp_op_attr import TempOpAttr


def test_register_get_reset_and_levels():
    tvm.ir.register_op_attr("tanh", "fmine", lambda x: x + 1)
    tanh = relay.op.get("tanh")
    assert tanh.get_attr("fmine")(1) == 2
    assert relay.op.get("sigmoid").get_attr("fmine") is None  # per operator
    with pytest.raises(tvm.TVMError, match="already registered with same plevel=10"):
        tvm.ir.register_op_attr("tanh", "fmine", lambda x: x + 5)
    tvm.ir.register_op_attr("tanh", "fmine", lambda x: x + 2, level=11)  # higher: replaces
    tvm.ir.register_op_attr("tanh", "fmine", lambda x: x + 3, level=9)  # lower: ignored
    assert tanh.get_attr("fmine")(1) == 3

    @tvm.ir.register_op_attr("tanh", "fother")  # as a decorator
    def other(x):
        return -x

    tanh.reset_attr("fmine")
    assert tanh.get_attr("fmine") is None
    assert tanh.get_attr("fother") is other
    tanh.reset_attr("fother")


def test_temp_op_attr_restores():
    tvm.ir.register_op_attr("negative", "fscale", lambda x: 2 * x)
    with TempOpAttr("negative", "fscale", lambda x: 3 * x):
        assert relay.op.get("negative").get_attr("fscale")(1) == 3
    assert relay.op.get("negative").get_attr("fscale")(1) == 2
    with TempOpAttr("floor", "fscale", lambda x: 4 * x):  # none before: none after
        assert relay.op.get("floor").get_attr("fscale")(1) == 4
    assert relay.op.get("floor").get_attr("fscale") is None
    relay.op.get("negative").reset_attr("fscale")


def test_tvm_compiler_attributes_are_refused():
    for use in (lambda: tvm.ir.register_op_attr("exp", "FTVMCompute", lambda *a: None),
                lambda: relay.op.get("exp").get_attr("FTVMCompute"),
                lambda: TempOpAttr("exp", "FTVMStrategy", None)):
        with pytest.raises(tvm.error.OpNotImplemented, match="compiler attribute|not 'FTVM"):
            use()
    with pytest.raises(Exception, match="no_such_op"):
        tvm.ir.register_op_attr("no_such_op", "fmine", abs)
