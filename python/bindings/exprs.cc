// Relay expressions (relay.Var, Constant, Call, Tuple, TupleGetItem, Function, Let, If,
// RefCreate, RefRead, RefWrite, GlobalVar, Op). pybind11 returns every node as the Python class of
// its kind, so `isinstance(node, relay.expr.Call)` works on nodes that come out of C++ passes.
#include <optional>
#include <string>
#include <vector>

#include "common.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/registry.h"
#include "relaypass/op/user_ops.h"
#include "relaypass/text/printer.h"

namespace relaypass::python {
namespace {

using ir::Expr;

ir::Type CheckedType(const ir::ExprNode& e) {
  if (!e.checked_type) {
    throw py::value_error("The type checker has not populated the checked_type for this node");
  }
  return e.checked_type;
}

template <typename Node>
using NodeClass = py::class_<Node, ir::ExprNode, ir::Ref<Node>>;

}  // namespace

void BindExprs(py::module_& m) {
  py::class_<ir::ExprNode, Expr>(m, "RelayExpr")
      .def_property_readonly("checked_type", &CheckedType)
      .def_property_readonly("_checked_type_", [](const ir::ExprNode& e) { return e.checked_type; })
      .def_property_readonly("span",
                             [](const ir::ExprNode& e) -> py::object {
                               if (!e.span.defined()) return py::none();
                               return py::str(e.span.ToString());
                             })
      .def("same_as",
           [](const Expr& a, const py::object& b) {
             return py::isinstance<ir::ExprNode>(b) && a.same_as(b.cast<Expr>());
           })
      .def("__eq__",
           [](const Expr& a, const py::object& b) {
             return py::isinstance<ir::ExprNode>(b) && a.same_as(b.cast<Expr>());
           })
      .def("__ne__",
           [](const Expr& a, const py::object& b) {
             return !(py::isinstance<ir::ExprNode>(b) && a.same_as(b.cast<Expr>()));
           })
      .def("__hash__", [](const Expr& e) { return reinterpret_cast<std::uintptr_t>(e.get()); })
      .def("__str__", [](const Expr& e) { return text::PrettyPrint(e); })
      .def(
          "astext", [](const Expr& e, bool, const py::object&) { return text::PrettyPrint(e); },
          py::arg("show_meta_data") = true, py::arg("annotate") = py::none());

  NodeClass<ir::VarNode>(m, "Var")
      .def(py::init([](const std::string& name, const std::optional<ir::Type>& type,
                       const py::object&) { return ir::MakeVar(name, type.value_or(nullptr)); }),
           py::arg("name_hint"), py::arg("type_annotation") = py::none(),
           py::arg("span") = py::none())
      .def_property_readonly("name_hint", [](const ir::VarNode& v) { return v.name_hint; })
      .def_property_readonly("type_annotation",
                             [](const ir::VarNode& v) { return v.type_annotation; });

  NodeClass<ir::GlobalVarNode>(m, "GlobalVar")
      .def(py::init(
               [](const std::string& name, const py::object&) { return ir::MakeGlobalVar(name); }),
           py::arg("name_hint"), py::arg("type_annot") = py::none())
      .def_property_readonly("name_hint", [](const ir::GlobalVarNode& v) { return v.name_hint; });

  NodeClass<ir::ConstantNode>(m, "Constant")
      .def(py::init(
               [](const ir::NDArray& data, const py::object&) { return ir::MakeConstant(data); }),
           py::arg("data"), py::arg("span") = py::none())
      .def_property_readonly("data", [](const ir::ConstantNode& c) { return c.data; });

  NodeClass<ir::OpNode>(m, "Op")
      .def_static(
          "get", [](const std::string& name) { return op::GetOp(name); }, py::arg("op_name"))
      .def_property_readonly("name", [](const ir::OpNode& o) { return o.name; })
      .def_property_readonly("num_inputs",
                             [](const ir::OpNode& o) { return o.def ? o.def->num_inputs : -1; })
      .def_property_readonly("support_level",
                             [](const ir::OpNode& o) { return op::SupportLevel(o.name); })
      // TVM's TOpPattern and TOpIsStateful attributes (Op.get_attr reads them).
      .def_property_readonly(
          "op_pattern",
          [](const ir::OpNode& o) { return o.def ? static_cast<int>(o.def->pattern) : 8; })
      .def_property_readonly("is_stateful",
                             [](const ir::OpNode& o) { return o.def && o.def->stateful; })
      .def_property_readonly(
          "description",
          [](const ir::OpNode& o) { return o.def ? o.def->description : std::string(); })
      .def_property_readonly("attrs_type_key", [](const ir::OpNode& o) {
        return o.def && o.def->attrs_schema ? o.def->attrs_schema->type_key() : std::string();
      });

  NodeClass<ir::CallNode>(m, "Call")
      .def(
          py::init([](const Expr& op, const std::vector<Expr>& args,
                      const std::optional<ir::Attrs>& attrs, const py::object&, const py::object&) {
            return ir::MakeCall(op, args, attrs.value_or(nullptr));
          }),
          py::arg("op"), py::arg("args"), py::arg("attrs") = py::none(),
          py::arg("type_args") = py::none(), py::arg("span") = py::none())
      .def_property_readonly("op", [](const ir::CallNode& c) { return c.op; })
      .def_property_readonly("args", [](const ir::CallNode& c) { return c.args; })
      .def_property_readonly("attrs", [](const ir::CallNode& c) { return c.attrs; })
      // TVM's operators are polymorphic functions fn[T0, ..., Tn](T0, ...) -> Tn whose type
      // arguments inference instantiates: each argument's type, then the result's. Calls of
      // functions have none (relaypass has no type parameters).
      .def_property_readonly("type_args", [](const ir::CallNode& c) {
        py::list out;
        if (!c.op_node() || !c.checked_type) return out;
        for (const Expr& arg : c.args) {
          if (!arg->checked_type) return py::list();
          out.append(arg->checked_type);
        }
        out.append(c.checked_type);
        return out;
      });

  NodeClass<ir::TupleNode>(m, "Tuple")
      .def(py::init([](const std::vector<Expr>& fields, const py::object&) {
             return ir::MakeTuple(fields);
           }),
           py::arg("fields"), py::arg("span") = py::none())
      .def_property_readonly("fields", [](const ir::TupleNode& t) { return t.fields; })
      .def("__len__", [](const ir::TupleNode& t) { return t.fields.size(); })
      .def("__getitem__", [](const ir::TupleNode& t, int64_t i) {
        auto n = static_cast<int64_t>(t.fields.size());
        if (i < 0) i += n;
        if (i < 0 || i >= n) throw py::index_error("Tuple index out of range");
        return t.fields[i];
      });

  NodeClass<ir::TupleGetItemNode>(m, "TupleGetItem")
      .def(py::init([](const Expr& tuple, int index, const py::object&) {
             return ir::MakeTupleGetItem(tuple, index);
           }),
           py::arg("tuple_value"), py::arg("index"), py::arg("span") = py::none())
      .def_property_readonly("tuple_value", [](const ir::TupleGetItemNode& t) { return t.tuple; })
      .def_property_readonly("index", [](const ir::TupleGetItemNode& t) { return t.index; });

  NodeClass<ir::FunctionNode>(m, "Function")
      .def(py::init([](const std::vector<ir::Var>& params, const Expr& body,
                       const std::optional<ir::Type>& ret, const py::object& type_params,
                       const py::object& attrs, const py::object&) {
             std::vector<ir::Type> tps;
             if (!type_params.is_none()) tps = type_params.cast<std::vector<ir::Type>>();
             return ir::MakeFunction(params, body, ret.value_or(nullptr), DictAttrsFromPy(attrs),
                                     std::move(tps));
           }),
           py::arg("params"), py::arg("body"), py::arg("ret_type") = py::none(),
           py::arg("type_params") = py::none(), py::arg("attrs") = py::none(),
           py::arg("span") = py::none())
      .def_property_readonly("params", [](const ir::FunctionNode& f) { return f.params; })
      .def_property_readonly("body", [](const ir::FunctionNode& f) { return f.body; })
      .def_property_readonly("ret_type", [](const ir::FunctionNode& f) { return f.ret_type; })
      .def_property_readonly("type_params", [](const ir::FunctionNode& f) { return f.type_params; })
      .def_property_readonly("attrs",
                             [](const ir::FunctionNode& f) { return DictAttrsToPy(f.attrs); })
      .def(
          "with_attr",
          [](const ir::Function& f, const std::string& key, const py::object& value) {
            ir::DictAttrs attrs = f->attrs;
            attrs.Set(key, AttrValueFromPy(value));
            Expr copy = ir::CopyNode(f);
            const_cast<ir::FunctionNode*>(copy.as<ir::FunctionNode>())->attrs = std::move(attrs);
            return copy.downcast<ir::FunctionNode>();
          },
          py::arg("attr_key_or_dict"), py::arg("attr_value") = py::none());

  // relay.bind (ir::BindAsRelay); `binds` as a list of (var, expr) pairs.
  m.def("bind", [](const Expr& expr, const std::vector<std::pair<ir::Var, Expr>>& binds) {
    std::unordered_map<const ir::VarNode*, Expr> bindings;
    for (const auto& [var, value] : binds) bindings[var.get()] = value;
    return ir::BindAsRelay(expr, bindings);
  });

  // TVM's *WithFields: a copy with new children that keeps the node's checked type and span.
  m.def("call_with_fields", [](const ir::Call& c, const Expr& op, const std::vector<Expr>& args) {
    Expr copy = ir::CopyNode(c);
    auto* node = const_cast<ir::CallNode*>(copy.as<ir::CallNode>());
    node->op = op;
    node->args = args;
    return copy;
  });
  m.def("tuple_with_fields", [](const ir::Tuple& t, const std::vector<Expr>& fields) {
    Expr copy = ir::CopyNode(t);
    const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>())->fields = fields;
    return copy;
  });
  m.def("tuple_get_item_with_fields", [](const ir::TupleGetItem& t, const Expr& tuple) {
    Expr copy = ir::CopyNode(t);
    const_cast<ir::TupleGetItemNode*>(copy.as<ir::TupleGetItemNode>())->tuple = tuple;
    return copy;
  });
  m.def("function_with_fields",
        [](const ir::Function& f, const std::vector<ir::Var>& params, const Expr& body) {
          Expr copy = ir::CopyNode(f);
          auto* node = const_cast<ir::FunctionNode*>(copy.as<ir::FunctionNode>());
          node->params = params;
          node->body = body;
          return copy;
        });
  m.def("let_with_fields",
        [](const ir::Let& l, const ir::Var& var, const Expr& value, const Expr& body) {
          Expr copy = ir::CopyNode(l);
          auto* node = const_cast<ir::LetNode*>(copy.as<ir::LetNode>());
          node->var = var;
          node->value = value;
          node->body = body;
          return copy;
        });
  m.def("if_with_fields", [](const ir::If& i, const Expr& c, const Expr& t, const Expr& f) {
    Expr copy = ir::CopyNode(i);
    auto* node = const_cast<ir::IfNode*>(copy.as<ir::IfNode>());
    node->cond = c;
    node->true_branch = t;
    node->false_branch = f;
    return copy;
  });

  NodeClass<ir::LetNode>(m, "Let")
      .def(py::init([](const ir::Var& var, const Expr& value, const Expr& body, const py::object&) {
             return ir::MakeLet(var, value, body);
           }),
           py::arg("variable"), py::arg("value"), py::arg("body"), py::arg("span") = py::none())
      .def_property_readonly("var", [](const ir::LetNode& l) { return l.var; })
      .def_property_readonly("value", [](const ir::LetNode& l) { return l.value; })
      .def_property_readonly("body", [](const ir::LetNode& l) { return l.body; });

  NodeClass<ir::IfNode>(m, "If")
      .def(py::init([](const Expr& c, const Expr& t, const Expr& f, const py::object&) {
             return ir::MakeIf(c, t, f);
           }),
           py::arg("cond"), py::arg("true_branch"), py::arg("false_branch"),
           py::arg("span") = py::none())
      .def_property_readonly("cond", [](const ir::IfNode& i) { return i.cond; })
      .def_property_readonly("true_branch", [](const ir::IfNode& i) { return i.true_branch; })
      .def_property_readonly("false_branch", [](const ir::IfNode& i) { return i.false_branch; });

  NodeClass<ir::RefCreateNode>(m, "RefCreate")
      .def(py::init([](const Expr& value, const py::object&) { return ir::MakeRefCreate(value); }),
           py::arg("value"), py::arg("span") = py::none())
      .def_property_readonly("value", [](const ir::RefCreateNode& r) { return r.value; });

  NodeClass<ir::RefReadNode>(m, "RefRead")
      .def(py::init([](const Expr& ref, const py::object&) { return ir::MakeRefRead(ref); }),
           py::arg("ref"), py::arg("span") = py::none())
      .def_property_readonly("ref", [](const ir::RefReadNode& r) { return r.ref; });

  NodeClass<ir::RefWriteNode>(m, "RefWrite")
      .def(py::init([](const Expr& ref, const Expr& value, const py::object&) {
             return ir::MakeRefWrite(ref, value);
           }),
           py::arg("ref"), py::arg("value"), py::arg("span") = py::none())
      .def_property_readonly("ref", [](const ir::RefWriteNode& r) { return r.ref; })
      .def_property_readonly("value", [](const ir::RefWriteNode& r) { return r.value; });
}

}  // namespace relaypass::python
