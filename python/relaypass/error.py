"""tvm.error: the exception classes relaypass raises."""
from ._errors import (  # noqa: F401
    TVMError,
    DiagnosticError,
    ParseError,
    RelayTypeError,
    PassError,
    InternalError,
    OpError,
    OpNotImplemented,
)
