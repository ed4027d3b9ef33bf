// A minimal stand-in for the type inference engine: runs one op's type relation over given
// argument types, filling unknown slots on Assign and checking known ones for equality.
#pragma once

#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::op::testing {

class FakeCall : public TypeRelationCall {
 public:
  // Arguments without a type (null) start unknown; the result always starts unknown.
  FakeCall(const ir::Call& call, std::vector<Type> arg_types)
      : call_(call), name_(call->op_node()->name) {
    for (Type& t : arg_types) types_.push_back(t ? t : ir::IncompleteType());
    types_.push_back(ir::IncompleteType());
  }

  size_t num_args() const override { return types_.size() - 1; }
  Type Resolve(size_t index) const override { return types_.at(index); }
  void Assign(size_t index, const Type& type) override {
    Type& slot = types_.at(index);
    if (slot.as<ir::IncompleteTypeNode>()) {
      slot = type;
    } else if (!Unify(slot, type)) {
      throw TypeError(name_ + ": conflicting types " + ir::TypeToString(slot) + " and " +
                      ir::TypeToString(type));
    }
  }

  // Tensors unify if dtypes and ranks agree and every dim pair is equal or has a `?`; the slot
  // keeps the more precise dims.
  static bool Unify(Type& slot, const Type& type) {
    auto* a = slot.as<ir::TensorTypeNode>();
    auto* b = type.as<ir::TensorTypeNode>();
    if (!a || !b) return ir::TypeEqual(slot, type);
    if (a->dtype != b->dtype || a->ndim() != b->ndim()) return false;
    std::vector<ir::Dim> dims = a->shape;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] == ir::kAnyDim)
        dims[i] = b->shape[i];
      else if (b->shape[i] != ir::kAnyDim && b->shape[i] != dims[i])
        return false;
    }
    slot = ir::TensorType(dims, a->dtype);
    return true;
  }
  const Attrs& attrs() const override { return call_->attrs; }
  const std::string& op_name() const override { return name_; }

  // Runs the op's relation; returns what it returned.
  bool Run() { return call_->op_node()->def->type_relation(*this); }
  std::string type(size_t index) const { return ir::TypeToString(types_.at(index)); }
  std::string result() const { return type(num_args()); }

 protected:
  void ThrowTypeError(const std::string& message) const override {
    throw TypeError(name_ + ": " + message);
  }

 private:
  ir::Call call_;
  std::string name_;
  std::vector<Type> types_;
};

inline Type T(std::vector<ir::Dim> shape, const std::string& dtype = "float32") {
  return ir::TensorType(std::move(shape), *ir::DataType::Parse(dtype));
}

// The printed result type of `call` given its argument types; throws TypeError on errors and
// returns "<not ready>" if the relation asked to wait.
inline std::string Infer(const ir::Expr& call, std::vector<Type> arg_types) {
  FakeCall fake(call.downcast<ir::CallNode>(), std::move(arg_types));
  if (!fake.Run()) return "<not ready>";
  return fake.result();
}

}  // namespace relaypass::op::testing

namespace relaypass::op::testing {

// The call's attributes as the printer shows them: fields that differ from their declared
// default (or have none), `name=value`, in declaration order.
inline std::string PrintedAttrs(const ir::Expr& call) {
  const ir::Attrs& attrs = call.as<ir::CallNode>()->attrs;
  std::string out;
  for (size_t i = 0; i < attrs->values.size(); ++i) {
    const ir::AttrField& f = attrs->schema->fields()[i];
    if (f.has_default && f.default_value == attrs->values[i]) continue;
    if (!out.empty()) out += ", ";
    out += f.name + "=" + attrs->values[i].ToString();
  }
  return out;
}

}  // namespace relaypass::op::testing
