#!/usr/bin/env python3
"""make test-models, PyTorch part: torchvision models (scripts/export-models.py's list with
resnet50 and mnasnet0_5, the same
random well-conditioned weights) traced, imported with relay.frontend.from_pytorch, and run on
relaypass's evaluator as imported (create_executor "graph" at opt level 0) and after the default
pipeline at -O3 (relay.build, graph_executor), each against eager PyTorch's float32 answer on the
same input within rtol 1e-4 / atol 1e-5 (np.allclose, as scripts/test-models.sh checks ONNX).

  scripts/test-torch-models.py --package build/python [--models resnet18,vgg11] [--out DIR]

Writes a Markdown table (model, convert time, trace time, max abs error before / after) to stdout
and to OUT/torch_report.md; exits 1 if a model disagrees or fails to convert."""
import argparse
import importlib.util
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load_export_models():
    spec = importlib.util.spec_from_file_location("export_models",
                                                  os.path.join(HERE, "export-models.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", required=True, help="folder holding the relaypass package")
    parser.add_argument("--models", default="", help="comma-separated (default: export-models')")
    parser.add_argument("--out", default="", help="folder for torch_report.md")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.package))
    import torch
    import torchvision
    from relaypass import relay
    from relaypass.contrib import graph_executor
    import relaypass as tvm

    export = load_export_models()
    # The ONNX list, and the two more of issue 33's list.
    default = export.DEFAULT_MODELS + ["resnet50", "mnasnet0_5"]
    names = [m for m in (args.models or ",".join(default)).split(",") if m]
    torch.set_num_threads(1)
    rows = ["| model | from_pytorch (s) | torch.jit.trace (s) | max abs error | after -O3 |",
            "|---|---|---|---|---|"]
    failed = []
    for name in names:
        generator = torch.Generator().manual_seed(args.seed)
        torch.manual_seed(args.seed)
        size = 299 if name == "inception_v3" else 224
        shape = (1, 3, size, size)
        try:
            model = export.build(name, torch, torchvision).eval()
            export.calibrate(model, torch, shape, generator)
            x = export.make_input(torch, shape, generator)
            with torch.no_grad():
                expected = model(x).numpy()
                start = time.time()
                traced = torch.jit.trace(model, x)
                trace_time = time.time() - start
            start = time.time()
            mod, params = relay.frontend.from_pytorch(traced, [("input", shape)])
            convert_time = time.time() - start
            data = x.numpy()
            before = relay.create_executor("graph", mod=mod).evaluate()(data, **params).numpy()
            with tvm.transform.PassContext(opt_level=3):
                lib = relay.build(mod, target="llvm", params=params)
            runner = graph_executor.GraphModule(lib["default"](tvm.cpu()))
            runner.set_input("input", data)
            runner.run()
            after = runner.get_output(0).numpy()
            verdicts = []
            for got in (before, after):
                err = float(np.max(np.abs(got.astype("float64") - expected)))
                ok = got.shape == expected.shape and np.allclose(got, expected, rtol=1e-4,
                                                                 atol=1e-5)
                verdicts.append("%.2e %s" % (err, "ok" if ok else "DISAGREES"))
                if not ok:
                    failed.append(name)
            rows.append("| %s | %.2f | %.2f | %s | %s |" % (name, convert_time, trace_time,
                                                           verdicts[0], verdicts[1]))
        except Exception as e:  # noqa: BLE001: report every model, then fail
            failed.append(name)
            rows.append("| %s | FAILED: %s | | | |" % (name, (str(e) or type(e).__name__).splitlines()[0][:120]))
        print(rows[-1], flush=True)
    report = "\n".join(rows) + "\n"
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "torch_report.md"), "w") as f:
            f.write(report)
    if failed:
        sys.exit("disagree or failed: " + ", ".join(sorted(set(failed))))


if __name__ == "__main__":
    main()
