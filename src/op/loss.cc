// nn.nll_loss (TVM v0.13's NLLLossAttrs and NLLLossRel): the negative log likelihood of
// predictions [N, C, d...] at class targets [N, d...], weighted per class by weights [C]; and
// nn.cross_entropy / nn.cross_entropy_with_logits (TVM's CrossEntropyRel: x and y of one 2-D
// shape, a scalar of x's dtype).
#include <string>

#include "kernels/kernels.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* NLLLossAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.NLLLossAttrs",
      {AttrsSchema::String("reduction", "mean"), AttrsSchema::Int("ignore_index", -100)});
  return &schema;
}

bool NLLLossRel(TypeRelationCall& call) {
  TensorTypeRef predictions = TensorOf(call, 0);
  TensorTypeRef targets = TensorOf(call, 1);
  TensorTypeRef weights = TensorOf(call, 2);
  if (!predictions || !targets || !weights) return false;
  if (predictions->ndim() != targets->ndim() + 1 || predictions->ndim() < 2) {
    call.Fail("nn.nll_loss: predictions should be one dimension larger than targets, got " +
              TypeString(predictions) + " and " + TypeString(targets));
  }
  if (weights->ndim() != 1 || (!IsAny(predictions->shape[1]) && !IsAny(weights->shape[0]) &&
                               predictions->shape[1] != weights->shape[0])) {
    call.Fail(
        "nn.nll_loss: weights should be a one dimension tensor with its length the number "
        "of classes, got " +
        TypeString(weights) + " for predictions " + TypeString(predictions));
  }
  for (int i = 0; i < targets->ndim(); ++i) {
    const Dim p = predictions->shape[i == 0 ? 0 : i + 1], t = targets->shape[i];
    if (!IsAny(p) && !IsAny(t) && p != t) {
      call.Fail("nn.nll_loss: targets " + TypeString(targets) + " do not match predictions " +
                TypeString(predictions));
    }
  }
  if (predictions->dtype != weights->dtype || !predictions->dtype.is_float()) {
    call.Fail("nn.nll_loss: predictions and weights should be of the same floating type, got " +
              TypeString(predictions) + " and " + TypeString(weights));
  }
  if (!targets->dtype.is_int()) {
    call.Fail("nn.nll_loss: targets should be of int type, got " + TypeString(targets));
  }
  const std::string& reduction = AttrsOf(call).get_string("reduction");
  if (reduction != "mean" && reduction != "sum" && reduction != "none") {
    call.Fail("nn.nll_loss: unknown reduction \"" + reduction + "\" (mean, sum or none)");
  }
  call.AssignResult(reduction == "none" ? ir::TensorType(targets->shape, predictions->dtype)
                                        : ir::TensorType({}, predictions->dtype));
  return true;
}

bool CrossEntropyRel(TypeRelationCall& call) {
  TensorTypeRef x = TensorOf(call, 0);
  TensorTypeRef y = TensorOf(call, 1);
  if (!x || !y) return false;
  if (x->ndim() != 2 || y->ndim() != 2) {
    call.Fail("CrossEntropy: shapes of x and y is inconsistent, x shape = " +
              ShapeToString(x->shape) + ", y shape = " + ShapeToString(y->shape));
  }
  for (int d = 0; d < 2; ++d) {
    const Dim a = x->shape[d], b = y->shape[d];
    if (!IsAny(a) && !IsAny(b) && a != b) {
      call.Fail("CrossEntropy: shapes of x and y is inconsistent, x shape = " +
                ShapeToString(x->shape) + ", y shape = " + ShapeToString(y->shape));
    }
  }
  call.AssignResult(ir::TensorType({}, x->dtype));
  return true;
}

}  // namespace

void RegisterLossOps(OpRegistry& registry) {
  OpDef& nll = RegisterOp(registry, "nn.nll_loss", 3, OpPattern::kOutEWiseFusable, NLLLossRel,
                          "Negative log likelihood loss of predictions at class targets.");
  nll.attrs_schema = NLLLossAttrs();
  nll.kernel = kernels::NLLLoss;
  RegisterOp(registry, "nn.cross_entropy", 2, OpPattern::kOpaque, CrossEntropyRel,
             "Computes cross entropy given predictions and targets.")
      .kernel = kernels::CrossEntropy;
  RegisterOp(registry, "nn.cross_entropy_with_logits", 2, OpPattern::kOpaque, CrossEntropyRel,
             "Computes cross entropy given predictions (log probabilities) and targets.")
      .kernel = kernels::CrossEntropyWithLogits;
}

}  // namespace relaypass::op
