#!/usr/bin/env python3
"""make test-models, quantized PyTorch part: torchvision's quantizable resnet18 and mobilenet_v2
(torchvision.models.quantization, weights=None: scripts/export-models.py's random
well-conditioned weights and batch-norm statistics), fused, prepared with the fbgemm qconfig,
calibrated on a few random inputs, converted to int8 and traced; then imported with
relay.frontend.from_pytorch and run after relay.build at -O3 (graph_executor) and on
create_executor("debug"), each against PyTorch's own int8 output on the same input.

Agreement as TVM's tests/python/frontend/pytorch/qnn_test.py checks its imagenet models: the
same top-3 labels (here also the same top-1), and the max / mean abs difference reported (TVM's
own figures with pretrained weights: resnet18 max 0.66, mean 0.14; mobilenet_v2 max 2.1, mean
0.41). Here the mean abs difference must stay below 5% of the logits' spread.

  scripts/test-torch-qmodels.py --package build/python [--models resnet18] [--out DIR]"""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ["resnet18", "mobilenet_v2"]


def load_export_models():
    spec = importlib.util.spec_from_file_location("export_models",
                                                  os.path.join(HERE, "export-models.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def quantized_model(name, torch, torchvision, export, shape, generator):
    model = getattr(torchvision.models.quantization, name)(weights=None, quantize=False)
    export.calibrate(model, torch, shape, generator)
    model.eval()
    model.fuse_model()
    model.qconfig = torch.ao.quantization.get_default_qconfig("fbgemm")
    torch.ao.quantization.prepare(model, inplace=True)
    with torch.no_grad():
        for _ in range(3):
            model(export.make_input(torch, shape, generator))
    torch.ao.quantization.convert(model, inplace=True)
    return model


def compare(name, got, expected):
    diff = np.abs(got.astype("float64") - expected)
    spread = float(np.std(expected))
    top1 = int(np.argmax(got)) == int(np.argmax(expected))
    top3 = set(np.argsort(got[0])[::-1][:3]) == set(np.argsort(expected[0])[::-1][:3])
    ok = got.shape == expected.shape and top1 and top3 and diff.mean() < 0.05 * spread
    return ok, "%.3g / %.3g (%.0f%% identical)%s" % (
        diff.max(), diff.mean(), 100.0 * np.mean(got == expected),
        "" if ok else " DISAGREES" + ("" if top1 else " (top-1)"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", required=True, help="folder holding the relaypass package")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--out", default="", help="folder for torch_quantized_report.md")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.package))
    import torch
    import torchvision
    import relaypass as tvm
    from relaypass import relay
    from relaypass.contrib import graph_executor

    torch.set_num_threads(1)
    export = load_export_models()
    rows = ["| model | from_pytorch (s) | -O3 max / mean abs diff | debug executor |",
            "|---|---|---|---|"]
    failed = []
    for name in [m for m in args.models.split(",") if m]:
        generator = torch.Generator().manual_seed(args.seed)
        torch.manual_seed(args.seed)
        shape = (1, 3, 224, 224)
        try:
            model = quantized_model(name, torch, torchvision, export, shape, generator)
            x = export.make_input(torch, shape, generator)
            with torch.no_grad():
                traced = torch.jit.trace(model, x).eval()
                expected = traced(x).numpy().astype("float64")
            start = time.time()
            mod, params = relay.frontend.from_pytorch(traced, [("input", shape)])
            convert_time = time.time() - start
            with tvm.transform.PassContext(opt_level=3):
                lib = relay.build(mod, target="llvm", params=params)
            runner = graph_executor.GraphModule(lib["default"](tvm.cpu()))
            runner.set_input("input", x.numpy())
            runner.run()
            verdicts = []
            outputs = [runner.get_output(0).numpy()]
            outputs.append(relay.create_executor("debug", mod=mod).evaluate()(
                x.numpy(), **params).numpy())
            for got in outputs:
                ok, text = compare(name, got, expected)
                verdicts.append(text)
                if not ok:
                    failed.append(name)
            rows.append("| %s | %.2f | %s | %s |" % (name, convert_time, *verdicts))
        except Exception as e:  # noqa: BLE001: report every model, then fail
            failed.append(name)
            rows.append("| %s | FAILED: %s | | |" % (
                name, (str(e) or type(e).__name__).splitlines()[0][:160]))
        print(rows[-1], flush=True)
    report = "\n".join(rows) + "\n"
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "torch_quantized_report.md"), "w") as f:
            f.write(report)
    if failed:
        sys.exit("disagree or failed: " + ", ".join(sorted(set(failed))))


if __name__ == "__main__":
    main()
