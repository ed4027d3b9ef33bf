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
  chain_ = MatchChain();
}

namespace {

// The common chains in one pass: a per-channel add (a folded bias or batch norm), optionally an
// elementwise add (a residual), then optionally relu (kClamp 1) or clip (kClamp 2). Each step
// rounds as its own loop in Apply does, so the bits are the same; one load and one store per
// element instead of one per step.
template <bool kTensor, int kClamp>
RELAYPASS_AVX2_CLONES void FusedChain(float* v, int64_t n, float bias, const float* t, float lo,
                                      float hi) {
  for (int64_t i = 0; i < n; ++i) {
    float x = v[i] + bias;
    if constexpr (kTensor) x = x + t[i];
    if constexpr (kClamp == 1) x = std::max(x, 0.0f);
    if constexpr (kClamp == 2) x = std::max(std::min(x, hi), lo);
    v[i] = x;
  }
}

}  // namespace

Epilogue::Chain Epilogue::MatchChain() const {
  using Kind = EpilogueStep::Kind;
  Chain chain;
  size_t i = 0;
  if (i == ops_.size() || ops_[i].kind != Kind::kAddChannel) return chain;
  ++i;
  if (i < ops_.size() && ops_[i].kind == Kind::kAddTensor) {
    chain.tensor = true;
    ++i;
  }
  if (i < ops_.size() && (ops_[i].kind == Kind::kRelu || ops_[i].kind == Kind::kClip)) {
    chain.clamp = ops_[i].kind == Kind::kRelu ? 1 : 2;
    ++i;
  }
  chain.matched = i == ops_.size();
  return chain;
}

RELAYPASS_AVX2_CLONES
void Epilogue::Apply(float* y, int64_t channel, int64_t offset, int64_t count) const {
  if (chain_.matched) {
    const float bias = ops_[0].data[channel];
    const float* t = chain_.tensor ? ops_[1].data + offset : nullptr;
    const Op& last = ops_.back();
    switch (chain_.clamp + 3 * chain_.tensor) {
      case 0:
        return FusedChain<false, 0>(y, count, bias, t, last.lo, last.hi);
      case 1:
        return FusedChain<false, 1>(y, count, bias, t, last.lo, last.hi);
      case 2:
        return FusedChain<false, 2>(y, count, bias, t, last.lo, last.hi);
      case 3:
        return FusedChain<true, 0>(y, count, bias, t, last.lo, last.hi);
      case 4:
        return FusedChain<true, 1>(y, count, bias, t, last.lo, last.hi);
      default:
        return FusedChain<true, 2>(y, count, bias, t, last.lo, last.hi);
    }
  }
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
