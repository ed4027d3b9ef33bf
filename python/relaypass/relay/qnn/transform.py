"""relay.qnn.transform: the qnn lowering passes (TVM's names)."""
from ... import _core
from ...transform import _wrap


def CanonicalizeOps():
    """Lowers every qnn.* call to integer Relay operators (TVM's FTVMQnnCanonicalize)."""
    return _wrap(_core.create_pass("QnnCanonicalizeOps", []))


def Legalize():
    """TVM's qnn Legalize: the target's qnn legalizations (none for the CPU), then the
    canonicalization, as relay.build runs it."""
    return _wrap(_core.create_pass("QnnLegalize", []))
