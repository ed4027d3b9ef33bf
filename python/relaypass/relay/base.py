"""relay.base: the node base names of TVM's relay.base that relaypass has (Span, SourceName)."""
from ..ir.span import SourceName, Span  # noqa: F401
