#!/bin/sh
# make test-models: torchvision models (scripts/export-models.py, random calibrated weights)
# imported by relaypass and run on its evaluator before and after --pipeline=default -O3, against
# ONNX Runtime (onnxruntime-node, installed under the build folder) within rtol 1e-4 / atol 1e-5.
# For information, the table also gives how far ONNX Runtime's and relaypass's float32 answers
# are from the network run in float64 by PyTorch (export-models.py makes the networks
# well-conditioned enough that float32 rounding uses at most half the tolerance).
# Writes a table (model, nodes, ops, import time, max abs error before / after, distances to
# float64) to $BUILD/models/report.md and fails if a model does not agree.
#
#   scripts/test-models.sh [BUILD] [MODELS]   (MODELS: comma-separated, default: export-models' list)
#   SKIP_EXPORT=1 scripts/test-models.sh ...   (reuse the exported models)
set -eu
BUILD=${1:-build}
MODELS=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT="$BUILD/models"
ORT="$BUILD/ort"
mkdir -p "$OUT"
# A Python with torch (Debian's python3-torch lives in /usr/bin/python3 when another python3
# comes first on the PATH).
PY=${PYTHON:-python3}
"$PY" -c "import torch, torchvision, onnx" 2>/dev/null || PY=/usr/bin/python3

# SKIP_EXPORT=1 reuses the models already in $OUT.
if [ "${SKIP_EXPORT:-0}" != 1 ]; then
  if [ -n "$MODELS" ]; then
    "$PY" "$ROOT/scripts/export-models.py" --out "$OUT" --models "$MODELS"
  else
    "$PY" "$ROOT/scripts/export-models.py" --out "$OUT"
  fi
fi

if [ ! -d "$ORT/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ORT"
  (cd "$ORT" && { [ -f package.json ] || npm init -y >/dev/null; } &&
   npm install --ignore-scripts --no-audit --no-fund onnxruntime-node)
fi

status=0
printf '| model | nodes | ops | import + print (s) | max abs error | after -O3 | ONNX Runtime vs float64 | relaypass vs float64 |\n|---|---|---|---|---|---|---|---|\n' \
  > "$OUT/report.md"
for dir in "$OUT"/*/; do
  name=$(basename "$dir")
  [ -f "$dir/model.onnx" ] || continue
  NODE_PATH="$ORT/node_modules" node "$ROOT/scripts/ort-reference.js" "$dir/model.onnx" \
    "$dir/ort" "input=$dir/input.npy"
  start=$(date +%s.%N)
  "$BUILD/relay-opt" "$dir/model.onnx" --bind-params -o "$dir/imported.relay"
  end=$(date +%s.%N)
  # Without --bind-params: --run takes the initializers' values (the model's weights) itself.
  "$BUILD/relay-opt" "$dir/model.onnx" --run --input "input=$dir/input.npy" \
    --output "$dir/before.npy" -o /dev/null
  "$BUILD/relay-opt" "$dir/model.onnx" --bind-params --pipeline=default -O3 --run \
    --input "input=$dir/input.npy" --output "$dir/after.npy" -o /dev/null
  "$PY" - "$dir" "$name" "$start" "$end" >> "$OUT/report.md" <<'PY' || status=1
import sys
import numpy as np
d, name, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
ref = np.load(d + "/ort/output.npy")
errs, verdicts, ok = [], [], True
for which in ("before", "after"):
    got = np.load(d + "/" + which + ".npy")
    same = got.shape == ref.shape
    err = float(np.max(np.abs(got.astype("float64") - ref))) if same else float("inf")
    if same and np.allclose(got, ref, rtol=1e-4, atol=1e-5):
        verdicts.append("ok")
    else:
        verdicts.append("DISAGREES")
        ok = False
    errs.append(err)
# Information only: each float32 answer's max abs distance to the float64 one (PyTorch), and the
# share of the tolerance (atol + rtol * |float64|) it uses up at worst.
exact = np.load(d + "/float64_output.npy")
def to_exact(y):
    if y.shape != exact.shape:
        return "-"
    e = np.abs(y.astype("float64") - exact)
    return "%.2e (%.2f)" % (float(e.max()), float(np.max(e / (1e-5 + 1e-4 * np.abs(exact)))))
import onnx
m = onnx.load(d + "/model.onnx", load_external_data=False)
ops = len({n.op_type for n in m.graph.node})
print("| %s | %d | %d | %.2f | %.2e (%s) | %.2e (%s) | %s | %s |" % (
    name, len(m.graph.node), ops, end - start, errs[0], verdicts[0], errs[1], verdicts[1],
    to_exact(ref), to_exact(np.load(d + "/before.npy"))))
if not ok:
    print("%s: relaypass and ONNX Runtime disagree (max abs error %g / %g)" % (name, errs[0], errs[1]), file=sys.stderr)
    sys.exit(1)
PY
done
cat "$OUT/report.md"
exit $status
