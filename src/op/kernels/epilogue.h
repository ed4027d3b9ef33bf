// The kernels' form of an op::EpilogueStep list for one float32 output: raw pointers, applied to a
// run of elements of one output channel right after the kernel computed them (while they are in
// cache). Each step does what its op's own kernel does to an element (elementwise.cc: BiasAdd,
// Add, Clip, Relu), so fusing changes no bit of the result.
#pragma once

#include <cstdint>
#include <vector>

#include "relaypass/op/conv2d_epilogue.h"

namespace relaypass::op::kernels {

class Epilogue {
 public:
  // `steps` for an NCHW output of `channels` channels and `size` elements in all; fails if an
  // add's operand has neither `channels` nor `size` elements (as its kind says).
  Epilogue(const std::vector<EpilogueStep>& steps, int64_t channels, int64_t size);

  bool empty() const { return ops_.empty(); }

  // y[0, count) are elements [offset, offset + count) of the output (counted from its start),
  // all of channel `channel` in [0, channels).
  void Apply(float* y, int64_t channel, int64_t offset, int64_t count) const;

 private:
  struct Op {
    EpilogueStep::Kind kind;
    const float* data;
    float lo, hi;
  };
  // ops_ as one of the chains Apply runs in a single loop (epilogue.cc).
  struct Chain {
    bool matched = false, tensor = false;
    int clamp = 0;  // 0 none, 1 relu, 2 clip
  };
  Chain MatchChain() const;

  std::vector<Op> ops_;
  Chain chain_;
};

}  // namespace relaypass::op::kernels
