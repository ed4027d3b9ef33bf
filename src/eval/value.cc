#include "relaypass/eval/value.h"

#include <variant>

#include "relaypass/support/error.h"

namespace relaypass::eval {

namespace {

// The payload of a reference: the one mutable part of a value.
struct RefCell {
  mutable Value content;
};

}  // namespace

struct Value::Payload {
  std::variant<ir::NDArray, std::vector<Value>, Closure, RefCell, AdtValue> data;
};

Value::Value(ir::NDArray tensor)
    : kind_(Kind::kTensor), payload_(std::make_shared<const Payload>(Payload{std::move(tensor)})) {}

Value Value::Tuple(std::vector<Value> fields) {
  Value v;
  v.kind_ = Kind::kTuple;
  v.payload_ = std::make_shared<const Payload>(Payload{std::move(fields)});
  return v;
}

Value Value::MakeClosure(Closure closure) {
  Value v;
  v.kind_ = Kind::kClosure;
  v.payload_ = std::make_shared<const Payload>(Payload{std::move(closure)});
  return v;
}

Value Value::MakeRef(Value content) {
  Value v;
  v.kind_ = Kind::kRef;
  v.payload_ = std::make_shared<const Payload>(Payload{RefCell{std::move(content)}});
  return v;
}

Value Value::MakeAdt(ir::Constructor constructor, std::vector<Value> fields) {
  Value v;
  v.kind_ = Kind::kAdt;
  const int32_t tag = constructor->tag;
  v.payload_ = std::make_shared<const Payload>(
      Payload{AdtValue{std::move(constructor), tag, std::move(fields)}});
  return v;
}

namespace {

const char* KindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNone:
      return "no value";
    case Value::Kind::kTensor:
      return "a tensor";
    case Value::Kind::kTuple:
      return "a tuple";
    case Value::Kind::kClosure:
      return "a closure";
    case Value::Kind::kRef:
      return "a reference";
    case Value::Kind::kAdt:
      return "an ADT value";
  }
  return "?";
}

[[noreturn]] void WrongKind(Value::Kind want, Value::Kind got) {
  throw Error(std::string("evaluator: expected ") + KindName(want) + ", got " + KindName(got));
}

[[noreturn]] void MovedFrom() {
  throw InternalError("evaluator: use of a value after its last use (moved from)");
}

}  // namespace

const ir::NDArray& Value::tensor() const {
  if (kind_ != Kind::kTensor) WrongKind(Kind::kTensor, kind_);
  if (!payload_) MovedFrom();
  return std::get<ir::NDArray>(payload_->data);
}

const std::vector<Value>& Value::fields() const {
  if (kind_ != Kind::kTuple) WrongKind(Kind::kTuple, kind_);
  if (!payload_) MovedFrom();
  return std::get<std::vector<Value>>(payload_->data);
}

const Closure& Value::closure() const {
  if (kind_ != Kind::kClosure) WrongKind(Kind::kClosure, kind_);
  if (!payload_) MovedFrom();
  return std::get<Closure>(payload_->data);
}

const AdtValue& Value::adt() const {
  if (kind_ != Kind::kAdt) WrongKind(Kind::kAdt, kind_);
  if (!payload_) MovedFrom();
  return std::get<AdtValue>(payload_->data);
}

const Value& Value::ref_content() const {
  if (kind_ != Kind::kRef) WrongKind(Kind::kRef, kind_);
  if (!payload_) MovedFrom();
  return std::get<RefCell>(payload_->data).content;
}

void Value::set_ref_content(Value content) const {
  if (kind_ != Kind::kRef) WrongKind(Kind::kRef, kind_);
  if (!payload_) MovedFrom();
  std::get<RefCell>(payload_->data).content = std::move(content);
}

std::vector<ir::NDArray> FlattenTensors(const Value& value) {
  std::vector<ir::NDArray> out;
  std::vector<const Value*> stack = {&value};
  while (!stack.empty()) {
    const Value* v = stack.back();
    stack.pop_back();
    if (v->is_tensor()) {
      out.push_back(v->tensor());
    } else if (v->is_tuple()) {
      const std::vector<Value>& f = v->fields();
      for (auto it = f.rbegin(); it != f.rend(); ++it) stack.push_back(&*it);
    } else {
      throw Error(std::string("evaluator: expected tensors, got ") + KindName(v->kind()));
    }
  }
  return out;
}

ir::Expr ValueToExpr(const Value& value) {
  if (value.is_tensor()) return ir::MakeConstant(value.tensor());
  if (value.is_tuple()) {
    std::vector<ir::Expr> fields;
    for (const Value& f : value.fields()) fields.push_back(ValueToExpr(f));
    return ir::MakeTuple(std::move(fields));
  }
  throw Error(std::string("evaluator: cannot turn ") + KindName(value.kind()) +
              " into an expression");
}

}  // namespace relaypass::eval
