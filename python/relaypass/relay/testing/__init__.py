"""relay.testing: the built-in workloads with TVM's structure and parameters."""
from . import resnet, mobilenet  # noqa: F401
