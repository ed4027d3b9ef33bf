// get_source("asm") of a build (include/relaypass/backend/kernel_source.h): the int8 products of
// the optimized module, found by operator and checked types as the kernels find them at run
// time (op::Int8GemmKindFor), and the assembly of their kernel functions.
#include "relaypass/backend/kernel_source.h"

#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/int8_kernels.h"

namespace relaypass::backend {

namespace {

// The operators whose kernels take the int8 GEMM for uint8/int8 operands and int32 results.
bool RunsInt8Gemm(const std::string& op) {
  return op == "nn.conv2d" || op == "nn.dense" || op == "nn.matmul" || op == "nn.batch_matmul";
}

ir::DataType DTypeOf(const ir::Type& type) {
  const auto* tensor = type ? type.as<ir::TensorTypeNode>() : nullptr;
  return tensor ? tensor->dtype : ir::DataType();
}

struct Int8Use {
  std::string op, data, weight;
  op::Int8GemmKind kind;
  bool operator<(const Int8Use& o) const {
    return std::tie(op, data, weight) < std::tie(o.op, o.data, o.weight);
  }
};

class Int8UseCollector : public ir::ExprVisitor {
 public:
  std::set<Int8Use> uses;

 protected:
  void VisitCall(const ir::CallNode* call) override {
    const ir::OpNode* op = call->op_node();
    if (!op || !RunsInt8Gemm(op->name) || call->args.size() < 2) return;
    const ir::DataType data = DTypeOf(call->args[0]->checked_type);
    const ir::DataType weight = DTypeOf(call->args[1]->checked_type);
    if (auto kind = op::Int8GemmKindFor(data, weight, DTypeOf(call->checked_type))) {
      uses.insert({op->name, data.ToString(), weight.ToString(), *kind});
    }
  }
};

std::string Flags(op::Int8Isa isa) {
  const std::string flags = op::Int8VariantFlags(isa);
  return flags.empty() ? ", x86-64's baseline" : " " + flags;
}

}  // namespace

std::string KernelAssemblySource(const BuiltModule& built) {
  Int8UseCollector collector;
  for (const auto& [global, function] : built.mod.functions()) collector.Visit(function);
  if (collector.uses.empty()) {
    return "# relaypass: module '" + built.mod_name +
           "' generates no code. Its operators run on relaypass's evaluator (precompiled "
           "kernels); none of them is an int8 product (uint8/int8 nn.conv2d, nn.dense, "
           "nn.matmul or nn.batch_matmul with out_dtype int32), the only kernels whose code "
           "depends on the target.\n";
  }
  const op::Int8Isa isa = built.int8_isa;
  std::string text = "# relaypass: module '" + built.mod_name +
                     "' runs on relaypass's evaluator; its int8 products call the int8 GEMM "
                     "compiled for " +
                     op::Int8IsaTitle(isa) + " (g++ -O3" + Flags(isa) +
                     "), chosen by the target:\n";
  std::set<op::Int8GemmKind> kinds;
  for (const Int8Use& use : collector.uses) {
    text += "#   " + use.op + " (" + use.data + " x " + use.weight +
            " -> int32): " + op::Int8KernelSymbol(isa, use.kind) + "\n";
    kinds.insert(use.kind);
  }
  for (op::Int8GemmKind kind : kinds) text += "\n" + op::Int8KernelAssembly(isa, kind);
  return text;
}

}  // namespace relaypass::backend
