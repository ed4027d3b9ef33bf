#!/usr/bin/env python3
"""make test-models, dynamic part (issue 32 item 6): a BERT-style transformer encoder written in
PyTorch (embeddings with positions from arange(sequence length), multi-head self-attention with
an additive mask, GELU feed-forward, post-layer norms, as Hugging Face's BertModel; random weights
drawn as BERT initialises them, std 0.02, so every layer stays well conditioned), exported to
ONNX with dynamic batch and sequence axes. relaypass imports the model once, with no input shape
given (the axes stay `?`), and runs that one module at sequence lengths 8, 64 and 384; each
output must agree with ONNX Runtime's on the same input within rtol 1e-4 / atol 1e-5.

  scripts/test-bert-dynamic.py --package build/python --ort build/ort [--out DIR]

ONNX Runtime runs through scripts/ort-reference.js (onnxruntime-node under --ort, as
scripts/test-models.sh installs it). Exits 1 if a length disagrees or fails."""
import argparse
import math
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LENGTHS = (8, 64, 384)
RTOL, ATOL = 1e-4, 1e-5


def build_encoder(torch, vocab=1000, hidden=256, heads=4, layers=2, intermediate=1024,
                  max_positions=512):
    nn = torch.nn

    class SelfAttention(nn.Module):
        def __init__(self):
            super().__init__()
            self.heads, self.head_dim = heads, hidden // heads
            self.query = nn.Linear(hidden, hidden)
            self.key = nn.Linear(hidden, hidden)
            self.value = nn.Linear(hidden, hidden)
            self.output = nn.Linear(hidden, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)

        def split(self, x):  # (batch, seq, hidden) -> (batch, heads, seq, head_dim)
            batch, seq = x.size(0), x.size(1)
            return x.view(batch, seq, self.heads, self.head_dim).permute(0, 2, 1, 3)

        def forward(self, x, mask):
            q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim) + mask
            context = torch.matmul(torch.softmax(scores, dim=-1), v).permute(0, 2, 1, 3)
            context = context.reshape(x.size(0), x.size(1), hidden)
            return self.norm(x + self.output(context))

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.attention = SelfAttention()
            self.up = nn.Linear(hidden, intermediate)
            self.down = nn.Linear(intermediate, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x, mask):
            x = self.attention(x, mask)
            return self.norm(x + self.down(torch.nn.functional.gelu(self.up(x))))

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.words = nn.Embedding(vocab, hidden)
            self.positions = nn.Embedding(max_positions, hidden)
            self.norm = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList([Layer() for _ in range(layers)])

        def forward(self, input_ids, attention_mask):
            positions = torch.arange(input_ids.size(1), dtype=torch.int64).unsqueeze(0)
            x = self.norm(self.words(input_ids) + self.positions(positions))
            # 0 where attended, -10000 where masked, broadcast over heads and query positions.
            mask = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
            for layer in self.layers:
                x = layer(x, mask)
            return x

    model = Encoder().eval()
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(torch.ones_like(p) if name.endswith("weight") else torch.zeros_like(p))
            elif name.endswith("bias"):
                p.zero_()
            else:
                p.normal_(0.0, 0.02)
    return model


def export(torch, model, path):
    ids = torch.zeros(1, 8, dtype=torch.int64)
    mask = torch.ones(1, 8, dtype=torch.int64)
    torch.onnx.export(model, (ids, mask), path, input_names=["input_ids", "attention_mask"],
                      output_names=["hidden"], opset_version=14,
                      dynamic_axes={"input_ids": {0: "batch", 1: "sequence"},
                                    "attention_mask": {0: "batch", 1: "sequence"},
                                    "hidden": {0: "batch", 1: "sequence"}})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package", required=True, help="folder holding the relaypass package")
    parser.add_argument("--ort", required=True, help="folder holding node_modules/onnxruntime-node")
    parser.add_argument("--out", default="build/models/bert_dynamic")
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.package))
    import onnx
    import torch
    import relaypass as tvm
    from relaypass import relay

    torch.manual_seed(0)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.onnx")
    export(torch, build_encoder(torch), path)

    # One import, no shapes given: batch and sequence stay dynamic.
    start = time.time()
    mod, params = relay.frontend.from_onnx(onnx.load(path), freeze_params=True)
    import_seconds = time.time() - start
    main_type = mod["main"].checked_type if hasattr(mod["main"], "checked_type") else None
    print("imported in %.2f s; main: %s" % (import_seconds, main_type))
    run = relay.create_executor("vm", mod=mod, target="llvm").evaluate()

    rng = np.random.default_rng(0)
    env = dict(os.environ, NODE_PATH=os.path.join(os.path.abspath(args.ort), "node_modules"))
    status = 0
    print("| sequence length | output shape | max abs error vs ONNX Runtime | agrees |")
    print("|---|---|---|---|")
    for length in LENGTHS:
        ids = rng.integers(0, 1000, size=(2, length), dtype=np.int64)
        mask = np.ones((2, length), dtype=np.int64)
        mask[1, length * 3 // 4:] = 0  # the second sequence is padded at the end
        folder = os.path.join(args.out, "len%d" % length)
        os.makedirs(folder, exist_ok=True)
        np.save(os.path.join(folder, "input_ids.npy"), ids)
        np.save(os.path.join(folder, "attention_mask.npy"), mask)
        subprocess.run(["node", os.path.join(HERE, "ort-reference.js"), path,
                        os.path.join(folder, "ort"),
                        "input_ids=" + os.path.join(folder, "input_ids.npy"),
                        "attention_mask=" + os.path.join(folder, "attention_mask.npy")],
                       check=True, env=env)
        ref = np.load(os.path.join(folder, "ort", "output.npy"))
        try:
            got = run(tvm.nd.array(ids), tvm.nd.array(mask)).numpy()
        except Exception as e:  # reported as a failure of this length, not a crash of the script
            print("| %d | - | %s: %s | no |" % (length, type(e).__name__, str(e)[:200]))
            status = 1
            continue
        ok = got.shape == ref.shape and np.allclose(got, ref, rtol=RTOL, atol=ATOL)
        err = float(np.max(np.abs(got - ref))) if got.shape == ref.shape else float("nan")
        print("| %d | %s | %.3g | %s |" % (length, got.shape, err, "yes" if ok else "**no**"))
        status |= 0 if ok else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
