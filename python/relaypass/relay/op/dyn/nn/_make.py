"""tvm.relay.op.dyn.nn._make: dyn.nn.pad, dyn.nn.upsampling and dyn.nn.upsampling3d, TVM's positional signatures."""
from ..._make import call


def pad(data, pad_width, pad_value, pad_mode="constant"):
    return call("dyn.nn.pad", [data, pad_width, pad_value], pad_mode=pad_mode)


def upsampling(data, scale_h, scale_w, layout="NCHW", method="nearest_neighbor",
               align_corners=False):
    return call("dyn.nn.upsampling", [data, scale_h, scale_w], layout=layout, method=method,
                align_corners=align_corners)


def upsampling3d(data, scale_d, scale_h, scale_w, layout="NCDHW", method="nearest_neighbor",
                 coordinate_transformation_mode="half_pixel"):
    return call("dyn.nn.upsampling3d", [data, scale_d, scale_h, scale_w], layout=layout,
                method=method, coordinate_transformation_mode=coordinate_transformation_mode)
