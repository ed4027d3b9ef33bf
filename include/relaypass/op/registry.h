// The operator layer's side of the registry. Each operator is registered once, in the file of its
// family (src/op/tensor.cc, nn.cc, transform.cc, reduce.cc, ...), with everything about it: the
// generic record the IR core keeps (attrs schema, arity, type relation, fusion pattern; see
// relaypass/ir/op_registry.h) and what this layer adds (kernel and layout rules).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/infer_layout.h"

namespace relaypass::op {

using ir::Attrs;
using ir::Type;

/// The generic parts of an operator live in the IR core (relaypass/ir/op_registry.h).
using ir::OpPattern;
using ir::TypeRelation;
using ir::TypeRelationCall;

/// The CPU implementation of an op: the input arrays (a tuple argument, as concatenate's, is
/// passed as its fields), the call's attrs and its result type (null when the call is untyped;
/// kernels compute their shapes themselves and use it only as a hint). Returns one array, or one
/// per field for ops with a tuple result (nn.batch_norm, nn.dropout). Throws relaypass::Error for
/// inputs it does not support.
using Kernel = std::function<std::vector<ir::NDArray>(
    const std::vector<ir::NDArray>& inputs, const ir::Attrs& attrs, const ir::Type& out_type)>;

/// What a dyn.* operator stands for once the values of its run-time shape arguments are known:
/// the static op, the call's arguments it takes (by position) and its attributes. The dyn
/// kernels run it; DynamicToStatic rewrites calls whose shape arguments are constants into it.
struct StaticForm {
  std::string op;
  std::vector<size_t> args;
  std::vector<std::pair<std::string, ir::AttrValue>> attrs;
};
/// `values` has one entry per call argument, defined at least at the op's value_args; throws
/// relaypass::Error naming the dyn op for values the static op cannot take.
using ToStaticForm =
    std::function<StaticForm(const std::vector<ir::NDArray>& values, const ir::Attrs& attrs)>;

/// The op layer's record: the IR core's OpDef plus what only the layers above the IR use.
struct OpDef : ir::OpDef {
  OpDef();
  InferCorrectLayout infer_layout;  // TVM's FInferCorrectLayout (src/op/layout_rules/)
  ConvertOpLayout convert_layout;   // TVM's FTVMConvertOpLayout, used by ConvertLayout
  Kernel kernel;                    // the evaluator's implementation (src/op/kernels/)
  /// dyn.* ops only: the arguments read as values (shapes, axes, k, scales) and the static form.
  std::vector<size_t> value_args;
  ToStaticForm to_static;
};

/// The op layer's view of the IR core's registry: it registers op::OpDef records and finds them.
class OpRegistry {
 public:
  /// The process-wide registry (ir::OpRegistry::Global(), with every built-in op).
  static OpRegistry& Global();
  explicit OpRegistry(ir::OpRegistry& registry) : registry_(registry) {}

  /// Registers a new op; throws if the name is taken. The returned def may be filled in further
  /// only during registration.
  OpDef& Register(const std::string& name);
  /// Null if there is no such op, or if it was registered with a plain ir::OpDef.
  const OpDef* Find(const std::string& name) const;
  /// The unique Op node for `name`, or null if no such op.
  ir::Op GetOp(const std::string& name) const { return registry_.GetOp(name); }
  std::vector<std::string> ListNames() const { return registry_.ListNames(); }

 private:
  ir::OpRegistry& registry_;
};

/// The op layer's record of an operator, checked: null for a null node or def, or for a def that
/// is not an op::OpDef.
const OpDef* Def(const ir::OpDef* def);
const OpDef* Def(const ir::OpNode* op);

/// The Op node for a registered name; throws TypeError("unknown operator ...") otherwise.
using ir::GetOp;

/// Registers every built-in operator into `registry` (each family's registrations, in
/// src/op/registry.cc). The library installs it into ir::OpRegistry::Global() (src/builtins).
void RegisterBuiltinOps(ir::OpRegistry& registry);

}  // namespace relaypass::op
