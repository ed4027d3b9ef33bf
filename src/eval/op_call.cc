// Evaluating one operator call through the kernel in the op's registration.
#include <string>
#include <vector>

#include "kernel_errors.h"
#include "output_budget.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::eval {

namespace {

// The constant value of an argument: a Constant, or a Tuple whose fields are constants.
Value ConstantValue(const ir::Expr& e) {
  if (const auto* c = e.as<ir::ConstantNode>()) return Value(c->data);
  if (const auto* t = e.as<ir::TupleNode>()) {
    std::vector<Value> fields;
    fields.reserve(t->fields.size());
    for (const ir::Expr& f : t->fields) fields.push_back(ConstantValue(f));
    return Value::Tuple(std::move(fields));
  }
  throw Error("evaluator: argument is not a constant");
}

}  // namespace

Value EvaluateOpCall(const ir::CallNode* call, const std::vector<Value>& args) {
  const ir::OpNode* op = call->op_node();
  if (!op) throw Error("evaluator: the callee is not an operator");
  const op::OpDef* def = op::Def(op);
  if (!def || !def->kernel) {
    throw Error("evaluator: operator " + op->name + " has no kernel");
  }
  std::vector<ir::NDArray> inputs;
  inputs.reserve(args.size());
  for (const Value& a : args) {
    if (a.is_tensor()) {
      inputs.push_back(a.tensor());
    } else {
      for (ir::NDArray& t : FlattenTensors(a)) inputs.push_back(std::move(t));
    }
  }
  std::vector<ir::NDArray> outputs = WithCallContext(call, op->name, [&] {
    CheckResultFitsBudget(call->checked_type);  // before the kernel builds or fills anything
    return def->kernel(inputs, call->attrs, call->checked_type);
  });
  const bool tuple_result =
      call->checked_type.as<ir::TupleTypeNode>() != nullptr || outputs.size() != 1;
  if (!tuple_result) return Value(std::move(outputs[0]));
  std::vector<Value> fields;
  fields.reserve(outputs.size());
  for (ir::NDArray& t : outputs) fields.emplace_back(std::move(t));
  return Value::Tuple(std::move(fields));
}

Value EvaluateConstantCall(const ir::CallNode* call) {
  std::vector<Value> args;
  args.reserve(call->args.size());
  for (const ir::Expr& a : call->args) args.push_back(ConstantValue(a));
  return EvaluateOpCall(call, args);
}

}  // namespace relaypass::eval
