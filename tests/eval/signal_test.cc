// stft: TVM v0.13's result type ([batch,] rows, frames, 2) and the kernel's values, which are
// numpy.fft.rfft (or numpy.fft.fft when not onesided) of window * frame, worked out by hand below.
#include <cmath>

#include "relaypass/ir/type_infer.h"
#include "relaypass/text/parser.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

ir::IRModule Typed(const std::string& text) {
  return ir::InferTypes(text::ParseModule("#[version = \"0.0.5\"]\n" + text));
}

TEST(SignalTest, StftIsTheDftOfEachWindowedFrame) {
  ir::IRModule mod = Typed(R"(def @main(%x: Tensor[(6), float32], %w: Tensor[(3), int32]) {
  (stft(%x, %w, n_fft=3, hop_length=3, win_length=3),
   stft(%x, %w, n_fft=3, hop_length=3, win_length=3, normalized=True, onesided=False))
})");
  EXPECT_EQ(ir::TypeToString(mod.Lookup("main")->body->checked_type),
            "(Tensor[(2, 2, 2), float32], Tensor[(3, 2, 2), float32])");
  const NDArray x = Array({6}, {1, 2, 3, 4, 5, 6});
  const NDArray w = Array<int32_t>({3}, {4, 3, 2}, DataType::Int32());
  std::vector<NDArray> out = RunMain(mod, {x, w});
  // Frames * window: [4, 6, 6] and [16, 15, 12]. rfft([4, 6, 6]) = [16, -2]; rfft([16, 15, 12])
  // = [43, 2.5 - 2.598i] (16 + 15 e^(-2 pi i / 3) + 12 e^(-4 pi i / 3)). Layout [row, frame,
  // re/im].
  const double s = std::sqrt(3.0) / 2;
  ExpectValues(out[0], {2, 2, 2}, {16, 0, 43, 0, -2, 0, 2.5, -3 * s}, 1e-5);
  // Not onesided: row 2 is the conjugate of row 1; normalized divides by sqrt(n_fft).
  const double n = std::sqrt(3.0);
  ExpectValues(
      out[1], {3, 2, 2},
      {16 / n, 0, 43 / n, 0, -2 / n, 0, 2.5 / n, -3 * s / n, -2 / n, 0, 2.5 / n, 3 * s / n}, 1e-5);
  EXPECT_THROW(Typed(R"(def @main(%x: Tensor[(2), float32], %w: Tensor[(3), float32]) {
  stft(%x, %w, n_fft=3, hop_length=1, win_length=3)
})"),
               Error);  // shorter than n_fft
}

}  // namespace
}  // namespace relaypass::eval
