// A convolution's patch matrix (im2col's [in_per_group * KH * KW, OH * OW] of one group of one
// image) as a PanelSource for the packed GEMM: each block is gathered straight from the input
// into the kernel's panels, so the patch matrix is never written out whole (for resnet-50 that
// is 56 MB of writes and reads an inference saved). The input is first copied once with its
// zero padding around it, so that every run of a patch row is a plain (or strided) copy with no
// bounds to check. Only where PackedSgemmAvailable().
#pragma once

#include <vector>

#include "conv_geometry.h"
#include "packed_sgemm.h"

namespace relaypass::op::kernels {

class ConvPanelSource final : public PanelSource {
 public:
  // `src` is the group's first input channel of the image (in_per_group planes follow).
  ConvPanelSource(const ConvGeometry& g, const float* src);
  void Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const override;

 private:
  // Row p of the patch matrix, columns [j0, j0 + nc), into row[0, nc).
  void PatchRow(int64_t p, int64_t j0, int64_t nc, float* row) const;

  const ConvGeometry& g_;
  std::vector<float> padded_;  // empty when the input needs no padding
  const float* planes_;        // the (padded) input planes, each padded_h_ x padded_w_
  int64_t padded_h_, padded_w_;
};

}  // namespace relaypass::op::kernels
