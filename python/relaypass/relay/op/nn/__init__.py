"""relay.nn: neural-network operators."""
from .nn import *  # noqa: F401,F403
