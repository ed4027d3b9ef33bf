"""tvm.contrib: download helpers (no network here) and nothing else."""
from . import download  # noqa: F401
