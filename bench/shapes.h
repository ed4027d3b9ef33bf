// The input shapes of issue 19's class 3 as Relay text (the same shapes as
// tests/reliability/scaling_test.cc): `make bench` times them at 10k and 100k (1M for the tuple
// chain) to show they scale linearly (bench/report.py, "Input shapes").
#pragma once

#include <cstdint>
#include <string>

namespace relaypass::bench {

inline const char* ShapeTensorType() {
  return "Tensor[(1, 4), float32]";
}

// main with n parameters, returning add(%p0, %p(n-1)).
inline std::string WideFunctionText(int64_t n) {
  std::string text = "def @main(";
  for (int64_t i = 0; i < n; ++i) {
    text += (i ? ", %p" : "%p") + std::to_string(i) + ": " + ShapeTensorType();
  }
  return text + ") {\n  add(%p0, %p" + std::to_string(n - 1) + ")\n}\n";
}

// %i = (%(i-1),): types nested n deep.
inline std::string TupleChainText(int64_t n) {
  std::string text = "def @main(%x: " + std::string(ShapeTensorType()) + ") {\n  %0 = (%x,);\n";
  for (int64_t i = 1; i < n; ++i) {
    text += "  %" + std::to_string(i) + " = (%" + std::to_string(i - 1) + ",);\n";
  }
  return text + "  %" + std::to_string(n - 1) + "\n}\n";
}

// %i = fn (%yi) { %(i-1)(%yi) }: each closure calls the one before; main calls the last on x.
inline std::string ClosureChainText(int64_t n) {
  const std::string t = ShapeTensorType();
  std::string text = "def @main(%x: " + t + ") {\n  %0 = fn (%y0: " + t + ") { add(%y0, %x) };\n";
  for (int64_t i = 1; i < n; ++i) {
    const std::string y = "%y" + std::to_string(i);
    text += "  %" + std::to_string(i) + " = fn (" + y + ": " + t + ") { %" + std::to_string(i - 1) +
            "(" + y + ") };\n";
  }
  return text + "  %" + std::to_string(n - 1) + "(%x)\n}\n";
}

// @fi calls @f(i-1) (full signatures); @f0 is x + x; main calls the last.
inline std::string GlobalChainText(int64_t n) {
  const std::string t = ShapeTensorType();
  std::string text = "def @f0(%x: " + t + ") -> " + t + " {\n  add(%x, %x)\n}\n";
  for (int64_t i = 1; i < n; ++i) {
    text += "def @f" + std::to_string(i) + "(%x: " + t + ") -> " + t + " {\n  @f" +
            std::to_string(i - 1) + "(%x)\n}\n";
  }
  return text + "def @main(%x: " + t + ") {\n  @f" + std::to_string(n - 1) + "(%x)\n}\n";
}

}  // namespace relaypass::bench
