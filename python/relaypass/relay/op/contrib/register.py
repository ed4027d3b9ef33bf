"""TVM's register_pattern_table / get_pattern_table. Tables registered from Python live here;
a name registered in C++ (such as the built-in "dnnl") is looked up there."""
from ... import dataflow_pattern as _dp
from .... import _core

_tables = {}


def register_pattern_table(compiler, table=None):
    """Register ``table`` (a function returning a list of (name, pattern[, check]) tuples) for
    ``compiler``; a decorator when ``table`` is omitted."""

    def _register(fn):
        _tables[compiler] = fn
        return fn

    return _register(table) if table is not None else _register


def get_pattern_table(compiler):
    """The pattern table of ``compiler``, or None if it has none (as TVM)."""
    if compiler in _tables:
        return _tables[compiler]()
    try:
        rows = _core.builtin_pattern_table(compiler)
    except Exception:  # noqa: BLE001 (no table in C++ either)
        return None
    return [(name, _dp.DFPattern(node)) for name, node in rows]
