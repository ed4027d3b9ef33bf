#include "relaypass/runtime/graph_executor.h"

#include <unordered_map>
#include <utility>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::runtime {

namespace {

std::string ShapeText(const ir::Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

const ir::TensorTypeNode* TensorTypeOf(const ir::Type& type, const std::string& what) {
  const auto* tensor = type ? type.as<ir::TensorTypeNode>() : nullptr;
  if (!tensor) {
    throw Error("graph executor: " + what + " is " + (type ? ir::TypeToString(type) : "untyped") +
                ", not a tensor (tuples as inputs need the VM)");
  }
  return tensor;
}

void FlattenOutputTypes(const ir::Type& type, std::vector<const ir::TensorTypeNode*>* out) {
  if (const auto* tuple = type.as<ir::TupleTypeNode>()) {
    for (const ir::Type& field : tuple->fields) FlattenOutputTypes(field, out);
  } else {
    out->push_back(TensorTypeOf(type, "an output of main"));
  }
}

// main with some constants replaced by new values (the graph parameters set since the build).
class ConstantReplacer : public ir::ExprMutator {
 public:
  explicit ConstantReplacer(const std::unordered_map<const ir::ConstantNode*, ir::NDArray>& values)
      : values_(values) {}

 protected:
  ir::Expr RewriteConstant(const ir::ConstantNode* pre, const ir::Expr& post) override {
    auto it = values_.find(pre);
    if (it == values_.end()) return post;
    return ir::WithCheckedType(ir::MakeConstant(it->second), pre->checked_type);
  }

 private:
  const std::unordered_map<const ir::ConstantNode*, ir::NDArray>& values_;
};

}  // namespace

struct GraphExecutor::Impl {
  backend::BuiltModule built;
  ir::Function main;
  std::vector<std::string> names;
  std::vector<const ir::TensorTypeNode*> types;
  size_t num_main_params = 0;
  std::vector<ir::NDArray> values;
  bool params_changed = false;
  std::unique_ptr<eval::Interpreter> interpreter;
  std::vector<const ir::TensorTypeNode*> output_types;
  std::vector<ir::NDArray> outputs;
  bool ran = false;

  void Rebuild() {
    std::unordered_map<const ir::ConstantNode*, ir::NDArray> replaced;
    const auto& constants = built.graph.param_constants;
    for (size_t i = 0; i < constants.size(); ++i) {
      const ir::NDArray& value = values[num_main_params + i];
      if (value.raw_data() != constants[i].second->data.raw_data()) {
        replaced[constants[i].second.get()] = value;
      }
    }
    ir::IRModule mod = built.mod;
    if (!replaced.empty()) {
      mod.Add("main", ConstantReplacer(replaced).Mutate(main).downcast<ir::FunctionNode>());
    }
    interpreter = std::make_unique<eval::Interpreter>(mod);
    params_changed = false;
  }
};

GraphExecutor::GraphExecutor(backend::BuiltModule built) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.built = std::move(built);
  if (!s.built.mod.Contains("main")) throw Error("graph executor: the module has no main function");
  s.main = s.built.mod.Lookup("main");
  for (const ir::Var& param : s.main->params) {
    const ir::Type& type = param->checked_type ? param->checked_type : param->type_annotation;
    s.names.push_back(param->name_hint);
    s.types.push_back(TensorTypeOf(type, "input '" + param->name_hint + "'"));
    s.values.emplace_back();
  }
  s.num_main_params = s.names.size();
  for (const auto& [name, constant] : s.built.graph.param_constants) {
    s.names.push_back(name);
    s.types.push_back(TensorTypeOf(constant->checked_type, "parameter '" + name + "'"));
    s.values.push_back(constant->data);
  }
  const ir::Type& ret = s.main->checked_type ? s.main->checked_type.as<ir::FuncTypeNode>()->ret_type
                                             : s.main->ret_type;
  if (!ret) throw Error("graph executor: main has no result type (run InferType)");
  FlattenOutputTypes(ret, &s.output_types);
  s.Rebuild();
}

GraphExecutor::~GraphExecutor() = default;

size_t GraphExecutor::num_inputs() const {
  return impl_->names.size();
}

int64_t GraphExecutor::InputIndex(const std::string& name) const {
  for (size_t i = 0; i < impl_->names.size(); ++i) {
    if (impl_->names[i] == name) return static_cast<int64_t>(i);
  }
  return -1;
}

namespace {
void CheckIndex(size_t index, size_t count, const char* what) {
  if (index >= count) {
    throw Error(std::string("graph executor: ") + what + " index " + std::to_string(index) +
                " out of range (the graph has " + std::to_string(count) + ")");
  }
}
}  // namespace

const std::string& GraphExecutor::InputName(size_t index) const {
  CheckIndex(index, impl_->names.size(), "input");
  return impl_->names[index];
}

const ir::TensorTypeNode* GraphExecutor::InputType(size_t index) const {
  CheckIndex(index, impl_->types.size(), "input");
  return impl_->types[index];
}

bool GraphExecutor::IsParam(size_t index) const {
  return index >= impl_->num_main_params;
}

void GraphExecutor::SetInput(size_t index, const ir::NDArray& value) {
  Impl& s = *impl_;
  CheckIndex(index, s.names.size(), "input");
  const ir::TensorTypeNode* type = s.types[index];
  bool fits =
      value.defined() && value.dtype() == type->dtype && value.shape().size() == type->shape.size();
  for (size_t d = 0; fits && d < type->shape.size(); ++d) fits = value.shape()[d] == type->shape[d];
  if (!fits) {
    throw Error("graph executor: input '" + s.names[index] + "' is " +
                ir::TypeToString(ir::Type(const_cast<ir::TensorTypeNode*>(type))) + ", got " +
                (value.defined()
                     ? "shape " + ShapeText(value.shape()) + " dtype " + value.dtype().ToString()
                     : std::string("no array")));
  }
  // Setting a graph parameter to the array it already holds (set_input(**lib.get_params())) keeps
  // the interpreter and its packed weights.
  if (index >= s.num_main_params && value.raw_data() != s.values[index].raw_data()) {
    s.params_changed = true;
  }
  s.values[index] = value;
}

ir::NDArray GraphExecutor::GetInput(size_t index) const {
  CheckIndex(index, impl_->values.size(), "input");
  return impl_->values[index];
}

void GraphExecutor::Run() {
  Impl& s = *impl_;
  std::vector<eval::Value> args;
  args.reserve(s.num_main_params);
  for (size_t i = 0; i < s.num_main_params; ++i) {
    if (!s.values[i].defined()) {
      throw Error("graph executor: input '" + s.names[i] + "' was not set (set_input before run)");
    }
    args.emplace_back(s.values[i]);
  }
  if (s.params_changed) s.Rebuild();
  s.ran = false;
  {
    // The int8 products run on the variant of the build's target (TVM's code for that target).
    op::Int8IsaScope int8_isa(built().int8_isa);
    s.outputs = eval::FlattenTensors(s.interpreter->RunMain(args));
  }
  if (s.outputs.size() != s.output_types.size()) {
    throw InternalError("graph executor: main returned " + std::to_string(s.outputs.size()) +
                        " tensors, its type says " + std::to_string(s.output_types.size()));
  }
  s.ran = true;
}

size_t GraphExecutor::num_outputs() const {
  return impl_->output_types.size();
}

ir::NDArray GraphExecutor::GetOutput(size_t index) const {
  CheckIndex(index, impl_->output_types.size(), "output");
  if (!impl_->ran) throw Error("graph executor: get_output before a run");
  return impl_->outputs[index];
}

const ir::TensorTypeNode* GraphExecutor::OutputType(size_t index) const {
  CheckIndex(index, impl_->output_types.size(), "output");
  return impl_->output_types[index];
}

const backend::BuiltModule& GraphExecutor::built() const {
  return impl_->built;
}

}  // namespace relaypass::runtime
