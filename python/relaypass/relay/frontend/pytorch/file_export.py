"""A saved TorchScript file (torch.jit.save) as relay-opt reads it: `python3 -m
relaypass.relay.frontend.pytorch.file_export MODEL.pt OUT_DIR NAME=D1,D2,... ...` imports it with
from_pytorch (the inputs in the graph's order, with those names and shapes, float32; weights
named parser-friendly, as use_parser_friendly_name=True names them) and writes
OUT_DIR/model.relay (the module as text, its constants in the metadata section) and
OUT_DIR/model.params (the weights, relay.save_param_dict's format). relay-opt runs this for a .pt
or .pth INPUT (docs/pytorch.md); errors go to stderr with exit status 1."""
import os
import sys


def _input_infos(specs):
    infos = []
    for spec in specs:
        name, sep, dims = spec.partition("=")
        if not sep or not name:
            raise ValueError("--input-shape: '%s' is not NAME=D1,D2,..." % spec)
        try:
            shape = tuple(int(d) for d in dims.split(",")) if dims else ()
        except ValueError:
            raise ValueError("--input-shape: '%s' has a dimension that is not an integer" % spec)
        if any(d < 0 for d in shape):
            raise ValueError("--input-shape: '%s' has a negative dimension" % spec)
        infos.append((name, shape))
    return infos


def main(argv):
    if len(argv) < 2:
        raise ValueError("usage: file_export MODEL.pt OUT_DIR NAME=D1,D2,... ...")
    path, out_dir, specs = argv[0], argv[1], argv[2:]
    import torch

    from ... import astext, save_param_dict
    from . import from_pytorch

    if not specs:
        raise ValueError("a TorchScript model needs --input-shape NAME=D1,D2,... for each of its "
                         "inputs, in order")
    module = torch.jit.load(path, map_location="cpu")
    # Parser-friendly names: the text must parse back (TVM's "aten::_convolution_0.weight" does not).
    mod, params = from_pytorch(module, _input_infos(specs), use_parser_friendly_name=True)
    with open(os.path.join(out_dir, "model.relay"), "w") as f:
        f.write(astext(mod, show_meta_data=True))
    with open(os.path.join(out_dir, "model.params"), "wb") as f:
        f.write(save_param_dict(params))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Exception as e:  # noqa: BLE001: one line for relay-opt to report
        print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(1)
