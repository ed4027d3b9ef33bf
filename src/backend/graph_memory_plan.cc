#include "graph_memory_plan.h"

#include <algorithm>
#include <map>
#include <string>

#include "relaypass/ir/post_order_index.h"
#include "relaypass/support/error.h"

namespace relaypass::backend {

namespace {

using Id = ir::PostOrderIndex::Id;

struct Token {
  int64_t ref_counter = 0;
  uint64_t max_bytes = 0;
  uint64_t bytes = 0;  // of the tensor the prototype describes
  int64_t storage_id = -1;
};

std::string Where(const ir::ExprNode* e) {
  return e->span.line > 0
             ? std::to_string(e->span.line) + ":" + std::to_string(e->span.column) + ": "
             : "";
}

// The tensor types of `type`, tuples flattened (TVM's FlattenTupleType).
void FlattenTensorTypes(const ir::Type& type, const ir::ExprNode* where,
                        std::vector<const ir::TensorTypeNode*>* out) {
  if (!type)
    throw Error(Where(where) + "graph executor: an expression has no type (run InferType)");
  if (const auto* tensor = type.as<ir::TensorTypeNode>()) {
    out->push_back(tensor);
    return;
  }
  if (const auto* tuple = type.as<ir::TupleTypeNode>()) {
    for (const ir::Type& field : tuple->fields) FlattenTensorTypes(field, where, out);
    return;
  }
  throw Error(Where(where) + "graph executor: a value of type " + ir::TypeToString(type) +
              " cannot be held in the graph (only tensors and tuples of them; use the VM)");
}

uint64_t TensorBytes(const ir::TensorTypeNode* t, const ir::ExprNode* where) {
  uint64_t size = 1;
  for (ir::Dim d : t->shape) {
    if (d < 0) {
      throw Error(Where(where) + "graph executor: cannot plan memory for the dynamic shape " +
                  ir::TypeToString(ir::Type(const_cast<ir::TensorTypeNode*>(t))) +
                  " (use the VM: relay.vm.compile or create_executor(\"vm\"))");
    }
    size *= static_cast<uint64_t>(d);
  }
  return size * static_cast<uint64_t>(t->dtype.bytes());
}

class Planner {
 public:
  explicit Planner(const ir::Function& main) : main_(main) {
    index_.Add(main->body,
               [](const ir::ExprNode* e) { return e->kind != ir::ExprKind::kFunction; });
    for (Id id : index_.post_order()) {
      if (index_.node(id)->kind == ir::ExprKind::kLet) {
        const auto* let = static_cast<const ir::LetNode*>(index_.node(id));
        let_values_[let->var.get()] = let->value.get();
      }
    }
  }

  StoragePlan Plan() {
    InitPrototypes();
    StoragePlan plan;
    // Parameters: storage of their own, never released.
    for (const ir::Var& param : main_->params) {
      std::vector<size_t> allocated;
      for (size_t proto : prototypes_.at(param.get())) allocated.push_back(Fixed(proto));
      tokens_of_[param.get()] = allocated;
    }
    for (Id id : index_.post_order()) Visit(index_.node(id));
    for (const auto& [expr, list] : tokens_of_) {
      std::vector<int64_t>& ids = plan.storage_ids[expr];
      for (size_t t : list) ids.push_back(tokens_[t].storage_id);
    }
    plan.block_bytes.resize(next_storage_id_);
    for (const Token& t : tokens_) {
      if (t.storage_id >= 0) {
        uint64_t& bytes = plan.block_bytes[t.storage_id];
        bytes = std::max(bytes, t.max_bytes);
      }
    }
    return plan;
  }

 private:
  // TVM's StorageAllocaInit: one prototype token per tensor of each parameter, constant and call,
  // with the number of uses of its value as arguments (plus one for main's results).
  void InitPrototypes() {
    for (const ir::Var& param : main_->params) MakePrototypes(param.get());
    for (Id id : index_.post_order()) {
      const ir::ExprNode* e = index_.node(id);
      switch (e->kind) {
        case ir::ExprKind::kConstant:
          MakePrototypes(e);
          break;
        case ir::ExprKind::kCall: {
          MakePrototypes(e);
          for (const ir::Expr& arg : static_cast<const ir::CallNode*>(e)->args) {
            for (size_t t : PrototypeTokens(arg.get())) ++tokens_[t].ref_counter;
          }
          break;
        }
        default:
          PropagatePrototypes(e);
      }
    }
    for (size_t t : PrototypeTokens(main_->body.get())) ++tokens_[t].ref_counter;
  }

  void MakePrototypes(const ir::ExprNode* e) {
    std::vector<const ir::TensorTypeNode*> types;
    FlattenTensorTypes(e->checked_type, e, &types);
    std::vector<size_t>& list = prototypes_[e];
    for (const ir::TensorTypeNode* t : types) {
      Token token;
      token.bytes = TensorBytes(t, e);
      list.push_back(tokens_.size());
      tokens_.push_back(token);
    }
  }

  // Tuples, projections, lets and variables name the tokens of other expressions.
  void PropagatePrototypes(const ir::ExprNode* e) { Alias(e, &prototypes_); }

  const std::vector<size_t>& PrototypeTokens(const ir::ExprNode* e) {
    return Lookup(e, prototypes_);
  }

  void Alias(const ir::ExprNode* e,
             std::unordered_map<const ir::ExprNode*, std::vector<size_t>>* map) {
    switch (e->kind) {
      case ir::ExprKind::kTuple: {
        std::vector<size_t> fields;
        for (const ir::Expr& f : static_cast<const ir::TupleNode*>(e)->fields) {
          const std::vector<size_t>& list = Lookup(f.get(), *map);
          fields.insert(fields.end(), list.begin(), list.end());
        }
        (*map)[e] = std::move(fields);
        return;
      }
      case ir::ExprKind::kTupleGetItem: {
        const auto* get = static_cast<const ir::TupleGetItemNode*>(e);
        const std::vector<size_t>& list = Lookup(get->tuple.get(), *map);
        if (get->index < 0 || static_cast<size_t>(get->index) >= list.size()) {
          throw Error(Where(e) + "graph executor: tuple index " + std::to_string(get->index) +
                      " out of range");
        }
        (*map)[e] = {list[get->index]};
        return;
      }
      case ir::ExprKind::kLet:
        (*map)[e] = Lookup(static_cast<const ir::LetNode*>(e)->body.get(), *map);
        return;
      case ir::ExprKind::kVar: {
        auto value = let_values_.find(static_cast<const ir::VarNode*>(e));
        if (value != let_values_.end()) (*map)[e] = Lookup(value->second, *map);
        return;  // a parameter's tokens are made before the walk
      }
      case ir::ExprKind::kIf:
        throw Error(Where(e) +
                    "graph executor: if is not supported (control flow needs the VM: "
                    "relay.vm.compile or create_executor(\"vm\"))");
      case ir::ExprKind::kRefCreate:
      case ir::ExprKind::kRefRead:
      case ir::ExprKind::kRefWrite:
        throw Error(Where(e) +
                    "graph executor: references are not supported (they need the "
                    "interpreter: create_executor(\"debug\"))");
      case ir::ExprKind::kMatch:
      case ir::ExprKind::kConstructor:
        throw Error(Where(e) +
                    "graph executor: algebraic data types are not supported (they need the "
                    "VM or the interpreter)");
      case ir::ExprKind::kFunction:
      case ir::ExprKind::kOp:
      case ir::ExprKind::kGlobalVar:
        return;  // callees: no storage
      default:
        return;
    }
  }

  const std::vector<size_t>& Lookup(
      const ir::ExprNode* e,
      const std::unordered_map<const ir::ExprNode*, std::vector<size_t>>& map) {
    auto it = map.find(e);
    if (it == map.end()) {
      throw Error(Where(e) +
                  "graph executor: a function value is used as data (closures need the VM: "
                  "relay.vm.compile or create_executor(\"vm\"))");
    }
    return it->second;
  }

  // TVM's StorageAllocator.
  void Visit(const ir::ExprNode* e) {
    switch (e->kind) {
      case ir::ExprKind::kConstant: {
        std::vector<size_t> allocated;
        for (size_t proto : prototypes_.at(e)) allocated.push_back(Fixed(proto));
        tokens_of_[e] = allocated;
        return;
      }
      case ir::ExprKind::kCall: {
        const auto* call = static_cast<const ir::CallNode*>(e);
        std::vector<size_t> args;
        for (const ir::Expr& arg : call->args) {
          const std::vector<size_t>& list = Lookup(arg.get(), tokens_of_);
          args.insert(args.end(), list.begin(), list.end());
        }
        const std::vector<size_t>& protos = prototypes_.at(e);
        std::vector<size_t> result;
        if (IsReshapeOnlyCall(call) && args.size() == 1 && protos.size() == 1) {
          tokens_[args[0]].ref_counter += tokens_[protos[0]].ref_counter;  // both must expire
          result = {args[0]};
        } else {
          for (size_t proto : protos) result.push_back(Request(proto));
        }
        tokens_of_[e] = result;
        for (size_t t : result) CheckForRelease(t);
        for (size_t t : args) {
          --tokens_[t].ref_counter;
          CheckForRelease(t);
        }
        return;
      }
      default:
        Alias(e, &tokens_of_);
    }
  }

  size_t Alloc(size_t proto) {
    tokens_[proto].max_bytes = tokens_[proto].bytes;
    tokens_[proto].storage_id = next_storage_id_++;
    return proto;
  }

  // A block that is never released (parameters, constants).
  size_t Fixed(size_t proto) {
    const size_t t = Alloc(proto);
    ++tokens_[t].ref_counter;
    return t;
  }

  size_t Request(size_t proto) {
    const uint64_t size = tokens_[proto].bytes;
    auto begin = free_.lower_bound(size / kMatchRange);
    auto mid = free_.lower_bound(size);
    auto end = free_.upper_bound(size * kMatchRange);
    auto take = [&](std::multimap<uint64_t, size_t>::iterator it) {
      const size_t t = it->second;
      tokens_[t].max_bytes = std::max(size, tokens_[t].max_bytes);
      tokens_[t].ref_counter = tokens_[proto].ref_counter;
      free_.erase(it);
      return t;
    };
    if (mid != end) return take(mid);               // the smallest free block at least as large
    if (mid != begin) return take(std::prev(mid));  // else the largest smaller one
    return Alloc(proto);
  }

  void CheckForRelease(size_t t) {
    if (tokens_[t].ref_counter == 0) free_.insert({tokens_[t].max_bytes, t});
  }

  static constexpr uint64_t kMatchRange = 16;

  const ir::Function& main_;
  ir::PostOrderIndex index_;
  std::unordered_map<const ir::VarNode*, const ir::ExprNode*> let_values_;
  std::vector<Token> tokens_;
  std::unordered_map<const ir::ExprNode*, std::vector<size_t>> prototypes_;
  std::unordered_map<const ir::ExprNode*, std::vector<size_t>> tokens_of_;
  std::multimap<uint64_t, size_t> free_;
  int64_t next_storage_id_ = 0;
};

}  // namespace

bool IsReshapeOnlyCall(const ir::CallNode* call) {
  const auto* func = call->op.as<ir::FunctionNode>();
  return func && func->attrs.GetInt("relay.reshape_only", 0) != 0 && call->args.size() == 1;
}

StoragePlan PlanGraphMemory(const ir::Function& main) {
  return Planner(main).Plan();
}

}  // namespace relaypass::backend
