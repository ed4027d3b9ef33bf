// Expressions of symbolic dimensions: TVM's tir.Add, Sub, Mul, FloorDiv, FloorMod, Min and Max over
// tir.Vars and integer constants in a shape (`n + 2`, `(d2*d3)*d4`, `t + t`), as TVM's relations
// compute them (nn.pad, nn.batch_flatten, concatenate) and TVM's Python writes them.
//
// An expression is a symbolic dimension (ir/type.h) of its own: it is interned, so two equal
// expressions (same operation, same operands, in the same order) are the same Dim, and TVM's
// structural equality of two shapes stays the equality of their Dims. As TVM's PrimExpr operators
// (arith::TryConstFold), building one folds two constants and the identities x + 0, x - 0, x * 1,
// x * 0, floordiv(x, 1), floormod(x, 1), a zero dividend, and min / max of one operand with
// itself; nothing else is simplified (TVM's `t + t` stays `t + t`).
#pragma once

#include <cstdint>
#include <optional>

#include "relaypass/ir/type.h"

namespace relaypass::ir {

enum class DimOp { kAdd, kSub, kMul, kFloorDiv, kFloorMod, kMin, kMax };

/// An operand of a dimension expression: an integer constant (of any sign: TVM writes
/// `n + (-2)`) or a dimension (a non-negative extent is a constant too).
struct DimOperand {
  bool is_const = true;
  int64_t value = 0;  // the constant, or the symbolic Dim

  static DimOperand Const(int64_t v) { return {true, v}; }
  /// `d` as an operand: a known extent becomes a constant; `?` is not an operand.
  static DimOperand Of(Dim d) { return IsSymbolicDim(d) ? DimOperand{false, d} : Const(d); }
  bool operator==(const DimOperand&) const = default;
};

/// What a dimension expression is made of.
struct DimExprParts {
  DimOp op;
  DimOperand a;
  DimOperand b;
};

/// `a op b` as a dimension, with TVM's folding. A result that folds to a constant must be a valid
/// extent (non-negative) and both constants must not divide by zero: otherwise TypeError. A `?`
/// operand is not accepted here (use DimExprAdd / DimExprMul, which let `?` absorb).
Dim MakeDimExpr(DimOp op, DimOperand a, DimOperand b);

/// The parts of `d` if it is a dimension expression (nullopt for a variable, an extent or `?`).
std::optional<DimExprParts> DimExprOf(Dim d);

/// a + b and a * b of two dimensions for relations: `?` absorbs; extents add as integers (with
/// overflow checks); a symbolic operand gives an expression.
Dim DimExprAdd(Dim a, Dim b);
Dim DimExprMul(Dim a, Dim b);

/// TVM's text of a dimension expression's operation ("+", "-", "*", "floordiv", "floormod",
/// "min", "max").
const char* DimOpName(DimOp op);

}  // namespace relaypass::ir
