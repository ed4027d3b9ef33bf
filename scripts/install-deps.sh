#!/usr/bin/env bash
# Installs the Debian packages relaypass needs, skipping those already present.
set -euo pipefail
# With --fuzz: also clang and its runtime libraries, for `make fuzz` (libFuzzer) only.
packages=(g++ cmake ninja-build ccache libgtest-dev libgmock-dev libbenchmark-dev
          libopenblas-dev libcli11-dev libfmt-dev python3
          pybind11-dev python3-dev python3-numpy python3-pytest pkg-config
          libonnx-dev libprotobuf-dev protobuf-compiler libonnx-testdata python3-onnx
          libgraphviz-dev nlohmann-json3-dev libre2-dev
          python3-scipy  # TVM's own op tests (make test-tvm) import scipy at module level
          python3-torch python3-torchvision  # relay.frontend.from_pytorch and its tests
          chromium)  # the pass explorer's browser test (tests/report/browser_check.py)
if [ "${1:-}" = "--fuzz" ]; then packages+=(clang libclang-rt-14-dev); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
