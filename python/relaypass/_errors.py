"""The exceptions relaypass raises, by TVM's names (tvm.error), and the rewording of a Python
exception that crossed the C++ code (a pass, mutator or instrument callback) as TVM's FFI
rewords it: same type, message = traceback whose last line is ``ValueError: <message>``."""
import traceback


class TVMError(RuntimeError):
    """Default error thrown by relaypass functions (tvm.error.TVMError)."""


class DiagnosticError(TVMError):
    """Errors diagnosed in a program: parse and type errors (tvm.error.DiagnosticError)."""


class ParseError(DiagnosticError):
    """Malformed Relay text."""


class RelayTypeError(DiagnosticError, TypeError):
    """The program is ill-typed, or an attribute value has the wrong kind."""


class PassError(TVMError):
    """A pass, pipeline or option could not be created or run."""


class InternalError(TVMError):
    """Misuse of the API (a precondition the caller broke)."""


class TVMValueError(TVMError, ValueError):
    """A value the API does not take (an unknown target option): a ValueError, as TVM's."""


class OpError(TVMError):
    """Base class of operator errors (tvm.error.OpError)."""


class OpNotImplemented(OpError, NotImplementedError):
    """The feature is not implemented by relaypass (tvm.error.OpNotImplemented)."""


def ffi_error(exc, tb=None):
    """The exception to raise in place of ``exc``, which a Python callback raised under C++
    (``tb``: its traceback, when it is not attached to it)."""
    if not isinstance(exc, Exception) or getattr(exc, "_relaypass_ffi", False):
        return exc
    if tb is not None and exc.__traceback__ is None:
        exc = exc.with_traceback(tb)
    frames = "".join(traceback.format_tb(exc.__traceback__))
    message = "Traceback (most recent call last):\n{}{}: {}".format(
        frames, type(exc).__name__, exc
    )
    try:
        reworded = type(exc)(message)
    except Exception:  # an exception class whose constructor wants other arguments
        reworded = exc
    try:
        reworded._relaypass_ffi = True
        if reworded is not exc:
            reworded.__cause__ = exc
    except AttributeError:
        pass
    return reworded
