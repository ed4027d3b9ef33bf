#!/usr/bin/env python3
"""from_pytorch against torch.jit.trace (issue 33): torchvision's resnet-50 with random weights,
traced, then imported with relay.frontend.from_pytorch; ROUNDS alternating rounds of each, the
best time of each and their ratio, on this machine. (No measured TVM v0.13 figure for its
from_pytorch on resnet-50 was found to compare with.)

Writes a Markdown section to argv[1]. Run with PYTHONPATH=<build>/python and Debian's python3
(torch, torchvision)."""
import platform
import sys
import time

ROUNDS = 3


def main(out_path):
    import torch
    import torchvision

    from relaypass import relay

    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = torchvision.models.resnet50(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    trace_times, import_times = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        with torch.no_grad():
            traced = torch.jit.trace(model, x)
        trace_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        relay.frontend.from_pytorch(traced, [("input0", (1, 3, 224, 224))])
        import_times.append(time.perf_counter() - start)
    trace, imported = min(trace_times), min(import_times)
    lines = [
        "",
        "### from_pytorch against torch.jit.trace (resnet-50, random weights)",
        "",
        "Best of %d alternating rounds on %s (%s), one PyTorch thread." % (
            ROUNDS, platform.processor() or platform.machine(), platform.node()),
        "",
        "| step | best (s) |",
        "|---|---|",
        "| torch.jit.trace | %.2f |" % trace,
        "| relay.frontend.from_pytorch | %.2f |" % imported,
        "| ratio (from_pytorch / trace) | %.2fx |" % (imported / trace),
        "",
    ]
    with open(out_path, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1])
