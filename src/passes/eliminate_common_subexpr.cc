#include "relaypass/passes/eliminate_common_subexpr.h"

#include <algorithm>
#include <cstring>
#include <span>

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

using Id = ir::PostOrderIndex::Id;

// An earlier call or get-item that later ones may be replaced by, with its node number.
struct Candidate {
  Expr expr;
  Id id;
};

// Earlier calls by a hash of what makes two of them equivalent, each bucket in
// insertion order (TVM keeps one list per op and scans it; a long chain of one op made that
// quadratic). Open addressing over the buckets; candidates linked within a bucket.
class CandidateTable {
 public:
  CandidateTable() : slots_(64) {}

  // The first candidate under `hash` that `match` accepts, or null.
  template <typename Match>
  const Candidate* Find(uint64_t hash, Match&& match) const {
    const Slot& s = slots_[Probe(hash)];
    if (s.head == kEmpty) return nullptr;
    for (uint32_t i = s.head; i != kEmpty; i = entries_[i].next) {
      if (match(entries_[i].candidate.expr)) return &entries_[i].candidate;
    }
    return nullptr;
  }

  void Add(uint64_t hash, Candidate candidate) {
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
    Candidate candidate;
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

// Whether two arguments can be equivalent only by being the same node (IsEquivalent's rule for
// anything but scalar constants and tuples).
bool ComparedByIdentity(const Expr& arg) {
  return !AsScalarConstant(arg) && !arg.as<ir::TupleNode>();
}

// Earlier calls and get-items that share an operand compared by identity, listed per that
// operand. A candidate equivalent to a later node must have the very same node in the same
// position, so the candidates of a node are in the list of its first such operand, and that list
// is in insertion order: the first match is the one a scan of all candidates would find. Lists
// are indexed by the operand's node number (as ExprMutator numbers the nodes), which makes a
// chain of distinct calls cost no table probe at all.
class CandidatesByOperand {
 public:
  template <typename Match>
  const Candidate* Find(Id operand, Match&& match) const {
    if (operand >= head_.size()) return nullptr;
    for (uint32_t i = head_[operand]; i != kEmpty; i = entries_[i].next) {
      if (match(entries_[i].candidate.expr)) return &entries_[i].candidate;
    }
    return nullptr;
  }

  void Add(Id operand, Candidate candidate) {
    if (operand >= head_.size()) {
      const size_t size = std::max<size_t>(operand + 1, head_.size() * 2);
      head_.resize(size, kEmpty);
      tail_.resize(size, kEmpty);
    }
    auto entry = static_cast<uint32_t>(entries_.size());
    entries_.push_back({std::move(candidate), kEmpty});
    if (head_[operand] == kEmpty) {
      head_[operand] = entry;
    } else {
      entries_[tail_[operand]].next = entry;
    }
    tail_[operand] = entry;
  }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  struct Entry {
    Candidate candidate;
    uint32_t next;
  };

  std::vector<uint32_t> head_;  // by operand number: first entry, or kEmpty
  std::vector<uint32_t> tail_;
  std::vector<Entry> entries_;
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
    auto match = [&](const Expr& candidate_expr) {
      auto* candidate = candidate_expr.as<ir::CallNode>();
      if (!candidate || !candidate->op.same_as(call->op)) return false;
      if (!ir::AttrsEqual(call->attrs, candidate->attrs)) return false;
      if (candidate->args.size() != call->args.size()) return false;
      for (size_t i = 0; i < call->args.size(); ++i) {
        if (!IsEquivalent(call->args[i], candidate->args[i])) return false;
      }
      return true;
    };
    // index().children: the callee, then the arguments.
    std::span<const Id> children = index().children(current_id());
    for (size_t i = 0; i < call->args.size(); ++i) {
      if (!ComparedByIdentity(call->args[i])) continue;
      const Id operand = Canonical(children[1 + i]);
      return Replaced(by_operand_.Find(operand, match), [&] {
        by_operand_.Add(operand, {post, current_id()});
        return post;
      });
    }
    // Every argument a scalar constant or a tuple: by a hash of their values and fields.
    uint64_t hash = Mix(PointerHash(op), ir::AttrsHash(call->attrs));
    for (const Expr& arg : call->args) hash = Mix(hash, ArgHash(arg));
    return Replaced(by_hash_.Find(hash, match), [&] {
      by_hash_.Add(hash, {post, current_id()});
      return post;
    });
  }

  Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const Expr& post) override {
    if (fskip_ && fskip_(post)) return post;
    auto* item = post.as<ir::TupleGetItemNode>();
    auto match = [&](const Expr& candidate_expr) {
      auto* candidate = candidate_expr.as<ir::TupleGetItemNode>();
      return candidate && candidate->tuple.same_as(item->tuple) && candidate->index == item->index;
    };
    const Id operand = Canonical(index().children(current_id())[0]);
    return Replaced(by_operand_.Find(operand, match), [&] {
      by_operand_.Add(operand, {post, current_id()});
      return post;
    });
  }

 private:
  // The number standing for the result of node `id`: a node replaced by an earlier candidate
  // has the same result as that candidate, so it is known by the candidate's number.
  Id Canonical(Id id) const { return id < canonical_.size() ? canonical_[id] : id; }

  // The current node's result: `found` if there is one (and the node is then known by its
  // number), otherwise keep().
  template <typename Keep>
  Expr Replaced(const Candidate* found, Keep&& keep) {
    if (!found) return keep();
    const Id id = current_id();
    if (id >= canonical_.size()) {
      const size_t old = canonical_.size();
      canonical_.resize(std::max<size_t>(id + 1, old * 2));
      for (size_t i = old; i < canonical_.size(); ++i) canonical_[i] = static_cast<Id>(i);
    }
    canonical_[id] = found->id;  // a candidate is its own canonical number
    return found->expr;
  }

  CsePredicate fskip_;
  std::vector<Id> canonical_;  // by node number; only grown once a node is replaced
  CandidatesByOperand by_operand_;
  CandidateTable by_hash_;
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
