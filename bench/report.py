#!/usr/bin/env python3
"""Writes docs/performance.md from Google Benchmark JSON output (standard library only).

    bench/report.py --passes build-bench/passes_bench.json [--eval build-bench/eval_bench.json]
                    [--doc docs/performance.md]

The generated part is everything before the line KEEP_MARKER; what follows it (the hand-written
Evaluator and profile sections) is kept as it is. A document without the marker keeps everything
from its "## Evaluator" heading on.
"""
import argparse
import json
import os
import platform
import sys

KEEP_MARKER = "<!-- Everything below this line is kept by bench/report.py. -->"

# TVM v0.13's figures (../shared/anchors/tvm_timings.md): best of 5 wall-clock runs, milliseconds.
NETWORKS = ["resnet-18", "resnet-50", "mobilenet"]
TVM_PASS = {
    "InferType": [9.4, 25.2, 13.9],
    "FoldConstant": [9.6, 27.6, 14.6],
    "EliminateCommonSubexpr": [10.1, 28.6, 15.1],
    "SimplifyInference": [11.4, 32.2, 19.2],
    "FoldScaleAxis": [50.5, 134.7, 76.3],
    "CanonicalizeOps": [9.6, 27.1, 14.7],
    "FuseOps": [12.9, 34.8, 22.3],
    "ToANormalForm": [1.8, 6.0, 4.3],
    "DeadCodeElimination": [0.8, 2.1, 1.3],
    "ConvertLayout": [22.0, 56.1, 31.8],
}
PASS_LABEL = {
    "FuseOps": "FuseOps(fuse_opt_level=2)",
    "ConvertLayout": 'ConvertLayout({"nn.conv2d": ["NHWC", "default"]})',
}
# "More passes, resnet-50" (issue 17's passes), and which of them also run on the chains.
TVM_MORE = {
    "CombineParallelConv2D": ("CombineParallelConv2D(min_num_branches=3)", 39.5),
    "CombineParallelDense": ("CombineParallelDense(min_num_branches=3)", 38.5),
    "FastMath": ("FastMath", 42.9),
    "DefuseOps": ("DefuseOps (on FuseOps(fuse_opt_level=2)'s output)", 36.5),
    "DynamicToStatic": ("DynamicToStatic", 169.4),
    "ToMixedPrecision": ("ToMixedPrecision(\"float16\")", 184.9),
    "SimplifyExpr": ("SimplifyExpr", 1814.5),
    "CanonicalizeCast": ("CanonicalizeCast", 36.6),
    "ToBasicBlockNormalForm": ("ToBasicBlockNormalForm", 2.8),
    "RemoveUnusedFunctions": ("RemoveUnusedFunctions", 0.36),
    "ToGraphNormalForm": ("ToGraphNormalForm (on ToANormalForm's output)", 45.7),
    "FlattenAtrousConv": ("FlattenAtrousConv", 34.2),
}
MORE_CHAIN = ["CombineParallelConv2D", "FastMath", "DynamicToStatic", "ToMixedPrecision",
              "SimplifyExpr"]
TVM_PIPELINE = [12295.0, 30978.0, 15645.0]
TVM_TEXT = {
    "print_nometa": ("print, no metadata (bound)", [2.3, 6.3, 2.9]),
    "print_meta": ("print with metadata (all weights)", [898.0, 2084.0, 178.0]),
    "parse_meta": ("parse with metadata", [1349.0, 3007.0, 464.0]),
    "parse_unbound": ("parse, unbound (no constants)", [13.3, 35.3, 17.7]),
}
TVM_CHAIN = {  # N = 10k, N = 100k (None: not measured / crashed)
    "InferType": (151.0, 4577.0),
    "FoldConstant": (207.0, 7193.0),
    "EliminateCommonSubexpr": (1944.0, 362036.0),
    "FuseOps": (260.0, 9798.0),
}
CHAIN_SIZES = [10000, 100000, 1000000]



# The x86 extensions the evaluator's kernels choose between, in the order they are printed.
_ISA_FLAGS = [("sse4_2", "SSE4.2"), ("avx", "AVX"), ("avx2", "AVX2"), ("fma", "FMA"),
              ("avx512f", "AVX-512F"), ("avx512bw", "AVX-512BW"), ("avx512_vnni", "AVX-512 VNNI"),
              ("avx512_bf16", "AVX-512 BF16"), ("amx_tile", "AMX")]


def processor_description():
    """The processor this run measured (issue 38: results depend on it): /proc/cpuinfo's model
    name and the extensions the kernels use, and the caches from sysfs, as one line."""
    model, flags = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and model == (platform.processor()
                                                             or platform.machine()):
                    model = value.strip()
                elif key.strip() == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    isa = ", ".join(name for flag, name in _ISA_FLAGS if flag in flags) or "unknown"
    caches = []
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for index in sorted(os.listdir(base)):
            if not index.startswith("index"):
                continue
            def read(field, index=index):
                with open(os.path.join(base, index, field)) as f:
                    return f.read().strip()
            kind = {"Data": "d", "Instruction": "i", "Unified": ""}.get(read("type"), "")
            caches.append("L%s%s %s" % (read("level"), kind, read("size")))
    except OSError:
        pass
    return "%s (%s; caches seen by CPU 0: %s)" % (model, isa, ", ".join(caches) or "unknown")

def load(path):
    with open(path) as f:
        data = json.load(f)
    runs = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration":
            continue
        name = b.get("run_name") or b["name"]
        name = name.split("/min_time:")[0].split("/iterations:")[0].split("/manual_time")[0]
        runs[name] = b
    return data.get("context", {}), runs


def better(a, b):
    """Whether run `a` of a benchmark had a faster best iteration than run `b` (errors lose)."""
    ta, tb = a.get("best_ms"), b.get("best_ms")
    if ta is None:
        return False
    return tb is None or ta < tb


def fmt_ms(v):
    if v is None:
        return "n/a"
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 100:
        return f"{v:.0f}"
    if v >= 10:
        return f"{v:.1f}"
    if v >= 1:
        return f"{v:.2f}"
    return f"{v:.3f}"


def fmt_ratio(v):
    if v is None:
        return "n/a"
    return f"{v:,.0f}x" if v >= 10 else f"{v:.1f}x"


def times(run):
    """(best wall ms, best cpu ms, mean wall ms, mean cpu ms) or None when missing or failed."""
    if run is None or run.get("error_occurred"):
        return None
    return (run.get("best_ms"), run.get("best_cpu_ms"), run.get("real_time"), run.get("cpu_ms"))


def error_of(run):
    if run is None:
        return "not run"
    if run.get("error_occurred"):
        return "failed: " + run.get("error_message", "")
    return None


def cell(run):
    t = times(run)
    if t is None:
        return error_of(run), "", ""
    return fmt_ms(t[0]), fmt_ms(t[1]), fmt_ms(t[3])


TVM_ONNX_IMPORT_MS = {"resnet-50": 4454.0, "mobilenet-v2": 4151.0}  # from_onnx after onnx.load (tvm_timings.md)


def onnx_section(path, w):
    """Import time of bench/onnx_models.h's models next to reading their bytes (fastest run of
    each: the floor is a floor, and a slower repetition only measures the machine's noise)."""
    with open(path) as f:
        data = json.load(f)
    best = {}
    for b in data.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = (b.get("run_name") or b["name"]).replace("/real_time", "")
        ms = b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        if name not in best or ms < best[name][0]:
            best[name] = (ms, b.get("bytes"))
    w("## ONNX import, this run")
    w("")
    w("`build/bench/onnx_bench` as run by `make bench`: bench/onnx_models.h's ResNets and MobileNet v2 (the graphs "
      "torchvision exports at opset 13, batch norms folded, float32 weights as raw data) written "
      "once to the bench build folder; `relaypass::frontend::FromOnnxFile` (ONNX's checker, "
      "conversion, type inference, initializers frozen as constants) against `read(2)` of the "
      "same file from the warm page cache into memory already mapped (the floor) and into a "
      "fresh allocation. Fastest of 5 repetitions; wall-clock ms. TVM v0.13's `from_onnx` on "
      "resnet-50 takes 4,454 ms and on mobilenet v2 4,151 ms after `onnx.load` (../shared/anchors/tvm_timings.md). "
      "Target: import <= 3x the read floor.")
    w("")
    w("| model | file MB | read floor | read, fresh memory | protobuf parse | import | "
      "import / read floor | TVM from_onnx | speed-up vs TVM |")
    w("|---|---|---|---|---|---|---|---|---|")
    for net in ("resnet-18", "resnet-50", "mobilenet-v2"):
        floor = best.get(f"onnx/read_bytes/{net}")
        imp = best.get(f"onnx/import/{net}")
        if not floor or not imp:
            continue
        fresh = best.get(f"onnx/read_bytes_fresh/{net}", (None, None))[0]
        parse = best.get(f"onnx/parse_proto/{net}", (None, None))[0]
        tvm = TVM_ONNX_IMPORT_MS.get(net)
        ratio = imp[0] / floor[0]
        w(f"| {net} | {(floor[1] or 0) / 1e6:.1f} | {fmt_ms(floor[0])} | {fmt_ms(fresh)} | "
          f"{fmt_ms(parse)} | {fmt_ms(imp[0])} | {ratio:.2f}x "
          f"({'met' if ratio <= 3 else 'NOT met'}) | {fmt_ms(tvm) if tvm else '-'} | "
          f"{fmt_ratio(tvm / imp[0]) if tvm else '-'} |")
    w("")


def int8_section(path, w):
    """The int8 products (uint8 x int8 -> int32) on each int8 GEMM variant, against the
    reference loop they ran on before and against the same product in float32."""
    _, runs = load(path)
    w("## int8 products, this run")
    w("")
    w("`build/bench/int8_bench` (bench/int8_bench.cc), one evaluator thread, CPU time of the "
      "call: a resnet-50 3x3 convolution (1x64x56x56 by 64x64x3x3, padding 1) and a dense "
      "(128x768 by 768x768), uint8 x int8 -> int32 on each variant of the int8 GEMM this "
      "processor runs (the variant relay.build's target picks: x86-64 SSE2, nehalem SSSE3, "
      "core-avx2 AVX2, skylake-avx512 AVX-512BW, cascadelake AVX-512 VNNI), against the "
      "reference loop (the same call on int32 operands: what int8 products ran on before) and "
      "against float32 (the packed AVX-512 GEMM for the convolution, OpenBLAS for dense).")
    w("")
    w("| product | kernel | CPU ms | reference / this | float32 / this |")
    w("|---|---|---|---|---|")

    def cpu_ms(b):
        unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        return b["cpu_time"] * unit

    for shape in ("conv3x3", "dense"):
        found = {k.split("/")[2]: b for k, b in runs.items()
                 if k.startswith(f"int8/{shape}/") and not b.get("error_occurred")}
        ref, f32 = found.get("reference"), found.get("float32")
        for kernel in ("sse2", "ssse3", "avx2", "avx512bw", "avx512vnni", "reference", "float32"):
            b = found.get(kernel)
            if not b:
                continue
            ms = cpu_ms(b)
            w(f"| {shape} | {kernel} | {fmt_ms(ms)} | "
              f"{f'{cpu_ms(ref) / ms:.1f}x' if ref else '-'} | "
              f"{f'{cpu_ms(f32) / ms:.2f}x' if f32 else '-'} |")
    w("")


def ort_section(ort_paths, eval_rounds, w):
    """relaypass's evaluator and ONNX Runtime on the same ONNX files, threads 1 and 2.

    `eval_rounds` maps a round number to eval_bench's runs of that round; ONNX Runtime's files
    are ort_<model>.json (round 1) and ort_round<r>_<model>.json (round r)."""
    w("## Evaluator against ONNX Runtime, this run")
    w("")
    w("The same ONNX file (bench/onnx_models.h) and the same seeded input on both, in the same "
      "`make bench`: ONNX Runtime (`onnxruntime-node` from npm, CPU provider, default graph "
      "optimizations, `intraOpNumThreads` = threads, bench/ort_bench.js, best of 20 after a "
      "warm-up) and `build/bench/eval_bench` (the model imported with its initializers frozen, "
      "run as imported and after `--pipeline=default -O3`, best iteration; the evaluator's own "
      "threads; float convolutions by its own AVX-512 GEMM where the processor has AVX-512, "
      "src/op/kernels/packed_sgemm.h, other products by OpenBLAS on the calling thread). The two "
      "run in alternating rounds "
      f"({len(eval_rounds)} here): on this VM the two-thread speed of both runtimes changes by "
      "about 1.3x for tens of seconds at a time, so each side's figure is its best round, and the "
      "last column gives the ratio within each round. Target (issue 38): the evaluator's best "
      "time at most 0.9x ONNX Runtime's in every row; the earlier target was 1.5x.")
    w("")
    w("| model | threads | ONNX Runtime ms | relaypass ms (as imported) | relaypass ms (-O3) | "
      "best ratio | outputs agree (first 8, rtol 1e-4) | ratio in each round |")
    w("|---|---|---|---|---|---|---|---|")
    # (model, threads) -> round -> ONNX Runtime's best ms; model -> output head.
    ort_best, heads = {}, {}
    for path in ort_paths:
        if not os.path.exists(path):
            continue
        with open(path) as f:
            ort = json.load(f)
        model = os.path.basename(ort["model"]).replace(".onnx", "")
        name = os.path.basename(path)
        r = int(name[len("ort_round"):].split("_")[0]) if name.startswith("ort_round") else 1
        heads[model] = ort.get("output_head", [])
        for run in ort["runs"]:
            ort_best.setdefault((model, run["threads"]), {})[r] = run["best_ms"]
    for (model, n), by_round in ort_best.items():
        ours = {}  # kind -> best ms over the rounds
        round_ratio = {}
        agree = True
        for r, eruns in sorted(eval_rounds.items()):
            best_this_round = None
            for kind in ("onnx", "onnx_o3"):
                b = eruns.get(f"{kind}/{model}/threads:{n}")
                if not b or b.get("error_occurred") or b.get("best_ms") is None:
                    continue
                ours[kind] = min(ours.get(kind, float("inf")), b["best_ms"])
                best_this_round = min(best_this_round or float("inf"), b["best_ms"])
                for i, ref in enumerate(heads.get(model, [])):
                    v = b.get(f"out_{i}")
                    if v is None or abs(v - ref) > 1e-5 + 1e-4 * abs(ref):
                        agree = False
            if best_this_round is not None and r in by_round:
                round_ratio[r] = best_this_round / by_round[r]
        if not ours:
            continue
        ort_ms = min(by_round.values())
        ratio = min(ours.values()) / ort_ms
        rounds = ", ".join(f"{round_ratio[r]:.2f}x" for r in sorted(round_ratio))
        w(f"| {model} | {n} | {fmt_ms(ort_ms)} | {fmt_ms(ours.get('onnx'))} | "
          f"{fmt_ms(ours.get('onnx_o3'))} | {ratio:.2f}x "
          f"({'met' if ratio <= 0.9 else 'NOT met'}) | {'yes' if agree else 'NO'} | {rounds} |")
    w("")


def main():
    ap = argparse.ArgumentParser()
    # Several files: make bench runs the chain benchmarks in processes of their own, several
    # times; a benchmark found in more than one file keeps its fastest run.
    ap.add_argument("--passes", required=True, nargs="+")
    ap.add_argument("--eval")
    ap.add_argument("--doc", default="docs/performance.md")
    ap.add_argument("--stderr-log", default="")
    # A Markdown section written by bench/python_bench.py (the Python package's costs).
    ap.add_argument("--python", default="")
    # build/bench/int8_bench's JSON (the int8 GEMM's variants, the reference loop, float32).
    ap.add_argument("--int8", default="")
    # build/bench/onnx_bench's JSON (ONNX import against reading the file's bytes).
    ap.add_argument("--onnx", default="")
    # build/bench/pattern_bench's JSON (the pattern language and BYOC passes).
    ap.add_argument("--pattern", default="")
    # bench/ort_bench.js's JSON per model (ONNX Runtime on the files eval_bench ran).
    ap.add_argument("--ort", nargs="*", default=[])
    # eval_bench's JSON of the later alternating rounds (eval_onnx_round<r>.json).
    ap.add_argument("--eval-rounds", nargs="*", default=[])
    args = ap.parse_args()

    context, runs = load(args.passes[0])
    processes = {}  # benchmark name -> how many processes ran it
    for path in args.passes[1:]:
        for name, run in load(path)[1].items():
            processes[name] = processes.get(name, 1 if name in runs else 0) + 1
            if name not in runs or better(run, runs[name]):
                runs[name] = run
    chain_processes = max((k for n, k in processes.items() if n.startswith("chain/")), default=1)
    out = []
    w = out.append
    w("# Performance")
    w("")
    w("Generated by `make bench` (`bench/passes_bench.cc`, `bench/report.py`); do not edit above")
    w("the marker line, edit the scripts. TVM's figures are v0.13's")
    w("(`../shared/anchors/tvm_timings.md`: Release build, LLVM 14, best of 5 wall-clock runs, on the")
    w("same kind of machine).")
    w("")
    w(f"Processor: {processor_description()}.")
    w("")
    w("## How it was measured")
    w("")
    load_avg = context.get("load_avg")
    load_txt = ", ".join(f"{x:.1f}" for x in load_avg) if load_avg else "unknown"
    w(f"- Machine: {context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz, "
      f"{platform.machine()}, {context.get('date', '')}; library build type "
      f"`{context.get('library_build_type', '?')}` (Google Benchmark's own); relaypass built Release "
      "(`-O2`).")
    busy = load_avg is not None and load_avg[0] > 1.5
    if busy:
        w(f"- **The machine was shared with other work while measuring** (load average at the start "
          f"of the run: {load_txt} on {context.get('num_cpus', '?')} CPUs). Wall times are inflated "
          "by waiting for a core; the thread CPU times are the steadier figure. Both are reported.")
    else:
        w(f"- The machine was otherwise idle (load average at the start of the run: {load_txt} on "
          f"{context.get('num_cpus', '?')} CPUs; the benchmark itself counts for one). Wall and "
          "thread CPU times are both reported.")
    w("- Each pass is applied directly (`pass(mod)`) under `PassContext({.opt_level = 3})` to the "
      "workload with its parameters bound as constants and `InferType` already run, as TVM's "
      "figures. A function pass's time includes the type inference it runs at its end. All "
      "iterations share one input module (passes never modify their input); the result is "
      "destroyed outside the timed region.")
    w("- Each pass's chain benchmarks (10k, 100k, 1M) run in a process of their own: in one "
      "process shared with the other benchmarks, the heap left by them (up to 1.3 GB high-water, "
      "freed and scattered) made the chain-1M times of the passes measured last 1.2x-1.5x higher "
      "while the chain-100k times did not move, i.e. it measured the earlier benchmarks' "
      "leftovers as superlinearity. A user's relay-opt run is such a fresh process.")
    w(f"- Each pass's chain process was run {chain_processes} times (`CHAIN_RUNS`), one pass after "
      "the other, round after round; each chain size keeps its fastest run. This virtual machine runs a whole process about 1.4x "
      "slower at times (bimodal; memory-bound code most), and the mode can change between the "
      "100k and the 1M run of one process: one process alone once put ConvertLayout at 15.4x "
      "(100k fast, 1M slow) where its 1M and 100k runs in one mode give 10x.")
    w("- relaypass's InferType returns a module that is its own unchanged output as it is "
      "(`IRModule::AllTypeInferred`); TVM's checks it again. So a pass that changes nothing, and "
      "InferType itself on the typed input, skip that check here. The `re-checked` columns run "
      "the same pass on the same IR with that mark cleared (each function replaced by a shallow "
      "copy), so every InferType does its full work: the like-for-like figure for the type "
      "checker. The chain benchmarks all use re-checked inputs.")
    w("- `best`: the fastest iteration, wall clock (TVM's figures are best of 5); `best CPU`: the "
      "fastest iteration's CPU time (the calling thread's; the whole process's for the text "
      "benchmarks, whose parser runs on a thread with a large stack); `mean CPU`: mean CPU time per "
      "iteration. "
      "Ratios are TVM's time over our best wall time (and over our best CPU time in brackets).")
    w("- The pipeline is relay-opt's `--pipeline=default` (`DefaultPipelineNames()` in "
      "`tools/relay-opt/pipeline.cc`, compiled into the benchmark) as one `Sequential` at -O3. "
      "TVM's figure is `relay.optimize` for the llvm target, which runs more passes (the ones "
      "relaypass does not implement) - the comparison favours us by those passes, but TVM's time is "
      "almost all FoldConstant compiling constant subgraphs with LLVM.")
    w("")

    # --- per pass
    w("## Passes on the networks (milliseconds)")
    w("")
    w("| pass | network | TVM | best | best CPU | mean CPU | ratio | best, re-checked | "
      "ratio, re-checked |")
    w("|---|---|---|---|---|---|---|---|---|")
    ratios = {}  # (pass, network) -> (wall ratio, cpu ratio)
    rechecked = {}  # (pass, network) -> (wall ratio, cpu ratio) with the input re-checked
    for name, tvm in TVM_PASS.items():
        for i, net in enumerate(NETWORKS):
            run = runs.get(f"pass/{net}/{name}")
            best, best_cpu, mean_cpu = cell(run)
            t = times(run)
            rrun = runs.get(f"pass/{net}/{name}/recheck")
            rbest = cell(rrun)[0]
            rt = times(rrun)
            rratio = ""
            if rt:
                rechecked[(name, net)] = (tvm[i] / rt[0], tvm[i] / rt[1] if rt[1] else None)
                rratio = f"{fmt_ratio(tvm[i] / rt[0])} ({fmt_ratio(tvm[i] / rt[1])})"
            ratio = ""
            if name == "InferType":
                # On its own output InferType does nothing; a ratio to TVM's full check would
                # say nothing about the checker. Judged on the re-checked input instead.
                ratio = "n/a (its own output: returned as is)"
                if rt:
                    ratios[(name, net)] = rechecked[(name, net)]
            elif t:
                ratios[(name, net)] = (tvm[i] / t[0], tvm[i] / t[1] if t[1] else None)
                ratio = f"{fmt_ratio(tvm[i] / t[0])} ({fmt_ratio(tvm[i] / t[1])})"
            w(f"| {PASS_LABEL.get(name, name)} | {net} | {fmt_ms(tvm[i])} | {best} | {best_cpu} | "
              f"{mean_cpu} | {ratio} | {rbest} | {rratio} |")
    for i, net in enumerate(NETWORKS):
        run = runs.get(f"pipeline/{net}")
        best, best_cpu, mean_cpu = cell(run)
        t = times(run)
        ratio = ""
        if t:
            ratios[("pipeline", net)] = (TVM_PIPELINE[i] / t[0], TVM_PIPELINE[i] / t[1])
            ratio = f"{fmt_ratio(TVM_PIPELINE[i] / t[0])} ({fmt_ratio(TVM_PIPELINE[i] / t[1])})"
        w(f"| default pipeline -O3 (TVM: `relay.optimize`) | {net} | {fmt_ms(TVM_PIPELINE[i])} | "
          f"{best} | {best_cpu} | {mean_cpu} | {ratio} |")
    w("")

    # --- more passes
    w("## More passes, resnet-50 (milliseconds)")
    w("")
    w("| pass | TVM | best | best CPU | mean CPU | ratio |")
    w("|---|---|---|---|---|---|")
    for name, (label, tvm) in TVM_MORE.items():
        run = runs.get(f"pass/resnet-50/{name}")
        best, best_cpu, mean_cpu = cell(run)
        t = times(run)
        ratio = f"{fmt_ratio(tvm / t[0])} ({fmt_ratio(tvm / t[1])})" if t and t[1] else ""
        w(f"| {label} | {fmt_ms(tvm)} | {best} | {best_cpu} | {mean_cpu} | {ratio} |")
    w("")

    # --- text
    w("## Text (milliseconds)")
    w("")
    w("| | network | TVM | best | best CPU | mean CPU | ratio |")
    w("|---|---|---|---|---|---|---|")
    for key, (label, tvm) in TVM_TEXT.items():
        for i, net in enumerate(NETWORKS):
            run = runs.get(f"text/{net}/{key}")
            best, best_cpu, mean_cpu = cell(run)
            t = times(run)
            ratio = f"{fmt_ratio(tvm[i] / t[0])} ({fmt_ratio(tvm[i] / t[1])})" if t else ""
            w(f"| {label} | {net} | {fmt_ms(tvm[i])} | {best} | {best_cpu} | {mean_cpu} | {ratio} |")
    w("")
    w("Parsing includes type inference, as TVM's `ParseModule`.")
    w("")
    # The physical limits for the bytes the metadata carries, measured in the same run.
    w("Against the limit: the same networks' weight bytes (all constants, one buffer) copied "
      "with `memcpy`, base64-encoded and decoded with `support/base64.h` (12-bit pair tables, "
      "8 characters per step) into memory already mapped; printing and parsing also allocate "
      "and fault in fresh memory for their output, and parsing type-checks the module.")
    w("")
    w("| network | weight MB | memcpy | base64 encode | base64 decode | print / encode | "
      "parse / decode |")
    w("|---|---|---|---|---|---|---|")
    for net in NETWORKS:
        lim = {k: times(runs.get(f"text/{net}/{k}")) for k in
               ("memcpy", "base64_encode", "base64_decode", "print_meta", "parse_meta")}
        if not all(lim.values()):
            continue
        mb = (runs[f"text/{net}/memcpy"].get("bytes") or 0) / 1e6
        pe = lim["print_meta"][1] / lim["base64_encode"][1]
        pd = lim["parse_meta"][1] / lim["base64_decode"][1]
        w(f"| {net} | {mb:.1f} | {fmt_ms(lim['memcpy'][1])} | {fmt_ms(lim['base64_encode'][1])} | "
          f"{fmt_ms(lim['base64_decode'][1])} | {pe:.1f}x | {pd:.1f}x |")
    w("")
    w("(CPU times, best of the run; the target is print and parse each within 3x of the limit.)")
    w("")
    w("The weights-folding step of the default pipeline: FoldConstant on what FoldScaleAxis "
      "leaves (after InferType, SimplifyInference, FoldConstant, FoldScaleAxis), against one "
      "pass over the weight bytes (`memcpy` above, same run). Target: within 2x. On these "
      "pre-activation networks (batch norm, ReLU, then convolution) FoldScaleAxis leaves the "
      "batch norms' multiplies in place, as TVM's does (the same printed output), so the step "
      "has little left to fold.")
    w("")
    w("| network | FoldConstant after FoldScaleAxis (CPU ms) | one pass over the weights | ratio |")
    w("|---|---|---|---|")
    for net in NETWORKS:
        fold = times(runs.get(f"fold/{net}/after_fold_scale_axis"))
        copy = times(runs.get(f"text/{net}/memcpy"))
        if fold and copy:
            w(f"| {net} | {fmt_ms(fold[1])} | {fmt_ms(copy[1])} | {fold[1] / copy[1]:.2f}x |")
    w("")

    # --- chains
    w("## Deep chains: scaling and peak memory")
    w("")
    w("`chain-N`: x: (1, 16) float32 through N ops alternating add(y, 1f) and nn.relu, typed first. "
      "Times in milliseconds (best wall / best thread CPU). The scaling column is the 1M time "
      "over the 100k time by CPU time (wall in brackets); linear is 10x, the target at most 12x.")
    w("")
    w("Peak memory is counted, not sampled: the benchmark binary replaces the global `operator "
      "new`/`delete` with versions that, while counting is on, add each block's "
      "`malloc_usable_size` to a live total and subtract it when freed. `input` is the live "
      "bytes of the typed chain (counted while it was built), `pass` the peak of the live total "
      "during one extra untimed run of the pass above its input (its output included), and "
      "per node = (input + pass) / N at N = 1M. `maxrss` is `getrusage` `ru_maxrss` of the "
      "whole process after that run: a high-water mark of everything the process held until then "
      "(the other chains, the networks, allocator slack); an upper bound, not a per-pass figure.")
    w("")
    w("| pass | TVM 10k | TVM 100k | 10k | 100k | 1M | 1M/100k | input B/node | pass peak B/node "
      "| total B/node | maxrss MiB |")
    w("|---|---|---|---|---|---|---|---|---|---|---|")
    chain_results = {}
    for name in list(TVM_PASS) + MORE_CHAIN + ["pipeline"]:
        cells = []
        t_by_n = {}
        for n in CHAIN_SIZES:
            run = runs.get(f"chain/{name}/{n}")
            t = times(run)
            t_by_n[n] = (t, run)
            cells.append(f"{fmt_ms(t[0])} / {fmt_ms(t[1])}" if t else error_of(run))
        t100, t1m = t_by_n[100000][0], t_by_n[1000000][0]
        scale_cpu = t1m[1] / t100[1] if (t100 and t1m and t100[1]) else None
        scale_wall = t1m[0] / t100[0] if (t100 and t1m and t100[0]) else None
        run1m = t_by_n[1000000][1]
        per_node = None
        mem = ["", "", "", ""]
        if t1m:
            inp = run1m.get("input_bytes", 0) / 1e6
            peak = run1m.get("peak_bytes", 0) / 1e6
            per_node = run1m.get("bytes_per_node")
            mem = [f"{inp:.0f}", f"{peak:.0f}", f"{per_node:.0f}", f"{run1m.get('maxrss_mib', 0):.0f}"]
        chain_results[name] = (t1m is not None, scale_cpu, scale_wall, per_node)
        tvm = TVM_CHAIN.get(name, (None, None))
        label = "default pipeline -O3" if name == "pipeline" else PASS_LABEL.get(name, name)
        scale = f"{scale_cpu:.1f}x ({scale_wall:.1f}x)" if scale_cpu and scale_wall else "n/a"
        w(f"| {label} | {fmt_ms(tvm[0])} | {fmt_ms(tvm[1])} | {' | '.join(cells)} | {scale} | "
          f"{' | '.join(mem)} |")
    w("")
    w("TVM at N = 100k: InferType 30x its 10k time, EliminateCommonSubexpr quadratic (362 s), "
      "FuseOps crashes on the default 8 MiB stack. Ratios to TVM on chains (by best wall time):")
    w("")
    w("| pass | 10k | 100k |")
    w("|---|---|---|")
    for name, (t10, t100) in TVM_CHAIN.items():
        r = []
        for n, tvm in ((10000, t10), (100000, t100)):
            t = times(runs.get(f"chain/{name}/{n}"))
            r.append(fmt_ratio(tvm / t[0]) if t else "n/a")
        w(f"| {PASS_LABEL.get(name, name)} | {r[0]} | {r[1]} |")
    w("")

    # --- input shapes (issue 19, class 3)
    w("## Input shapes")
    w("")
    w("Issue 19's shapes (`bench/shapes.h`, the same as `tests/reliability/scaling_test.cc`): "
      "`parse` is ParseModule with type inference, as relay-opt reads a file; `-run` the "
      "evaluator on main. Best wall / best CPU time in milliseconds; the ratio is 100k over 10k "
      "by CPU time (1M over 100k for the tuple chain): linear is 10x.")
    w("")
    w("| shape | 10k | 100k | 1M | ratio |")
    w("|---|---|---|---|---|")
    for shape in ("wide-function", "tuple-chain", "closure-chain", "closure-chain-run",
                  "global-chain", "global-chain-run"):
        t = {n: times(runs.get(f"shape/{shape}/{n}")) for n in (10000, 100000, 1000000)}
        cells = [f"{fmt_ms(t[n][0])} / {fmt_ms(t[n][1])}" if t[n] else
                 ("" if n == 1000000 and shape != "tuple-chain" else
                  error_of(runs.get(f"shape/{shape}/{n}"))) for n in (10000, 100000, 1000000)]
        lo, hi = (100000, 1000000) if shape == "tuple-chain" else (10000, 100000)
        ratio = (f"{t[hi][1] / t[lo][1]:.1f}x" if t[lo] and t[hi] and t[lo][1] else "n/a")
        w(f"| {shape} | {' | '.join(cells)} | {ratio} |")
    w("")

    # --- targets
    w("## Issue 8 targets")
    w("")
    w("Judged on the best wall time of this run (CPU-time ratio in brackets), on the input TVM's "
      "figures used (parameters bound, InferType run first); the last column is the same pass on "
      "the re-checked input (see above).")
    w("")
    w("| target | workload | reached | met | reached, re-checked input |")
    w("|---|---|---|---|---|")

    def met(wall, cpu, need):
        if wall is None:
            return "no (not measured)"
        if wall >= need:
            return "**yes**"
        if cpu is not None and cpu >= need:
            return "by CPU time only"
        return "**no**"

    for name in TVM_PASS:
        need = 100 if name in ("FoldConstant", "FoldScaleAxis") else 20
        wall, cpu = ratios.get((name, "resnet-50"), (None, None))
        reached = f"{fmt_ratio(wall)} ({fmt_ratio(cpu)})" if wall else "n/a"
        rwall, rcpu = rechecked.get((name, "resnet-50"), (None, None))
        rreached = f"{fmt_ratio(rwall)} ({fmt_ratio(rcpu)}): {met(rwall, rcpu, need)}" if rwall \
            else "n/a"
        w(f"| {PASS_LABEL.get(name, name)} >= {need}x faster | resnet-50 | {reached} | "
          f"{met(wall, cpu, need)} | {rreached} |")
    for net in ("resnet-18", "mobilenet"):
        wall, cpu = ratios.get(("pipeline", net), (None, None))
        reached = f"{fmt_ratio(wall)} ({fmt_ratio(cpu)})" if wall else "n/a"
        w(f"| default pipeline -O3 >= 100x faster than `relay.optimize` | {net} | {reached} | "
          f"{met(wall, cpu, 100)} | the same (the pipeline changes the module) |")
    for name, (done, scale_cpu, scale_wall, per_node) in chain_results.items():
        label = "default pipeline" if name == "pipeline" else PASS_LABEL.get(name, name)
        if not done:
            err = error_of(runs.get(f"chain/{name}/1000000"))
            w(f"| {label}: completes, 1M <= 12x 100k, <= 1 KiB/node | chain-1M | {err} "
              f"| **no** | (chain inputs are re-checked) |")
            continue
        lin = scale_cpu is not None and scale_cpu <= 12
        lin_wall = scale_wall is not None and scale_wall <= 12
        mem_ok = per_node is not None and per_node <= 1024
        parts = []
        parts.append("linear" if lin else "superlinear")
        parts.append("memory ok" if mem_ok else "memory over")
        verdict = "**yes**" if (lin and mem_ok) else "**no** (" + ", ".join(
            p for p in parts if p in ("superlinear", "memory over")) + ")"
        if lin and mem_ok and not lin_wall:
            verdict = "by CPU time only"
        w(f"| {label}: completes, 1M <= 12x 100k, <= 1 KiB/node | chain-1M | completes; "
          f"{scale_cpu:.1f}x CPU ({scale_wall:.1f}x wall), {per_node:.0f} B/node | {verdict} | "
          "(chain inputs are re-checked) |")
    w("")

    # --- evaluator run (numbers only; the prose is in the kept section)
    if args.eval and os.path.exists(args.eval):
        _, eruns = load(args.eval)
        w("## Evaluator, this run")
        w("")
        w("`build/bench/eval_bench` as run by `make bench` (the evaluator's default threads, one "
          "per core; the method and the single-threaded figures are in the Evaluator section "
          "below).")
        w("")
        w("| network | wall ms / inference | CPU ms / inference | BLAS share (wall) |")
        w("|---|---|---|---|")
        for key, b in sorted(eruns.items()):
            if b.get("error_occurred") or key.startswith("onnx"):
                continue
            w(f"| {key.replace('/real_time', '').split('/')[-1]} | {fmt_ms(b.get('real_time'))} | {fmt_ms(b.get('cpu_ms'))} | "
              f"{100 * b.get('blas_share', 0):.0f} % |")
        w("")

    # --- the pattern language and the BYOC passes
    if args.pattern and os.path.exists(args.pattern):
        _, pruns = load(args.pattern)
        w("## Pattern language and BYOC, this run")
        w("")
        w("`build/bench/pattern_bench` (bench/pattern_bench.cc says what each runs): rewrite and "
          "partition on chains, the BYOC passes on a chain and on resnet-50. Linear means the "
          "1M figure is about 10x the 100k one.")
        w("")
        w("| benchmark | CPU ms |")
        w("|---|---|")
        for key, b in sorted(pruns.items()):
            if b.get("error_occurred"):
                continue
            unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
            w(f"| {key} | {fmt_ms(b['cpu_time'] * unit)} |")
        w("")

    # --- the int8 products on the int8 GEMM's variants
    if args.int8 and os.path.exists(args.int8):
        int8_section(args.int8, w)

    # --- ONNX import against the floor of reading the file
    if args.onnx and os.path.exists(args.onnx):
        onnx_section(args.onnx, w)

    # --- the evaluator against ONNX Runtime
    if args.ort and args.eval and os.path.exists(args.eval):
        rounds = {1: load(args.eval)[1]}
        for path in args.eval_rounds:
            if os.path.exists(path):
                name = os.path.basename(path)
                rounds[int(name[len("eval_onnx_round"):].split(".")[0])] = load(path)[1]
        ort_section(args.ort, rounds, w)

    # --- the Python package's section, as bench/python_bench.py wrote it
    if args.python and os.path.exists(args.python):
        with open(args.python) as f:
            w(f.read().rstrip("\n"))
        w("")

    # --- keep the hand-written part
    kept = ""
    if os.path.exists(args.doc):
        with open(args.doc) as f:
            old = f.read()
        if KEEP_MARKER in old:
            kept = old.split(KEEP_MARKER, 1)[1].lstrip("\n")
        elif "## Evaluator" in old:
            kept = old[old.index("## Evaluator"):]
    w(KEEP_MARKER)
    w("")
    text = "\n".join(out) + kept
    if not text.endswith("\n"):
        text += "\n"
    with open(args.doc, "w") as f:
        f.write(text)
    print(f"report: wrote {args.doc}", file=sys.stderr)


if __name__ == "__main__":
    main()
