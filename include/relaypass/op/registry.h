// The operator registry. Each operator is registered once, in the file of its family
// (src/op/tensor.cc, nn.cc, transform.cc, reduce.cc), with everything about it: attrs schema,
// arity, type relation, fusion pattern, and (in later layers) kernel and layout rules.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/infer_layout.h"

namespace relaypass::op {

using ir::Attrs;
using ir::Type;

// TVM's TOpPattern values; the order matters (fusion compares them).
enum class OpPattern : int {
  kElemWise = 0,
  kBroadcast = 1,
  kInjective = 2,
  kCommReduce = 3,
  kOutEWiseFusable = 4,
  kTuple = 7,
  kOpaque = 8,
};

// What a type relation sees of one call: the argument types then the result type, each either
// known (possibly partially) or an IncompleteType. A relation reads them through Resolve and
// states facts with Assign; it returns false if it cannot decide yet (it will be re-run when more
// is known) and true once everything it relates is settled.
class TypeRelationCall {
 public:
  virtual ~TypeRelationCall() = default;
  virtual size_t num_args() const = 0;
  // The current knowledge of type `index` (index num_args() is the result).
  virtual Type Resolve(size_t index) const = 0;
  Type arg(size_t i) const { return Resolve(i); }
  Type result() const { return Resolve(num_args()); }
  // Unifies type `index` with `type` (fills unknowns; a conflict is a TypeError).
  virtual void Assign(size_t index, const Type& type) = 0;
  void AssignResult(const Type& type) { Assign(num_args(), type); }
  virtual const Attrs& attrs() const = 0;
  virtual const std::string& op_name() const = 0;
  // Throws a TypeError that names the op and carries the call's location.
  [[noreturn]] void Fail(const std::string& message) const {
    ThrowTypeError(message);
    __builtin_unreachable();  // ThrowTypeError always throws
  }

 protected:
  virtual void ThrowTypeError(const std::string& message) const = 0;
};

using TypeRelation = std::function<bool(TypeRelationCall& call)>;

// The CPU implementation of an op: the input arrays (a tuple argument, as concatenate's, is
// passed as its fields), the call's attrs and its result type (null when the call is untyped;
// kernels compute their shapes themselves and use it only as a hint). Returns one array, or one
// per field for ops with a tuple result (nn.batch_norm, nn.dropout). Throws relaypass::Error for
// inputs it does not support.
using Kernel = std::function<std::vector<ir::NDArray>(
    const std::vector<ir::NDArray>& inputs, const ir::Attrs& attrs, const ir::Type& out_type)>;

struct OpDef {
  std::string name;
  // Number of arguments; -1 for variadic.
  int num_inputs = -1;
  // The attrs type; null for ops without attrs.
  const ir::AttrsSchema* attrs_schema = nullptr;
  TypeRelation type_relation;
  OpPattern pattern = OpPattern::kOpaque;
  bool is_reshape_op = false;       // TVM's TReshapeOp (reshape, expand_dims, squeeze, ...)
  bool stateful = false;            // TVM's TOpIsStateful
  InferCorrectLayout infer_layout;  // TVM's FInferCorrectLayout (src/op/layout_rules/)
  ConvertOpLayout convert_layout;   // TVM's FTVMConvertOpLayout, used by ConvertLayout
  Kernel kernel;                    // the evaluator's implementation (src/op/kernels/)
  std::string description;
};

class OpRegistry {
 public:
  // The process-wide registry with every built-in op (registered on first use, thread-safe).
  static OpRegistry& Global();

  // Registers a new op; throws if the name is taken. The returned def may be filled in further
  // only during registration.
  OpDef& Register(const std::string& name);
  const OpDef* Find(const std::string& name) const;
  // The unique Op node for `name`, or null if no such op.
  ir::Op GetOp(const std::string& name) const;
  std::vector<std::string> ListNames() const;

 private:
  OpRegistry() = default;
  struct Entry {
    std::unique_ptr<OpDef> def;
    ir::Op node;
  };
  std::map<std::string, Entry> ops_;
};

// The Op node for a registered name; throws TypeError("unknown operator ...") otherwise.
ir::Op GetOp(const std::string& name);

}  // namespace relaypass::op
