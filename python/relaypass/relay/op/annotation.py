"""relay.annotation."""
from ._make import call


def stop_fusion(data):
    """A boundary FuseOps does not fuse across."""
    return call("annotation.stop_fusion", [data])
