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

// The type variables of `t` in order of first appearance (TypeVars only).
std::vector<ir::Type> FreeTypeVars(const ir::Type& t) {
  std::vector<ir::Type> out;
  std::vector<const ir::TypeNode*> stack = {t.get()};
  while (!stack.empty()) {
    const ir::TypeNode* n = stack.back();
    stack.pop_back();
    if (!n) continue;
    auto push_all = [&](const std::vector<ir::Type>& ts) {
      for (size_t i = ts.size(); i-- > 0;) stack.push_back(ts[i].get());
    };
    switch (n->kind) {
      case ir::TypeKind::kTypeVar: {
        bool seen = false;
        for (const ir::Type& v : out) seen = seen || v.get() == n;
        if (!seen) out.emplace_back(n);
        break;
      }
      case ir::TypeKind::kTuple:
        push_all(static_cast<const ir::TupleTypeNode*>(n)->fields);
        break;
      case ir::TypeKind::kFunc: {
        auto* f = static_cast<const ir::FuncTypeNode*>(n);
        stack.push_back(f->ret_type.get());
        push_all(f->arg_types);
        push_all(f->type_params);
        break;
      }
      case ir::TypeKind::kRef:
        stack.push_back(static_cast<const ir::RefTypeNode*>(n)->value.get());
        break;
      case ir::TypeKind::kTypeCall:
        push_all(static_cast<const ir::TypeCallNode*>(n)->args);
        stack.push_back(static_cast<const ir::TypeCallNode*>(n)->func.get());
        break;
      default:
        break;
    }
  }
  return out;
}

}  // namespace

// Types compared as TVM's structural_equal does: the type parameters of function types are
// bound (paired), free type variables must be the same ones, unless `map_free_vars` pairs them
// by order of appearance. Each type is compared as `fn [free vars](%x: T) { %x }`.
bool TypesStructurallyEqual(const ir::Type& a, const ir::Type& b, bool map_free_vars) {
  if (ir::TypeEqual(a, b)) return true;
  auto* da = a.as<ir::TypeDataNode>();
  auto* db = b.as<ir::TypeDataNode>();
  if (da || db) {
    if (!da || !db || !ir::TypeEqual(da->header, db->header) ||
        da->type_vars.size() != db->type_vars.size() ||
        da->constructors.size() != db->constructors.size()) {
      return false;
    }
    for (size_t i = 0; i < da->constructors.size(); ++i) {
      if (da->constructors[i]->name_hint != db->constructors[i]->name_hint) return false;
    }
    return true;
  }
  auto as_function = [&](const ir::Type& t) {
    ir::Var x = ir::MakeVar("x", t);
    std::vector<ir::Type> binders;
    if (map_free_vars) binders = FreeTypeVars(t);
    return ir::Expr(ir::MakeFunction({x}, x, nullptr, {}, std::move(binders)));
  };
  return ir::StructuralEqual(as_function(a), as_function(b));
}

namespace {

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
    return TypesStructurallyEqual(a.cast<ir::Type>(), b.cast<ir::Type>(), map_free_vars);
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

// Adds the `type_definitions` dict of TVM's IRModule constructor (GlobalTypeVar or name ->
// TypeData).
void AddTypeDefinitions(ir::IRModule& mod, const py::object& defs) {
  if (defs.is_none()) return;
  for (auto item : defs.cast<py::dict>()) {
    ir::Type var = py::isinstance<ir::GlobalTypeVarNode>(item.first)
                       ? item.first.cast<ir::Type>()
                       : ir::GlobalTypeVar(py::str(item.first));
    mod.AddTypeDef(var, item.second.cast<ir::TypeData>());
  }
}

}  // namespace

void BindModule(py::module_& m) {
  py::class_<ir::IRModule>(m, "IRModule")
      .def(py::init([](const py::object& functions, const py::object& type_definitions) {
             ir::IRModule mod;
             AddTypeDefinitions(mod, type_definitions);
             if (!functions.is_none()) {
               for (auto item : functions.cast<py::dict>()) {
                 if (!py::isinstance<ir::FunctionNode>(item.second)) {
                   throw py::type_error("IRModule values are Relay functions, not " +
                                        std::string(py::repr(item.second)));
                 }
                 mod.AddChecked(NameOf(py::reinterpret_borrow<py::object>(item.first)),
                                item.second.cast<ir::Function>());
               }
             }
             return mod;
           }),
           py::arg("functions") = py::none(), py::arg("type_definitions") = py::none())
      .def_static(
          "from_expr",
          [](const ir::Expr& e, const py::object& functions, const py::object& type_defs) {
            ir::IRModule mod = ir::IRModule::FromExpr(e);
            mod.AddChecked("main", mod.Lookup("main"));  // TVM's FromExpr adds with the check
            AddTypeDefinitions(mod, type_defs);
            if (!functions.is_none()) {
              for (auto item : functions.cast<py::dict>()) {
                mod.AddChecked(NameOf(py::reinterpret_borrow<py::object>(item.first)),
                               item.second.cast<ir::Function>());
              }
            }
            return mod;
          },
          py::arg("expr"), py::arg("functions") = py::none(), py::arg("type_defs") = py::none())
      .def("__getitem__",
           [](const ir::IRModule& mod, const py::object& key) -> py::object {
             if (py::isinstance<ir::GlobalTypeVarNode>(key)) {
               return py::cast(mod.LookupTypeDef(key.cast<ir::Type>()));
             }
             std::string name = NameOf(key);
             if (!mod.Contains(name)) {
               throw py::key_error("Cannot find global var \"" + name + "\" in the Module");
             }
             return py::cast(mod.Lookup(name));
           })
      .def("__setitem__",
           [](ir::IRModule& mod, const py::object& key, const py::object& value) {
             if (py::isinstance<ir::TypeDataNode>(value)) {  // TVM's Module_AddDef
               ir::Type var = py::isinstance<ir::GlobalTypeVarNode>(key)
                                  ? key.cast<ir::Type>()
                                  : ir::GlobalTypeVar(py::str(key));
               mod.AddTypeDef(var, value.cast<ir::TypeData>(), true);
               return;
             }
             ir::Function func;
             if (py::isinstance<ir::FunctionNode>(value)) {
               func = value.cast<ir::Function>();
             } else if (py::isinstance<ir::ExprNode>(value)) {
               func = ir::IRModule::FromExpr(value.cast<ir::Expr>()).Lookup("main");
             } else {
               throw py::type_error("IRModule values are Relay functions");
             }
             if (py::isinstance<ir::GlobalVarNode>(key)) {
               mod.AddChecked(key.cast<ir::GlobalVar>(), func);
             } else {
               mod.AddChecked(NameOf(key), func);
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
      .def_property_readonly("type_definitions",
                             [](const ir::IRModule& mod) {
                               py::dict out;
                               for (auto& [var, data] : mod.type_definitions()) {
                                 out[py::cast(var)] = data;
                               }
                               return out;
                             })
      .def("get_global_type_var", &ir::IRModule::GetGlobalTypeVar, py::arg("name"))
      .def("get_global_type_vars",
           [](const ir::IRModule& mod) {
             std::vector<ir::Type> out;
             for (auto& [var, data] : mod.type_definitions()) out.push_back(var);
             return out;
           })
      .def("_add_type_def", &ir::IRModule::AddTypeDef, py::arg("var"), py::arg("type"),
           py::arg("update") = false)
      .def("_lookup_type_def",
           [](const ir::IRModule& mod, const ir::Type& var) { return mod.LookupTypeDef(var); })
      .def("_get_constructor", &ir::IRModule::GetConstructor, py::arg("adt"), py::arg("cons"))
      // TVM's IRModule.get_constructor(tag): the constructor with that tag.
      .def("get_constructor", &ir::IRModule::LookupTag, py::arg("tag"))
      .def("get_global_var", &ir::IRModule::GetGlobalVar, py::arg("name"))
      .def("get_global_vars",
           [](const ir::IRModule& mod) {
             std::vector<ir::GlobalVar> out;
             for (auto& [gv, f] : mod.functions()) out.push_back(gv);
             return out;
           })
      .def("update_func", [](ir::IRModule& mod, const ir::GlobalVar& gv,
                             const ir::Function& f) { mod.AddChecked(gv, f); })
      .def("update",
           [](ir::IRModule& mod, const ir::IRModule& other) {
             for (auto& [var, data] : other.type_definitions()) mod.AddTypeDef(var, data, true);
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
          py::object devices = meta.attr("get")("VirtualDevice", py::list());
          for (py::handle d : devices) {
            options.virtual_devices.push_back(d.cast<ir::VirtualDevice>());
          }
        }
        // As TVM's: the text may name the init module's functions, ADTs and constructors, and
        // the result holds them too.
        if (!init_mod.is_none()) options.init_module = init_mod.cast<ir::IRModule>();
        py::gil_scoped_release release;
        return text::ParseModule(source, options);
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
