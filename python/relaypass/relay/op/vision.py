"""Vision operators (tvm.relay.op.vision), by TVM's names and signatures."""
from ._make import call


def roi_align(data, rois, pooled_size, spatial_scale, sample_ratio=-1, layout="NCHW",
              mode="avg"):
    """ROI align: each region of ``rois`` ([num_roi, 5]: batch index, x1, y1, x2, y2, scaled by
    ``spatial_scale``) pooled to ``pooled_size`` bins of bilinear samples ("avg" or "max")."""
    return call("vision.roi_align", [data, rois], pooled_size=[int(s) for s in pooled_size],
                spatial_scale=float(spatial_scale), sample_ratio=int(sample_ratio),
                layout=layout, mode=mode)


def get_valid_counts(data, score_threshold, id_index=0, score_index=1):
    """(valid_count, the valid boxes moved to the top, their original indices), TVM's
    vision.get_valid_counts; score_threshold may be a number or a scalar expression."""
    from ..expr import RelayExpr, TupleWrapper, const

    if not isinstance(score_threshold, RelayExpr):
        score_threshold = const(score_threshold, "float32")
    return TupleWrapper(call("vision.get_valid_counts", [data, score_threshold],
                             id_index=id_index, score_index=score_index), 3)


def non_max_suppression(data, valid_count, indices, max_output_size=-1, iou_threshold=0.5,
                        force_suppress=False, top_k=-1, coord_start=2, score_index=1,
                        id_index=0, return_indices=True, invalid_to_bottom=False):
    """TVM's vision.non_max_suppression: a (box indices, count) TupleWrapper with
    return_indices, otherwise the suppressed data."""
    from ..expr import RelayExpr, TupleWrapper, const

    if not isinstance(max_output_size, RelayExpr):
        max_output_size = const(max_output_size, "int32")
    if not isinstance(iou_threshold, RelayExpr):
        iou_threshold = const(iou_threshold, "float32")
    out = call("vision.non_max_suppression",
               [data, valid_count, indices, max_output_size, iou_threshold],
               force_suppress=force_suppress, top_k=top_k, coord_start=coord_start,
               score_index=score_index, id_index=id_index, return_indices=return_indices,
               invalid_to_bottom=invalid_to_bottom)
    if return_indices:
        return TupleWrapper(out, 2)
    return out


def all_class_non_max_suppression(boxes, scores, max_output_boxes_per_class=-1,
                                  iou_threshold=-1.0, score_threshold=-1.0,
                                  output_format="onnx"):
    """TVM's vision.all_class_non_max_suppression: (selected indices, count) for onnx,
    (indices, scores, counts) for tensorflow."""
    from ..expr import RelayExpr, TupleWrapper, const

    if not isinstance(max_output_boxes_per_class, RelayExpr):
        max_output_boxes_per_class = const(max_output_boxes_per_class, "int32")
    if not isinstance(iou_threshold, RelayExpr):
        iou_threshold = const(iou_threshold, "float32")
    if not isinstance(score_threshold, RelayExpr):
        score_threshold = const(score_threshold, "float32")
    out = call("vision.all_class_non_max_suppression",
               [boxes, scores, max_output_boxes_per_class, iou_threshold, score_threshold],
               output_format=output_format)
    return TupleWrapper(out, 2 if output_format == "onnx" else 3)
