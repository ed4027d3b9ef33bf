"""relay.qnn.op: the quantized operators with TVM v0.13's signatures."""
from .qnn import *  # noqa: F401,F403
from .qnn import requantize_config, RequantizeConfig  # noqa: F401
from .op import register_qnn_legalize, register_qnn_canonicalize  # noqa: F401
