// The dataflow pattern language (TVM v0.13's relay.dataflow_pattern): patterns are small immutable
// graphs that describe the expressions they match. Build them with the free functions below
// (IsOp, Wildcard, IsVar, IsConstant, IsExpr, IsTuple, IsTupleGetItem, IsIf, IsLet) and the
// member functions of DFPattern (calling a pattern on argument patterns makes a call pattern,
// `|` an alternative, HasAttr / HasType / HasDtype / HasShape constraints, Optional, Dominates).
// Matching, rewriting and partitioning are in relaypass/pattern/match.h.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/object.h"
#include "relaypass/ir/type.h"

namespace relaypass::pattern {

enum class PatternKind : uint8_t {
  kExpr,
  kVar,
  kConstant,
  kWildcard,
  kCall,
  kFunction,
  kTuple,
  kTupleGetItem,
  kIf,
  kLet,
  kAlt,
  kType,
  kShape,
  kDataType,
  kAttr,
  kDominator,
};

struct DFPatternNode : ir::Object {
  explicit DFPatternNode(PatternKind k) : kind(k) {}
  const PatternKind kind;
};

class DFPattern;

/// A pattern handle: a shared reference plus the builder methods of TVM's Python DFPattern.
class DFPattern : public ir::Ref<DFPatternNode> {
 public:
  DFPattern() = default;
  DFPattern(ir::Ref<DFPatternNode> ref) : ir::Ref<DFPatternNode>(std::move(ref)) {}  // NOLINT
  template <typename U>
  DFPattern(const ir::Ref<U>& ref) : ir::Ref<DFPatternNode>(ref) {}  // NOLINT

  /// A call pattern with this pattern as the callee (TVM's `pattern(*args)`).
  DFPattern operator()(std::vector<DFPattern> args) const;
  /// Calls with any arguments (TVM's CallPattern with args=None).
  DFPattern CallAnyArgs() const;
  /// `self | other`.
  DFPattern operator|(const DFPattern& other) const;
  /// Constraints: attribute values (op attrs of a call, the Op's own attributes such as
  /// TOpPattern, a function's attributes), the checked type, dtype, shape.
  DFPattern HasAttr(ir::DictAttrs attrs) const;
  DFPattern HasType(ir::Type type) const;
  DFPattern HasDtype(ir::DataType dtype) const;
  DFPattern HasShape(std::vector<ir::Dim> shape) const;
  /// `self | constructor(self)`, as TVM's `optional`.
  DFPattern Optional(const std::function<DFPattern(const DFPattern&)>& constructor) const;
  /// TVM's `dominates(parent, path=wildcard())`: this pattern (the child) dominates `parent`, and
  /// every node between them matches `path`.
  DFPattern Dominates(const DFPattern& parent, const DFPattern& path) const;
  DFPattern Dominates(const DFPattern& parent) const;
};

struct ExprPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kExpr;
  explicit ExprPatternNode(ir::Expr e) : DFPatternNode(kKind), expr(std::move(e)) {}
  ir::Expr expr;
};

struct VarPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kVar;
  explicit VarPatternNode(std::string n) : DFPatternNode(kKind), name(std::move(n)) {}
  std::string name;  // empty matches any variable
};

struct ConstantPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kConstant;
  ConstantPatternNode() : DFPatternNode(kKind) {}
};

struct WildcardPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kWildcard;
  WildcardPatternNode() : DFPatternNode(kKind) {}
};

struct CallPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kCall;
  CallPatternNode(DFPattern o, bool has, std::vector<DFPattern> a)
      : DFPatternNode(kKind), op(std::move(o)), has_args(has), args(std::move(a)) {}
  DFPattern op;
  bool has_args;  // false: any arguments (TVM's args=None)
  std::vector<DFPattern> args;
};

struct FunctionPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kFunction;
  FunctionPatternNode(bool has, std::vector<DFPattern> p, DFPattern b)
      : DFPatternNode(kKind), has_params(has), params(std::move(p)), body(std::move(b)) {}
  bool has_params;
  std::vector<DFPattern> params;
  DFPattern body;
};

struct TuplePatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kTuple;
  TuplePatternNode(bool has, std::vector<DFPattern> f)
      : DFPatternNode(kKind), has_fields(has), fields(std::move(f)) {}
  bool has_fields;  // false: any tuple
  std::vector<DFPattern> fields;
};

struct TupleGetItemPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kTupleGetItem;
  TupleGetItemPatternNode(DFPattern t, int i)
      : DFPatternNode(kKind), tuple(std::move(t)), index(i) {}
  DFPattern tuple;
  int index;  // -1 matches any index
};

struct IfPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kIf;
  IfPatternNode(DFPattern c, DFPattern t, DFPattern f)
      : DFPatternNode(kKind),
        cond(std::move(c)),
        true_branch(std::move(t)),
        false_branch(std::move(f)) {}
  DFPattern cond, true_branch, false_branch;
};

struct LetPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kLet;
  LetPatternNode(DFPattern v, DFPattern val, DFPattern b)
      : DFPatternNode(kKind), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  DFPattern var, value, body;
};

struct AltPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kAlt;
  AltPatternNode(DFPattern l, DFPattern r)
      : DFPatternNode(kKind), left(std::move(l)), right(std::move(r)) {}
  DFPattern left, right;
};

struct TypePatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kType;
  TypePatternNode(DFPattern p, ir::Type t)
      : DFPatternNode(kKind), pattern(std::move(p)), type(std::move(t)) {}
  DFPattern pattern;
  ir::Type type;
};

struct ShapePatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kShape;
  ShapePatternNode(DFPattern p, std::vector<ir::Dim> s)
      : DFPatternNode(kKind), pattern(std::move(p)), shape(std::move(s)) {}
  DFPattern pattern;
  std::vector<ir::Dim> shape;
};

struct DataTypePatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kDataType;
  DataTypePatternNode(DFPattern p, ir::DataType d)
      : DFPatternNode(kKind), pattern(std::move(p)), dtype(d) {}
  DFPattern pattern;
  ir::DataType dtype;
};

struct AttrPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kAttr;
  AttrPatternNode(DFPattern p, ir::DictAttrs a)
      : DFPatternNode(kKind), pattern(std::move(p)), attrs(std::move(a)) {}
  DFPattern pattern;
  ir::DictAttrs attrs;
};

struct DominatorPatternNode : DFPatternNode {
  static constexpr PatternKind kKind = PatternKind::kDominator;
  DominatorPatternNode(DFPattern p, DFPattern pa, DFPattern c)
      : DFPatternNode(kKind), parent(std::move(p)), path(std::move(pa)), child(std::move(c)) {}
  DFPattern parent, path, child;
};

/// The builders of TVM's Python API (relay.dataflow_pattern).
DFPattern IsOp(const std::string& op_name);  // an ExprPattern of the registered Op
DFPattern Wildcard();
DFPattern IsVar(const std::string& name = "");
DFPattern IsConstant();
DFPattern IsExpr(ir::Expr expr);
DFPattern IsTuple(std::vector<DFPattern> fields);
DFPattern IsTupleAny();  // TuplePattern(None): any tuple
DFPattern IsTupleGetItem(DFPattern tuple, int index = -1);
DFPattern IsIf(DFPattern cond, DFPattern true_branch, DFPattern false_branch);
DFPattern IsLet(DFPattern var, DFPattern value, DFPattern body);
DFPattern FunctionPattern(std::vector<DFPattern> params, DFPattern body);
/// Free-function spellings of the constraints.
DFPattern HasAttr(ir::DictAttrs attrs, DFPattern pattern = Wildcard());
DFPattern HasType(ir::Type type, DFPattern pattern = Wildcard());
DFPattern HasDtype(ir::DataType dtype, DFPattern pattern = Wildcard());
DFPattern HasShape(std::vector<ir::Dim> shape, DFPattern pattern = Wildcard());
DFPattern Dominates(DFPattern parent, DFPattern path, DFPattern child);

}  // namespace relaypass::pattern
