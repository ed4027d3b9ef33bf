"""Vision operators (tvm.relay.op.vision), by TVM's names and signatures."""
from ._make import call


def roi_align(data, rois, pooled_size, spatial_scale, sample_ratio=-1, layout="NCHW",
              mode="avg"):
    """ROI align: each region of ``rois`` ([num_roi, 5]: batch index, x1, y1, x2, y2, scaled by
    ``spatial_scale``) pooled to ``pooled_size`` bins of bilinear samples ("avg" or "max")."""
    return call("vision.roi_align", [data, rois], pooled_size=[int(s) for s in pooled_size],
                spatial_scale=float(spatial_scale), sample_ratio=int(sample_ratio),
                layout=layout, mode=mode)
