// The evaluator's own float32 GEMM for processors with AVX-512: the convolutions' products
// (conv2d.cc), where OpenBLAS is not at its best. Debian 12's OpenBLAS 0.3.21 does not know AMD's
// AVX-512 processors (Zen 4 and 5) and runs its Haswell kernels there, at half their width
// (docs/performance.md). This is the GotoBLAS / BLIS scheme: B packed a block of KC rows by NC
// columns at a time, A a block of MC rows by KC, and a register-blocked kernel of 14 rows by 32
// columns (28 AVX-512 accumulators) over the packed blocks.
//
// The epilogue (epilogue.h) runs on each block of C right after its last product, in cache.
//
// Each element of C is the same sum in the same order (KC-deep partial sums, each by fused
// multiply-adds in k order) whatever the thread count or the split: the same bits at any thread
// count, as the OpenBLAS path (gemm.h).
#pragma once

#include <cstdint>
#include <memory>

#include "epilogue.h"

namespace relaypass::op::kernels {

// A (m x k, row pitch lda) laid out for the kernel: depth blocks of KC, each a run of 14-row
// slivers, each sliver kc x 14 (row p holds A[i][p] of the sliver's rows, zeros past m). A
// convolution's weight is packed once, when the evaluator first meets it (eval/fused_conv.cc);
// other products pack A in each call. Packing is split over support::ParallelFor.
class PackedA {
 public:
  PackedA(int64_t m, int64_t k, const float* a, int64_t lda);
  int64_t rows() const { return m_; }
  int64_t depth() const { return k_; }
  // The sliver of row block `row_block` (rows 14 * row_block on) in the depth block starting at
  // k0.
  const float* Sliver(int64_t k0, int64_t row_block) const;

 private:
  struct Free {
    void operator()(float* p) const;
  };
  int64_t m_, k_, row_blocks_;
  std::unique_ptr<float, Free> data_;
};

// B as the kernel reads it: panels of 32 columns, each kc x 32 (row p holds B[p][j..j+32), zeros
// past the matrix), produced block by block as the kernel reaches them.
class PanelSource {
 public:
  static constexpr int64_t kPanelWidth = 32;
  virtual ~PanelSource() = default;
  // Rows [k0, k0 + kc) by columns [j0, j0 + nc) of B into dst (64-byte aligned), panel after
  // panel.
  virtual void Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const = 0;
  // Where B is laid out in advance (a constant weight, prepacked_panels.h): the panel of columns
  // [j0, j0 + 32) from row k0 on, with the next panel `*panel_stride` floats further; the kernel
  // then reads it in place instead of calling Pack. Null (the default): call Pack.
  virtual const float* Prepacked(int64_t /*k0*/, int64_t /*j0*/, int64_t* /*panel_stride*/) const {
    return nullptr;
  }
};

// B as a row-major matrix with row pitch ldb.
class MatrixPanelSource final : public PanelSource {
 public:
  MatrixPanelSource(const float* b, int64_t ldb) : b_(b), ldb_(ldb) {}
  void Pack(int64_t k0, int64_t kc, int64_t j0, int64_t nc, float* dst) const override;

 private:
  const float* b_;
  int64_t ldb_;
};

// True where PackedSgemm can run: an x86-64 processor with AVX-512F, unless the environment sets
// RELAYPASS_PACKED_SGEMM=0 (then the products go to OpenBLAS, as on other processors).
bool PackedSgemmAvailable();

// C[m, n] = A[m, k] * B[k, n] (row-major; row pitches lda, ldb, ldc), then `epilogue` (may be null)
// on C, whose row i is output channel first_channel + i and starts at element offset + i * ldc of
// the output. Split over support::ParallelFor. Only where PackedSgemmAvailable().
void PackedSgemm(int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
                 int64_t ldb, float* c, int64_t ldc, const Epilogue* epilogue,
                 int64_t first_channel, int64_t offset);
// The same with A packed in advance (m = a.rows(), k = a.depth()) and B read from `b`, n columns.
void PackedSgemm(const PackedA& a, const PanelSource& b, int64_t n, float* c, int64_t ldc,
                 const Epilogue* epilogue, int64_t first_channel, int64_t offset);

}  // namespace relaypass::op::kernels
