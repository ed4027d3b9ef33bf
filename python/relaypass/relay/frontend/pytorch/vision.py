"""torchvision operators as TVM's converters: torchvision::roi_align (boxes shifted by half a
pixel of the input when aligned, as TVM does) and torchvision::deform_conv2d (the mask ignored
with a warning)."""
import logging

from ... import expr as _expr
from ... import op as _op
from .registry import converter

logger = logging.getLogger("relaypass.frontend.pytorch")


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
