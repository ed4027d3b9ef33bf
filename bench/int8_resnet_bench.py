#!/usr/bin/env python3
"""make bench, int8 resnet-50 rows (issue 34): torchvision's resnet50 (random weights, seeded;
batch-norm statistics gathered on seeded images so every layer is well-conditioned; eval mode)
exported with torch.onnx.export (opset 13, constant folding: the batch norms fold into the
convolutions), then quantized to a QDQ model as ONNX Runtime's `quantize_static` would
(QuantFormat.QDQ, per_channel=True, activations uint8 asymmetric, weights int8 symmetric, MinMax
calibration; bench/qdq_quantizer.py). Every residual branch's last batch norm is halved
(RESIDUAL_GAIN) so that the random network is not chaotic. One seeded 1x3x224x224 image runs on
relaypass's graph executor (from_onnx, InferType, FakeQuantizationToInteger, relay.build at
opt_level 3 for the host's -mcpu) and on ONNX Runtime (bench/ort_bench.js, onnxruntime-node,
graph optimizations at their default, which turn the QDQ groups into QLinearConv and friends),
at 1 and 2 threads, in alternating rounds; best times.

    PYTHONPATH=build/python NODE_PATH=build/ort/node_modules \\
        python3 bench/int8_resnet_bench.py OUT.md [--rounds 2] [--repeats 5] [--small] \\
        [--work DIR] [--no-imported]

--small uses a two-block ResNet-like net on 1x3x64x64 (seconds). The generated models are kept
in the work directory (--work, default $TMPDIR/int8_resnet_bench[_small]) and reused when there.
Writes a Markdown section to OUT.md; exits 1 if the outputs disagree.

Agreement: relaypass's int8 output against ONNX Runtime's int8 output on the same image, in
units of the output's quantization scale (the last DequantizeLinear's), and top-1. The two are
not bit-identical by design, so the check allows MAX_STEPS steps: ONNX rounds halves to even
where TVM's qnn lowering rounds them away from zero, ONNX Runtime's QLinearConv requantizes
in float where TVM's requantize is fixed-point (docs/quantization.md, "Rounding"), and TVM's
qnn.add (which FakeQuantizationToInteger makes of each residual Add) requantizes both operands
to the output's scale before adding, two roundings where ONNX Runtime's QLinearAdd has one
(TVM's src/relay/qnn/op/add.cc; about one element in eight of the first residual sum is one step
apart), and TVM's rule for global_avg_pool2d averages in int32, whose division truncates: the
pooled values are half a step low on average where ONNX Runtime rounds. Each difference is one
step of one intermediate tensor; a few carry through the following layers to the output. The same comparisons against the QDQ model run unoptimized by
ONNX Runtime (its float reference for the QDQ arithmetic) and against the float model are
printed for context."""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from qdq_quantizer import calibrate, quantize_qdq

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
MAX_STEPS = 4  # allowed max |relaypass - ONNX Runtime| in output quantization steps
CALIBRATION_IMAGES = 4
INPUT_NAME = "input"
# The last batch norm of every residual branch scaled by this after calibration, so the blocks
# stay close to the identity as in trained resnets: with every branch at full strength the
# random network is chaotic, and single rounding steps early on (any two int8 implementations
# differ by some; ONNX Runtime's own int8 run and its float QDQ run differ by a mean of 8.6 steps
# at layer4 then) grow into tens of output steps, which measures the weights, not the runtimes.
RESIDUAL_GAIN = 0.5


# ---------------------------------------------------------------------------------------------
# The float model


def tiny_resnet(torch):
    """Two residual blocks (the second with a strided 1x1 downsample) between resnet's stem and
    head, at a tenth of its width: the same ONNX operators as resnet-50."""
    from torchvision.models.resnet import BasicBlock

    nn = torch.nn
    down = nn.Sequential(nn.Conv2d(16, 32, 1, stride=2, bias=False), nn.BatchNorm2d(32))
    return nn.Sequential(
        nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        nn.MaxPool2d(3, stride=2, padding=1), BasicBlock(16, 16),
        BasicBlock(16, 32, stride=2, downsample=down), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        nn.Linear(32, 10))


def seeded_images(count, size, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, size=(1, 3, size, size)).astype(np.float32)
            for _ in range(count)]


def export_float(path, small):
    """Random weights (torchvision's initialisation, seed 0); the batch norms' running mean and
    variance are then averaged over two batches of 8 seeded images in train mode, so each normalises its input
    (with the default statistics, 0 and 1, activations grow through the residual stream), and
    each residual branch's last one is scaled by RESIDUAL_GAIN."""
    import torch
    import torchvision

    torch.manual_seed(0)
    model = tiny_resnet(torch) if small else torchvision.models.resnet50()
    size = 64 if small else 224
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None  # a cumulative average over the batches below
            m.reset_running_stats()
    model.train()
    with torch.no_grad():
        for batch in range(2):
            model(torch.from_numpy(np.concatenate(seeded_images(8, size, seed=100 + batch))))
    model.eval()
    with torch.no_grad():
        for m in model.modules():
            last = getattr(m, "bn3", None) or getattr(m, "bn2", None)
            if last is not None:
                last.weight.mul_(RESIDUAL_GAIN)
                last.bias.mul_(RESIDUAL_GAIN)
    torch.onnx.export(model, torch.zeros(1, 3, size, size), path, opset_version=13,
                      do_constant_folding=True, input_names=[INPUT_NAME],
                      output_names=["output"])
    return size


def prepare(work, small):
    """The float and QDQ models and the measured image, made once per work directory (made
    again when the recipe below differs from the one recorded with them)."""
    import torch

    float_path = os.path.join(work, "float.onnx")
    qdq_path = os.path.join(work, "qdq.onnx")
    meta_path = os.path.join(work, "qdq.json")
    recipe = {"small": small, "residual_gain": RESIDUAL_GAIN, "torch": torch.__version__,
              "calibration_images": CALIBRATION_IMAGES, "version": 4}
    meta = None
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
    if meta is None or meta.get("recipe") != recipe:
        size = export_float(float_path, small)
        ranges = calibrate(float_path, work, seeded_images(CALIBRATION_IMAGES, size, seed=1),
                           INPUT_NAME)
        out_scale = quantize_qdq(float_path, ranges, qdq_path)
        np.save(os.path.join(work, "image.npy"), seeded_images(1, size, seed=7)[0])
        meta = {"output_scale": out_scale, "size": size, "recipe": recipe}
        with open(meta_path, "w") as f:
            json.dump(meta, f)
    return float_path, qdq_path, meta


def check_loads(qdq_path, work):
    """Both runtimes take the QDQ model: ONNX Runtime runs it as written (no graph optimization,
    its reference for the QDQ arithmetic) and relaypass imports and type-checks it, with every
    Conv and Gemm between a dequantize and a quantize."""
    import onnx
    from relaypass import relay  # the parent only checks; the children time

    subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-reference.js"), qdq_path,
                    os.path.join(work, "ort_unoptimized"),
                    "%s=%s" % (INPUT_NAME, os.path.join(work, "image.npy"))], check=True)
    mod, _ = relay.frontend.from_onnx(onnx.load(qdq_path), freeze_params=True)
    text = relay.transform.InferType()(mod).astext()
    model = onnx.load(qdq_path)
    convs = sum(n.op_type in ("Conv", "Gemm") for n in model.graph.node)
    print("int8_resnet_bench: the QDQ model loads in ONNX Runtime and relaypass (%d convs and "
          "gemms, %d qnn.quantize, %d qnn.dequantize)" % (
              convs, text.count("qnn.quantize("), text.count("qnn.dequantize(")))


# ---------------------------------------------------------------------------------------------
# relaypass


def host_mcpu():
    """The -mcpu that gives relaypass's int8 GEMM the host's best instruction set (int8_isa:
    TVM's tables): VNNI, AVX-512BW, AVX2, SSE4.2 (nehalem), else the SSE2 baseline."""
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    for flag, mcpu in (("avx512_vnni", "cascadelake"), ("avx512bw", "skylake-avx512"),
                       ("avx2", "core-avx2"), ("sse4_2", "nehalem")):
        if flag in flags:
            return mcpu
    return "x86-64"


def graph_module(mod, target):
    import relaypass as tvm
    from relaypass import relay
    from relaypass.contrib import graph_executor

    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, target=target)
    return graph_executor.GraphModule(lib["default"](tvm.cpu()))


def best_ms(gmod, image, repeats):
    """set_input + run + get_output, the way a user runs one image; best of `repeats` after a
    warm-up."""
    def once():
        gmod.set_input(INPUT_NAME, image)
        gmod.run()
        return gmod.get_output(0).numpy()

    once()
    times, out = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        out = once()
        times.append((time.perf_counter() - start) * 1e3)
    return min(times), out


def measure(work, repeats, imported, target):
    """In a child process (RELAYPASS_NUM_THREADS set before relaypass loads): the module after
    FakeQuantizationToInteger and, unless told not to, the fake-quantized one as imported; times
    to work/relaypass.json, outputs to work/relaypass_<name>.npy."""
    import onnx
    from relaypass import relay

    mod, _ = relay.frontend.from_onnx(onnx.load(os.path.join(work, "qdq.onnx")),
                                      freeze_params=True)
    mod = relay.transform.InferType()(mod)
    modules = {"int8": relay.transform.FakeQuantizationToInteger()(mod)}
    if imported:
        modules["imported"] = mod
    image = np.load(os.path.join(work, "image.npy"))
    times = {}
    for name, m in modules.items():
        start = time.perf_counter()
        gmod = graph_module(m, target)
        build_s = time.perf_counter() - start
        times[name], out = best_ms(gmod, image, repeats)
        times[name + " build s"] = build_s
        np.save(os.path.join(work, "relaypass_%s.npy" % name), out)
    with open(os.path.join(work, "relaypass.json"), "w") as f:
        json.dump(times, f)


# ---------------------------------------------------------------------------------------------
# The report


def cpu_description():
    name, flags = platform.processor() or platform.machine(), []
    try:
        with open("/proc/cpuinfo") as f:
            lines = f.readlines()
        name = next(l.split(":", 1)[1].strip() for l in lines if l.startswith("model name"))
        all_flags = next(l.split(":", 1)[1].split() for l in lines if l.startswith("flags"))
        flags = [f for f in ("avx2", "avx512bw", "avx512_vnni") if f in all_flags]
    except (OSError, StopIteration):
        pass
    return "%s (%s)" % (name, ", ".join(flags) or "no AVX2")


def ms_text(ms):
    return "%.1f" % ms if ms >= 10 else "%.3g" % ms


def compare(ours, reference, scale):
    steps = float(np.max(np.abs(ours - reference))) / scale
    return steps, int(np.argmax(ours)) == int(np.argmax(reference))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--work", help="where the models are made and kept")
    ap.add_argument("--no-imported", action="store_true",
                    help="skip the fake-quantized module as imported")
    ap.add_argument("--measure", metavar="WORK_DIR", help=argparse.SUPPRESS)
    ap.add_argument("--target", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        measure(args.measure, args.repeats, not args.no_imported, args.target)
        return 0

    if not shutil.which("node") or subprocess.run(
            ["node", "-e", "require('onnxruntime-node')"], capture_output=True).returncode:
        sys.exit("int8_resnet_bench: needs node and onnxruntime-node on NODE_PATH "
                 "(make bench installs it in <build>/ort/node_modules)")
    work = args.work or os.path.join(
        tempfile.gettempdir(), "int8_resnet_bench" + ("_small" if args.small else ""))
    os.makedirs(work, exist_ok=True)
    float_path, qdq_path, meta = prepare(work, args.small)
    check_loads(qdq_path, work)
    mcpu = host_mcpu()
    target = "llvm -mcpu=%s" % mcpu
    print("int8_resnet_bench: target %r (from /proc/cpuinfo)" % target)
    feed = "%s=%s" % (INPUT_NAME, os.path.join(work, "image.npy"))

    best, ort = {}, {}
    child = [sys.executable, os.path.abspath(__file__), args.out, "--measure", work,
             "--repeats", str(args.repeats), "--target", target]
    if args.no_imported:
        child.append("--no-imported")
    for _ in range(args.rounds):
        for threads in (1, 2):
            env = dict(os.environ, RELAYPASS_NUM_THREADS=str(threads))
            subprocess.run(child, check=True, env=env)
            with open(os.path.join(work, "relaypass.json")) as f:
                for name, value in json.load(f).items():
                    best[(name, threads)] = min(best.get((name, threads), value), value)
            result = os.path.join(work, "ort_%d.json" % threads)
            env = dict(os.environ, ORT_BENCH_OUTPUT=os.path.join(work, "ort_int8.npy"))
            subprocess.run(["node", os.path.join(HERE, "ort_bench.js"), qdq_path, result,
                            str(args.repeats), str(threads), feed], check=True, env=env)
            with open(result) as f:
                ort[threads] = min(ort.get(threads, 1e30), json.load(f)["runs"][0]["best_ms"])

    # Outputs: relaypass's int8 (last child) against ONNX Runtime's int8 (optimized session);
    # for context, the QDQ model as ONNX Runtime runs it unoptimized and the float model.
    subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-reference.js"), float_path,
                    os.path.join(work, "ort_float"), feed], check=True)
    scale = meta["output_scale"]
    ours = np.load(os.path.join(work, "relaypass_int8.npy"))
    ort_int8 = np.load(os.path.join(work, "ort_int8.npy"))
    ort_qdq = np.load(os.path.join(work, "ort_unoptimized", "output.npy"))
    ort_float = np.load(os.path.join(work, "ort_float", "output.npy"))
    steps, same_top1 = compare(ours, ort_int8, scale)
    agree = ours.shape == ort_int8.shape and steps <= MAX_STEPS and same_top1
    context = {"relaypass int8 vs ONNX Runtime unoptimized QDQ": compare(ours, ort_qdq, scale),
               "ONNX Runtime int8 vs its unoptimized QDQ": compare(ort_int8, ort_qdq, scale),
               "relaypass int8 vs float model": compare(ours, ort_float, scale),
               "ONNX Runtime int8 vs float model": compare(ort_int8, ort_float, scale)}
    if not args.no_imported:
        imported = np.load(os.path.join(work, "relaypass_imported.npy"))
        context["relaypass as imported vs ONNX Runtime unoptimized QDQ"] = compare(
            imported, ort_qdq, scale)
    for name, (s, top1) in context.items():
        print("int8_resnet_bench: %s: max %.1f steps, top-1 %s" % (
            name, s, "same" if top1 else "differs"))

    title = "a two-block ResNet-like net, 1x3x64x64" if args.small else "resnet-50, 1x3x224x224"
    lines = ["## int8 %s (QDQ) against ONNX Runtime's int8" % title, "",
             "bench/int8_resnet_bench.py on %s; %s with seeded random weights, "
             "quantized as ONNX Runtime's quantize_static writes QDQ (per-channel int8 weights, "
             "uint8 activations, MinMax on %d seeded images); relaypass: from_onnx, InferType, "
             "FakeQuantizationToInteger, relay.build(target=\"%s\", opt_level=3), graph executor "
             "(set_input + run + get_output); ONNX Runtime: onnxruntime-node, default graph "
             "optimizations (QLinearConv, QLinearAdd, QGemm, ...). Best of %d runs in each of %d "
             "alternating rounds. relaypass's "
             "output against ONNX Runtime's: max %.1f output quantization steps (allowed %d), "
             "top-1 %s: %s." % (
                 cpu_description(), "torchvision's BasicBlock" if args.small else
                 "torchvision's model", CALIBRATION_IMAGES, target, args.repeats, args.rounds,
                 steps, MAX_STEPS, "same" if same_top1 else "differs",
                 "agree" if agree else "**disagree**"), ""]
    head = "| threads | relaypass int8 (ms) | ONNX Runtime int8 (ms) | relaypass / ONNX Runtime |"
    rule = "|---|---|---|---|"
    if not args.no_imported:
        head += " relaypass as imported, fake-quantized (ms) |"
        rule += "---|"
    lines += [head, rule]
    for threads in (1, 2):
        ms = best[("int8", threads)]
        row = "| %d | %s | %s | %.2fx |" % (threads, ms_text(ms), ms_text(ort[threads]),
                                           ms / ort[threads])
        if not args.no_imported:
            row += " %s |" % ms_text(best[("imported", threads)])
        lines.append(row)
    lines += ["", "relay.build: %.2f s for the int8 module (one thread)." %
              best[("int8 build s", 1)]]
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
