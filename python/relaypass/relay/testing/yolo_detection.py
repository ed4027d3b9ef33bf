"""relay.testing.yolo_detection: TVM's NumPy helpers that turn the outputs of Darknet's YOLO and
Region layers into boxes, sort them with per-class non-maximum suppression, and print or draw
them. A detection is a dict: "bbox" (a Box of centre x, y, width, height), "prob" (per class),
"objectness" (and "classes" for YOLO layers, "sort_class" while sorting)."""
# pylint: disable=invalid-name
import math
from collections import namedtuple
from functools import cmp_to_key

import numpy as np

Box = namedtuple("Box", ["x", "y", "w", "h"])


def nms_comparator(a, b):
    """a minus b by the class probability being sorted ("sort_class" of b), else objectness."""
    if "sort_class" in b and b["sort_class"] >= 0:
        return a["prob"][b["sort_class"]] - b["prob"][b["sort_class"]]
    return a["objectness"] - b["objectness"]


def _correct_boxes(dets, w, h, netw, neth, relative):
    """Maps boxes from the letter-boxed network input (netw x neth) back to the w x h image
    (relative: fractions of the image; else pixels)."""
    if netw / w < neth / h:
        new_w, new_h = netw, (h * netw) // w
    else:
        new_w, new_h = (w * neth // h), neth
    for det in dets:
        b = det["bbox"]
        x = (b.x - (netw - new_w) / 2 / netw) / (new_w / netw)
        y = (b.y - (neth - new_h) / 2 / neth) / (new_h / neth)
        bw = b.w * netw / new_w
        bh = b.h * neth / new_h
        if not relative:
            x, bw, y, bh = x * w, bw * w, y * h, bh * h
        det["bbox"] = Box(x, y, bw, bh)
    return dets


def _overlap(x1, w1, x2, w2):
    left = max(x1 - w1 / 2, x2 - w2 / 2)
    right = min(x1 + w1 / 2, x2 + w2 / 2)
    return right - left


def _box_intersection(a, b):
    w = _overlap(a.x, a.w, b.x, b.w)
    h = _overlap(a.y, a.h, b.y, b.h)
    return 0 if w < 0 or h < 0 else w * h


def _box_union(a, b):
    return a.w * a.h + b.w * b.h - _box_intersection(a, b)


def _box_iou(a, b):
    return _box_intersection(a, b) / _box_union(a, b)


def _get_box(data, biases, n, location, lw, lh, w, h):
    """The box of anchor ``n`` at location (anchor row, y, x) of a layer output (A, C, H, W)."""
    cell = data[location[0], :, location[1], location[2]]
    return Box((location[2] + cell[0]) / lw, (location[1] + cell[1]) / lh,
               np.exp(cell[2]) * biases[2 * n] / w, np.exp(cell[3]) * biases[2 * n + 1] / h)


def _get_yolo_detections(l, im_shape, net_shape, thresh, relative, dets):
    data = l["output"]
    active = np.asarray(np.where(data[:, 4, :, :] > thresh))
    found = []
    for i in range(active.shape[1]):
        location = [active[0][i], active[1][i], active[2][i]]
        box = _get_box(data, l["biases"], np.asarray(l["mask"])[location[0]], location,
                       data.shape[3], data.shape[2], net_shape[0], net_shape[1])
        objectness = data[location[0]][4][location[1]][location[2]]
        classes = l["classes"]
        prob = objectness * data[location[0], 5:5 + 1 + classes, location[1], location[2]]
        prob[prob < thresh] = 0
        found.append({"bbox": box, "classes": classes, "prob": prob,
                      "objectness": objectness})
    dets.extend(_correct_boxes(found, im_shape[0], im_shape[1], net_shape[0], net_shape[1],
                               relative))


def _get_region_detections(l, im_shape, net_shape, thresh, relative, dets):
    data = l["output"]
    coords, classes = l["coords"], l["classes"]
    found = []
    for row in range(data.shape[2]):
        for col in range(data.shape[3]):
            for n in range(data.shape[0]):
                prob = [0] * classes
                scale = data[n, coords, row, col] if not l["background"] else 1
                box = _get_box(data, l["biases"], n, [n, row, col], data.shape[3],
                               data.shape[2], data.shape[3], data.shape[2])
                objectness = scale if scale > thresh else 0
                if objectness:
                    prob = scale * data[n, coords + 1:coords + 1 + classes, row, col]
                    prob[prob < thresh] = 0
                found.append({"bbox": box, "prob": prob, "objectness": objectness})
    _correct_boxes(found, im_shape[0], im_shape[1], net_shape[0], net_shape[1], relative)
    dets.extend(found)


def fill_network_boxes(net_shape, im_shape, thresh, relative, tvm_out):
    """The detections of every "Yolo" and "Region" layer in ``tvm_out`` (dicts with "type",
    "output", "biases", "mask"/"coords", "classes", ...), in layer order."""
    dets = []
    for layer in tvm_out:
        if layer["type"] == "Yolo":
            _get_yolo_detections(layer, im_shape, net_shape, thresh, relative, dets)
        elif layer["type"] == "Region":
            _get_region_detections(layer, im_shape, net_shape, thresh, relative, dets)
    return dets


def do_nms_sort(dets, classes, thresh):
    """Moves detections of zero objectness to the end, then for each class sorts the others by
    that class' probability (descending) and zeroes the probability of each box overlapping a
    better one by an IoU above ``thresh``; in place."""
    last = len(dets) - 1
    i = 0
    while i < last:
        if dets[i]["objectness"] == 0:
            dets[last], dets[i] = dets[i], dets[last]
            last -= 1
        else:
            i += 1
    total = last + 1
    for k in range(classes):
        for det in dets[:total]:
            det["sort_class"] = k
        dets[0:total] = sorted(dets[0:total], key=cmp_to_key(nms_comparator), reverse=True)
        for i in range(total):
            if dets[i]["prob"][k] == 0:
                continue
            a = dets[i]["bbox"]
            for j in range(i + 1, total):
                if _box_iou(a, dets[j]["bbox"]) > thresh:
                    dets[j]["prob"][k] = 0


def _get_color(c, x, max_value):
    colors = [[1, 0, 1], [0, 0, 1], [0, 1, 1], [0, 1, 0], [1, 1, 0], [1, 0, 0]]
    ratio = (float(x) / float(max_value)) * 5
    i, j = int(math.floor(ratio)), int(math.ceil(ratio))
    ratio -= i
    return (1 - ratio) * colors[i][int(c)] + ratio * colors[j][int(c)]


def get_detections(im, det, thresh, names, classes):
    """(valid, detection): the labels of the classes above ``thresh`` and the box in pixels of
    the CHW image ``im`` (clipped), its colour and line width; valid is False when no class
    passes."""
    labelstr = []
    category = -1
    for j in range(classes):
        if det["prob"][j] > thresh:
            if category == -1:
                category = j
            labelstr.append(names[j] + " " + str(round(det["prob"][j], 4)))
    if category == -1:
        return False, None
    _, imh, imw = im.shape
    offset = category * 123457 % classes
    rgb = [_get_color(2, offset, classes), _get_color(1, offset, classes),
           _get_color(0, offset, classes)]
    b = det["bbox"]
    left = max(int((b.x - b.w / 2.0) * imw), 0)
    right = min(int((b.x + b.w / 2.0) * imw), imw - 1)
    top = max(int((b.y - b.h / 2.0) * imh), 0)
    bot = min(int((b.y + b.h / 2.0) * imh), imh - 1)
    return True, {"category": category, "labelstr": labelstr, "left": left, "top": top,
                  "right": right, "bot": bot, "width": int(imh * 0.006), "rgb": rgb}


def show_detections(im, dets, thresh, names, classes):
    """Prints each valid detection's labels and box."""
    for det in dets:
        valid, detection = get_detections(im, det, thresh, names, classes)
        if valid:
            print("class:{} left:{} right:{} top:{} bottom:{}".format(
                detection["labelstr"], detection["left"], detection["top"], detection["right"],
                detection["bot"]))


def _set_pixel(im, x, y, c, val):
    if 0 <= x < im.shape[2] and 0 <= y < im.shape[1] and 0 <= c < im.shape[0]:
        im[c][y][x] = val


def _draw_label(im, r, c, label, rgb):
    h, w = label.shape[1], label.shape[2]
    if r - h >= 0:
        r -= h
    for j in range(h):
        if j + r < im.shape[1]:
            for i in range(w):
                if i + c < im.shape[2]:
                    for k in range(label.shape[0]):
                        _set_pixel(im, i + c, j + r, k, label[k][j][i])


def _get_label(font_path, labelstr, rgb):
    """The label text rendered black on the box colour with PIL, as a CHW array in [0, 1]."""
    # pylint: disable=import-outside-toplevel
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, 25)
    width, height = ImageDraw.Draw(Image.new("RGB", (1, 1))).textsize(labelstr, font=font)
    img = Image.new("RGB", (width, height),
                    color=(int(rgb[0] * 255), int(rgb[1] * 255), int(rgb[2] * 255)))
    ImageDraw.Draw(img).text((0, 0), labelstr, fill="black", font=font)
    return np.divide(np.asarray(img), 255).transpose(2, 0, 1)


def _draw_box(im, x1, y1, x2, y2, r, g, b):
    """A one-pixel rectangle; the clipping is Darknet's (x1 past the width resets y1)."""
    x1, y1, x2, y2 = int(x1), int(y1), int(x2), int(y2)
    _, ah, aw = im.shape
    if x1 < 0:
        x1 = 0
    if x1 >= aw:
        y1 = 0
    if y1 >= ah:
        y1 = ah - 1
    if y2 < 0:
        y2 = 0
    if y2 >= ah:
        y2 = ah - 1
    for i in range(x1, x2):
        for c, value in enumerate((r, g, b)):
            im[c][y1][i] = value
            im[c][y2][i] = value
    for i in range(y1, y2):
        for c, value in enumerate((r, g, b)):
            im[c][i][x1] = value
            im[c][i][x2] = value


def _draw_box_width(im, x1, y1, x2, y2, w, r, g, b):
    for i in range(int(w)):
        _draw_box(im, x1 + i, y1 + i, x2 - i, y2 - i, r, g, b)


def draw_detections(font_path, im, dets, thresh, names, classes):
    """Draws each valid detection's box and label (font at ``font_path``, PIL) into the CHW
    image ``im``, in place."""
    for det in dets:
        valid, detection = get_detections(im, det, thresh, names, classes)
        if valid:
            rgb = detection["rgb"]
            label = _get_label(font_path, "".join(detection["labelstr"]), rgb)
            _draw_box_width(im, detection["left"], detection["top"], detection["right"],
                            detection["bot"], detection["width"], rgb[0], rgb[1], rgb[2])
            _draw_label(im, detection["top"] + detection["width"], detection["left"], label,
                        rgb)
