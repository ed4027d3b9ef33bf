#!/usr/bin/env bash
# Runs ../shared/checks/tutorials.py KIND on a seed's script through relaypass.tvm_compat and
# passes only if it ends "N passed, 0 failed". Exit 77 (ctest: skipped) when ../shared is absent.
set -euo pipefail
python=$1 shared=$2 kind=$3 script=$4
if [ ! -f "$shared/checks/tutorials.py" ] || [ ! -f "$shared/tutorials/$script.py" ]; then
  echo "skipped: $shared/checks/tutorials.py not found (a clone on its own)"
  exit 77
fi
out=$("$python" "$shared/checks/tutorials.py" "$kind" \
  "$python -m relaypass.tvm_compat $shared/tutorials/$script.py" 2>&1) || true
echo "$out"
echo "$out" | tail -n 1 | grep -Eq '^[0-9]+ passed, 0 failed$'
