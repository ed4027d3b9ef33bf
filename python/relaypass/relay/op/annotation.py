"""relay.annotation."""
from ._make import call


def stop_fusion(data):
    """A boundary FuseOps does not fuse across."""
    return call("annotation.stop_fusion", [data])


def checkpoint(data):
    """A checkpoint for the gradient pass to recompute (TVM's annotation.checkpoint)."""
    return call("annotation.checkpoint", [data])


def compiler_begin(data, compiler):
    """Where a region for ``compiler`` begins (BYOC; AnnotateTarget inserts these)."""
    return call("annotation.compiler_begin", [data], compiler=compiler)


def compiler_end(data, compiler):
    """Where a region for ``compiler`` ends."""
    return call("annotation.compiler_end", [data], compiler=compiler)
