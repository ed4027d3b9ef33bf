#!/usr/bin/env bash
# Installs the build tree BUILD into a scratch prefix, then builds the README's C++ example (the
# ```cpp block of README.md, taken from the README itself so the two cannot drift) as an outside
# project three ways: CMake with relaypass::relaypass (static), CMake with
# relaypass::relaypass_shared, and g++ with `pkg-config --cflags --libs relaypass`. Each binary
# must run and print the optimized module and the timing report.
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" > "$work/install.log"
awk '/^```cpp$/ {on=1; next} /^```$/ {if (on) exit} on {print}' "$source/README.md" \
  > "$work/readme_example.cc"
[ -s "$work/readme_example.cc" ] || { echo "no \`\`\`cpp block in README.md"; exit 1; }

check_output() {  # the example prints the fused module, then the timing tree
  grep -q '^def @main(%x: Tensor\[(1, 16), float32\]' "$1" &&
    grep -q 'FoldConstant: [0-9]*us' "$1" && grep -q 'Primitive=1' "$1" ||
    { echo "unexpected output of $2:"; cat "$1"; exit 1; }
}

cmake -S "$source/tests/outside_project" -B "$work/cmake-build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" -DEXAMPLE_SOURCE="$work/readme_example.cc" > "$work/configure.log"
cmake --build "$work/cmake-build" > "$work/build.log"
"$work/cmake-build/readme_example" > "$work/out-static.txt"
check_output "$work/out-static.txt" "the CMake build (static)"
LD_LIBRARY_PATH="$prefix/lib" "$work/cmake-build/readme_example_shared" > "$work/out-shared.txt"
check_output "$work/out-shared.txt" "the CMake build (shared)"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
g++ -Wall -Wextra -Werror "$work/readme_example.cc" -o "$work/pc-example" \
  $(pkg-config --cflags --libs relaypass)
LD_LIBRARY_PATH="$prefix/lib" "$work/pc-example" > "$work/out-pc.txt"
check_output "$work/out-pc.txt" "the pkg-config build"
echo "outside project: CMake (static and shared) and pkg-config builds of the README example ran"
