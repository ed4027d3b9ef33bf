"""torchvision operators: torchvision::roi_align as TVM's converter (boxes shifted by half a
pixel of the input when aligned, as TVM does)."""
from ... import expr as _expr
from ... import op as _op
from .registry import converter


@converter("torchvision::roi_align", needs=("vision.roi_align",))
def roi_align(ctx, inputs, input_types):
    data, boxes, spatial_scale = inputs[0], inputs[1], inputs[2]
    output_size = (inputs[3], inputs[4])
    sample_ratio = inputs[5]
    aligned = False if len(inputs) < 7 else inputs[6]
    if aligned:
        boxes = boxes - _expr.const(0.5 / spatial_scale)
    return _op.vision.roi_align(data, boxes, output_size, spatial_scale, sample_ratio)
