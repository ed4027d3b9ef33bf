// RunStaticOp and the readers of run-time shape arguments (static_call.h).
#include "static_call.h"

#include <optional>

#include "../kernels/kernel_util.h"
#include "relaypass/ir/tensor_size.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "relaypass/support/resource_error.h"

namespace relaypass::op::dyn {

namespace {

[[noreturn]] void FailDyn(const std::string& dyn_name, const std::string& message) {
  throw Error(dyn_name + ": " + message);
}

// A type relation call over fully known argument types: the relation's facts about the result
// are kept, and a fact that contradicts a known argument fails the call.
class ConcreteRelationCall final : public ir::TypeRelationCall {
 public:
  ConcreteRelationCall(const std::string& dyn_name, std::vector<ir::Type> args,
                       const ir::Attrs& attrs, const std::string& static_name)
      : dyn_name_(dyn_name),
        args_(std::move(args)),
        result_(ir::IncompleteType()),
        attrs_(attrs),
        static_name_(static_name) {}

  size_t num_args() const override { return args_.size(); }
  ir::Type Resolve(size_t index) const override {
    return index < args_.size() ? args_[index] : result_;
  }
  void Assign(size_t index, const ir::Type& type) override {
    if (index == args_.size() && !ir::IsComplete(result_)) {
      result_ = type;
      return;
    }
    const ir::Type& known = index < args_.size() ? args_[index] : result_;
    if (!ir::TypeEqual(known, type)) {
      ThrowTypeError("type " + ir::TypeToString(type) + " does not match " +
                     ir::TypeToString(known));
    }
  }
  const ir::Attrs& attrs() const override { return attrs_; }
  const std::string& op_name() const override { return static_name_; }
  const ir::Type& result() const { return result_; }

 protected:
  void ThrowTypeError(const std::string& message) const override { FailDyn(dyn_name_, message); }

 private:
  const std::string& dyn_name_;
  std::vector<ir::Type> args_;
  ir::Type result_;
  ir::Attrs attrs_;
  const std::string& static_name_;
};

// Every tensor of `type` has a known shape whose byte size fits in int64.
void CheckResultShapes(const std::string& dyn_name, const ir::Type& type) {
  std::vector<const ir::Type*> stack = {&type};
  while (!stack.empty()) {  // a tuple of tensors at most; a stack all the same
    const ir::Type& t = *stack.back();
    stack.pop_back();
    if (const auto* tuple = t.as<ir::TupleTypeNode>()) {
      for (const ir::Type& f : tuple->fields) stack.push_back(&f);
      continue;
    }
    const auto* tensor = t.as<ir::TensorTypeNode>();
    if (!tensor) FailDyn(dyn_name, "the result type " + ir::TypeToString(t) + " is not a tensor");
    std::vector<int64_t> shape(tensor->shape.begin(), tensor->shape.end());
    for (int64_t d : shape) {
      if (d < 0) FailDyn(dyn_name, "the result shape is not known: " + ir::TypeToString(t));
    }
    if (!ir::ByteCount(shape, tensor->dtype)) {
      throw ResourceError(dyn_name + ": the result " + ir::TensorText(shape, tensor->dtype) +
                          " has a size that overflows int64");
    }
  }
}

}  // namespace

std::vector<ir::NDArray> RunStaticOp(const std::string& dyn_name, const std::string& static_name,
                                     const std::vector<ir::NDArray>& inputs,
                                     const AttrValues& attrs) {
  const OpDef* def = OpRegistry::Global().Find(static_name);
  if (!def || !def->kernel || !def->type_relation || !def->attrs_schema) {
    FailDyn(dyn_name, "the static operator " + static_name + " is not available");
  }
  ir::Attrs static_attrs;
  try {
    static_attrs = ir::MakeAttrs(*def->attrs_schema, attrs);
  } catch (const TypeError& e) {
    FailDyn(dyn_name, e.message());
  }
  std::vector<ir::Type> arg_types;
  arg_types.reserve(inputs.size());
  for (const ir::NDArray& x : inputs) {
    arg_types.push_back(
        ir::TensorType(std::vector<ir::Dim>(x.shape().begin(), x.shape().end()), x.dtype()));
  }
  ConcreteRelationCall call(dyn_name, std::move(arg_types), static_attrs, static_name);
  bool decided = false;
  try {
    decided = def->type_relation(call);
  } catch (const ResourceError&) {
    throw;
  } catch (const Error& e) {  // the relation's own TypeError (a dimension overflow)
    if (e.message().rfind(dyn_name + ": ", 0) == 0) throw;
    FailDyn(dyn_name, e.message());
  }
  if (!decided || !ir::IsComplete(call.result())) {
    FailDyn(dyn_name, "the result type of " + static_name + " could not be inferred");
  }
  CheckResultShapes(dyn_name, call.result());
  return def->kernel(inputs, static_attrs, call.result());
}

Kernel DynKernel(const std::string& dyn_name, ToStaticForm form) {
  return [dyn_name, form = std::move(form)](const std::vector<ir::NDArray>& inputs,
                                            const ir::Attrs& attrs, const ir::Type&) {
    const StaticForm f = form(inputs, attrs);
    std::vector<ir::NDArray> passed;
    passed.reserve(f.args.size());
    for (size_t i : f.args) passed.push_back(inputs.at(i));
    return RunStaticOp(dyn_name, f.op, passed, f.attrs);
  };
}

std::vector<int64_t> IntValues(const ir::NDArray& t, const std::string& dyn_name,
                               const std::string& what) {
  if (t.ndim() > 1) {
    FailDyn(dyn_name, what + " must be a 1-D tensor, got rank " + std::to_string(t.ndim()));
  }
  if (t.dtype().is_int() || t.dtype().is_uint()) {
    const ir::NDArray v = kernels::CastArray(t, ir::DataType::Int64());
    return std::vector<int64_t>(v.data<int64_t>(), v.data<int64_t>() + v.size());
  }
  if (!t.dtype().is_float()) {
    FailDyn(dyn_name, what + " must be a numeric tensor, got " + t.dtype().ToString());
  }
  // TVM takes float shape arguments too (its tests give reps and k as float32): truncated.
  std::vector<int64_t> values;
  values.reserve(static_cast<size_t>(t.size()));
  for (int64_t i = 0; i < t.size(); ++i) {
    const double v = t.GetAsDouble(i);
    if (!(v > -9.2e18 && v < 9.2e18)) {
      FailDyn(dyn_name, what + " holds " + std::to_string(v) + ", not an integer in int64's range");
    }
    values.push_back(static_cast<int64_t>(v));
  }
  return values;
}

int64_t IntScalar(const ir::NDArray& t, const std::string& dyn_name, const std::string& what) {
  const std::vector<int64_t> v = IntValues(t, dyn_name, what);
  if (v.size() != 1) {
    FailDyn(dyn_name, what + " must hold one value, got " + std::to_string(v.size()));
  }
  return v[0];
}

double DoubleScalar(const ir::NDArray& t, const std::string& dyn_name, const std::string& what) {
  if (t.size() != 1) {
    FailDyn(dyn_name, what + " must hold one value, got " + std::to_string(t.size()));
  }
  if (!t.dtype().is_int() && !t.dtype().is_uint() && !t.dtype().is_float()) {
    FailDyn(dyn_name, what + " must be a number, got " + t.dtype().ToString());
  }
  return t.GetAsDouble(0);
}

}  // namespace relaypass::op::dyn
