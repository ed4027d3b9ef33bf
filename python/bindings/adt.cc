// Algebraic data types and polymorphism (TVM's relay.TypeVar, GlobalTypeVar, TypeCall, TypeData,
// Constructor, Match, Clause and the patterns): thin bindings of relaypass/ir/expr.h and type.h.
#include <optional>

#include "common.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/match_exhaustion.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::python {
namespace {

using ir::Expr;

ir::TypeVarKind KindFrom(int kind) {
  switch (kind) {
    case 0:
    case 1:
    case 2:
    case 4:
    case 5:
    case 6:
      return static_cast<ir::TypeVarKind>(kind);
    default:
      throw relaypass::TypeError("unknown type kind " + std::to_string(kind));
  }
}

template <typename Node>
using TypeClass = py::class_<Node, ir::TypeNode, ir::Ref<Node>>;
template <typename Node>
using ExprClass = py::class_<Node, ir::ExprNode, ir::Ref<Node>>;
template <typename Node>
using PatternClass = py::class_<Node, ir::PatternNode, ir::Ref<Node>>;

std::vector<ir::Pattern> PatternsFrom(const py::object& patterns) {
  if (patterns.is_none()) return {};
  return patterns.cast<std::vector<ir::Pattern>>();
}

}  // namespace

void BindAdt(py::module_& m) {
  TypeClass<ir::TypeVarNode>(m, "TypeVar")
      .def(py::init([](const std::string& name, int kind) {
             return ir::TypeVar(name, KindFrom(kind)).downcast<ir::TypeVarNode>();
           }),
           py::arg("name_hint"), py::arg("kind") = 0)
      .def_property_readonly("name_hint", [](const ir::TypeVarNode& t) { return t.name_hint; })
      .def_property_readonly("kind",
                             [](const ir::TypeVarNode& t) { return static_cast<int>(t.var_kind); });

  TypeClass<ir::GlobalTypeVarNode>(m, "GlobalTypeVar")
      .def(py::init([](const std::string& name, int kind) {
             return ir::GlobalTypeVar(name, KindFrom(kind)).downcast<ir::GlobalTypeVarNode>();
           }),
           py::arg("name_hint"), py::arg("kind") = 5)
      .def_property_readonly("name_hint",
                             [](const ir::GlobalTypeVarNode& t) { return t.name_hint; })
      .def_property_readonly(
          "kind", [](const ir::GlobalTypeVarNode& t) { return static_cast<int>(t.var_kind); });

  TypeClass<ir::TypeCallNode>(m, "TypeCall")
      .def(py::init([](const ir::Type& func, const std::vector<ir::Type>& args) {
             return ir::TypeCall(func, args).downcast<ir::TypeCallNode>();
           }),
           py::arg("func"), py::arg("args"))
      .def_property_readonly("func", [](const ir::TypeCallNode& t) { return t.func; })
      .def_property_readonly("args", [](const ir::TypeCallNode& t) { return t.args; });

  ExprClass<ir::ConstructorNode>(m, "Constructor")
      .def(py::init([](const std::string& name, const std::vector<ir::Type>& inputs,
                       const ir::Type& belong_to) {
             return ir::MakeConstructor(name, inputs, belong_to);
           }),
           py::arg("name_hint"), py::arg("inputs"), py::arg("belong_to"))
      .def_property_readonly("name_hint", [](const ir::ConstructorNode& c) { return c.name_hint; })
      .def_property_readonly("inputs", [](const ir::ConstructorNode& c) { return c.inputs; })
      .def_property_readonly("belong_to", [](const ir::ConstructorNode& c) { return c.belong_to; })
      .def_property_readonly("tag", [](const ir::ConstructorNode& c) { return c.tag; })
      // TVM's Constructor.__call__: the call of the constructor on the arguments.
      .def("__call__", [](const ir::Constructor& c, const py::args& args) {
        std::vector<Expr> exprs;
        for (py::handle a : args) exprs.push_back(a.cast<Expr>());
        return ir::MakeCall(c, std::move(exprs));
      });

  TypeClass<ir::TypeDataNode>(m, "TypeData")
      .def(py::init([](const ir::Type& header, const std::vector<ir::Type>& type_vars,
                       const std::vector<ir::Constructor>& constructors) {
             return ir::MakeTypeData(header, type_vars, constructors);
           }),
           py::arg("header"), py::arg("type_vars"), py::arg("constructors"))
      .def_property_readonly("header", [](const ir::TypeDataNode& t) { return t.header; })
      .def_property_readonly("type_vars", [](const ir::TypeDataNode& t) { return t.type_vars; })
      .def_property_readonly("constructors",
                             [](const ir::TypeDataNode& t) { return t.constructors; });

  py::class_<ir::PatternNode, ir::Pattern>(m, "Pattern")
      .def("__str__", &ir::PatternToString)
      .def("__repr__", &ir::PatternToString)
      .def("same_as",
           [](const ir::Pattern& a, const py::object& b) {
             return py::isinstance<ir::PatternNode>(b) && a.same_as(b.cast<ir::Pattern>());
           })
      .def("__hash__",
           [](const ir::Pattern& p) { return reinterpret_cast<std::uintptr_t>(p.get()); })
      .def("__eq__", [](const ir::Pattern& a, const py::object& b) {
        return py::isinstance<ir::PatternNode>(b) && a.same_as(b.cast<ir::Pattern>());
      });
  PatternClass<ir::PatternWildcardNode>(m, "PatternWildcard").def(py::init([] {
    return ir::MakePatternWildcard().downcast<ir::PatternWildcardNode>();
  }));
  PatternClass<ir::PatternVarNode>(m, "PatternVar")
      .def(py::init([](const ir::Var& var) {
             return ir::MakePatternVar(var).downcast<ir::PatternVarNode>();
           }),
           py::arg("var"))
      .def_property_readonly("var", [](const ir::PatternVarNode& p) { return p.var; });
  PatternClass<ir::PatternConstructorNode>(m, "PatternConstructor")
      .def(py::init([](const ir::Constructor& c, const py::object& patterns) {
             return ir::MakePatternConstructor(c, PatternsFrom(patterns))
                 .downcast<ir::PatternConstructorNode>();
           }),
           py::arg("constructor"), py::arg("patterns") = py::none())
      .def_property_readonly("constructor",
                             [](const ir::PatternConstructorNode& p) { return p.constructor; })
      .def_property_readonly("patterns",
                             [](const ir::PatternConstructorNode& p) { return p.patterns; });
  PatternClass<ir::PatternTupleNode>(m, "PatternTuple")
      .def(py::init([](const py::object& patterns) {
             return ir::MakePatternTuple(PatternsFrom(patterns)).downcast<ir::PatternTupleNode>();
           }),
           py::arg("patterns") = py::none())
      .def_property_readonly("patterns", [](const ir::PatternTupleNode& p) { return p.patterns; });

  py::class_<ir::ClauseNode, ir::Clause>(m, "Clause")
      .def(py::init(
               [](const ir::Pattern& lhs, const Expr& rhs) { return ir::MakeClause(lhs, rhs); }),
           py::arg("lhs"), py::arg("rhs"))
      .def_property_readonly("lhs", [](const ir::ClauseNode& c) { return c.lhs; })
      .def_property_readonly("rhs", [](const ir::ClauseNode& c) { return c.rhs; });

  ExprClass<ir::MatchNode>(m, "Match")
      .def(py::init([](const Expr& data, const std::vector<ir::Clause>& clauses, bool complete,
                       const py::object&) { return ir::MakeMatch(data, clauses, complete); }),
           py::arg("data"), py::arg("clauses"), py::arg("complete") = true,
           py::arg("span") = py::none())
      .def_property_readonly("data", [](const ir::MatchNode& n) { return n.data; })
      .def_property_readonly("clauses", [](const ir::MatchNode& n) { return n.clauses; })
      .def_property_readonly("complete", [](const ir::MatchNode& n) { return n.complete; });

  // TVM's relay.analysis.unmatched_cases (an empty module when none is given).
  m.def(
      "unmatched_cases",
      [](const ir::Match& match, const std::optional<ir::IRModule>& mod) {
        return ir::UnmatchedCases(match, mod.value_or(ir::IRModule()));
      },
      py::arg("match"), py::arg("mod") = py::none());
}

}  // namespace relaypass::python
