// The qnn rewrites by op name: the lowering table (the library's lowerings, overridable by
// registered FTVMQnnCanonicalize hooks), the FTVMQnnLegalize hook table, the rewrite that applies
// either, and the passes QnnCanonicalizeOps, QnnTargetLegalize and QnnLegalize.
#include <map>
#include <mutex>

#include "canonicalize.h"
#include "legalize_hooks.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::qnn {

namespace {

const std::map<std::string, CanonicalizeFunc>& BuiltinLowerings() {
  static const std::map<std::string, CanonicalizeFunc> table = [] {
    std::map<std::string, CanonicalizeFunc> t = {
        {"qnn.quantize", LowerQuantize},
        {"qnn.dequantize", LowerDequantize},
        {"qnn.requantize", LowerRequantize},
        {"qnn.add", LowerAdd},
        {"qnn.subtract", LowerSubtract},
        {"qnn.mul", LowerMul},
        {"qnn.dense", LowerDense},
        {"qnn.batch_matmul", LowerBatchMatmul},
        {"qnn.conv2d", LowerConv2D},
        {"qnn.concatenate", LowerConcatenate},
        {"qnn.conv2d_transpose", LowerConv2DTranspose},
        {"qnn.leaky_relu", LowerLeakyRelu},
        {"qnn.softmax", LowerSoftmax},
        {"qnn.avg_pool2d", LowerAvgPool2D},
    };
    for (const char* name : {"qnn.tanh", "qnn.exp", "qnn.sqrt", "qnn.rsqrt", "qnn.erf",
                             "qnn.sigmoid", "qnn.hardswish", "qnn.log", "qnn.abs"}) {
      t.emplace(name, LowerUnary(name));
    }
    return t;
  }();
  return table;
}

passes::OpHookTable<CanonicalizeFunc>& CanonicalizeHooks() {
  static passes::OpHookTable<CanonicalizeFunc> table("RegisterQnnCanonicalize",
                                                     "FTVMQnnCanonicalize");
  return table;
}

passes::OpHookTable<passes::LegalizeFunc>& LegalizeHookTable() {
  static passes::OpHookTable<passes::LegalizeFunc> table("RegisterQnnLegalize", "FTVMQnnLegalize");
  // The library's own hooks, added on first use (the op registry is complete by then).
  static std::once_flag builtins;
  std::call_once(builtins, [] {
    RegisterTargetLegalizations([](const std::string& op, passes::LegalizeFunc hook) {
      table.Register(op, std::move(hook), 10).Release();
    });
  });
  return table;
}

// Replaces each call whose op `lookup` gives a rewrite for; a rewrite returning null keeps the
// call. The rewrites read the original arguments' types.
class QnnRewriter : public ir::ExprMutator {
 public:
  explicit QnnRewriter(CanonicalizeFunc (*lookup)(const std::string&)) : lookup_(lookup) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr || !op->name.starts_with("qnn.")) return post;
    CanonicalizeFunc rewrite = lookup_(op->name);
    if (!rewrite) return post;
    std::vector<ir::Type> types;
    for (const ir::Expr& arg : pre->args) types.push_back(arg->checked_type);
    types.push_back(pre->checked_type);
    const auto* call = post.as<ir::CallNode>();
    ir::Expr result = rewrite(call->attrs, call->args, types);
    return result ? result : post;
  }

 private:
  CanonicalizeFunc (*lookup_)(const std::string&);
};

ir::Function Typed(const ir::Function& func, const ir::IRModule& mod) {
  return func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
}

bool HasQnnCall(const ir::Function& func) {
  bool found = false;
  ir::post_order_visit(func, [&found](const ir::Expr& e) {
    const auto* call = e.as<ir::CallNode>();
    const ir::OpNode* op = call ? call->op_node() : nullptr;
    found = found || (op && op->name.starts_with("qnn."));
  });
  return found;
}

transform::Pass RewritePass(CanonicalizeFunc (*lookup)(const std::string&), std::string name) {
  return transform::CreateFunctionPass(
      [lookup](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        // Most modules have no qnn call: one scan, and no typing or rewriting.
        if (!HasQnnCall(func)) return func;
        return QnnRewriter(lookup).Mutate(Typed(func, mod)).downcast<ir::FunctionNode>();
      },
      0, std::move(name), {"InferType"});
}

}  // namespace

CanonicalizeFunc GetCanonicalize(const std::string& op_name) {
  if (CanonicalizeFunc hook = CanonicalizeHooks().Get(op_name)) return hook;
  auto it = BuiltinLowerings().find(op_name);
  return it == BuiltinLowerings().end() ? CanonicalizeFunc() : it->second;
}

passes::OpHook RegisterQnnCanonicalize(const std::string& op_name, CanonicalizeFunc hook,
                                       int level) {
  return CanonicalizeHooks().Register(op_name, std::move(hook), level);
}

passes::OpHook RegisterQnnLegalize(const std::string& op_name, passes::LegalizeFunc hook,
                                   int level) {
  return LegalizeHookTable().Register(op_name, std::move(hook), level);
}

passes::LegalizeFunc GetQnnLegalize(const std::string& op_name) {
  return LegalizeHookTable().Get(op_name);
}

ir::Expr LowerQnnCalls(const ir::Expr& expr) {
  return QnnRewriter(&GetCanonicalize).Mutate(expr);
}

transform::Pass CanonicalizeOps() {
  return RewritePass(&GetCanonicalize, "QnnCanonicalizeOps");
}

transform::Pass LegalizeHooks() {
  return RewritePass(&GetQnnLegalize, "QnnTargetLegalize");
}

transform::Pass Legalize() {
  // TVM: Sequential(Legalize("FTVMQnnLegalize"), Legalize("FTVMQnnCanonicalize")).
  return transform::Sequential({LegalizeHooks(), CanonicalizeOps()}, "QnnLegalize", 0);
}

void RegisterQnnPasses(transform::PassRegistry& registry) {
  registry.Register({"QnnCanonicalizeOps",
                     {},
                     [](const transform::PassOptions&) { return CanonicalizeOps(); },
                     "lowers qnn.* calls to integer Relay operators (TVM's FTVMQnnCanonicalize)"});
  registry.Register({"QnnTargetLegalize",
                     {},
                     [](const transform::PassOptions&) { return LegalizeHooks(); },
                     "applies the qnn ops' target legalizations (TVM's FTVMQnnLegalize)"});
  registry.Register({"QnnLegalize",
                     {},
                     [](const transform::PassOptions&) { return Legalize(); },
                     "TVM's qnn.Legalize: QnnTargetLegalize, then QnnCanonicalizeOps"});
  registry.Register(
      {"FakeQuantizationToInteger",
       {{"hard_fail", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "a region with an op without a rule is an error instead of staying as it is"},
        {"use_qat", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "also convert single ops on dequantized inputs without a quantize after them"},
        {"optional_qnn_ops", transform::OptionType::kList, transform::OptionValue::Array({}),
         "the optional rules to enable (not implemented)"}},
       [](const transform::PassOptions& options) {
         std::vector<std::string> optional;
         for (const transform::OptionValue& v : options.Get("optional_qnn_ops").as_array()) {
           optional.push_back(v.as_string());
         }
         return FakeQuantizationToInteger(options.GetBool("hard_fail"), options.GetBool("use_qat"),
                                          optional);
       },
       "rewrites dequantize -> float ops -> quantize regions into integer ops"});
}

}  // namespace relaypass::qnn
