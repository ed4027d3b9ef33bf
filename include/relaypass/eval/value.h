// Runtime values of the evaluator: a tensor, a tuple of values, a closure (a function with the
// values of its free variables), a reference (a mutable cell, what `ref(%v)` makes), or an ADT
// value (what calling a constructor makes: its constructor, tag and fields, TVM's
// ConstructorValue). Values
// are cheap to copy (shared payload) and immutable, except a reference's content: every copy of
// a reference value is the same cell and sees what RefWrite stores in it.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::eval {

struct Closure;
struct AdtValue;

class Value {
 public:
  enum class Kind : uint8_t { kNone, kTensor, kTuple, kClosure, kRef, kAdt };

  Value() = default;
  Value(ir::NDArray tensor);  // NOLINT(google-explicit-constructor): a tensor is a value
  static Value Tuple(std::vector<Value> fields);
  static Value MakeClosure(Closure closure);
  /// A new cell holding `content`.
  static Value MakeRef(Value content);
  /// The value `constructor(fields...)`.
  static Value MakeAdt(ir::Constructor constructor, std::vector<Value> fields);

  Kind kind() const { return kind_; }
  bool defined() const { return kind_ != Kind::kNone; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_closure() const { return kind_ == Kind::kClosure; }
  bool is_ref() const { return kind_ == Kind::kRef; }
  bool is_adt() const { return kind_ == Kind::kAdt; }

  /// Each accessor throws relaypass::Error if the value is of another kind.
  const ir::NDArray& tensor() const;
  const std::vector<Value>& fields() const;
  const Closure& closure() const;
  const AdtValue& adt() const;
  /// A reference's current content, and its replacement (seen by every copy of the reference).
  /// A cell whose content holds the cell itself (a closure that captured it) is never freed.
  const Value& ref_content() const;
  void set_ref_content(Value content) const;

 private:
  struct Payload;
  Kind kind_ = Kind::kNone;
  std::shared_ptr<const Payload> payload_;
};

/// A function and the values its free variables had when the closure was made.
struct Closure {
  ir::Function func;
  std::vector<std::pair<const ir::VarNode*, Value>> captured;
};

/// An ADT value: the constructor that made it, its tag (the module's, as TVM's) and its fields.
struct AdtValue {
  ir::Constructor constructor;
  int32_t tag;
  std::vector<Value> fields;
};

/// The tensors of `value` in order (a tensor itself, or a tuple's tensors depth-first).
std::vector<ir::NDArray> FlattenTensors(const Value& value);

/// A tensor as a Constant, a tuple as a Tuple of those (what FoldConstant puts in place of a
/// call); closures and references are an error.
ir::Expr ValueToExpr(const Value& value);

}  // namespace relaypass::eval
