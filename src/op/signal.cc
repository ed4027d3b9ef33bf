// stft (TVM v0.13's StftAttrs and STFTRel): the short-time Fourier transform of 1-D data or of a
// 2-D batch, [batch,] frequency rows, frames, 2 (real and imaginary parts).
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* StftAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.StftAttrs",
      {AttrsSchema::Int("n_fft", -1), AttrsSchema::Int("hop_length", -1),
       AttrsSchema::Int("win_length", -1), AttrsSchema::Bool("normalized", false),
       AttrsSchema::Bool("onesided", true)});
  return &schema;
}

bool StftRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() != 1 && data->ndim() != 2) {
    call.Fail("stft: data must be 1-D or a 2-D batch, got " + TypeString(data));
  }
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t n_fft = attrs.get_int("n_fft");
  const int64_t hop = attrs.get_int("hop_length");
  const int64_t win = attrs.get_int("win_length");
  if (n_fft < 1 || hop < 1 || win < 1 || win > n_fft) {
    call.Fail("stft: n_fft, hop_length and win_length must be positive, win_length at most n_fft");
  }
  Shape out;
  if (data->ndim() == 2) out.push_back(data->shape[0]);
  out.push_back(attrs.get_bool("onesided") ? n_fft / 2 + 1 : n_fft);
  const Dim length = data->shape.back();
  if (IsAny(length)) {
    out.push_back(kAnyDim);
  } else {
    if (length < n_fft) call.Fail("stft: the data is shorter than n_fft");
    out.push_back((length - n_fft) / hop + 1);
  }
  out.push_back(2);
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterSignalOps(OpRegistry& registry) {
  OpDef& stft = RegisterOp(registry, "stft", 2, OpPattern::kOpaque, StftRel,
                           "The STFT computes the Fourier transform of short overlapping windows "
                           "of the input.");
  stft.attrs_schema = StftAttrs();
  stft.kernel = kernels::Stft;
}

}  // namespace relaypass::op
