// Depthwise convolution. Every output element is 0, then + w * x for each kernel tap that falls
// inside the input (padding taps skipped), kh-major: the same sum in the same order on every path,
// so the paths agree bit for bit and the result does not depend on the thread count.
//
// Float 3x3 kernels (MobileNet's) take fast paths. Stride 1 with padding 1 (output the input's
// size) reads the input in place: one vectorizable loop over nine unit-stride streams for the
// interior, the border elements by the definition. Other 3x3 kernels of stride 1 or 2 copy each
// channel's input with its zero padding into a scratch plane (stride 2: even and odd columns
// apart), then each output row is one such loop. Other shapes sum each output row tap by tap in a
// row buffer.
#include "depthwise_conv.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "kernel_util.h"
#include "relaypass/support/parallel.h"
#include "target_clones.h"

namespace relaypass::op::kernels {

namespace {

// out[i] for i in [0, n): the nine taps' products summed in order onto 0; p<k>[i] is the input
// under tap k (kh * 3 + kw). __restrict: the output row is not an input.
RELAYPASS_AVX2_CLONES
void InteriorRow3x3(int64_t n, const float* w, const float* __restrict p0,
                    const float* __restrict p1, const float* __restrict p2,
                    const float* __restrict p3, const float* __restrict p4,
                    const float* __restrict p5, const float* __restrict p6,
                    const float* __restrict p7, const float* __restrict p8, float* __restrict out) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6],
              w7 = w[7], w8 = w[8];
  for (int64_t i = 0; i < n; ++i) {
    float acc = 0.0f;  // kept (not folded into the first product): 0 + -0 is +0, as elsewhere
    acc += w0 * p0[i];
    acc += w1 * p1[i];
    acc += w2 * p2[i];
    acc += w3 * p3[i];
    acc += w4 * p4[i];
    acc += w5 * p5[i];
    acc += w6 * p6[i];
    acc += w7 * p7[i];
    acc += w8 * p8[i];
    out[i] = acc;
  }
}

// One output channel, any geometry: each output row summed tap by tap in `acc` (L1-resident).
template <typename T>
void GeneralChannel(const ConvGeometry& g, const T* src, const T* w, T* dst, std::vector<T>& acc) {
  for (int64_t oh = 0; oh < g.out_height; ++oh) {
    std::fill(acc.begin(), acc.end(), T(0));
    T* a = acc.data();
    for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
      const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dilation_h;
      if (ih < 0 || ih >= g.height) continue;
      const T* srow = src + ih * g.width;
      for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
        const T wv = w[kh * g.kernel_w + kw];
        const int64_t off = kw * g.dilation_w - g.pad_left;
        int64_t lo, hi;
        ValidRange(off, g.stride_w, g.width, g.out_width, &lo, &hi);
        if (g.stride_w == 1) {
          const T* s = srow + off;
          for (int64_t ow = lo; ow <= hi; ++ow) a[ow] += wv * s[ow];
        } else {
          for (int64_t ow = lo; ow <= hi; ++ow) a[ow] += wv * srow[ow * g.stride_w + off];
        }
      }
    }
    std::copy(acc.begin(), acc.end(), dst + oh * g.out_width);
  }
}

bool Fast3x3(const ConvGeometry& g) {
  return g.kernel_h == 3 && g.kernel_w == 3 && g.dilation_h == 1 && g.dilation_w == 1 &&
         (g.stride_w == 1 || g.stride_w == 2);
}

// The scratch floats Fast3x3Channel needs: the padded input plane, de-interleaved for stride 2.
int64_t Fast3x3Scratch(const ConvGeometry& g) {
  const int64_t rows = (g.out_height - 1) * g.stride_h + 3;
  const int64_t pitch = g.stride_w == 1 ? g.out_width + 2 : 2 * g.out_width + 1;
  // Stride 1 both ways: also the output plane at the padded pitch (see Fast3x3Channel).
  return rows * pitch + (g.stride_h == 1 && g.stride_w == 1 ? g.out_height * pitch : 0);
}

// Fast3x3Channel's copies are of a few floats a row (7 to 16 in MobileNet's late layers), where
// a memcpy call costs more than the copy: g++ is kept from turning these loops into calls.
#if defined(__GNUC__) && !defined(__clang__)
#define RELAYPASS_INLINE_COPIES __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define RELAYPASS_INLINE_COPIES
#endif

// Where a padded scratch row (or one half of a de-interleaved one) takes the input: out[x] =
// row[first + x * step] for x in [lo, hi]; the rest of its `count` columns are padding zeros. The
// same for every row of a call, so computed once (it divides).
struct PaddedRowPlan {
  int64_t first, step, count, lo, hi;
  PaddedRowPlan(int64_t first_col, int64_t col_step, int64_t width, int64_t n)
      : first(first_col), step(col_step), count(n) {
    ValidRange(first, step, width, count, &lo, &hi);
  }
};

// The input part of a padded row (its zeros are written once per scratch buffer).
RELAYPASS_INLINE_COPIES inline void CopyRow(const PaddedRowPlan& p, const float* row, float* out) {
  const float* s = row + p.first;
  if (p.step == 1) {
    for (int64_t x = p.lo; x <= p.hi; ++x) out[x] = s[x];
  } else {
    for (int64_t x = p.lo; x <= p.hi; ++x) out[x] = s[2 * x];  // step is 2
  }
}

// One output channel with a finite 3x3 kernel, stride_w 1 or 2. The input plane is copied into
// `scratch` (zero-filled when allocated, its padding positions never written) (for stride 2 as even
// and odd columns, so every tap reads a unit-stride stream); then every output row is one
// InteriorRow3x3. A padding tap adds w * 0 =
// +-0, which leaves a sum started at +0 unchanged (it is never -0), so this equals skipping the
// padding taps bit for bit; weights that are not finite (w * 0 = NaN) take GeneralChannel.
RELAYPASS_INLINE_COPIES void Fast3x3Channel(const ConvGeometry& g, const PaddedRowPlan* halves,
                                            const float* src, const float* w, float* dst,
                                            float* scratch) {
  const int64_t rows = (g.out_height - 1) * g.stride_h + 3;
  // Stride 1: padded rows of out_width + 2. Stride 2: each padded row as out_width + 1 even
  // columns followed by out_width odd columns.
  const PaddedRowPlan& first_half = halves[0];
  const int64_t even = first_half.count;
  const int64_t pitch = g.stride_w == 1 ? even : even + g.out_width;
  // Rows of padding stay zero; so do the padding columns of the others.
  const int64_t r_first = std::max<int64_t>(0, g.pad_top);
  const int64_t r_end = std::min(rows, g.height + g.pad_top);
  for (int64_t r = r_first; r < r_end; ++r) {
    const float* row = src + (r - g.pad_top) * g.width;
    float* out = scratch + r * pitch;
    CopyRow(first_half, row, out);
    if (g.stride_w == 2) CopyRow(halves[1], row, out + even);
  }
  if (g.stride_h == 1 && g.stride_w == 1) {
    // The whole plane as one loop: output (oh, ow) computed at oh * pitch + ow of a plane of the
    // padded pitch, where its taps are at fixed distances (kh * pitch + kw); the two columns
    // past each row are computed and dropped. One long vectorized loop instead of one short one
    // per row (7 or 14 wide in MobileNet's late layers, too short for 8-wide vectors).
    float* wide = scratch + rows * pitch;
    const float* r0 = scratch;
    const float* r1 = r0 + pitch;
    const float* r2 = r1 + pitch;
    InteriorRow3x3((g.out_height - 1) * pitch + g.out_width, w, r0, r0 + 1, r0 + 2, r1, r1 + 1,
                   r1 + 2, r2, r2 + 1, r2 + 2, wide);
    for (int64_t oh = 0; oh < g.out_height; ++oh) {
      const float* from = wide + oh * pitch;
      float* to = dst + oh * g.out_width;
      for (int64_t x = 0; x < g.out_width; ++x) to[x] = from[x];
    }
    return;
  }
  for (int64_t oh = 0; oh < g.out_height; ++oh) {
    const float* r0 = scratch + oh * g.stride_h * pitch;
    const float* r1 = r0 + pitch;
    const float* r2 = r1 + pitch;
    if (g.stride_w == 1) {
      InteriorRow3x3(g.out_width, w, r0, r0 + 1, r0 + 2, r1, r1 + 1, r1 + 2, r2, r2 + 1, r2 + 2,
                     dst + oh * g.out_width);
    } else {  // columns 2 * ow, 2 * ow + 1, 2 * ow + 2: even[ow], odd[ow], even[ow + 1]
      InteriorRow3x3(g.out_width, w, r0, r0 + even, r0 + 1, r1, r1 + even, r1 + 1, r2, r2 + even,
                     r2 + 1, dst + oh * g.out_width);
    }
  }
}

// Stride 1 with one padding row and column on every side, the output the input's size
// (MobileNet's stride-1 layers), at least 3 x 3: Same3x3Channel, which needs no scratch.
bool Same3x3(const ConvGeometry& g) {
  return Fast3x3(g) && g.stride_h == 1 && g.stride_w == 1 && g.pad_top == 1 && g.pad_left == 1 &&
         g.out_height == g.height && g.out_width == g.width && g.height >= 3 && g.width >= 3;
}

// Same3x3Channel's first or last output row (`out`), whose neighbourhood has only the input rows
// `r0` and `r1` (kernel rows k0 and k0 + 1): the taps inside the input, kh-major, as everywhere.
RELAYPASS_INLINE_COPIES void EdgeRow(int64_t width, const float* w, int64_t k0,
                                     const float* __restrict r0, const float* __restrict r1,
                                     float* __restrict out) {
  const float* a = w + 3 * k0;
  const float* b = a + 3;
  out[0] = ((((0.0f + a[1] * r0[0]) + a[2] * r0[1]) + b[1] * r1[0]) + b[2] * r1[1]);
  for (int64_t x = 1; x < width - 1; ++x) {
    float acc = 0.0f;
    acc += a[0] * r0[x - 1];
    acc += a[1] * r0[x];
    acc += a[2] * r0[x + 1];
    acc += b[0] * r1[x - 1];
    acc += b[1] * r1[x];
    acc += b[2] * r1[x + 1];
    out[x] = acc;
  }
  const int64_t e = width - 1;
  out[e] = ((((0.0f + a[0] * r0[e - 1]) + a[1] * r0[e]) + b[0] * r1[e - 1]) + b[1] * r1[e]);
}

// One Same3x3 channel read in place (no copy into a padded plane). The rows with a whole 3 x 3
// neighbourhood are one flat loop over the plane at its own pitch, where the taps are at fixed
// distances; at the first and last column of a row that loop's neighbourhood wraps to the next
// or previous row, so those elements are computed again from their six taps, and the first and
// last rows by EdgeRow. No padding tap is added anywhere, so any weight (not only finite ones)
// gives the definition's bits.
void Same3x3Channel(const ConvGeometry& g, const float* src, const float* w, float* dst) {
  const int64_t pitch = g.width, h = g.height;
  // Flat indices [pitch + 1, (h - 1) * pitch - 1): rows 1 .. h - 2 but for the first and last
  // element, so that every tap reads inside the plane.
  const int64_t begin = pitch + 1, end = (h - 1) * pitch - 1;
  const float* c = src + begin;
  InteriorRow3x3(end - begin, w, c - pitch - 1, c - pitch, c - pitch + 1, c - 1, c, c + 1,
                 c + pitch - 1, c + pitch, c + pitch + 1, dst + begin);
  EdgeRow(pitch, w, 1, src, src + pitch, dst);
  EdgeRow(pitch, w, 0, src + (h - 2) * pitch, src + (h - 1) * pitch, dst + (h - 1) * pitch);
  const int64_t e = pitch - 1;
  for (int64_t oh = 1; oh < h - 1; ++oh) {
    const float* r = src + (oh - 1) * pitch;
    float left = 0.0f, right = 0.0f;
    for (int64_t kh = 0; kh < 3; ++kh, r += pitch) {
      left += w[3 * kh + 1] * r[0];
      left += w[3 * kh + 2] * r[1];
      right += w[3 * kh] * r[e - 1];
      right += w[3 * kh + 1] * r[e];
    }
    dst[oh * pitch] = left;
    dst[oh * pitch + e] = right;
  }
}

// Stride 2 both ways with padding 1 at the top and left (MobileNet's downsampling layers): the
// input read in place by Half3x3Channel.
bool Half3x3(const ConvGeometry& g) {
  return Fast3x3(g) && g.stride_h == 2 && g.stride_w == 2 && g.pad_top == 1 && g.pad_left == 1 &&
         g.height >= 3 && g.width >= 3;
}

// Output (oh, ow) of a stride-2, padding-1 channel by the definition: the taps inside the input,
// kh-major.
inline float CheckedOutputS2(const ConvGeometry& g, const float* src, const float* w, int64_t oh,
                             int64_t ow) {
  float acc = 0.0f;
  for (int64_t kh = 0; kh < 3; ++kh) {
    const int64_t ih = 2 * oh - 1 + kh;
    if (ih < 0 || ih >= g.height) continue;
    for (int64_t kw = 0; kw < 3; ++kw) {
      const int64_t iw = 2 * ow - 1 + kw;
      if (iw >= 0 && iw < g.width) acc += w[kh * 3 + kw] * src[ih * g.width + iw];
    }
  }
  return acc;
}

// out[x] for x in [0, n): the nine taps over input rows r0, r1, r2 at columns 2x, 2x + 1, 2x + 2
// (the rows already offset to the first output's leftmost tap), summed in order onto 0.
RELAYPASS_AVX2_CLONES
void StridedRow3x3(int64_t n, const float* w, const float* __restrict r0,
                   const float* __restrict r1, const float* __restrict r2, float* __restrict out) {
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6],
              w7 = w[7], w8 = w[8];
  for (int64_t x = 0; x < n; ++x) {
    float acc = 0.0f;
    acc += w0 * r0[2 * x];
    acc += w1 * r0[2 * x + 1];
    acc += w2 * r0[2 * x + 2];
    acc += w3 * r1[2 * x];
    acc += w4 * r1[2 * x + 1];
    acc += w5 * r1[2 * x + 2];
    acc += w6 * r2[2 * x];
    acc += w7 * r2[2 * x + 1];
    acc += w8 * r2[2 * x + 2];
    out[x] = acc;
  }
}

// One Half3x3 channel read in place (no de-interleaved copy): the outputs whose 3 x 3
// neighbourhood lies inside the input by StridedRow3x3, row by row; the others (the first row and
// column, and the last ones where the input's size is odd) by CheckedOutputS2. No padding tap is
// added, so any weight gives the definition's bits.
void Half3x3Channel(const ConvGeometry& g, const float* src, const float* w, float* dst) {
  // Inside: 2 * oh + 1 < height and 2 * ow + 1 < width.
  const int64_t oh_end = std::min(g.out_height, g.height / 2);
  const int64_t ow_end = std::min(g.out_width, g.width / 2);
  for (int64_t oh = 0; oh < g.out_height; ++oh) {
    float* out = dst + oh * g.out_width;
    if (oh == 0 || oh >= oh_end) {
      for (int64_t ow = 0; ow < g.out_width; ++ow) out[ow] = CheckedOutputS2(g, src, w, oh, ow);
      continue;
    }
    const float* r0 = src + (2 * oh - 1) * g.width + 1;  // column 2 * 1 - 1 of row 2 * oh - 1
    out[0] = CheckedOutputS2(g, src, w, oh, 0);
    StridedRow3x3(ow_end - 1, w, r0, r0 + g.width, r0 + 2 * g.width, out + 1);
    for (int64_t ow = ow_end; ow < g.out_width; ++ow) out[ow] = CheckedOutputS2(g, src, w, oh, ow);
  }
}

bool AllFinite(const float* w, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(w[i])) return false;
  }
  return true;
}

}  // namespace

template <typename T>
void DepthwiseConv(const ConvGeometry& g, const T* data, const T* weight, T* out, int64_t n,
                   const Epilogue* epilogue) {
  const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
  const int64_t taps = g.kernel_h * g.kernel_w;
  const int64_t channels_per_grain =
      std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(out_plane * taps, 1));
  const bool same = std::is_same_v<T, float> && Same3x3(g);
  const bool half = std::is_same_v<T, float> && Half3x3(g);
  const bool fast = std::is_same_v<T, float> && Fast3x3(g) && !same && !half;
  // Fast3x3Channel's scratch rows: [even | odd] columns of the padded input (stride 2), or the
  // padded row (stride 1; halves[1] unused).
  const PaddedRowPlan halves[2] = {
      {-g.pad_left, g.stride_w, g.width, g.stride_w == 1 ? g.out_width + 2 : g.out_width + 1},
      {1 - g.pad_left, 2, g.width, g.out_width}};
  support::ParallelFor(g.out_channels, channels_per_grain, [&](int64_t first, int64_t last) {
    std::vector<T> acc(static_cast<size_t>(g.out_width));
    std::vector<float> scratch(fast ? static_cast<size_t>(Fast3x3Scratch(g)) : 0);
    for (int64_t o = first; o < last; ++o) {
      const T* src = data + (n * g.channels + o / g.out_per_group) * plane;
      const T* w = weight + o * taps;
      T* dst = out + (n * g.out_channels + o) * out_plane;
      if constexpr (std::is_same_v<T, float>) {
        if (same) {
          Same3x3Channel(g, src, w, dst);
        } else if (half) {
          Half3x3Channel(g, src, w, dst);
        } else if (fast && AllFinite(w, taps)) {
          Fast3x3Channel(g, halves, src, w, dst, scratch.data());
        } else {
          GeneralChannel(g, src, w, dst, acc);
        }
        // While the channel's plane is still in cache.
        if (epilogue) epilogue->Apply(dst, o, (n * g.out_channels + o) * out_plane, out_plane);
      } else {
        GeneralChannel(g, src, w, dst, acc);
      }
    }
  });
}

template void DepthwiseConv<float>(const ConvGeometry&, const float*, const float*, float*, int64_t,
                                   const Epilogue*);
template void DepthwiseConv<double>(const ConvGeometry&, const double*, const double*, double*,
                                    int64_t, const Epilogue*);

}  // namespace relaypass::op::kernels
