// stft as TVM's topi.stft: for each frame col and frequency row, the sum over the window of
// window[w] * data[col * hop + w] * (cos, -sin)(2 pi row w / win_length), divided by sqrt(n_fft)
// when normalized. Computed in double, stored in the data's dtype.
#include <cmath>
#include <numbers>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

Arrays Stft(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "stft";
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const int64_t n_fft = a.get_int("n_fft");
  const int64_t hop = a.get_int("hop_length");
  const int64_t win = a.get_int("win_length");
  if (n_fft < 1 || hop < 1 || win < 1 || win > n_fft) {
    Fail("stft: n_fft, hop_length and win_length must be positive, win_length at most n_fft");
  }
  const NDArray& data = in[0];
  if (data.ndim() != 1 && data.ndim() != 2) Fail("stft: data must be 1-D or a 2-D batch");
  if (!data.dtype().is_float()) Fail("stft: data must be floating point");
  const NDArray x = CastArray(data, DataType::Float(64));
  const NDArray window = CastArray(in[1], DataType::Float(64));
  if (window.ndim() != 1 || window.size() < win) {
    Fail("stft: the window must be 1-D with at least win_length values");
  }
  const int64_t batch = data.ndim() == 2 ? data.shape()[0] : 1;
  const int64_t length = data.shape().back();
  if (length < n_fft) Fail("stft: the data is shorter than n_fft");
  const int64_t rows = a.get_bool("onesided") ? n_fft / 2 + 1 : n_fft;
  const int64_t frames = (length - n_fft) / hop + 1;
  Shape shape = {rows, frames, 2};
  if (data.ndim() == 2) shape.insert(shape.begin(), batch);
  NDArray out = NDArray::Uninitialized(shape, DataType::Float(64));
  const double scale = a.get_bool("normalized") ? 1 / std::sqrt(static_cast<double>(n_fft)) : 1;
  const double* px = x.data<double>();
  const double* pw = window.data<double>();
  double* po = out.mutable_data<double>();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t col = 0; col < frames; ++col) {
        double re = 0, im = 0;
        for (int64_t w = 0; w < win; ++w) {
          const double v = pw[w] * px[b * length + col * hop + w];
          const double angle =
              2 * std::numbers::pi * static_cast<double>(row * w) / static_cast<double>(win);
          re += v * std::cos(angle);
          im -= v * std::sin(angle);
        }
        double* o = po + ((b * rows + row) * frames + col) * 2;
        o[0] = re * scale;
        o[1] = im * scale;
      }
    }
  }
  return {CastArray(out, data.dtype())};
}

}  // namespace relaypass::op::kernels
