"""relay.function: Function (the C++ node)."""
from .._core import Function  # noqa: F401
