// The fast-math operators FastMath rewrites to (TVM v0.13's src/relay/op/tensor/unary.cc and
// src/relay/op/nn/nn.cc): fast_exp, fast_tanh and fast_erf are RELAY_REGISTER_UNARY_OPs (identity
// type relation, elementwise, any layout); nn.fast_softmax is nn.softmax's twin (SoftmaxAttrs, its
// type relation, out-elementwise-fusable). Registered after the nn family, whose softmax
// registration they share.
#include "kernels/fast_math.h"
#include "families.h"
#include "layout_rules/layout_rules.h"
#include "op_common.h"
#include "relaypass/support/error.h"
#include "type_relations.h"

namespace relaypass::op {

void RegisterFastMathOps(OpRegistry& registry) {
  struct Unary {
    const char* name;
    const char* description;
    Kernel kernel;
  };
  const Unary unary[] = {
      {"fast_exp", "Elementwise exponential, TOPI's fast approximation for float32.",
       kernels::FastExp},
      {"fast_tanh", "Elementwise hyperbolic tangent, TOPI's fast approximation for float32.",
       kernels::FastTanh},
      {"fast_erf", "Elementwise Gauss error function, TOPI's fast approximation for float32/16.",
       kernels::FastErf},
  };
  for (const Unary& op : unary) {
    OpDef& def =
        RegisterOp(registry, op.name, 1, OpPattern::kElemWise, IdentityRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::ElemwiseArbitrary;
  }
  const OpDef* softmax = registry.Find("nn.softmax");
  if (softmax == nullptr) throw InternalError("nn.fast_softmax: nn.softmax is not registered");
  OpDef& fast_softmax =
      RegisterOp(registry, "nn.fast_softmax", 1, OpPattern::kOutEWiseFusable,
                 softmax->type_relation, "Softmax along `axis` with fast_exp's approximation.");
  fast_softmax.attrs_schema = softmax->attrs_schema;
  fast_softmax.infer_layout = softmax->infer_layout;
  fast_softmax.kernel = kernels::FastSoftmax;
}

}  // namespace relaypass::op
