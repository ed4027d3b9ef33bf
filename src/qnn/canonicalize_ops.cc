// The lowering table (op name -> lowering), the rewrite that applies it, and the passes
// relay.qnn.transform.CanonicalizeOps / Legalize.
#include <map>

#include "canonicalize.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::qnn {

namespace {

const std::map<std::string, CanonicalizeFunc>& Table() {
  static const std::map<std::string, CanonicalizeFunc> table = [] {
    std::map<std::string, CanonicalizeFunc> t = {
        {"qnn.quantize", LowerQuantize},     {"qnn.dequantize", LowerDequantize},
        {"qnn.requantize", LowerRequantize}, {"qnn.add", LowerAdd},
        {"qnn.subtract", LowerSubtract},     {"qnn.mul", LowerMul},
        {"qnn.dense", LowerDense},           {"qnn.batch_matmul", LowerBatchMatmul},
        {"qnn.conv2d", LowerConv2D},         {"qnn.concatenate", LowerConcatenate},
    };
    for (const char* name : {"qnn.tanh", "qnn.exp", "qnn.sqrt", "qnn.rsqrt", "qnn.erf",
                             "qnn.sigmoid", "qnn.hardswish", "qnn.log", "qnn.abs"}) {
      t.emplace(name, LowerUnary(name));
    }
    return t;
  }();
  return table;
}

class QnnLowerer : public ir::ExprMutator {
 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr) return post;
    CanonicalizeFunc lower = GetCanonicalize(op->name);
    if (!lower) return post;
    std::vector<ir::Type> types;
    for (const ir::Expr& arg : pre->args) types.push_back(arg->checked_type);
    types.push_back(pre->checked_type);
    const auto* call = post.as<ir::CallNode>();
    return lower(call->attrs, call->args, types);
  }
};

ir::Function Typed(const ir::Function& func, const ir::IRModule& mod) {
  return func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
}

}  // namespace

CanonicalizeFunc GetCanonicalize(const std::string& op_name) {
  auto it = Table().find(op_name);
  return it == Table().end() ? CanonicalizeFunc() : it->second;
}

ir::Expr LowerQnnCalls(const ir::Expr& expr) {
  return QnnLowerer().Mutate(expr);
}

transform::Pass CanonicalizeOps() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        return LowerQnnCalls(Typed(func, mod)).downcast<ir::FunctionNode>();
      },
      0, "QnnCanonicalizeOps", {"InferType"});
}

transform::Pass Legalize() {
  // TVM's qnn Legalize is Sequential(Legalize("FTVMQnnLegalize"), Legalize("FTVMQnnCanonicalize"));
  // no FTVMQnnLegalize hook applies to the CPU target here, so the first step is empty.
  return transform::Sequential({CanonicalizeOps()}, "QnnLegalize", 0);
}

void RegisterQnnPasses(transform::PassRegistry& registry) {
  registry.Register({"QnnCanonicalizeOps",
                     {},
                     [](const transform::PassOptions&) { return CanonicalizeOps(); },
                     "lowers qnn.* calls to integer Relay operators (TVM's FTVMQnnCanonicalize)"});
  registry.Register({"QnnLegalize",
                     {},
                     [](const transform::PassOptions&) { return Legalize(); },
                     "TVM's qnn Legalize: target legalizations (none), then CanonicalizeOps"});
}

}  // namespace relaypass::qnn
