// The symbolic dimensions (ir/type.h) and their expressions (ir/dim_expr.h): one process-wide
// table indexed by id. A variable has a name; an expression has its parts, and is interned so
// that equal expressions are one Dim.
#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "relaypass/ir/dim_expr.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::ir {
namespace {

using ExprKey = std::tuple<int, bool, int64_t, bool, int64_t>;

struct SymbolicDims {
  std::mutex mutex;
  // Deques: references stay valid as they grow. names[id] is empty for an expression.
  std::deque<std::string> names;
  std::deque<std::optional<DimExprParts>> exprs;
  std::map<ExprKey, Dim> interned;
};

SymbolicDims& Table() {
  static SymbolicDims* table = new SymbolicDims();  // never destroyed: used at exit
  return *table;
}

ExprKey KeyOf(const DimExprParts& p) {
  return {static_cast<int>(p.op), p.a.is_const, p.a.value, p.b.is_const, p.b.value};
}

Dim NewEntry(SymbolicDims& table, std::string name, std::optional<DimExprParts> parts) {
  // Ids run from 0 down from the base; 2^62 of them before a Dim would overflow.
  const Dim id = static_cast<Dim>(table.names.size());
  table.names.push_back(std::move(name));
  table.exprs.push_back(parts);
  return kSymbolicDimBase - id;
}

std::optional<size_t> IdOf(const SymbolicDims& table, Dim d) {
  if (!IsSymbolicDim(d)) return std::nullopt;
  const Dim id = kSymbolicDimBase - d;
  if (id >= static_cast<Dim>(table.names.size())) return std::nullopt;
  return static_cast<size_t>(id);
}

// The op layer's message for the same overflow (op/type_relations.h: ThrowDimOverflow).
void CheckNoOverflow(bool overflow, DimOp op, int64_t a, int64_t b) {
  if (overflow) {
    throw TypeError("shape arithmetic overflows int64: " + std::to_string(a) + " " + DimOpName(op) +
                    " " + std::to_string(b));
  }
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Both constants: the folded value (TVM folds them whatever the operation).
int64_t FoldConstants(DimOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case DimOp::kAdd:
      CheckNoOverflow(__builtin_add_overflow(a, b, &r), op, a, b);
      return r;
    case DimOp::kSub:
      CheckNoOverflow(__builtin_sub_overflow(a, b, &r), op, a, b);
      return r;
    case DimOp::kMul:
      CheckNoOverflow(__builtin_mul_overflow(a, b, &r), op, a, b);
      return r;
    case DimOp::kFloorDiv:
    case DimOp::kFloorMod:
      if (b == 0) throw TypeError(std::string(DimOpName(op)) + " of a dimension by zero");
      CheckNoOverflow(a == INT64_MIN && b == -1, op, a, b);
      return op == DimOp::kFloorDiv ? FloorDiv(a, b) : a - FloorDiv(a, b) * b;
    case DimOp::kMin:
      return std::min(a, b);
    case DimOp::kMax:
      return std::max(a, b);
  }
  return 0;
}

// TVM's identities (arith::TryConstFold) with one constant operand: the operand the expression
// reduces to, or nullopt.
std::optional<DimOperand> FoldIdentity(DimOp op, const DimOperand& a, const DimOperand& b) {
  auto is = [](const DimOperand& o, int64_t v) { return o.is_const && o.value == v; };
  switch (op) {
    case DimOp::kAdd:
      if (is(a, 0)) return b;
      if (is(b, 0)) return a;
      break;
    case DimOp::kSub:
      if (is(b, 0)) return a;
      break;
    case DimOp::kMul:
      if (is(a, 1)) return b;
      if (is(b, 1)) return a;
      if (is(a, 0)) return a;
      if (is(b, 0)) return b;
      break;
    case DimOp::kFloorDiv:
      if (is(b, 0)) throw TypeError("floordiv of a dimension by zero");
      if (is(b, 1)) return a;
      if (is(a, 0)) return a;
      break;
    case DimOp::kFloorMod:
      if (is(b, 0)) throw TypeError("floormod of a dimension by zero");
      if (is(b, 1)) return DimOperand::Const(0);
      if (is(a, 0)) return a;
      break;
    case DimOp::kMin:
    case DimOp::kMax:
      if (a == b) return a;  // TVM: min(x, x) and max(x, x) are x
      break;
  }
  return std::nullopt;
}

Dim AsDim(const DimOperand& o) {
  if (o.is_const && o.value < 0) {
    throw TypeError("a dimension expression folds to the negative extent " +
                    std::to_string(o.value));
  }
  return o.value;
}

}  // namespace

const char* DimOpName(DimOp op) {
  switch (op) {
    case DimOp::kAdd:
      return "+";
    case DimOp::kSub:
      return "-";
    case DimOp::kMul:
      return "*";
    case DimOp::kFloorDiv:
      return "floordiv";
    case DimOp::kFloorMod:
      return "floormod";
    case DimOp::kMin:
      return "min";
    case DimOp::kMax:
      return "max";
  }
  return "?";
}

Dim NewSymbolicDim(const std::string& name) {
  SymbolicDims& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  return NewEntry(table, name.empty() ? "v" : name, std::nullopt);
}

Dim MakeDimExpr(DimOp op, DimOperand a, DimOperand b) {
  SymbolicDims& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  for (const DimOperand* o : {&a, &b}) {
    if (!o->is_const && !IdOf(table, o->value)) {
      throw TypeError(
          "a dimension expression's operand must be a constant or a symbolic "
          "dimension, got " +
          std::to_string(o->value));
    }
  }
  if (a.is_const && b.is_const)
    return AsDim(DimOperand::Const(FoldConstants(op, a.value, b.value)));
  if (std::optional<DimOperand> same = FoldIdentity(op, a, b)) return AsDim(*same);
  const DimExprParts parts{op, a, b};
  auto [it, inserted] = table.interned.emplace(KeyOf(parts), 0);
  if (inserted) it->second = NewEntry(table, "", parts);
  return it->second;
}

std::optional<DimExprParts> DimExprOf(Dim d) {
  SymbolicDims& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto id = IdOf(table, d);
  if (!id) return std::nullopt;
  return table.exprs[*id];
}

Dim DimExprAdd(Dim a, Dim b) {
  if (a == kAnyDim || b == kAnyDim) return kAnyDim;
  return MakeDimExpr(DimOp::kAdd, DimOperand::Of(a), DimOperand::Of(b));
}

Dim DimExprMul(Dim a, Dim b) {
  if (a == kAnyDim || b == kAnyDim) return kAnyDim;
  return MakeDimExpr(DimOp::kMul, DimOperand::Of(a), DimOperand::Of(b));
}

std::string SymbolicDimName(Dim d) {
  SymbolicDims& table = Table();
  std::lock_guard<std::mutex> lock(table.mutex);
  auto id = IdOf(table, d);
  if (!id) return "?";
  if (!table.exprs[*id]) return table.names[*id];
  // An expression: TVM's TIR text ("(n + 2)", "(d2*d3)", "floordiv(h, 2)"), written left to
  // right from an explicit stack of pieces (expressions may nest deeply).
  struct Piece {
    const char* text;  // a literal, or null for an operand
    DimOperand operand;
  };
  std::string out;
  std::vector<Piece> stack{{nullptr, DimOperand{false, d}}};
  while (!stack.empty()) {
    const Piece piece = stack.back();
    stack.pop_back();
    if (piece.text) {
      out += piece.text;
      continue;
    }
    const DimOperand& o = piece.operand;
    if (o.is_const) {
      out += std::to_string(o.value);
      continue;
    }
    const size_t operand_id = *IdOf(table, o.value);  // operands are checked when made
    if (!table.exprs[operand_id]) {
      out += table.names[operand_id];
      continue;
    }
    const DimExprParts& p = *table.exprs[operand_id];
    const bool call = p.op == DimOp::kFloorDiv || p.op == DimOp::kFloorMod || p.op == DimOp::kMin ||
                      p.op == DimOp::kMax;
    static const char* const kCallOpen[] = {"floordiv(", "floormod(", "min(", "max("};
    const char* open = call ? kCallOpen[static_cast<int>(p.op) - 3] : "(";
    const char* middle = call                  ? ", "
                         : p.op == DimOp::kAdd ? " + "
                         : p.op == DimOp::kSub ? " - "
                                               : "*";
    // Pushed in reverse: open, a, middle, b, ")".
    stack.push_back({")", {}});
    stack.push_back({nullptr, p.b});
    stack.push_back({middle, {}});
    stack.push_back({nullptr, p.a});
    stack.push_back({open, {}});
  }
  return out;
}

std::string DimText(Dim d) {
  if (IsSymbolicDim(d)) return SymbolicDimName(d);
  if (d == kAnyDim) return "?";
  return std::to_string(d);
}

}  // namespace relaypass::ir
