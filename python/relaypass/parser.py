"""tvm.parser: Relay text in (the printer's output reads back)."""
from . import _core


def parse(source, source_name="from_string", init_module=None, init_meta_table=None):
    """An IRModule from Relay text (``#[version = "0.0.5"]`` header optional)."""
    return _core.parse(source, source_name, init_module, init_meta_table)


def parse_expr(source):
    """One expression from Relay text."""
    return _core.parse_expr(source)


def fromtext(source, source_name="from_string"):
    """relay.fromtext: the same as parse."""
    return parse(source, source_name)
