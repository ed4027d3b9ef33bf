#!/usr/bin/env python3
"""Exports torchvision models to ONNX with weights that make a strong reference.

No weights can be downloaded, and torchvision's own random initialisation gives outputs that
vanish (MobileNet ~1e-9), explode (Inception ~1e12) or are all zeros, against which any answer
passes a tolerance. So each model gets:
  * every convolution and linear layer rescaled, in execution order, so that its output has unit
    standard deviation on random inputs (LSUV-style; biases random and small);
  * batch norms with real statistics: random affine parameters (shifts positive, so that the
    ReLUs after them keep most of their input: see BN_SHIFT), then running mean and
    variance measured over calibration batches (cumulative averages; a near-constant channel's
    variance floored so that it does not amplify rounding noise), in eval mode afterwards;
  * zero-initialised layers (ViT's head) given random weights, so the output depends on the input;
  * inputs that are white noise plus a random colour per image (make_input), so that global
    pooling does not average the input's influence away;
  * final checks that the output has unit spread (std within [0.2, 5]), changes with the input
    (a second random input moves it by at least a tenth of that spread), and is not dominated by
    float32 rounding: PyTorch's float32 answer must be within half of make test-models'
    tolerance (rtol 1e-4 / atol 1e-5) of the same network run in float64, so that two float32
    implementations as accurate as PyTorch agree within the tolerance whatever their rounding.

For each model NAME it writes OUT/NAME/model.onnx, OUT/NAME/input.npy (the ONNX input, named
"input"), OUT/NAME/torch_output.npy (PyTorch's float32 answer) and OUT/NAME/float64_output.npy
(the float64 one); both are for information: the reference that make test-models compares with is
ONNX Runtime's, written by scripts/ort-reference.js.

Needs Debian's python3-torch, python3-torchvision and python3-onnx (apt-get install -y ...).
"""
import argparse
import copy
import os
import sys

import numpy as np

DEFAULT_MODELS = [
    "resnet18",
    "mobilenet_v2",
    "squeezenet1_0",
    "squeezenet1_1",  # the one committed under tests/data/onnx/models/
    "vgg11",
    "alexnet",
    "shufflenet_v2_x0_5",
    "densenet121",
    "efficientnet_b0",
    "regnet_y_400mf",
    "mobilenet_v3_small",
    "googlenet",
    "inception_v3",
    "convnext_tiny",
    "vit_b_16",
]


def build(name, torch, torchvision):
    kwargs = {"weights": None}
    if name in ("googlenet", "inception_v3"):
        kwargs.update(aux_logits=False, init_weights=True)
    return getattr(torchvision.models, name)(**kwargs)


# make test-models' tolerance (scripts/test-models.sh), and the share of it that PyTorch's float32
# rounding may use up against float64: two answers each within half of it of the exact one are
# within it of each other.
RTOL, ATOL = 1e-4, 1e-5
NOISE_SHARE = 0.5

# Batch-norm shifts: uniform in [0.5, 1.5] (the scales are in [0.5, 1.5] too), so that a ReLU
# after a batch norm zeroes about a sixth of its input rather than half. A ReLU that zeroes half
# of a unit normal keeps all the rounding noise of the half it passes (rms 0.71) but only 0.58 of
# the spread, so the noise-to-signal ratio grows by 1.21 per layer: with shifts in [-0.2, 0.2]
# it grew geometrically over depth (GoogLeNet's 22 layers: from 2e-7 of the spread after the
# first convolution to 3e-5 before the classifier), and PyTorch's float32 logits were 3.7e-5
# (GoogLeNet), 8.7e-5 (Inception v3) and 1.6e-5 (RegNet) from float64's, so float32
# implementations disagreed beyond the tolerance by rounding alone. With these shifts the factor
# is about 1.06 and every model's float32 logits are within 4.5e-6 of float64's.
BN_SHIFT = (0.5, 1.5)


def make_input(torch, shape, generator):
    """White noise plus a random colour per image (a per-channel offset with unit spread).

    On white noise, global average pooling averages the input's influence away (SqueezeNet's
    logits moved by 2% of their spread between two inputs, the rest being the same for every
    input); an image's overall colour survives pooling, as in real images."""
    colour = torch.randn(tuple(shape[:2]) + (1,) * (len(shape) - 2), generator=generator)
    return torch.randn(shape, generator=generator) + colour


def calibrate(model, torch, shape, generator, batches=3):
    """LSUV-style unit-variance rescaling of conv/linear layers, then real BN statistics."""
    layers = [m for m in model.modules()
              if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))]
    bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    norms = [m for m in model.modules() if isinstance(m, torch.nn.LayerNorm)]
    with torch.no_grad():
        for bn in bns:
            bn.weight.uniform_(0.5, 1.5, generator=generator)
            bn.bias.uniform_(*BN_SHIFT, generator=generator)
        for ln in norms:
            ln.weight.uniform_(0.5, 1.5, generator=generator)
            ln.bias.uniform_(-0.2, 0.2, generator=generator)
        for layer in layers:
            # Zero-initialised layers (ViT's head, some classifiers) would make the output a
            # constant that any answer matches: give them random weights first.
            if float(layer.weight.abs().max()) == 0.0:
                fan_in = layer.weight[0].numel()
                layer.weight.normal_(0.0, 1.0 / fan_in ** 0.5, generator=generator)
            if layer.bias is not None:
                layer.bias.uniform_(-0.1, 0.1, generator=generator)
    # Batches of 2: batch norms in train mode need more than one value per channel.
    data = [make_input(torch, (2,) + tuple(shape[1:]), generator) for _ in range(batches)]

    # One forward pass in train mode (batch norms normalise with the batch's statistics) in
    # which each layer, in execution order, is rescaled to unit output std as it runs: the later
    # layers see the rescaled activations.
    def rescale(module, _, out):
        std = float(out.detach().float().std())
        if not (std > 0 and np.isfinite(std)):
            return None
        with torch.no_grad():
            module.weight.div_(std)
            if module.bias is not None:
                module.bias.div_(std)
        return out / std

    handles = [layer.register_forward_hook(rescale) for layer in layers]
    model.train()
    with torch.no_grad():
        model(data[0])
    for handle in handles:
        handle.remove()

    # Real statistics: cumulative averages over the calibration batches, then eval mode. A
    # channel with (almost) no variance (dead after a ReLU) would divide float32 rounding noise
    # by ~sqrt(eps) and amplify it through the rest of the network: its variance is floored at
    # a hundredth of the layer's mean variance.
    for bn in bns:
        bn.reset_running_stats()
        bn.momentum = None
    with torch.no_grad():
        for x in data:
            model(x)
        for bn in bns:
            floor = 0.01 * float(bn.running_var.mean())
            bn.running_var.clamp_(min=floor)
    model.eval()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="output folder (one subfolder per model)")
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="comma-separated torchvision model names")
    parser.add_argument("--size", type=int, default=224, help="input height and width")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opset", type=int, default=13)
    args = parser.parse_args()

    try:
        import torch
        import torchvision
    except ImportError:
        sys.exit("export-models.py needs python3-torch and python3-torchvision "
                 "(apt-get install -y python3-torch python3-torchvision)")

    torch.set_num_threads(1)
    failures = []
    for name in [m for m in args.models.split(",") if m]:
        generator = torch.Generator().manual_seed(args.seed)
        torch.manual_seed(args.seed)
        size = 299 if name == "inception_v3" and args.size == 224 else args.size
        shape = (1, 3, size, size)
        try:
            model = build(name, torch, torchvision).eval()
            calibrate(model, torch, shape, generator)
            x = make_input(torch, shape, generator)
            with torch.no_grad():
                y = model(x)
            std = float(y.std())
            if not (0.2 <= std <= 5.0):
                raise RuntimeError("output std %.3g is not a unit spread" % std)
            # The output must depend on the input (not a constant head).
            with torch.no_grad():
                y2 = model(make_input(torch, shape, generator))
            change = float((y2 - y).std())
            if change < 0.1 * std:
                raise RuntimeError("the output barely depends on the input (std of the change "
                                   "%.3g for an output std of %.3g)" % (change, std))
            # The same network in float64: PyTorch's float32 answer must be well within the
            # tolerance of it, or the comparison with ONNX Runtime would measure rounding noise.
            # (The ONNX file differs from it slightly: the export folds batch norms into the
            # convolutions in float32, which moves EfficientNet's logits by 7e-7.)
            with torch.no_grad():
                y64 = copy.deepcopy(model).double()(x.double())
            err = (y.double() - y64).abs()
            share = float((err / (ATOL + RTOL * y64.abs())).max())
            if share > NOISE_SHARE:
                raise RuntimeError("float32 rounding noise: PyTorch's float32 output is %.3g "
                                   "(max abs) from float64's, %.2f of the tolerance"
                                   % (float(err.max()), share))
            folder = os.path.join(args.out, name)
            os.makedirs(folder, exist_ok=True)
            torch.onnx.export(model, x, os.path.join(folder, "model.onnx"),
                              input_names=["input"], output_names=["output"],
                              opset_version=args.opset, do_constant_folding=True)
            np.save(os.path.join(folder, "input.npy"), x.numpy().astype("float32"))
            np.save(os.path.join(folder, "torch_output.npy"), y.numpy().astype("float32"))
            np.save(os.path.join(folder, "float64_output.npy"), y64.numpy())
            print("%-20s output std %.3f, mean %.3f, change %.3f; float32 vs float64 %.2e "
                  "(%.2f of the tolerance) -> %s" % (name, std, float(y.mean()), change,
                                                     float(err.max()), share, folder))
        except Exception as e:  # noqa: BLE001: report every model, then fail
            failures.append(name)
            print("%-20s FAILED: %s" % (name, e), file=sys.stderr)
    if failures:
        sys.exit("export failed for: " + ", ".join(failures))


if __name__ == "__main__":
    main()
