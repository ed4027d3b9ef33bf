// TVM's python/tvm/relay/std/gradient.rly, built with the IR's constructors (the passes do not
// depend on the text parser):
//
//   type GradCell[T] { Raw(T), One(fn() -> T), Zero(fn() -> T) }
//   def @FromGradCell[T](%g: GradCell[T]) -> T {
//     match (%g) { Raw(%x) => %x, One(%x) => %x(), Zero(%x) => %x() }
//   }
//   def @MultiplyGradCell[T](%multiply: fn(T, T) -> T, %l: GradCell[T], %r: GradCell[T])
//       -> GradCell[T] {
//     match ((%l, %r)) {
//       (Zero(_), _) => %l, (_, Zero(_)) => %r, (One(_), _) => %r, (_, One(_)) => %l,
//       _ => Raw(%multiply(@FromGradCell(%l), @FromGradCell(%r)))
//     }
//   }
//   def @AddGradCell[T](%add: fn(T, T) -> T, %l: GradCell[T], %r: GradCell[T]) -> GradCell[T] {
//     match ((%l, %r)) {
//       (Zero(_), _) => %r, (_, Zero(_)) => %l,
//       _ => Raw(%add(@FromGradCell(%l), @FromGradCell(%r)))
//     }
//   }
#include <string>
#include <vector>

#include "relaypass/passes/lazy_gradient_init.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using ir::Type;

struct GradCellDefs {
  Type adt;
  ir::Constructor raw, one, zero;
};

ir::Function FromGradCell(const GradCellDefs& d) {
  Type t = ir::TypeVar("T");
  ir::Var g = ir::MakeVar("g", ir::TypeCall(d.adt, {t}));
  std::vector<ir::Clause> clauses;
  for (const ir::Constructor& c : {d.raw, d.one, d.zero}) {
    ir::Var x = ir::MakeVar("x");
    Expr rhs = c.same_as(d.raw) ? Expr(x) : Expr(ir::MakeCall(x, {}));
    clauses.push_back(ir::MakeClause(ir::MakePatternConstructor(c, {ir::MakePatternVar(x)}), rhs));
  }
  return ir::MakeFunction({g}, ir::MakeMatch(g, clauses), t, {}, {t});
}

ir::Pattern Cell(const ir::Constructor& c, bool left) {
  ir::Pattern cell = ir::MakePatternConstructor(c, {ir::MakePatternWildcard()});
  return left ? ir::MakePatternTuple({cell, ir::MakePatternWildcard()})
              : ir::MakePatternTuple({ir::MakePatternWildcard(), cell});
}

// @AddGradCell or @MultiplyGradCell: `special` are the (pattern, result) clauses before the
// fallback that applies `op_name`'s function to both values.
ir::Function Overload(const GradCellDefs& d, const ir::GlobalVar& from, const std::string& op_name,
                      bool multiply) {
  Type t = ir::TypeVar("T");
  Type cell = ir::TypeCall(d.adt, {t});
  ir::Var op = ir::MakeVar(op_name, ir::FuncType({t, t}, t));
  ir::Var l = ir::MakeVar("l", cell);
  ir::Var r = ir::MakeVar("r", cell);
  std::vector<ir::Clause> clauses;
  if (multiply) {
    clauses.push_back(ir::MakeClause(Cell(d.zero, true), l));
    clauses.push_back(ir::MakeClause(Cell(d.zero, false), r));
    clauses.push_back(ir::MakeClause(Cell(d.one, true), r));
    clauses.push_back(ir::MakeClause(Cell(d.one, false), l));
  } else {
    clauses.push_back(ir::MakeClause(Cell(d.zero, true), r));
    clauses.push_back(ir::MakeClause(Cell(d.zero, false), l));
  }
  Expr both = ir::MakeCall(op, {ir::MakeCall(from, {l}), ir::MakeCall(from, {r})});
  clauses.push_back(ir::MakeClause(ir::MakePatternWildcard(), ir::MakeCall(d.raw, {both})));
  return ir::MakeFunction({op, l, r}, ir::MakeMatch(ir::MakeTuple({l, r}), clauses), cell, {}, {t});
}

}  // namespace

void ImportGradCell(ir::IRModule& mod) {
  GradCellDefs d;
  if (mod.ContainGlobalTypeVar("GradCell")) {
    d.adt = mod.GetGlobalTypeVar("GradCell");
    d.raw = mod.GetConstructor("GradCell", "Raw");
    d.one = mod.GetConstructor("GradCell", "One");
    d.zero = mod.GetConstructor("GradCell", "Zero");
  } else {
    d.adt = ir::GlobalTypeVar("GradCell");
    Type t = ir::TypeVar("T");
    Type thunk = ir::FuncType({}, t);
    d.raw = ir::MakeConstructor("Raw", {t}, d.adt);
    d.one = ir::MakeConstructor("One", {thunk}, d.adt);
    d.zero = ir::MakeConstructor("Zero", {thunk}, d.adt);
    mod.AddTypeDef(d.adt, ir::MakeTypeData(d.adt, {t}, {d.raw, d.one, d.zero}));
  }
  if (!mod.Contains("FromGradCell")) mod.Add("FromGradCell", FromGradCell(d));
  ir::GlobalVar from = mod.GetGlobalVar("FromGradCell");
  if (!mod.Contains("MultiplyGradCell")) {
    mod.Add("MultiplyGradCell", Overload(d, from, "multiply", true));
  }
  if (!mod.Contains("AddGradCell")) mod.Add("AddGradCell", Overload(d, from, "add", false));
}

}  // namespace relaypass::passes
