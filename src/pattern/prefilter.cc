// Prefilter and RootOps (relaypass/pattern/match.h): what a pattern's call skeleton says about the
// expressions it can match, read without the matcher.
#include <algorithm>

#include "matcher.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/pattern/match.h"

namespace relaypass::pattern {
namespace {

// Below this depth of calls in the pattern, or of alternatives within one level, every expression
// might match: the check stays cheap, and its recursion is bounded whatever the pattern.
constexpr int kMaxDepth = 3;
constexpr int kMaxAlternatives = 32;

// Calls `visit` on each alternative of `pattern` (the operands of nested `|`, left first, seen
// through `unwrap`) until it returns false; false if it did.
template <typename UnwrapFn, typename Visit>
bool ForEachAlternative(const DFPatternNode* pattern, UnwrapFn unwrap, Visit visit) {
  std::vector<const DFPatternNode*> stack{pattern};
  while (!stack.empty()) {
    const DFPatternNode* p = unwrap(stack.back());
    stack.pop_back();
    if (p->kind == PatternKind::kAlt) {
      auto* alt = static_cast<const AltPatternNode*>(p);
      stack.push_back(alt->right.get());  // the left alternative first
      stack.push_back(alt->left.get());
      continue;
    }
    if (!visit(p)) return false;
  }
  return true;
}

const DFPatternNode* Itself(const DFPatternNode* p) {
  return p;
}

// The operators a call pattern's callee can be: an `IsOp(name)`, a wildcard with operator
// attributes (`HasAttr({"TOpPattern": ...})`: the registered operators that have them), or
// alternatives of these; false if the callee is another pattern.
bool CalleeOps(const DFPattern& callee, std::vector<const ir::OpNode*>& out) {
  return ForEachAlternative(callee.get(), Itself, [&](const DFPatternNode* p) {
    if (p->kind == PatternKind::kAttr) {
      auto* attr = static_cast<const AttrPatternNode*>(p);
      if (attr->pattern->kind != PatternKind::kWildcard) return false;
      const ir::OpRegistry& registry = ir::OpRegistry::Global();
      for (const std::string& name : registry.ListNames()) {
        ir::Op op = registry.GetOp(name);
        if (op && OpHasAttrs(op.get(), attr->attrs)) out.push_back(op.get());
      }
      return true;
    }
    if (p->kind != PatternKind::kExpr) return false;
    auto* op = static_cast<const ExprPatternNode*>(p)->expr.as<ir::OpNode>();
    if (!op) return false;
    out.push_back(op);
    return true;
  });
}

bool IsOpPattern(const DFPattern& p, const char* name) {
  auto* call = p.as<CallPatternNode>();
  if (!call) return false;
  auto* expr = call->op.as<ExprPatternNode>();
  auto* op = expr ? expr->expr.as<ir::OpNode>() : nullptr;
  return op && op->name == name;
}

// The matcher rewrites a divide of a multiply, or a multiply with a divide argument, by
// associativity ((a * b) / c matches a * (b / c)): such a pattern's root may match a call of either
// operator with other arguments.
bool Associative(const CallPatternNode* p, const ir::OpNode* op) {
  if (!op || !p->has_args || p->args.size() != 2) return false;
  if (op->name == "divide") return IsOpPattern(p->args[0], "multiply");
  if (op->name == "multiply") {
    return IsOpPattern(p->args[0], "divide") || IsOpPattern(p->args[1], "divide");
  }
  return false;
}

// Looks through the constraint patterns (type, shape, dtype, attributes) to what they constrain.
const DFPatternNode* Unwrap(const DFPatternNode* p) {
  while (true) {
    switch (p->kind) {
      case PatternKind::kType:
        p = static_cast<const TypePatternNode*>(p)->pattern.get();
        break;
      case PatternKind::kShape:
        p = static_cast<const ShapePatternNode*>(p)->pattern.get();
        break;
      case PatternKind::kDataType:
        p = static_cast<const DataTypePatternNode*>(p)->pattern.get();
        break;
      case PatternKind::kAttr:
        p = static_cast<const AttrPatternNode*>(p)->pattern.get();
        break;
      default:
        return p;
    }
  }
}

}  // namespace

int Prefilter::Compile(const DFPattern& pattern, int depth, int alternatives) {
  const DFPatternNode* p = Unwrap(pattern.get());
  Node node;
  if (depth > kMaxDepth || alternatives > kMaxAlternatives) {
    node.kind = Node::kAny;
  } else if (p->kind == PatternKind::kConstant) {
    node.kind = Node::kConstant;
  } else if (p->kind == PatternKind::kVar) {
    node.kind = Node::kVar;
  } else if (p->kind == PatternKind::kAlt) {
    auto* alt = static_cast<const AltPatternNode*>(p);
    node.kind = Node::kAlt;
    node.left = Compile(alt->left, depth, alternatives + 1);
    node.right = Compile(alt->right, depth, alternatives + 1);
  } else if (p->kind == PatternKind::kCall) {
    auto* call = static_cast<const CallPatternNode*>(p);
    node.kind = Node::kCall;
    node.known_callee = CalleeOps(call->op, node.ops);
    const ir::OpNode* op = node.known_callee && node.ops.size() == 1 ? node.ops[0] : nullptr;
    node.associative = Associative(call, op);
    // The matcher also tries the two arguments of an add or multiply pattern the other way round.
    node.commutative = op && (op->name == "add" || op->name == "multiply");
    node.has_args = call->has_args;
    for (const DFPattern& arg : call->args) node.args.push_back(Compile(arg, depth + 1, 0));
  } else {
    node.kind = Node::kAny;
  }
  nodes_.push_back(std::move(node));
  return static_cast<int>(nodes_.size()) - 1;
}

Prefilter::Prefilter(const DFPattern& pattern) : root_(Compile(pattern, 0, 0)) {}

bool Prefilter::Might(int index, const ir::Expr& e) const {
  const Node& node = nodes_[static_cast<size_t>(index)];
  if (!e) return true;
  switch (node.kind) {
    case Node::kConstant:
      return e->kind == ir::ExprKind::kConstant;
    case Node::kVar:
      return e->kind == ir::ExprKind::kVar;
    case Node::kAlt:
      return Might(node.left, e) || Might(node.right, e);
    case Node::kCall:
      break;
    default:
      return true;
  }
  if (e->kind != ir::ExprKind::kCall) return false;
  auto* call = static_cast<const ir::CallNode*>(e.get());
  if (node.known_callee) {
    const ir::OpNode* callee = call->op_node();
    if (!callee) return false;
    if (node.associative) return callee->name == "multiply" || callee->name == "divide";
    if (std::find(node.ops.begin(), node.ops.end(), callee) == node.ops.end()) return false;
  }
  if (!node.has_args) return true;
  if (node.args.size() != call->args.size()) return false;
  bool in_order = true;
  for (size_t i = 0; in_order && i < node.args.size(); ++i) {
    in_order = Might(node.args[i], call->args[i]);
  }
  if (in_order) return true;
  return node.commutative && node.args.size() == 2 && Might(node.args[1], call->args[0]) &&
         Might(node.args[0], call->args[1]);
}

bool MightMatch(const DFPattern& pattern, const ir::Expr& expr) {
  return Prefilter(pattern)(expr);
}

std::vector<std::string> RootOps(const DFPattern& pattern) {
  std::vector<std::string> out;
  const bool all_calls = ForEachAlternative(pattern.get(), Unwrap, [&](const DFPatternNode* p) {
    if (p->kind != PatternKind::kCall) return false;
    auto* call = static_cast<const CallPatternNode*>(p);
    std::vector<const ir::OpNode*> ops;
    if (!CalleeOps(call->op, ops)) return false;
    std::vector<std::string> names;
    for (const ir::OpNode* op : ops) names.push_back(op->name);
    if (Associative(call, ops.size() == 1 ? ops[0] : nullptr)) names = {"multiply", "divide"};
    for (const std::string& name : names) {
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return true;
  });
  if (!all_calls) return {};
  return out;
}

}  // namespace relaypass::pattern
