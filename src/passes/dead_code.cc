#include "relaypass/passes/dead_code.h"

#include <algorithm>
#include <span>
#include <vector>

#include "dead_code_purity.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

struct VarPurity {
  const support::PointerMap<uint8_t>* known;
  bool default_purity;  // for variables the analysis did not see
  bool operator()(const ExprNode* var) const {
    const uint8_t* p = known->find(var);
    return p ? *p != 0 : default_purity;
  }
};

// TVM's UsageVisitor: counts the uses of each let-bound variable, saturating at 2 (a node is
// expanded at most twice). The value of a pure binding is only visited once its variable is
// used, so bindings used only by dead code count as unused. A use inside a local function deeper
// than the binding counts twice (the function may be called many times). Runs on an explicit
// stack in the order of TVM's recursion.
class UsageCounter {
 public:
  explicit UsageCounter(VarPurity is_pure) : is_pure_(is_pure) {}

  void Run(const Expr& root) {
    tasks_.push_back({Task::kVisit, root.get()});
    while (!tasks_.empty()) {
      Task t = tasks_.back();
      tasks_.pop_back();
      switch (t.kind) {
        case Task::kVisit:
          Visit(t.node);
          break;
        case Task::kLetChain:
          LetBinding(static_cast<const ir::LetNode*>(t.node));
          break;
        case Task::kExitFunction:
          --scope_level_;
          break;
        case Task::kOuterUse: {
          // A variable bound outside the current local function.
          Binding* b = bindings_.find(t.node);
          if (b->scope_level < scope_level_) ++b->uses;
          break;
        }
      }
    }
  }

  // What the counter learnt about a let-bound variable.
  struct Binding {
    Expr value;
    uint32_t uses = 0;    // stops growing once each use site was seen twice
    int scope_level = 0;  // where it is bound
    bool pure = false;
  };
  // The binding of `var`, or null if `var` is not let-bound.
  const Binding* Find(const ExprNode* var) const { return bindings_.find(var); }

 private:
  struct Task {
    enum Kind : uint8_t { kVisit, kLetChain, kExitFunction, kOuterUse } kind;
    const ExprNode* node;
  };

  void Push(const Expr& e) { tasks_.push_back({Task::kVisit, e.get()}); }

  void Visit(const ExprNode* e) {
    // Twice is enough to know a variable can be neither elided nor inlined. A uniquely
    // referenced node is visited once at most: it needs no count.
    if (!e->uniquely_referenced() && ++visits_[e] > 2) return;
    switch (e->kind) {
      case ExprKind::kFunction: {
        auto* f = static_cast<const ir::FunctionNode*>(e);
        ++scope_level_;
        tasks_.push_back({Task::kExitFunction, e});
        Push(f->body);
        for (auto it = f->params.rbegin(); it != f->params.rend(); ++it) Push(*it);
        break;
      }
      case ExprKind::kLet:
        tasks_.push_back({Task::kLetChain, e});
        break;
      case ExprKind::kVar: {
        Binding* b = bindings_.find(e);
        if (!b) break;  // a parameter
        tasks_.push_back({Task::kOuterUse, e});
        // The first use of a pure binding makes its value needed.
        if (++b->uses == 1 && b->pure) Push(b->value);
        break;
      }
      default: {
        // Children in TVM's order: pushed reversed so the first is visited first.
        size_t mark = tasks_.size();
        ir::ForEachChild(e, [&](const Expr& c) { Push(c); });
        std::reverse(tasks_.begin() + static_cast<std::ptrdiff_t>(mark), tasks_.end());
      }
    }
  }

  // One binding of a let chain: recorded, its value visited now if impure, then the rest.
  void LetBinding(const ir::LetNode* let) {
    if (!let->uniquely_referenced()) ++visits_[let];
    bool pure = is_pure_(let->var.get());
    *bindings_.emplace(let->var.get(), {}).first = {let->value, 0, scope_level_, pure};
    if (let->body->kind == ExprKind::kLet) {
      tasks_.push_back({Task::kLetChain, let->body.get()});
    } else {
      Push(let->body);
    }
    if (!pure) Push(let->value);
  }

  VarPurity is_pure_;
  std::vector<Task> tasks_;
  support::PointerMap<uint32_t> visits_;
  support::PointerMap<Binding> bindings_;
  int scope_level_ = 0;  // +1 inside each function, the global one included
};

// TVM's EliminatorMutator: drops unused pure bindings and inlines single-use ones when asked.
// Rebuilt nodes keep their checked types (TVM's WithFields); new lets have none. A memoized
// post-order on an explicit stack, where an inlined variable's child is its bound value. Each
// node's result goes on a value stack for its parent; only nodes that can be reached again (not
// uniquely referenced) are also memoized.
class Eliminator {
 public:
  Eliminator(const UsageCounter& usage, bool inline_once)
      : usage_(usage), inline_once_(inline_once) {}

  Expr Run(const Expr& root) {
    stack_.push_back({root.get(), false, false, 0});
    while (!stack_.empty()) {
      Frame& top = stack_.back();
      const ExprNode* e = top.node;
      if (!top.expanded) {
        // Checked before this walk holds any reference of its own to the node.
        top.unique = e->uniquely_referenced();
        if (!top.unique) {
          if (const Expr* done = memo_.find(e)) {
            values_.push_back(*done);
            stack_.pop_back();
            continue;
          }
        }
        top.expanded = true;
        top.base = values_.size();
        const size_t mark = stack_.size();
        ForEachChild(e, [&](const ExprNode* c) { stack_.push_back({c, false, false, 0}); });
        std::reverse(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
        continue;
      }
      const size_t base = top.base;
      const bool unique = top.unique;
      stack_.pop_back();
      Expr result = Rebuild(e, std::span<const Expr>(values_).subspan(base));
      values_.resize(base);
      if (!unique) memo_.emplace(e, result);
      values_.push_back(std::move(result));
    }
    return values_.back();
  }

 private:
  enum class Action { kElide, kInline, kNoChange };
  struct Frame {
    const ExprNode* node;
    bool expanded;
    bool unique;  // uniquely referenced: not memoized
    size_t base;  // where the node's children's results start in values_
  };

  Action ActionFor(const ExprNode* var) const {
    const UsageCounter::Binding* b = usage_.Find(var);
    if (!b || !b->pure) return Action::kNoChange;
    switch (b->uses) {
      case 0:
        return Action::kElide;
      case 1:
        return inline_once_ ? Action::kInline : Action::kNoChange;
      default:
        return Action::kNoChange;
    }
  }

  // The nodes a node's result is built from. A let's variable is not rewritten.
  template <typename F>
  void ForEachChild(const ExprNode* e, F&& fn) const {
    switch (e->kind) {
      case ExprKind::kVar:
        if (ActionFor(e) == Action::kInline) fn(usage_.Find(e)->value.get());
        break;
      case ExprKind::kLet: {
        auto* let = static_cast<const ir::LetNode*>(e);
        if (ActionFor(let->var.get()) != Action::kElide) fn(let->value.get());
        fn(let->body.get());
        break;
      }
      default:
        ir::ForEachChild(e, [&](const Expr& c) { fn(c.get()); });
    }
  }

  // `e` with its children replaced by their results (`kids`, in ForEachChild's order); `e`
  // itself when none changed.
  Expr Rebuild(const ExprNode* e, std::span<const Expr> kids) {
    Expr self(e);
    switch (e->kind) {
      case ExprKind::kVar:
        return kids.empty() ? self : kids[0];  // an inlined variable's child is its value
      case ExprKind::kLet: {
        auto* let = static_cast<const ir::LetNode*>(e);
        const Expr& body = kids.back();
        if (ActionFor(let->var.get()) != Action::kNoChange) return body;
        return ir::MakeLet(let->var, kids[0], body);
      }
      case ExprKind::kCall: {
        auto* call = static_cast<const ir::CallNode*>(e);
        bool changed = !kids[0].same_as(call->op);
        for (size_t i = 0; i < call->args.size() && !changed; ++i) {
          changed = !kids[1 + i].same_as(call->args[i]);
        }
        if (!changed) return self;
        Expr copy = ir::CopyNode(self);
        auto* node = const_cast<ir::CallNode*>(copy.as<ir::CallNode>());
        node->op = kids[0];
        node->args.assign(kids.begin() + 1, kids.end());
        return copy;
      }
      case ExprKind::kTuple: {
        auto* tuple = static_cast<const ir::TupleNode*>(e);
        bool changed = false;
        for (size_t i = 0; i < tuple->fields.size() && !changed; ++i) {
          changed = !kids[i].same_as(tuple->fields[i]);
        }
        if (!changed) return self;
        Expr copy = ir::CopyNode(self);
        const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>())
            ->fields.assign(kids.begin(), kids.end());
        return copy;
      }
      case ExprKind::kTupleGetItem: {
        if (kids[0].same_as(static_cast<const ir::TupleGetItemNode*>(e)->tuple)) return self;
        Expr copy = ir::CopyNode(self);
        const_cast<ir::TupleGetItemNode*>(copy.as<ir::TupleGetItemNode>())->tuple = kids[0];
        return copy;
      }
      case ExprKind::kFunction: {
        if (kids[0].same_as(static_cast<const ir::FunctionNode*>(e)->body)) return self;
        Expr copy = ir::CopyNode(self);
        const_cast<ir::FunctionNode*>(copy.as<ir::FunctionNode>())->body = kids[0];
        return copy;
      }
      case ExprKind::kIf: {
        auto* node = static_cast<const ir::IfNode*>(e);
        if (kids[0].same_as(node->cond) && kids[1].same_as(node->true_branch) &&
            kids[2].same_as(node->false_branch)) {
          return self;
        }
        Expr copy = ir::CopyNode(self);
        auto* n = const_cast<ir::IfNode*>(copy.as<ir::IfNode>());
        n->cond = kids[0];
        n->true_branch = kids[1];
        n->false_branch = kids[2];
        return copy;
      }
      case ExprKind::kRefCreate: {
        if (kids[0].same_as(static_cast<const ir::RefCreateNode*>(e)->value)) return self;
        Expr copy = ir::CopyNode(self);
        const_cast<ir::RefCreateNode*>(copy.as<ir::RefCreateNode>())->value = kids[0];
        return copy;
      }
      case ExprKind::kRefRead: {
        if (kids[0].same_as(static_cast<const ir::RefReadNode*>(e)->ref)) return self;
        Expr copy = ir::CopyNode(self);
        const_cast<ir::RefReadNode*>(copy.as<ir::RefReadNode>())->ref = kids[0];
        return copy;
      }
      case ExprKind::kRefWrite: {
        auto* node = static_cast<const ir::RefWriteNode*>(e);
        if (kids[0].same_as(node->ref) && kids[1].same_as(node->value)) return self;
        Expr copy = ir::CopyNode(self);
        auto* n = const_cast<ir::RefWriteNode*>(copy.as<ir::RefWriteNode>());
        n->ref = kids[0];
        n->value = kids[1];
        return copy;
      }
      default:
        return self;
    }
  }

  const UsageCounter& usage_;
  bool inline_once_;
  std::vector<Frame> stack_;
  std::vector<Expr> values_;
  support::PointerMap<Expr> memo_;
};

}  // namespace

transform::Pass DeadCodeElimination(bool inline_once, bool ignore_impurity) {
  auto pass_func = [inline_once, ignore_impurity](const ir::IRModule& mod,
                                                  const transform::PassContext&) {
    support::PointerMap<uint8_t> purity;
    if (!ignore_impurity) purity = dce::AnalyzePurity(mod);
    VarPurity is_pure{&purity, ignore_impurity};
    ir::IRModule result = mod;  // keeps the type definitions; each function is replaced
    for (const auto& [gv, func] : mod.functions()) {
      UsageCounter usage(is_pure);
      usage.Run(func);
      Expr rewritten = Eliminator(usage, inline_once).Run(func);
      result.Add(gv, rewritten.downcast<ir::FunctionNode>());
    }
    return result;
  };
  return transform::CreateModulePass(pass_func, 1, "DeadCodeElimination", {"InferType"});
}

void RegisterDeadCodeElimination(transform::PassRegistry& registry) {
  registry.Register(
      {"DeadCodeElimination",
       {{"inline_once", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "substitute bindings used exactly once at their use"},
        {"ignore_impurity", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "treat every binding as pure"}},
       [](const transform::PassOptions& options) {
         return DeadCodeElimination(options.GetBool("inline_once"),
                                    options.GetBool("ignore_impurity"));
       },
       "removes unused pure let-bindings"});
}

}  // namespace relaypass::passes
