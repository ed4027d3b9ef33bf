"""tvm.relay.op.dyn.image._make: dyn.image.resize2d, TVM's positional signature."""
from ..._make import call


def resize2d(data, size, roi, layout, method, coordinate_transformation_mode, rounding_method,
             cubic_alpha, cubic_exclude, extrapolation_value, out_dtype):
    return call("dyn.image.resize2d", [data, size, roi], layout=layout, method=method,
                coordinate_transformation_mode=coordinate_transformation_mode,
                rounding_method=rounding_method, cubic_alpha=cubic_alpha,
                cubic_exclude=cubic_exclude, extrapolation_value=extrapolation_value,
                out_dtype=out_dtype or "")
