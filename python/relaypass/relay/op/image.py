"""Image operators (tvm.relay.op.image), by TVM's names and signatures."""
from ._make import call


def resize2d(data, size, roi=None, layout="NCHW", method="linear",
             coordinate_transformation_mode="half_pixel", rounding_method="", cubic_alpha=-0.5,
             cubic_exclude=0, extrapolation_value=0.0, out_dtype=None):
    """Resizes H and W of ``data`` to ``size`` (nearest_neighbor, linear or cubic)."""
    from ..expr import Constant, RelayExpr, const
    from .dyn.image import _make as _dyn_image_make

    if roi is None:
        roi = [0.0] * 4
    if isinstance(size, Constant):
        size = list(size.data.numpy().astype("int32"))
    if isinstance(roi, Constant):
        roi = list(roi.data.numpy().astype("int32"))
    if isinstance(size, RelayExpr) or isinstance(roi, RelayExpr):
        if not isinstance(size, RelayExpr):
            size = const([int(s) for s in size], "int64")
        if not isinstance(roi, RelayExpr):
            roi = const([float(r) for r in roi], "float32")
        return _dyn_image_make.resize2d(data, size, roi, layout, method,
                                        coordinate_transformation_mode, rounding_method,
                                        cubic_alpha, cubic_exclude, extrapolation_value, out_dtype)
    return call("image.resize2d", [data], size=[int(s) for s in size],
                roi=[float(r) for r in roi], layout=layout, method=method,
                coordinate_transformation_mode=coordinate_transformation_mode,
                rounding_method=rounding_method, cubic_alpha=cubic_alpha,
                cubic_exclude=cubic_exclude, extrapolation_value=extrapolation_value,
                out_dtype=out_dtype or "")


def resize3d(data, size, roi=None, layout="NCDHW", method="linear",
             coordinate_transformation_mode="half_pixel", rounding_method="", cubic_alpha=-0.5,
             cubic_exclude=0, extrapolation_value=0.0, out_dtype=None):
    """Resizes D, H and W of ``data`` to ``size`` (nearest_neighbor, linear or cubic)."""
    from ..expr import Constant

    if roi is None:
        roi = [0.0] * 6
    if isinstance(size, Constant):
        size = list(size.data.numpy().astype("int32"))
    if isinstance(roi, Constant):
        roi = list(roi.data.numpy().astype("float32"))
    return call("image.resize3d", [data], size=[int(s) for s in size],
                roi=[float(r) for r in roi], layout=layout, method=method,
                coordinate_transformation_mode=coordinate_transformation_mode,
                rounding_method=rounding_method, cubic_alpha=cubic_alpha,
                cubic_exclude=cubic_exclude, extrapolation_value=extrapolation_value,
                out_dtype=out_dtype or "")


def crop_and_resize(data, boxes, box_indices, crop_size, layout, method="bilinear",
                    extrapolation_value=0, out_dtype=None):
    """Crops the normalised [y1, x1, y2, x2] boxes of images box_indices and resizes them to
    crop_size (TVM's image.crop_and_resize)."""
    return call("image.crop_and_resize", [data, boxes, box_indices],
                crop_size=[int(s) for s in crop_size], layout=layout, method=method,
                extrapolation_value=float(extrapolation_value), out_dtype=out_dtype or "")


def affine_grid(data, target_shape=None):
    """A [-1, 1] sampling grid of target_shape moved by the [batch, 2, 3] affine matrices."""
    return call("image.affine_grid", [data],
                target_shape=None if target_shape is None else [int(s) for s in target_shape])
