"""tvm.contrib: the graph executor (graph_executor, and its older name graph_runtime), test data
lookup (download, which never uses the network), temporary directories (utils) and cudnn (whose
exists() is False); nothing else of TVM's contrib."""
from . import download  # noqa: F401
from . import utils  # noqa: F401
from . import graph_executor  # noqa: F401
from . import graph_runtime  # noqa: F401
from . import cudnn  # noqa: F401
