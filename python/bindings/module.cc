// IRModule (tvm.IRModule), structural equality and hashing (tvm.ir), and the text format
// (tvm.parser.parse, mod.astext, print(mod)).
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::python {
namespace {

std::string NameOf(const py::object& key) {
  if (py::isinstance<py::str>(key)) return key.cast<std::string>();
  if (py::isinstance<ir::GlobalVarNode>(key)) return key.cast<ir::GlobalVar>()->name_hint;
  throw py::type_error("IRModule keys are function names or GlobalVars");
}

// TVM's map_free_vars=True: free variables correspond by order of first use, which comparing
// the expressions as functions of their free variables gives.
ir::Expr MapFreeVars(const ir::Expr& e) {
  if (e.as<ir::FunctionNode>()) return e;
  return ir::MakeFunction(ir::FreeVars(e), e);
}

bool Equal(const py::object& a, const py::object& b, bool map_free_vars) {
  if (py::isinstance<ir::IRModule>(a) && py::isinstance<ir::IRModule>(b)) {
    return ir::StructuralEqual(a.cast<ir::IRModule>(), b.cast<ir::IRModule>());
  }
  if (py::isinstance<ir::ExprNode>(a) && py::isinstance<ir::ExprNode>(b)) {
    auto x = a.cast<ir::Expr>();
    auto y = b.cast<ir::Expr>();
    py::gil_scoped_release release;
    return map_free_vars ? ir::StructuralEqual(MapFreeVars(x), MapFreeVars(y))
                         : ir::StructuralEqual(x, y);
  }
  if (py::isinstance<ir::TypeNode>(a) && py::isinstance<ir::TypeNode>(b)) {
    return ir::TypeEqual(a.cast<ir::Type>(), b.cast<ir::Type>());
  }
  if (py::isinstance<ir::AttrsNode>(a) && py::isinstance<ir::AttrsNode>(b)) {
    return ir::AttrsEqual(a.cast<ir::Attrs>(), b.cast<ir::Attrs>());
  }
  return a.is(b) || (a.is_none() == b.is_none() && a.is_none());
}

size_t Hash(const py::object& a, bool map_free_vars) {
  if (py::isinstance<ir::IRModule>(a)) return ir::StructuralHash(a.cast<ir::IRModule>());
  if (py::isinstance<ir::ExprNode>(a)) {
    auto e = a.cast<ir::Expr>();
    return ir::StructuralHash(map_free_vars ? MapFreeVars(e) : e);
  }
  if (py::isinstance<ir::TypeNode>(a)) return ir::TypeHash(a.cast<ir::Type>());
  if (py::isinstance<ir::AttrsNode>(a)) return ir::AttrsHash(a.cast<ir::Attrs>());
  throw py::type_error("structural_hash takes an IRModule, an expression, a type or attrs");
}

std::string TextOf(const py::object& a) {
  if (py::isinstance<ir::IRModule>(a)) return text::PrettyPrint(a.cast<ir::IRModule>());
  return py::str(a);
}

}  // namespace

void BindModule(py::module_& m) {
  py::class_<ir::IRModule>(m, "IRModule")
      .def(py::init([](const py::object& functions, const py::object&) {
             ir::IRModule mod;
             if (!functions.is_none()) {
               for (auto item : functions.cast<py::dict>()) {
                 if (!py::isinstance<ir::FunctionNode>(item.second)) {
                   throw py::type_error("IRModule values are Relay functions, not " +
                                        std::string(py::repr(item.second)));
                 }
                 mod.Add(NameOf(py::reinterpret_borrow<py::object>(item.first)),
                         item.second.cast<ir::Function>());
               }
             }
             return mod;
           }),
           py::arg("functions") = py::none(), py::arg("type_definitions") = py::none())
      .def_static(
          "from_expr",
          [](const ir::Expr& e, const py::object& functions, const py::object&) {
            ir::IRModule mod = ir::IRModule::FromExpr(e);
            if (!functions.is_none()) {
              for (auto item : functions.cast<py::dict>()) {
                mod.Add(NameOf(py::reinterpret_borrow<py::object>(item.first)),
                        item.second.cast<ir::Function>());
              }
            }
            return mod;
          },
          py::arg("expr"), py::arg("functions") = py::none(), py::arg("type_defs") = py::none())
      .def("__getitem__",
           [](const ir::IRModule& mod, const py::object& key) {
             std::string name = NameOf(key);
             if (!mod.Contains(name)) {
               throw py::key_error("Cannot find global var \"" + name + "\" in the Module");
             }
             return mod.Lookup(name);
           })
      .def("__setitem__",
           [](ir::IRModule& mod, const py::object& key, const py::object& value) {
             ir::Function func;
             if (py::isinstance<ir::FunctionNode>(value)) {
               func = value.cast<ir::Function>();
             } else if (py::isinstance<ir::ExprNode>(value)) {
               func = ir::IRModule::FromExpr(value.cast<ir::Expr>()).Lookup("main");
             } else {
               throw py::type_error("IRModule values are Relay functions");
             }
             if (py::isinstance<ir::GlobalVarNode>(key)) {
               mod.Add(key.cast<ir::GlobalVar>(), func);
             } else {
               mod.Add(NameOf(key), func);
             }
           })
      .def("__contains__",
           [](const ir::IRModule& mod, const py::object& key) { return mod.Contains(NameOf(key)); })
      .def("__len__", &ir::IRModule::size)
      .def_property_readonly("functions",
                             [](const ir::IRModule& mod) {
                               py::dict out;
                               for (auto& [gv, f] : mod.functions()) out[py::cast(gv)] = f;
                               return out;
                             })
      .def_property_readonly("type_definitions", [](const ir::IRModule&) { return py::dict(); })
      .def("get_global_var", &ir::IRModule::GetGlobalVar, py::arg("name"))
      .def("get_global_vars",
           [](const ir::IRModule& mod) {
             std::vector<ir::GlobalVar> out;
             for (auto& [gv, f] : mod.functions()) out.push_back(gv);
             return out;
           })
      .def("update_func", [](ir::IRModule& mod, const ir::GlobalVar& gv,
                             const ir::Function& f) { mod.Add(gv, f); })
      .def("update",
           [](ir::IRModule& mod, const ir::IRModule& other) {
             for (auto& [gv, f] : other.functions()) mod.Add(gv->name_hint, f);
           })
      .def("remove", [](ir::IRModule& mod, const py::object& key) { mod.Remove(NameOf(key)); })
      .def(
          "astext",
          [](const ir::IRModule& mod, bool show_meta_data, const py::object&) {
            return text::AsText(mod, show_meta_data);
          },
          py::arg("show_meta_data") = true, py::arg("annotate") = py::none())
      .def("__str__", [](const ir::IRModule& mod) { return text::PrettyPrint(mod); })
      .def("__repr__", [](const ir::IRModule& mod) { return text::PrettyPrint(mod); })
      .def("same_as", &ir::IRModule::same_as)
      .def("copy", [](const ir::IRModule& mod) { return mod; })
      .def("__copy__", [](const ir::IRModule& mod) { return mod; })
      .def("__deepcopy__", [](const ir::IRModule& mod, const py::object&) { return mod; });

  m.def("structural_equal", &Equal, py::arg("lhs"), py::arg("rhs"),
        py::arg("map_free_vars") = false);
  m.def("structural_hash", &Hash, py::arg("node"), py::arg("map_free_vars") = false);
  m.def(
      "assert_structural_equal",
      [](const py::object& a, const py::object& b, bool map_free_vars) {
        if (!Equal(a, b, map_free_vars)) {
          throw py::value_error("StructuralEqual check failed:\nlhs:\n" + TextOf(a) + "\nrhs:\n" +
                                TextOf(b));
        }
      },
      py::arg("lhs"), py::arg("rhs"), py::arg("map_free_vars") = false);

  m.def(
      "parse",
      [](const std::string& source, const std::string& source_name, const py::object& init_mod,
         const py::object& meta) {
        text::ParseOptions options;
        options.source_name = source_name;
        if (!meta.is_none()) {
          py::object constants = meta.attr("get")("relay.Constant", py::list());
          for (py::handle c : constants) options.constants.push_back(c.cast<ir::Constant>());
        }
        ir::IRModule parsed;
        {
          py::gil_scoped_release release;
          parsed = text::ParseModule(source, options);
        }
        if (init_mod.is_none()) return parsed;
        auto mod = init_mod.cast<ir::IRModule>();
        for (auto& [gv, f] : parsed.functions()) mod.Add(gv->name_hint, f);
        return mod;
      },
      py::arg("source"), py::arg("source_name") = "from_string",
      py::arg("init_module") = py::none(), py::arg("init_meta_table") = py::none());
  m.def(
      "parse_expr",
      [](const std::string& source) {
        py::gil_scoped_release release;
        return text::ParseExpr(source);
      },
      py::arg("source"));
}

}  // namespace relaypass::python
