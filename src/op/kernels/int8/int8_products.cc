// nn.dense, nn.batch_matmul and nn.conv2d of uint8/int8 operands with out_dtype int32, on the
// int8 GEMM (int8_products.h).
#include "int8_products.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "../kernel_util.h"
#include "../kernels.h"
#include "channels_last.h"
#include "int8_gemm.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

bool Signed(const NDArray& a) {
  return a.dtype() == DataType::Int(8);
}

}  // namespace

NDArray Int8Dense(const NDArray& data, const NDArray& weight) {
  const int64_t k = data.shape().back(), n = weight.shape()[0];
  const int64_t m = NumElements(Shape(data.shape().begin(), data.shape().end() - 1));
  Shape out_shape = data.shape();
  out_shape.back() = n;
  NDArray out = NDArray::Uninitialized(out_shape, DataType::Int(32));
  Int8Gemm(CurrentInt8Isa(), m, n, k, data.raw_data(), Signed(data), weight.raw_data(),
           Signed(weight), out.mutable_data<int32_t>(), n, 1);
  return out;
}

NDArray Int8BatchMatmul(const NDArray& x_in, const NDArray& y_in, bool transpose_a,
                        bool transpose_b) {
  if (x_in.ndim() != 3 || y_in.ndim() != 3) Fail("nn.batch_matmul: operands must be 3-D");
  const NDArray x = transpose_a ? Permute(x_in, {0, 2, 1}) : x_in;
  const NDArray y = transpose_b ? y_in : Permute(y_in, {0, 2, 1});
  if (y.shape()[2] != x.shape()[2]) Fail("nn.batch_matmul: reduction dimensions differ");
  const int64_t bx = x.shape()[0], by = y.shape()[0];
  if (bx != by && bx != 1 && by != 1) Fail("nn.batch_matmul: batches do not broadcast");
  // A batch of 1 against an empty batch is empty (NumPy's broadcast, as the type relation).
  const int64_t batch = (bx == 0 || by == 0) ? 0 : std::max(bx, by);
  const int64_t m = x.shape()[1], k = x.shape()[2], n = y.shape()[1];
  NDArray out = NDArray::Uninitialized({batch, m, n}, DataType::Int(32));
  const auto* px = static_cast<const uint8_t*>(x.raw_data());
  const auto* py = static_cast<const uint8_t*>(y.raw_data());
  int32_t* po = out.mutable_data<int32_t>();
  const Int8Isa isa = CurrentInt8Isa();
  for (int64_t i = 0; i < batch; ++i) {
    Int8Gemm(isa, m, n, k, px + (bx == 1 ? 0 : i) * m * k, Signed(x),
             py + (by == 1 ? 0 : i) * n * k, Signed(y), po + i * m * n, n, 1);
  }
  return out;
}

namespace {

// The image's input channels [c0, c0 + C) with their padding, channels last (HWC), as the patches
// read them: rows (OH - 1) * SH + (KH - 1) * DH + 1 by such columns, the data at (pad_top,
// pad_left), `flip` (a zero of the data) around it, each byte xor `flip`.
struct PaddedImage {
  int64_t rows, cols;
  std::vector<uint8_t> bytes;
};

PaddedImage PadChannelsLast(const ConvGeometry& g, const uint8_t* src, uint8_t flip) {
  PaddedImage p;
  p.rows = (g.out_height - 1) * g.stride_h + (g.kernel_h - 1) * g.dilation_h + 1;
  p.cols = (g.out_width - 1) * g.stride_w + (g.kernel_w - 1) * g.dilation_w + 1;
  const int64_t channels = g.in_per_group;
  p.bytes.assign(static_cast<size_t>(p.rows * p.cols * channels), flip);
  const int64_t cols = std::max<int64_t>(0, std::min(g.width, p.cols - g.pad_left));
  const int64_t rows = std::max<int64_t>(0, std::min(g.height, p.rows - g.pad_top));
  const int64_t plane = g.height * g.width;
  support::ParallelFor(
      rows, std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, cols * channels)),
      [&](int64_t begin, int64_t end) {
        for (int64_t h = begin; h < end; ++h) {
          uint8_t* out = p.bytes.data() + ((h + g.pad_top) * p.cols + g.pad_left) * channels;
          GatherChannelsLast(src + h * g.width, channels, plane, cols, 1, out, channels, flip);
        }
      });
  return p;
}

// The patches of a 1x1 convolution without padding: row `pixel` holds the channels of input
// pixel (oh * SH, ow * SW), zeros from byte C to `depth`.
void GatherPointwise(const ConvGeometry& g, const uint8_t* src, uint8_t flip, uint8_t* patches,
                     int64_t depth) {
  const int64_t channels = g.in_per_group, plane = g.height * g.width;
  const int64_t out_plane = g.out_height * g.out_width;
  if (g.stride_h == 1 && g.stride_w == 1) {
    // The whole plane is one run of pixels: pieces of 16-pixel blocks over the threads.
    const int64_t blocks = (out_plane + 15) / 16;
    support::ParallelFor(blocks, std::max<int64_t>(1, kParallelGrain / (16 * channels)),
                         [&](int64_t begin, int64_t end) {
                           const int64_t first = begin * 16;
                           const int64_t count = std::min(end * 16, out_plane) - first;
                           GatherChannelsLast(src + first, channels, plane, count, 1,
                                              patches + first * depth, depth, flip);
                         });
  } else {
    support::ParallelFor(g.out_height, 1, [&](int64_t begin, int64_t end) {
      for (int64_t oh = begin; oh < end; ++oh) {
        GatherChannelsLast(src + oh * g.stride_h * g.width, channels, plane, g.out_width,
                           g.stride_w, patches + oh * g.out_width * depth, depth, flip);
      }
    });
  }
  if (depth > channels) {
    for (int64_t pixel = 0; pixel < out_plane; ++pixel) {
      std::memset(patches + pixel * depth + channels, 0, static_cast<size_t>(depth - channels));
    }
  }
}

// One tap's run of channels: in 64-byte blocks the compiler copies inline when the count is a
// multiple of 64 (a network's usual channel counts), else one memcpy call.
inline void CopyTap(uint8_t* dst, const uint8_t* src, int64_t channels) {
  if (channels % 64 != 0) {
    std::memcpy(dst, src, static_cast<size_t>(channels));
    return;
  }
  for (int64_t c = 0; c < channels; c += 64) std::memcpy(dst + c, src + c, 64);
}

// The group's weight rows (OIHW: [c][r][s] per output channel) in the patches' order [r][s][c].
std::vector<uint8_t> WeightTapsFirst(const ConvGeometry& g, const uint8_t* w) {
  const int64_t taps = g.kernel_h * g.kernel_w, channels = g.in_per_group;
  std::vector<uint8_t> out(static_cast<size_t>(g.out_per_group * taps * channels));
  support::ParallelFor(g.out_per_group,
                       std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(1, taps * channels)),
                       [&](int64_t begin, int64_t end) {
                         TapsFirst(w + begin * channels * taps, end - begin, channels, taps,
                                   out.data() + begin * channels * taps);
                       });
  return out;
}

}  // namespace

namespace {

// Panels (int8_gemm.h's Int8PanelsVnni): blocks of 16 output pixels, each [k / 4][16][4] bytes.
// The 1x1 convolution at stride 1 without padding reads them straight from the planar image:
// four channels' runs of 16 pixels interleaved byte by byte.
void PackPointwisePanels(const ConvGeometry& g, const uint8_t* x, uint8_t* panels) {
  const int64_t plane = g.height * g.width, k4 = g.in_per_group / 4;
  const int64_t blocks = (plane + 15) / 16;
  support::ParallelFor(
      blocks, std::max<int64_t>(1, kParallelGrain / (64 * k4)), [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          InterleaveFour(x + 16 * b, plane, k4, std::min<int64_t>(16, plane - 16 * b),
                         panels + b * 64 * k4);
        }
      });
}

// Any other convolution's panels from the padded channels-last image: the product index is
// (r * KW + s) * C + c (WeightTapsFirst's order), so each group of four is four channels of one
// tap, four bytes in a row of the image.
void PackPatchPanels(const ConvGeometry& g, const PaddedImage& image, uint8_t* panels) {
  const int64_t out_plane = g.out_height * g.out_width, channels = g.in_per_group;
  const int64_t k4 = channels * g.kernel_h * g.kernel_w / 4, blocks = (out_plane + 15) / 16;
  support::ParallelFor(
      blocks, std::max<int64_t>(1, kParallelGrain / (64 * k4)), [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          uint8_t* block = panels + b * 64 * k4;
          for (int64_t i = 0; i < 16; ++i) {
            const int64_t pixel = 16 * b + i;
            if (pixel >= out_plane) {
              for (int64_t q = 0; q < k4; ++q) std::memset(block + 64 * q + 4 * i, 0, 4);
              continue;
            }
            const int64_t oh = pixel / g.out_width, ow = pixel % g.out_width;
            int64_t q = 0;
            for (int64_t r = 0; r < g.kernel_h; ++r) {
              const int64_t ih = oh * g.stride_h + r * g.dilation_h;
              for (int64_t s = 0; s < g.kernel_w; ++s) {
                const int64_t iw = ow * g.stride_w + s * g.dilation_w;
                const uint8_t* src = image.bytes.data() + (ih * image.cols + iw) * channels;
                for (int64_t c = 0; c < channels; c += 4, ++q) {
                  std::memcpy(block + 64 * q + 4 * i, src + c, 4);
                }
              }
            }
          }
        }
      });
}

// The VNNI panel path (uint8 data, int8 weights, one group, channels a multiple of 4): the
// product vectors run over 16 output pixels, so each result row is 16 pixels of one output
// channel, stored straight into the NCHW output (no lane sums, no strided stores).
bool PanelPathApplies(const ConvGeometry& g, const NDArray& data, const NDArray& weight) {
  return CurrentInt8Isa() == Int8Isa::kAvx512vnni && HostSupportsInt8Isa(Int8Isa::kAvx512vnni) &&
         data.dtype() == DataType::UInt(8) && weight.dtype() == DataType::Int(8) && g.groups == 1 &&
         g.in_per_group % 4 == 0 && g.in_per_group > 0;
}

// A 1x1 kernel without padding: its patches are the image's pixels.
bool Pointwise(const ConvGeometry& g) {
  return g.kernel_h == 1 && g.kernel_w == 1 && g.pad_top == 0 && g.pad_left == 0 &&
         g.out_height <= (g.height - 1) / g.stride_h + 1 &&
         g.out_width <= (g.width - 1) / g.stride_w + 1;
}

// The panel path; with `epilogue` (non-null) its steps are applied to each result row before it
// is stored as `out_dtype` (int32, or uint8 / int8 for a final cast).
NDArray Int8Conv2DPanels(const ConvGeometry& g, const NDArray& data, const NDArray& weight,
                         bool pointwise, const RelaypassInt8Epilogue* epilogue = nullptr,
                         DataType out_dtype = DataType::Int(32)) {
  const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
  const int64_t channels = g.in_per_group, k = channels * g.kernel_h * g.kernel_w;
  NDArray out =
      NDArray::Uninitialized({g.batch, g.out_channels, g.out_height, g.out_width}, out_dtype);
  const int64_t out_bytes = out_dtype.bytes();
  const auto* x = static_cast<const uint8_t*>(data.raw_data());
  const auto* w = static_cast<const uint8_t*>(weight.raw_data());
  const std::vector<uint8_t> taps_first =
      pointwise ? std::vector<uint8_t>() : WeightTapsFirst(g, w);
  const auto* weights = reinterpret_cast<const int8_t*>(pointwise ? w : taps_first.data());
  const int64_t k4 = k / 4, blocks = (out_plane + 15) / 16;
  std::unique_ptr<uint8_t[]> panels(new uint8_t[static_cast<size_t>(blocks * 64 * k4)]);
  for (int64_t n = 0; n < g.batch; ++n) {
    const uint8_t* image_data = x + n * g.channels * plane;
    if (pointwise && g.stride_h == 1 && g.stride_w == 1) {
      PackPointwisePanels(g, image_data, panels.get());
    } else {
      PackPatchPanels(g, PadChannelsLast(g, image_data, 0), panels.get());
    }
    // Tasks: pairs of pixel blocks by runs of 64 output channels.
    const int64_t pairs = (blocks + 1) / 2, row_runs = (g.out_channels + 63) / 64;
    auto* y =
        static_cast<uint8_t*>(out.mutable_raw_data()) + n * g.out_channels * out_plane * out_bytes;
    support::ParallelFor(pairs * row_runs, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        const int64_t pair = t / row_runs, run = t % row_runs;
        const int64_t p0 = 32 * pair, r0 = 64 * run;
        const uint8_t* block = panels.get() + (p0 / 16) * 64 * k4;
        const int64_t pixels = std::min<int64_t>(32, out_plane - p0);
        const int64_t rows = std::min<int64_t>(64, g.out_channels - r0);
        uint8_t* tile = y + (r0 * out_plane + p0) * out_bytes;
        if (epilogue) {
          Int8PanelsVnniEpilogue(block, weights + r0 * k, k4, pixels, rows, tile, out_plane,
                                 epilogue, r0);
        } else {
          Int8PanelsVnni(block, weights + r0 * k, k4, pixels, rows,
                         reinterpret_cast<int32_t*>(tile), out_plane);
        }
      }
    });
  }
  return out;
}

}  // namespace

NDArray Int8Conv2D(const ConvGeometry& g, const NDArray& data, const NDArray& weight) {
  const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
  const int64_t channels = g.in_per_group;
  const int64_t k = channels * g.kernel_h * g.kernel_w;
  // Every element is written by the GEMM below.
  NDArray out = NDArray::Uninitialized({g.batch, g.out_channels, g.out_height, g.out_width},
                                       DataType::Int(32));
  if (out.size() == 0) return out;
  const auto* x = static_cast<const uint8_t*>(data.raw_data());
  const auto* w = static_cast<const uint8_t*>(weight.raw_data());
  int32_t* y = out.mutable_data<int32_t>();
  const Int8Isa isa = CurrentInt8Isa();
  const bool x_signed = Signed(data);
  const uint8_t flip = x_signed ? 0x80 : 0;  // int8 data as uint8 x + 128 (int8_gemm.h)
  const bool pointwise = Pointwise(g);
  if (PanelPathApplies(g, data, weight)) return Int8Conv2DPanels(g, data, weight, pointwise);
  // The patches straight in the GEMM's packed layout: row `pixel`, byte (r * KW + s) * C + c, so
  // that each tap is one run of C bytes of the channels-last image; zeros past k and in the
  // padding rows.
  const int64_t depth = Int8PackedDepth(k), rows = Int8PackedRows(out_plane);
  std::unique_ptr<uint8_t[]> patches(new uint8_t[static_cast<size_t>(rows * depth)]);
  std::memset(patches.get() + out_plane * depth, 0,
              static_cast<size_t>((rows - out_plane) * depth));
  for (int64_t group = 0; group < g.groups; ++group) {
    const int64_t first = group * g.out_per_group;
    // A 1x1 kernel's rows are already in the patches' order.
    const std::vector<uint8_t> taps_first =
        pointwise ? std::vector<uint8_t>() : WeightTapsFirst(g, w + first * k);
    const uint8_t* group_weight = pointwise ? w + first * k : taps_first.data();
    for (int64_t n = 0; n < g.batch; ++n) {
      const uint8_t* image_data = x + (n * g.channels + group * channels) * plane;
      if (pointwise) {
        GatherPointwise(g, image_data, flip, patches.get(), depth);
      } else {
        const PaddedImage image = PadChannelsLast(g, image_data, flip);
        support::ParallelFor(
            out_plane, std::max<int64_t>(1, kParallelGrain / depth),
            [&](int64_t begin, int64_t end) {
              for (int64_t pixel = begin; pixel < end; ++pixel) {
                const int64_t oh = pixel / g.out_width, ow = pixel % g.out_width;
                uint8_t* row = patches.get() + pixel * depth;
                for (int64_t r = 0; r < g.kernel_h; ++r) {
                  const int64_t ih = oh * g.stride_h + r * g.dilation_h;
                  for (int64_t s = 0; s < g.kernel_w; ++s) {
                    const int64_t iw = ow * g.stride_w + s * g.dilation_w;
                    CopyTap(row, image.bytes.data() + (ih * image.cols + iw) * channels, channels);
                    row += channels;
                  }
                }
                std::memset(row, 0, static_cast<size_t>(depth - k));
              }
            });
      }
      // C[pixel][channel] is written into the NCHW output: rows step 1, columns a plane.
      Int8GemmPackedX(isa, out_plane, g.out_per_group, k, patches.get(), x_signed, group_weight,
                      Signed(weight), y + (n * g.out_channels + first) * out_plane, 1, out_plane);
    }
  }
  return out;
}

NDArray Int8Conv2DWithEpilogue(const ConvGeometry& g, const NDArray& data, const NDArray& weight,
                               const RelaypassInt8Epilogue& epilogue, DataType out_dtype) {
  if (!PanelPathApplies(g, data, weight) || !Int8PanelEpilogueRuns() ||
      out_dtype.bytes() != epilogue.out_bytes) {
    return NDArray();
  }
  return Int8Conv2DPanels(g, data, weight, Pointwise(g), &epilogue, out_dtype);
}

}  // namespace relaypass::op::kernels
