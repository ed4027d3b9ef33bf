"""tvm.contrib: test data lookup (download, which never uses the network) and temporary
directories (utils); nothing else of TVM's contrib."""
from . import download  # noqa: F401
from . import utils  # noqa: F401
