#include "epilogue.h"

#include <algorithm>
#include <string>

#include "kernel_util.h"
#include "target_clones.h"

namespace relaypass::op::kernels {

Epilogue::Epilogue(const std::vector<EpilogueStep>& steps, int64_t channels, int64_t size) {
  ops_.reserve(steps.size());
  for (const EpilogueStep& step : steps) {
    Op op{step.kind, nullptr, step.lo, step.hi};
    if (step.kind == EpilogueStep::Kind::kAddChannel ||
        step.kind == EpilogueStep::Kind::kAddTensor) {
      const bool per_channel = step.kind == EpilogueStep::Kind::kAddChannel;
      const int64_t expected = per_channel ? channels : size;
      if (!step.operand.defined() || step.operand.dtype() != DataType::Float32() ||
          step.operand.size() != expected) {
        Fail(std::string("fused epilogue: the ") + (per_channel ? "per-channel" : "elementwise") +
             " operand of an add needs " + std::to_string(expected) + " float32 values");
      }
      op.data = step.operand.data<float>();
    }
    ops_.push_back(op);
  }
}

RELAYPASS_AVX2_CLONES
void Epilogue::Apply(float* y, int64_t channel, int64_t offset, int64_t count) const {
  // Tiles small enough for L1, so the steps' loops (each vectorized) re-read no memory.
  constexpr int64_t kTile = 512;
  for (int64_t start = 0; start < count; start += kTile) {
    const int64_t n = std::min(kTile, count - start);
    float* v = y + start;
    for (const Op& op : ops_) {
      switch (op.kind) {
        case EpilogueStep::Kind::kAddChannel: {
          const float b = op.data[channel];
          for (int64_t i = 0; i < n; ++i) v[i] = v[i] + b;
          break;
        }
        case EpilogueStep::Kind::kAddTensor: {
          const float* t = op.data + offset + start;
          for (int64_t i = 0; i < n; ++i) v[i] = v[i] + t[i];
          break;
        }
        case EpilogueStep::Kind::kClip: {
          const float lo = op.lo, hi = op.hi;
          for (int64_t i = 0; i < n; ++i) v[i] = std::max(std::min(v[i], hi), lo);
          break;
        }
        case EpilogueStep::Kind::kRelu:
          for (int64_t i = 0; i < n; ++i) v[i] = std::max(v[i], 0.0f);
          break;
      }
    }
  }
}

}  // namespace relaypass::op::kernels
