"""tvm.relay.op.dyn.nn._make: dyn.nn.pad and dyn.nn.upsampling, TVM's positional signatures."""
from ..._make import call


def pad(data, pad_width, pad_value, pad_mode="constant"):
    return call("dyn.nn.pad", [data, pad_width, pad_value], pad_mode=pad_mode)


def upsampling(data, scale_h, scale_w, layout="NCHW", method="nearest_neighbor",
               align_corners=False):
    return call("dyn.nn.upsampling", [data, scale_h, scale_w], layout=layout, method=method,
                align_corners=align_corners)
