// The B operand of PackedSgemm (packed_sgemm.h) laid out once, in advance: a dense layer's
// constant weight W [n, k], read as B = W^T [k, n] (out = data * W^T), the way ONNX Runtime
// prepacks MatMul's constant B. Each panel of 32 columns of B is k x 32 floats (row p holds
// W[j..j+32][p], zeros past n), one panel after the other, so the kernel reads any depth block of
// a panel in place: no packing and no transposing in the calls.
#pragma once

#include <cstdint>
#include <memory>

#include "packed_sgemm.h"

namespace relaypass::op::kernels {

class PrepackedPanels final : public PanelSource {
 public:
  // W [n, k] with row pitch ldw. Packing is split over support::ParallelFor.
  PrepackedPanels(int64_t n, int64_t k, const float* w, int64_t ldw);
  int64_t columns() const { return n_; }
  int64_t depth() const { return k_; }
  void Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const override;
  const float* Prepacked(int64_t k0, int64_t j0, int64_t* panel_stride) const override;

 private:
  struct Free {
    void operator()(float* p) const;
  };
  int64_t n_, k_;
  std::unique_ptr<float, Free> data_;
};

}  // namespace relaypass::op::kernels
