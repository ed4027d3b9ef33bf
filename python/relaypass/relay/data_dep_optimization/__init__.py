"""tvm.relay.data_dep_optimization: optimizations that depend on the parameters' values. relaypass
has simplify_fc_transpose; bsr_dense and bsr_conv2d (sparse) are not implemented."""
from . import simplify_fc_transpose  # noqa: F401
