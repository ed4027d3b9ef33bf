#!/usr/bin/env python3
"""make bench, transformer rows (issues 32 and 38): the BERT-style encoder of
scripts/test-bert-dynamic.py at BERT-base's size (hidden 768, 12 heads, 12 layers, intermediate
3072, vocabulary 30522; random weights drawn as BERT initialises them), exported from PyTorch
with dynamic batch and sequence axes and imported once without shapes. One batch of sequence
length 128 runs on relaypass's VM executor (the dynamic module as imported, and after the
default pipeline at opt_level 3) and on ONNX Runtime (bench/ort_bench.js, onnxruntime-node), at
1 and 2 threads, in alternating rounds; best times; the outputs must agree within rtol 1e-4 /
atol 1e-5.

    PYTHONPATH=build/python NODE_PATH=build/ort/node_modules \\
        python3 bench/transformer_bench.py OUT.md [--rounds 2] [--repeats 5] [--small]

--small uses the test's encoder (hidden 256, 2 layers) for a quick run. Writes a Markdown
section to OUT.md; exits 1 if the outputs disagree."""
import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SEQUENCE = 128


def load_encoder_script():
    path = os.path.join(HERE, "..", "scripts", "test-bert-dynamic.py")
    spec = importlib.util.spec_from_file_location("bert_dynamic", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def relaypass_best_ms(run, args, repeats):
    run(*args)  # warm-up
    times = []
    out = None
    for _ in range(repeats):
        start = time.perf_counter()
        out = run(*args)
        times.append((time.perf_counter() - start) * 1e3)
    return min(times), out.numpy()


def measure(work, repeats):
    """In a child process (its RELAYPASS_NUM_THREADS set before relaypass loads): the imported
    module and the -O3 one, best of `repeats` each; times to work/relaypass.json, the output to
    work/relaypass_out.npy."""
    import onnx
    import relaypass as tvm
    from relaypass import relay

    mod, _ = relay.frontend.from_onnx(onnx.load(os.path.join(work, "encoder.onnx")),
                                      freeze_params=True)
    runners = {"as imported": relay.create_executor("vm", mod=mod, target="llvm").evaluate()}
    with tvm.transform.PassContext(opt_level=3):
        runners["-O3"] = relay.create_executor("vm", mod=mod, target="llvm").evaluate()
    args = (tvm.nd.array(np.load(os.path.join(work, "ids.npy"))),
            tvm.nd.array(np.load(os.path.join(work, "mask.npy"))))
    times = {}
    for name, run in runners.items():
        times[name], out = relaypass_best_ms(run, args, repeats)
        np.save(os.path.join(work, "relaypass_out.npy"), out)
    with open(os.path.join(work, "relaypass.json"), "w") as f:
        json.dump(times, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--measure", metavar="WORK_DIR", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        measure(args.measure, args.repeats)
        return 0
    import torch

    bert = load_encoder_script()
    torch.manual_seed(0)
    sizes = {} if args.small else dict(vocab=30522, hidden=768, heads=12, layers=12,
                                        intermediate=3072)
    model = bert.build_encoder(torch, **sizes)
    work = tempfile.mkdtemp(prefix="transformer_bench_")
    path = os.path.join(work, "encoder.onnx")
    bert.export(torch, model, path)
    vocab = sizes.get("vocab", 1000)
    rng = np.random.default_rng(0)
    np.save(os.path.join(work, "ids.npy"),
            rng.integers(0, vocab, size=(1, SEQUENCE), dtype=np.int64))
    np.save(os.path.join(work, "mask.npy"), np.ones((1, SEQUENCE), dtype=np.int64))
    feeds = ["input_ids=" + os.path.join(work, "ids.npy"),
             "attention_mask=" + os.path.join(work, "mask.npy")]

    best, ort = {}, {}
    for _ in range(args.rounds):
        for threads in (1, 2):
            env = dict(os.environ, RELAYPASS_NUM_THREADS=str(threads))
            subprocess.run([sys.executable, os.path.abspath(__file__), args.out, "--measure",
                            work, "--repeats", str(args.repeats)], check=True, env=env)
            with open(os.path.join(work, "relaypass.json")) as f:
                for name, ms in json.load(f).items():
                    best[(name, threads)] = min(best.get((name, threads), ms), ms)
            result = os.path.join(work, "ort_%d.json" % threads)
            subprocess.run(["node", os.path.join(HERE, "ort_bench.js"), path, result,
                            str(args.repeats), str(threads)] + feeds, check=True)
            with open(result) as f:
                ort[threads] = min(ort.get(threads, 1e30), json.load(f)["runs"][0]["best_ms"])
    # relaypass's output (the -O3 module's, from the last child) against ONNX Runtime's.
    subprocess.run(["node", os.path.join(HERE, "..", "scripts", "ort-reference.js"), path,
                    os.path.join(work, "ort")] + feeds, check=True)
    reference = np.load(os.path.join(work, "ort", "output.npy"))
    ours = np.load(os.path.join(work, "relaypass_out.npy"))
    agree = ours.shape == reference.shape and np.allclose(ours, reference, rtol=1e-4, atol=1e-5)
    diff = float(np.max(np.abs(ours - reference))) if ours.shape == reference.shape else np.nan

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    title = "small BERT-style" if args.small else "BERT-base"
    lines = ["## Transformer: a %s encoder, dynamic batch and sequence, at sequence %d" %
             (title, SEQUENCE), "",
             "bench/transformer_bench.py on %s; one import without shapes, run on the VM "
             "executor; best of %d runs in each of %d alternating rounds; the output agrees with "
             "ONNX Runtime's within rtol 1e-4 / atol 1e-5: %s (max abs difference %.3g)." %
             (cpu, args.repeats, args.rounds, "yes" if agree else "**no**", diff), "",
             "| threads | relaypass as imported (ms) | relaypass -O3 (ms) | ONNX Runtime (ms) | "
             "-O3 / ONNX Runtime |", "|---|---|---|---|---|"]
    for threads in (1, 2):
        o3 = best[("-O3", threads)]
        lines.append("| %d | %.1f | %.1f | %.1f | %.2fx |" % (
            threads, best[("as imported", threads)], o3, ort[threads], o3 / ort[threads]))
    text = "\n".join(lines) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
