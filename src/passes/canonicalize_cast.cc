#include "relaypass/passes/canonicalize_cast.h"

#include <unordered_set>

#include "recursive_edge_order.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using Id = ir::PostOrderIndex::Id;

bool IsElemwiseOrBroadcastCall(const ir::ExprNode* node) {
  if (node->kind != ir::ExprKind::kCall) return false;
  auto* op = static_cast<const ir::CallNode*>(node)->op_node();
  return op && op->def &&
         static_cast<int>(op->def->pattern) <= static_cast<int>(op::OpPattern::kBroadcast);
}

// TVM's bits: bool is 1 bit there (relaypass stores it in a byte).
int TvmBits(ir::DataType t) {
  return t.is_bool() ? 1 : t.bits();
}

// cast(x, dtype) with fewer bits in x than in dtype.
bool IsUpCast(const ir::ExprNode* node) {
  if (node->kind != ir::ExprKind::kCall) return false;
  auto* call = static_cast<const ir::CallNode*>(node);
  auto* op = call->op_node();
  if (!op || op->name != "cast" || call->args.empty()) return false;
  auto* from = call->args[0]->checked_type.as<ir::TensorTypeNode>();
  auto* to = node->checked_type.as<ir::TensorTypeNode>();
  return from && to && TvmBits(from->dtype) < TvmBits(to->dtype);
}

ir::Function Canonicalize(const ir::Function& func) {
  ir::PostOrderIndex index;
  const Id root = index.Add(func);
  // Edges (parent, argument slot) whose up-cast gets a fresh copy: every use after the first.
  std::vector<uint8_t> seen(index.size(), 0);
  std::unordered_set<uint64_t> copies;
  ForEachEdgeInRecursiveOrder(index, root, [&](Id parent, uint32_t pos, Id child) {
    if (pos == 0 || !IsElemwiseOrBroadcastCall(index.node(parent))) return;  // slot 0: the op
    if (!IsUpCast(index.node(child))) return;
    if (seen[child]++) copies.insert((uint64_t{parent} << 32) | pos);
  });
  std::vector<Expr> results(index.size());
  for (Id id : index.post_order()) {
    const Expr pre(index.node(id));
    const auto children = index.children(id);
    bool has_copy = false;
    if (!copies.empty() && IsElemwiseOrBroadcastCall(pre.get())) {
      for (uint32_t pos = 1; pos < children.size(); ++pos) {
        has_copy |= copies.count((uint64_t{id} << 32) | pos) != 0;
      }
    }
    if (!has_copy) {
      results[id] = ir::RebuildOnChildren(pre, children, results);
      continue;
    }
    auto* call = pre.as<ir::CallNode>();
    std::vector<Expr> args;
    for (uint32_t pos = 1; pos < children.size(); ++pos) {
      Expr arg = results[children[pos]] ? results[children[pos]] : call->args[pos - 1];
      if (copies.count((uint64_t{id} << 32) | pos)) {
        auto* cast = arg.as<ir::CallNode>();
        arg = ir::MakeCall(cast->op, cast->args, cast->attrs);
      }
      args.push_back(std::move(arg));
    }
    results[id] = ir::MakeCall(call->op, std::move(args), call->attrs);
  }
  return results[root].downcast<ir::FunctionNode>();
}

}  // namespace

transform::Pass CanonicalizeCast() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return Canonicalize(typed);
      },
      3, "CanonicalizeCast", {"InferType"});
}

void RegisterCanonicalizeCast(transform::PassRegistry& registry) {
  registry.Register({"CanonicalizeCast",
                     {},
                     [](const transform::PassOptions&) { return CanonicalizeCast(); },
                     "copies an up-cast for each further elementwise use, so each can fuse"});
}

}  // namespace relaypass::passes
