"""relay.qnn.transform: the qnn lowering passes (TVM's names)."""
from ... import _core
from ...transform import _wrap


def CanonicalizeOps():
    """Lowers every qnn.* call to integer Relay operators (TVM's FTVMQnnCanonicalize)."""
    return _wrap(_core.create_pass("QnnCanonicalizeOps", []))


def Legalize():
    """The qnn ops' target legalizations (FTVMQnnLegalize hooks; TVM's for qnn.conv2d and
    qnn.dense read tvm.target.Target.current()). relay.build runs them followed by
    CanonicalizeOps (the pass QnnLegalize)."""
    return _wrap(_core.create_pass("QnnTargetLegalize", []))
