"""tvm.ir.diagnostics: the names of TVM's diagnostic renderers. relaypass reports a diagnostic as
an exception (tvm.error.DiagnosticError and its subclasses, the message carrying the location),
not through a renderer, so the default renderer is the only one: ``get_renderer`` returns it
and ``override_renderer(None)`` keeps it, while installing a custom renderer raises
OpNotImplemented (it would never be called)."""
import sys

from .._errors import OpNotImplemented


class DiagnosticLevel:
    """TVM's diagnostic levels."""

    BUG = 10
    ERROR = 20
    WARNING = 30
    NOTE = 40
    HELP = 50


class Diagnostic:
    """One diagnostic: a level, a source span and a message."""

    def __init__(self, level, span, message):
        self.level = level
        self.span = span
        self.message = message


class DiagnosticRenderer:
    """Calls ``render_func`` with the diagnostic context to show."""

    def __init__(self, render_func):
        self._render_func = render_func

    def render(self, ctx):
        self._render_func(ctx)


def _print_diagnostics(ctx):
    for diagnostic in getattr(ctx, "diagnostics", []):
        print(diagnostic.message, file=sys.stderr)


_DEFAULT_RENDERER = DiagnosticRenderer(_print_diagnostics)


def get_renderer():
    """The diagnostic renderer in use: relaypass's default one."""
    return _DEFAULT_RENDERER


def override_renderer(render_func):
    """``None`` restores the default renderer (the one relaypass has); a custom renderer is not
    available, since relaypass raises its diagnostics as exceptions."""
    if render_func is None:
        return
    raise OpNotImplemented(
        "tvm.ir.diagnostics.override_renderer is not available: relaypass raises diagnostics as "
        "tvm.error.DiagnosticError exceptions and calls no renderer")
