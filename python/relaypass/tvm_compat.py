"""Run a script written for TVM on relaypass, unchanged:

    python3 -m relaypass.tvm_compat SCRIPT [ARGS...]

For that run, ``import tvm`` and every ``tvm.*`` module resolve to relaypass: ``tvm.relay`` to
relaypass.relay, ``tvm.ir.instrument`` to relaypass.instrument, and so on. Modules of TVM that
relaypass does not implement (tvm.te, tvm.tir, tvm.topi, ...) import without error; using them
raises an error that names what is missing. ``install()`` does the same inside a program.
"""
import importlib
import importlib.abc
import importlib.machinery
import runpy
import sys

# tvm.<name> -> relaypass.<name>, where the names differ.
_ALIASES = {
    "tvm": "relaypass",
    "tvm.ir.instrument": "relaypass.instrument",
    "tvm.ir.transform": "relaypass.transform",
    "tvm.ir.module": "relaypass.ir",
    "tvm.ir.expr": "relaypass.ir",
    "tvm.ir.type": "relaypass.ir",
    "tvm.relay.op.tensor": "relaypass.relay.op.tensor",
    "tvm.relay.op.nn.nn": "relaypass.relay.op.nn.nn",
    "tvm.relay.expr_functor": "relaypass.relay.expr_functor",
    "tvm.runtime.ndarray": "relaypass.nd",
}


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        if self.target is None:
            from ._unsupported import MissingModule

            return MissingModule(spec.name)
        return importlib.import_module(self.target)

    def exec_module(self, module):
        pass


class _TvmFinder(importlib.abc.MetaPathFinder):
    """Finds ``tvm`` and ``tvm.*`` as relaypass modules (or placeholders for missing ones)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "tvm" and not fullname.startswith("tvm."):
            return None
        if fullname in _ALIASES:
            dest = _ALIASES[fullname]
        else:
            dest = "relaypass" + fullname[len("tvm"):]
            try:
                found = importlib.util.find_spec(dest)
            except (ImportError, AttributeError, ValueError):
                found = None
            if found is None and dest not in sys.modules:
                dest = None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(dest), is_package=True)


_installed = False


def install():
    """Make ``import tvm`` (and tvm.*) resolve to relaypass in this process."""
    global _installed
    if _installed:
        return
    import importlib.util  # noqa: F401 (used by the finder)
    import relaypass  # noqa: F401

    sys.meta_path.insert(0, _TvmFinder())
    _installed = True


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    install()
    script = argv[0]
    sys.argv = argv
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
