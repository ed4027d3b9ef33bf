"""torchvision operators as TVM's converters: torchvision::nms (vision.non_max_suppression on
scores shifted above zero, its kept rows sliced out at run time), torchvision::roi_align (boxes
shifted by half a pixel of the input when aligned, as TVM does) and torchvision::deform_conv2d
(the mask ignored with a warning)."""
import logging

from ... import expr as _expr
from ... import op as _op
from .registry import converter

logger = logging.getLogger("relaypass.frontend.pytorch")


@converter("torchvision::nms", needs=("vision.non_max_suppression", "dyn.strided_slice"))
def nms(ctx, inputs, input_types):
    """As TVM's converter: TVM's NMS takes scores above zero, so they are shifted to start at 1
    (the order, all NMS reads of them, is kept); every box is valid (PyTorch has no score
    threshold, top_k or output size); the result is the kept boxes' indices, best first, as
    int64, their count known at run time."""
    boxes, scores, iou_threshold = inputs[0], inputs[1], inputs[2]
    scores = scores - _op.min(scores) + _expr.const(1.0)
    num_boxes = _op.shape_of(scores)
    indices = _op.expand_dims(_op.arange(_op.squeeze(num_boxes), dtype="int32"), 0, 1)
    data = _op.concatenate([_op.expand_dims(scores, -1, 1), boxes], -1)
    data = _op.expand_dims(data, 0, 1)
    kept = _op.vision.non_max_suppression(
        data=data, valid_count=num_boxes, indices=indices, max_output_size=-1,
        iou_threshold=iou_threshold, force_suppress=True, top_k=-1, coord_start=1,
        score_index=0, id_index=-1, return_indices=True, invalid_to_bottom=False)
    count = _op.squeeze(kept[1], axis=[1])
    rows = _op.squeeze(kept[0], axis=[0])
    picked = _op.strided_slice(rows, begin=_expr.const([0]), end=count, slice_mode="size")
    return _op.cast(picked, "int64")


@converter("torchvision::roi_align", needs=("vision.roi_align",))
def roi_align(ctx, inputs, input_types):
    data, boxes, spatial_scale = inputs[0], inputs[1], inputs[2]
    output_size = (inputs[3], inputs[4])
    sample_ratio = inputs[5]
    aligned = False if len(inputs) < 7 else inputs[6]
    if aligned:
        boxes = boxes - _expr.const(0.5 / spatial_scale)
    return _op.vision.roi_align(data, boxes, output_size, spatial_scale, sample_ratio)


@converter("torchvision::deform_conv2d", needs=("nn.deformable_conv2d",))
def deform_conv2d(ctx, inputs, input_types):
    data, weight, offset = inputs[0], inputs[1], inputs[2]
    if len(inputs) > 12:
        first, bias = 5, inputs[4]
        logger.warning("mask argument in deformable conv2d is not supported and ignored")
    else:
        first, bias = 4, inputs[3]
    strides = (inputs[first], inputs[first + 1])
    padding = (inputs[first + 2], inputs[first + 3])
    dilation = (inputs[first + 4], inputs[first + 5])
    groups, deformable_groups = inputs[first + 6], inputs[first + 7]
    weight_shape = ctx.infer_shape(weight)
    out = _op.nn.deformable_conv2d(data, offset, weight, strides, padding, dilation,
                                   deformable_groups, groups, weight_shape[0],
                                   (weight_shape[2], weight_shape[3]))
    return _op.nn.bias_add(out, bias)
