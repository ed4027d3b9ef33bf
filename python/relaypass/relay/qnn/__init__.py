"""relay.qnn: TVM's QNN dialect (quantized operators) and its passes."""
from . import op  # noqa: F401
from . import transform  # noqa: F401
