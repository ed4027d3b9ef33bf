// Type-variable analyses (include/relaypass/ir/type_vars.h).
#include "relaypass/ir/type_vars.h"

#include "relaypass/ir/visitor.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {
namespace {

// The type variables met (`found`) and those bound as type parameters (`bound`), with repeats.
struct TypeVarUses {
  std::vector<Type> found;
  std::vector<Type> bound;

  void AddType(const Type& root) {
    std::vector<Type> stack{root};
    while (!stack.empty()) {
      Type t = std::move(stack.back());
      stack.pop_back();
      if (!t) continue;
      switch (t->kind) {
        case TypeKind::kTypeVar:
          found.push_back(t);
          break;
        case TypeKind::kFunc: {
          auto* f = static_cast<const FuncTypeNode*>(t.get());
          bound.insert(bound.end(), f->type_params.begin(), f->type_params.end());
          // Popped in order: the type parameters, the argument types, the result.
          stack.push_back(f->ret_type);
          stack.insert(stack.end(), f->arg_types.rbegin(), f->arg_types.rend());
          stack.insert(stack.end(), f->type_params.rbegin(), f->type_params.rend());
          break;
        }
        case TypeKind::kTuple: {
          auto* tt = static_cast<const TupleTypeNode*>(t.get());
          stack.insert(stack.end(), tt->fields.rbegin(), tt->fields.rend());
          break;
        }
        case TypeKind::kRef:
          stack.push_back(static_cast<const RefTypeNode*>(t.get())->value);
          break;
        case TypeKind::kTypeCall: {
          auto* call = static_cast<const TypeCallNode*>(t.get());
          stack.insert(stack.end(), call->args.rbegin(), call->args.rend());
          stack.push_back(call->func);
          break;
        }
        case TypeKind::kTypeData: {
          auto* data = static_cast<const TypeDataNode*>(t.get());
          stack.insert(stack.end(), data->type_vars.rbegin(), data->type_vars.rend());
          stack.push_back(data->header);
          break;
        }
        default:
          break;
      }
    }
  }

  void AddExpr(const Expr& expr) {
    post_order_visit(expr, [&](const Expr& e) {
      if (auto* var = e.as<VarNode>()) {
        AddType(var->type_annotation);
      } else if (auto* fn = e.as<FunctionNode>()) {
        bound.insert(bound.end(), fn->type_params.begin(), fn->type_params.end());
        found.insert(found.end(), fn->type_params.begin(), fn->type_params.end());
        AddType(fn->ret_type);
      }
    });
  }
};

// `items` without repeats, each where it first appears.
std::vector<Type> Unique(const std::vector<Type>& items) {
  support::PointerSet seen;
  std::vector<Type> out;
  for (const Type& t : items) {
    if (seen.insert(t.get())) out.push_back(t);
  }
  return out;
}

std::vector<Type> Free(const TypeVarUses& uses) {
  support::PointerSet bound;
  for (const Type& t : uses.bound) bound.insert(t.get());
  std::vector<Type> out;
  for (const Type& t : Unique(uses.found)) {
    if (!bound.contains(t.get())) out.push_back(t);
  }
  return out;
}

std::vector<Type> All(const TypeVarUses& uses) {
  std::vector<Type> both = uses.bound;
  both.insert(both.end(), uses.found.begin(), uses.found.end());
  return Unique(both);
}

TypeVarUses UsesOf(const Expr& expr) {
  TypeVarUses uses;
  uses.AddExpr(expr);
  return uses;
}

TypeVarUses UsesOf(const Type& type) {
  TypeVarUses uses;
  uses.AddType(type);
  return uses;
}

}  // namespace

std::vector<Type> FreeTypeVars(const Expr& expr) {
  return Free(UsesOf(expr));
}
std::vector<Type> FreeTypeVars(const Type& type) {
  return Free(UsesOf(type));
}
std::vector<Type> BoundTypeVars(const Expr& expr) {
  return Unique(UsesOf(expr).bound);
}
std::vector<Type> BoundTypeVars(const Type& type) {
  return Unique(UsesOf(type).bound);
}
std::vector<Type> AllTypeVars(const Expr& expr) {
  return All(UsesOf(expr));
}
std::vector<Type> AllTypeVars(const Type& type) {
  return All(UsesOf(type));
}

}  // namespace relaypass::ir
