"""tvm.instrument (also tvm.ir.instrument): pass instruments.

A Python instrument is any object with some of the hooks ``enter_pass_ctx()``,
``exit_pass_ctx()``, ``should_run(mod, info)``, ``run_before_pass(mod, info)`` and
``run_after_pass(mod, info)``; the ``pass_instrument`` decorator makes a class one, as in TVM.
A hook that raises stops the pass (or the context's entry) and the exception comes out of the
outer call, the same type, worded as TVM words it.
"""
import functools
import inspect
import sys

from . import _core


class PassInstrument:
    """The base of pass instruments (subclass it, or decorate a class with pass_instrument)."""

    def enter_pass_ctx(self):
        """Called when entering the instrumented context."""

    def exit_pass_ctx(self):
        """Called when exiting the instrumented context."""

    def should_run(self, mod, info):
        """Whether the pass should run (all instruments must agree)."""
        return True

    def run_before_pass(self, mod, info):
        """Called before a pass runs."""

    def run_after_pass(self, mod, info):
        """Called after a pass ran."""


def _wrap_class_pass_instrument(pi_cls):
    """A subclass of pi_cls that is also a PassInstrument (as TVM's decorator makes)."""

    class PyPassInstrument(pi_cls, PassInstrument):
        def __init__(self, *args, **kwargs):
            pi_cls.__init__(self, *args, **kwargs)

    functools.update_wrapper(PyPassInstrument.__init__, pi_cls.__init__)
    PyPassInstrument.__name__ = pi_cls.__name__
    PyPassInstrument.__qualname__ = pi_cls.__qualname__
    PyPassInstrument.__doc__ = pi_cls.__doc__
    PyPassInstrument.__module__ = pi_cls.__module__
    return PyPassInstrument


def pass_instrument(pi_cls=None):
    """Decorate a class to make it a pass instrument (tvm.instrument.pass_instrument)."""

    def create_pass_instrument(pi_cls):
        if not inspect.isclass(pi_cls):
            raise TypeError("pi_cls must be a class")
        return _wrap_class_pass_instrument(pi_cls)

    if pi_cls:
        return create_pass_instrument(pi_cls)
    return create_pass_instrument


class PassTimingInstrument(PassInstrument):
    """Times every pass; ``render()`` gives TVM's report (call it inside the context: the
    records are cleared when the context exits)."""

    def __init__(self):
        self._native_instrument = _core.NativePassTimingInstrument()

    def render(self):
        """The timing report of the passes run so far in the current context."""
        return self._native_instrument.render()


class PassPrintingInstrument(PassInstrument):
    """Prints the module before the passes named in print_before_pass_names and after those
    in print_after_pass_names (to stderr, as TVM's LOG(INFO))."""

    def __init__(self, print_before_pass_names, print_after_pass_names):
        self.print_before_pass_names = list(print_before_pass_names)
        self.print_after_pass_names = list(print_after_pass_names)

    def run_before_pass(self, mod, info):
        if info.name in self.print_before_pass_names:
            sys.stderr.write("Print IR before: {}\n{}\n\n".format(info.name, mod))

    def run_after_pass(self, mod, info):
        if info.name in self.print_after_pass_names:
            sys.stderr.write("Print IR after: {}\n{}\n\n".format(info.name, mod))


class ReportInstrument(PassInstrument):
    """Records what every pass did; ``write(path)`` saves the pass explorer, one self-contained
    HTML page (the same page as ``relay-opt --report``): passes with their times, skip reasons,
    operator and node changes and diffs, and the final graph. Sequentials named "sequential"
    are shown as groups."""

    def __init__(self, input="", command_line=""):
        self._native_instrument = _core.NativeReportInstrument(input, command_line or " ".join(sys.argv))

    def render(self):
        """The page as a string."""
        return self._native_instrument.render()

    def write(self, path):
        """Write the page to ``path``."""
        self._native_instrument.write(str(path))
