// The opset-17 signal operators, which TVM v0.13's from_onnx does not convert, from ONNX's
// definitions: DFT and STFT as products with constant cosine / sine matrices (nn.dense over the
// transformed axis, so any length works; no FFT), STFT's frames gathered with `take`, and
// MelWeightMatrix as a constant computed at import (every input is a scalar parameter).
// The lengths (dft_length, frame_step, frame_length) must be known at import.
#include <cmath>
#include <numbers>

#include "context.h"
#include "relaypass/relay.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// [bins, n] matrices cos(2 pi k j / n) and sin(2 pi k j / n) of `dtype`, for nn.dense.
struct Twiddles {
  ir::Expr cos, sin;
};
Twiddles TwiddleMatrices(int64_t bins, int64_t n, ir::DataType dtype) {
  ir::NDArray c = ir::NDArray::Empty({bins, n}, ir::DataType::Float(64));
  ir::NDArray s = ir::NDArray::Empty({bins, n}, ir::DataType::Float(64));
  for (int64_t k = 0; k < bins; ++k) {
    for (int64_t j = 0; j < n; ++j) {
      // k * j reduced mod n keeps the angle small and exact for long transforms.
      const double angle =
          2 * std::numbers::pi * static_cast<double>((k * j) % n) / static_cast<double>(n);
      c.mutable_data<double>()[k * n + j] = std::cos(angle);
      s.mutable_data<double>()[k * n + j] = std::sin(angle);
    }
  }
  const std::string dt = dtype.ToString();
  return {relay::cast(ir::MakeConstant(c), dt), relay::cast(ir::MakeConstant(s), dt)};
}

// The transform over the last axis of re (and im, null for a real signal), n samples to `bins`
// frequencies: forward sum_j x_j e^{-2 pi i k j / n}, inverse with e^{+...} divided by n. Returns
// [..., bins, 2] (real, imaginary).
ir::Expr Transform(const ir::Expr& re, const ir::Expr& im, int64_t n, int64_t bins, bool inverse,
                   ir::DataType dtype) {
  const Twiddles w = TwiddleMatrices(bins, n, dtype);
  auto dense = [&](const ir::Expr& x, const ir::Expr& m) { return relay::nn::dense(x, m, bins); };
  ir::Expr out_re = dense(re, w.cos);
  ir::Expr out_im = relay::negative(dense(re, w.sin));
  if (inverse) out_im = relay::negative(out_im);
  if (im) {
    ir::Expr im_sin = dense(im, w.sin);
    out_re = inverse ? relay::subtract(out_re, im_sin) : relay::add(out_re, im_sin);
    out_im = relay::add(out_im, dense(im, w.cos));
  }
  if (inverse) {
    const ir::Expr scale = ScalarConst(static_cast<double>(n), dtype);
    out_re = relay::divide(out_re, scale);
    out_im = relay::divide(out_im, scale);
  }
  return relay::concatenate({relay::expand_dims(out_re, -1), relay::expand_dims(out_im, -1)}, -1);
}

// Component `c` (0 real, 1 imaginary) of a [..., 1 or 2] signal, the last axis dropped.
ir::Expr Component(const ir::Expr& x, int64_t c, int rank) {
  return relay::squeeze(
      relay::strided_slice(x, {c}, {c + 1}, relay::Ints{1}, relay::Ints{rank - 1}),
      relay::Ints{rank - 1});
}

Outputs Dft(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  const int rank = ctx.ndim(0);
  if (rank < 3) ctx.Fail("input must be [batch, n..., 1 or 2], got rank " + std::to_string(rank));
  const int64_t parts = ctx.shape(0).back();
  if (parts != 1 && parts != 2) ctx.Fail("the last dimension must be 1 (real) or 2 (complex)");
  if (!ctx.dtype(0).is_float()) ctx.Fail("input must be a float tensor");
  int64_t axis = ctx.attr_int("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank - 2) {
    ctx.Fail("axis " + std::to_string(ctx.attr_int("axis", 1)) + " is out of range for rank " +
             std::to_string(rank) + " (the last axis holds the complex parts)");
  }
  const bool inverse = ctx.attr_int("inverse", 0) != 0;
  const bool onesided = ctx.attr_int("onesided", 0) != 0;
  if (onesided && (inverse || parts == 2)) {
    ctx.Unsupported("onesided with an inverse or complex transform");
  }
  const int64_t length = ctx.shape(0)[axis];
  int64_t n = length;
  if (ctx.has_input(1)) n = static_cast<int64_t>(ctx.ScalarValue(1, "dft_length"));
  if (n < 1 || n > (int64_t{1} << 16)) ctx.Fail("dft_length must be in [1, 65536]");
  // The transformed axis moved last, the parts axis dropped: [other..., length].
  relay::Ints perm;
  for (int64_t d = 0; d < rank - 1; ++d) {
    if (d != axis) perm.push_back(d);
  }
  perm.push_back(axis);
  auto prepare = [&](int64_t c) {
    ir::Expr x = relay::transpose(Component(ctx.input(0), c, rank), perm);
    if (n < length) {
      x = relay::strided_slice(x, {0}, {n}, relay::Ints{1}, relay::Ints{rank - 2});
    } else if (n > length) {
      std::vector<relay::Ints> pad(static_cast<size_t>(rank - 1), relay::Ints{0, 0});
      pad.back() = {0, n - length};
      x = relay::nn::pad(x, pad, ScalarConst(0, ctx.dtype(0)));
    }
    return x;
  };
  const int64_t bins = onesided ? n / 2 + 1 : n;
  ir::Expr y =
      Transform(prepare(0), parts == 2 ? prepare(1) : ir::Expr(), n, bins, inverse, ctx.dtype(0));
  // [other..., bins, 2] back to the input's order.
  relay::Ints back(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < perm.size(); ++i) back[perm[i]] = static_cast<int64_t>(i);
  back[rank - 1] = rank - 1;
  return {relay::transpose(y, back)};
}

Outputs Stft(const NodeContext& ctx) {
  ctx.CheckInputs(2, 4);
  if (ctx.ndim(0) != 3) ctx.Fail("signal must be [batch, length, 1 or 2]");
  const int64_t parts = ctx.shape(0)[2];
  if (parts != 1 && parts != 2) ctx.Fail("the last dimension must be 1 (real) or 2 (complex)");
  if (!ctx.dtype(0).is_float()) ctx.Fail("signal must be a float tensor");
  const int64_t length = ctx.shape(0)[1];
  const int64_t step = static_cast<int64_t>(ctx.ScalarValue(1, "frame_step"));
  if (step < 1) ctx.Fail("frame_step must be positive");
  int64_t frame = -1;
  if (ctx.has_input(3)) frame = static_cast<int64_t>(ctx.ScalarValue(3, "frame_length"));
  if (ctx.has_input(2)) {
    if (ctx.ndim(2) != 1) ctx.Fail("window must be 1-D");
    if (frame >= 0 && frame != ctx.shape(2)[0]) ctx.Fail("window and frame_length differ");
    frame = ctx.shape(2)[0];
  }
  if (frame < 0) ctx.Fail("needs a window or a frame_length");
  if (frame < 1 || frame > length || frame > (int64_t{1} << 16)) {
    ctx.Fail("frame_length must be in [1, the signal's length]");
  }
  const bool onesided = ctx.attr_int("onesided", 1) != 0;
  if (onesided && parts == 2) ctx.Unsupported("onesided with a complex signal");
  const int64_t frames = 1 + (length - frame) / step;
  // The sample index of each frame position, [frames, frame], gathered from axis 1.
  ir::NDArray index = ir::NDArray::Empty({frames, frame}, ir::DataType::Int(64));
  for (int64_t f = 0; f < frames; ++f) {
    for (int64_t j = 0; j < frame; ++j) index.mutable_data<int64_t>()[f * frame + j] = f * step + j;
  }
  ir::Expr framed = relay::take(ctx.input(0), ir::MakeConstant(index), 1);  // [b, F, L, parts]
  auto part = [&](int64_t c) {
    ir::Expr x = Component(framed, c, 4);  // [b, F, L]
    if (ctx.has_input(2)) x = relay::multiply(x, relay::cast_like(ctx.input(2), x));
    return x;
  };
  const int64_t bins = onesided ? frame / 2 + 1 : frame;
  return {Transform(part(0), parts == 2 ? part(1) : ir::Expr(), frame, bins, false, ctx.dtype(0))};
}

double HzToMel(double hz) {
  return 2595 * std::log10(1 + hz / 700);
}
double MelToHz(double mel) {
  return 700 * (std::pow(10.0, mel / 2595) - 1);
}

// ONNX's reference: num_mel_bins + 2 edges evenly spaced in mel (the step is the range over
// num_mel_bins + 2, as ONNX computes it), mapped to DFT bins floor((dft_length + 1) hz /
// sample_rate), each filter a triangle rising to 1 at its centre bin.
Outputs MelWeightMatrix(const NodeContext& ctx) {
  ctx.CheckInputs(5, 5);
  const int64_t mel_bins = static_cast<int64_t>(ctx.ScalarValue(0, "num_mel_bins"));
  const int64_t dft_length = static_cast<int64_t>(ctx.ScalarValue(1, "dft_length"));
  const double sample_rate = ctx.ScalarValue(2, "sample_rate");
  const double lower = ctx.ScalarValue(3, "lower_edge_hertz");
  const double upper = ctx.ScalarValue(4, "upper_edge_hertz");
  if (mel_bins < 1 || mel_bins > 4096) ctx.Fail("num_mel_bins must be in [1, 4096]");
  if (dft_length < 1 || dft_length > (int64_t{1} << 16))
    ctx.Fail("dft_length must be in [1, 65536]");
  if (!(sample_rate > 0) || !(lower >= 0) || !(upper > lower) || !std::isfinite(upper)) {
    ctx.Fail("needs sample_rate > 0 and 0 <= lower_edge_hertz < upper_edge_hertz");
  }
  const int64_t spectrogram_bins = dft_length / 2 + 1;
  const double low_mel = HzToMel(lower), high_mel = HzToMel(upper);
  const double step = (high_mel - low_mel) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> edge(static_cast<size_t>(mel_bins + 2));
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    const double hz = MelToHz(static_cast<double>(i) * step + low_mel);
    edge[i] =
        static_cast<int64_t>(std::floor(static_cast<double>(dft_length + 1) * hz / sample_rate));
    // Left and centre edges index a bin; the last right edge only bounds one.
    if (edge[i] < 0 || edge[i] > spectrogram_bins - (i <= mel_bins ? 1 : 0)) {
      ctx.Fail("upper_edge_hertz maps beyond the spectrogram's bins (above sample_rate / 2)");
    }
  }
  std::vector<double> w(static_cast<size_t>(spectrogram_bins * mel_bins), 0.0);
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t left = edge[i], center = edge[i + 1], right = edge[i + 2];
    if (center == left) {
      w[center * mel_bins + i] = 1;
    } else {
      for (int64_t j = left; j <= center; ++j)
        w[j * mel_bins + i] = static_cast<double>(j - left) / static_cast<double>(center - left);
    }
    for (int64_t j = center; j < right; ++j)
      w[j * mel_bins + i] = static_cast<double>(right - j) / static_cast<double>(right - center);
  }
  ir::NDArray out = ir::NDArray::Empty({spectrogram_bins, mel_bins}, ir::DataType::Float(64));
  std::copy(w.begin(), w.end(), out.mutable_data<double>());
  const int64_t type = ctx.attr_int("output_datatype", onnx::TensorProto::FLOAT);
  std::optional<ir::DataType> dtype = DTypeFromOnnx(type);
  if (!dtype) ctx.Unsupported("output_datatype " + OnnxTypeName(type));
  return {relay::cast(ir::MakeConstant(out), dtype->ToString())};
}

}  // namespace

void RegisterSignal(ConverterTable& t) {
  t.Add("DFT", 17, Dft);
  t.Add("STFT", 17, Stft);
  t.Add("MelWeightMatrix", 17, MelWeightMatrix);
}

}  // namespace relaypass::frontend::onnx_import
