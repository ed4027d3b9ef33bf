#include "relaypass/passes/eliminate_common_subexpr.h"

#include <cstring>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

uint64_t Mix(uint64_t h, uint64_t v) {
  // splitmix64's finalizer over the running hash.
  uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

uint64_t PointerHash(const void* p) {
  return Mix(0, reinterpret_cast<uintptr_t>(p));
}

const ir::ConstantNode* AsScalarConstant(const Expr& e) {
  auto* c = e.as<ir::ConstantNode>();
  return c && c->is_scalar() ? c : nullptr;
}

// TVM's IsEqualScalar: both scalar constants with structurally equal values.
bool IsEqualScalar(const Expr& a, const Expr& b) {
  return AsScalarConstant(a) && AsScalarConstant(b) && ir::StructuralEqual(a, b);
}

// Two call arguments are equivalent if they are the same node or equal scalar constants; two
// tuples are compared field by field with that rule.
bool IsEquivalent(const Expr& arg, const Expr& candidate) {
  auto* t1 = arg.as<ir::TupleNode>();
  auto* t2 = candidate.as<ir::TupleNode>();
  if (t1 && t2) {
    if (t1->fields.size() != t2->fields.size()) return false;
    for (size_t i = 0; i < t1->fields.size(); ++i) {
      if (!IsEqualScalar(t1->fields[i], t2->fields[i]) && !t1->fields[i].same_as(t2->fields[i])) {
        return false;
      }
    }
    return true;
  }
  return IsEqualScalar(arg, candidate) || arg.same_as(candidate);
}

// A hash that agrees with IsEquivalent: scalar constants by value, anything else by identity.
uint64_t FieldHash(const Expr& e) {
  const ir::ConstantNode* c = AsScalarConstant(e);
  if (!c) return PointerHash(e.get());
  ir::DataType t = c->data.dtype();
  uint64_t h =
      Mix(0x5ca1a7, (static_cast<uint64_t>(t.code()) << 24) | (t.bits() << 16) | t.lanes());
  uint64_t bits = 0;
  std::memcpy(&bits, c->data.raw_data(), std::min<size_t>(sizeof(bits), c->data.nbytes()));
  return Mix(h, bits);
}

uint64_t ArgHash(const Expr& e) {
  auto* tuple = e.as<ir::TupleNode>();
  if (!tuple) return FieldHash(e);
  uint64_t h = Mix(0x7091e, tuple->fields.size());
  for (const Expr& f : tuple->fields) h = Mix(h, FieldHash(f));
  return h;
}

// Earlier calls and get-items by a hash of what makes two of them equivalent, each bucket in
// insertion order (TVM keeps one list per op and scans it; a long chain of one op made that
// quadratic). Open addressing over the buckets; candidates linked within a bucket.
class CandidateTable {
 public:
  CandidateTable() : slots_(64) {}

  // The first candidate under `hash` that `match` accepts, or null.
  template <typename Match>
  const Expr* Find(uint64_t hash, Match&& match) const {
    const Slot& s = slots_[Probe(hash)];
    if (s.head == kEmpty) return nullptr;
    for (uint32_t i = s.head; i != kEmpty; i = entries_[i].next) {
      if (match(entries_[i].expr)) return &entries_[i].expr;
    }
    return nullptr;
  }

  void Add(uint64_t hash, Expr candidate) {
    if ((used_ + 1) * 4 > slots_.size() * 3) Grow();
    auto entry = static_cast<uint32_t>(entries_.size());
    entries_.push_back({std::move(candidate), kEmpty});
    Slot& s = slots_[Probe(hash)];
    if (s.head == kEmpty) {
      s = {hash, entry, entry};
      ++used_;
    } else {
      entries_[s.tail].next = entry;
      s.tail = entry;
    }
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    uint64_t hash = 0;
    uint32_t head = kEmpty;
    uint32_t tail = kEmpty;
  };
  struct Entry {
    Expr expr;
    uint32_t next;
  };

  size_t Probe(uint64_t hash) const {
    size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    while (slots_[i].head != kEmpty && slots_[i].hash != hash) i = (i + 1) & mask;
    return i;
  }
  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.head != kEmpty) slots_[Probe(s.hash)] = s;
    }
  }

  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  size_t used_ = 0;
};

class CommonSubexprEliminator : public ir::ExprMutator {
 public:
  explicit CommonSubexprEliminator(CsePredicate fskip) : fskip_(std::move(fskip)) {}

 protected:
  Expr RewriteCall(const ir::CallNode*, const Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    const ir::OpNode* op = call->op_node();
    if (call->args.empty() || !op || (op->def && op->def->stateful)) return post;
    if (fskip_ && fskip_(post)) return post;
    uint64_t hash = Mix(PointerHash(op), ir::AttrsHash(call->attrs));
    for (const Expr& arg : call->args) hash = Mix(hash, ArgHash(arg));
    const Expr* found = table_.Find(hash, [&](const Expr& candidate_expr) {
      auto* candidate = candidate_expr.as<ir::CallNode>();
      if (!candidate || !candidate->op.same_as(call->op)) return false;
      if (!ir::AttrsEqual(call->attrs, candidate->attrs)) return false;
      if (candidate->args.size() != call->args.size()) return false;
      for (size_t i = 0; i < call->args.size(); ++i) {
        if (!IsEquivalent(call->args[i], candidate->args[i])) return false;
      }
      return true;
    });
    if (found) return *found;
    table_.Add(hash, post);
    return post;
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const Expr& post) override {
    if (fskip_ && fskip_(post)) return post;
    auto* item = post.as<ir::TupleGetItemNode>();
    uint64_t hash = Mix(Mix(PointerHash(item->tuple.get()), 0x9e7), item->index);
    const Expr* found = table_.Find(hash, [&](const Expr& candidate_expr) {
      auto* candidate = candidate_expr.as<ir::TupleGetItemNode>();
      return candidate && candidate->tuple.same_as(item->tuple) && candidate->index == item->index;
    });
    if (found) return *found;
    table_.Add(hash, post);
    return post;
  }

 private:
  CsePredicate fskip_;
  CandidateTable table_;
};

}  // namespace

transform::Pass EliminateCommonSubexpr(CsePredicate fskip) {
  auto pass_func = [fskip](const ir::Function& func, const ir::IRModule&,
                           const transform::PassContext&) {
    return CommonSubexprEliminator(fskip).Mutate(func).downcast<ir::FunctionNode>();
  };
  return transform::CreateFunctionPass(pass_func, 3, "EliminateCommonSubexpr", {"InferType"});
}

void RegisterEliminateCommonSubexpr(transform::PassRegistry& registry) {
  registry.Register({"EliminateCommonSubexpr",
                     {},
                     [](const transform::PassOptions&) { return EliminateCommonSubexpr(); },
                     "replaces repeated operator calls and get-items by their first occurrence"});
}

}  // namespace relaypass::passes
