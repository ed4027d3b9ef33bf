"""relay.op.contrib: pattern tables of external compilers (register_pattern_table,
get_pattern_table) and the built-in pretend "dnnl" target (docs/patterns.md)."""
from .register import register_pattern_table, get_pattern_table  # noqa: F401
