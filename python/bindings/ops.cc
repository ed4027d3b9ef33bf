// Operators: the registry as Python sees it (names, arity, attribute fields with defaults) and
// calls to them with keyword attributes, which relaypass/relay/op builds TVM's wrappers on.
#include <string>
#include <utility>
#include <vector>

#include "common.h"
#include "relaypass/op/debug_callbacks.h"
#include "relaypass/op/registry.h"
#include "relaypass/op/user_ops.h"
#include "relaypass/support/error.h"

namespace relaypass::python {
namespace {

const char* FieldTypeName(ir::AttrFieldType type) {
  switch (type) {
    case ir::AttrFieldType::kInt:
      return "int";
    case ir::AttrFieldType::kBool:
      return "bool";
    case ir::AttrFieldType::kDouble:
      return "float";
    case ir::AttrFieldType::kString:
      return "str";
    case ir::AttrFieldType::kDType:
      return "dtype";
    case ir::AttrFieldType::kIndexExpr:
      return "index";
    case ir::AttrFieldType::kIntArray:
      return "int_array";
    case ir::AttrFieldType::kIntArrayArray:
      return "int_array_array";
    case ir::AttrFieldType::kDoubleArray:
      return "float_array";
    case ir::AttrFieldType::kIntOrIntArray:
      return "int_or_int_array";
    case ir::AttrFieldType::kVirtualDevice:
      return "VirtualDevice";
  }
  return "unknown";
}

const op::OpDef& FindOp(const std::string& name) {
  const op::OpDef* def = op::OpRegistry::Global().Find(name);
  if (!def) throw relaypass::TypeError("unknown operator '" + name + "'");
  return *def;
}

ir::Call MakeOpCall(const std::string& name, const std::vector<ir::Expr>& args,
                    const py::dict& attrs) {
  const op::OpDef& def = FindOp(name);
  ir::Attrs made;
  if (def.attrs_schema) {
    std::vector<std::pair<std::string, ir::AttrValue>> values;
    for (auto item : attrs) {
      values.emplace_back(item.first.cast<std::string>(), AttrValueFromPy(item.second));
    }
    made = ir::MakeAttrs(*def.attrs_schema, values);
  } else if (!attrs.empty()) {
    throw relaypass::TypeError("operator " + name + " takes no attributes");
  }
  if (def.num_inputs >= 0 && static_cast<int>(args.size()) != def.num_inputs) {
    throw relaypass::TypeError("operator " + name + " takes " + std::to_string(def.num_inputs) +
                               " inputs, got " + std::to_string(args.size()));
  }
  return ir::MakeCall(op::GetOp(name), args, made);
}

}  // namespace

void BindOps(py::module_& m) {
  m.def("list_op_names", [] { return op::OpRegistry::Global().ListNames(); });
  // Operators registered from Python (relay.op.op.register; op/user_ops.h).
  m.def("register_user_op", &op::RegisterUserOp, py::arg("op_name"), py::arg("description"));
  m.def("set_user_op_num_inputs", &op::SetUserOpNumInputs);
  m.def("set_user_op_type_relation", &op::SetUserOpTypeRelation);
  m.def("set_user_op_support_level", &op::SetUserOpSupportLevel);
  m.def("set_user_op_pattern", &op::SetUserOpPattern);
  m.def("set_user_op_stateful", &op::SetUserOpStateful);
  m.def("is_user_op", &op::IsUserOp);
  // relay.op.debug's functions: called from the evaluator (any thread) with the GIL taken. The
  // function is kept for the process's lifetime, as TVM's registered functions are.
  m.def(
      "register_debug_callback",
      [](const std::string& name, const py::function& fn) {
        auto* held = new py::object(fn);  // never released: it may be called until exit
        op::RegisterDebugCallback(name, [held, name](const std::vector<ir::NDArray>& values) {
          py::gil_scoped_acquire gil;
          try {
            if (values.size() == 1) {
              (*held)(values[0]);
            } else {
              (*held)(py::cast(values));
            }
          } catch (py::error_already_set& e) {
            throw relaypass::Error("debug function " + name + " raised: " + e.what());
          }
        });
      },
      py::arg("name"), py::arg("func"));
  // (num_inputs, attrs type key or "", [(field, type, has_default, default), ...])
  m.def("op_signature", [](const std::string& name) {
    const op::OpDef& def = FindOp(name);
    py::list fields;
    std::string key;
    if (def.attrs_schema) {
      key = def.attrs_schema->type_key();
      for (const ir::AttrField& f : def.attrs_schema->fields()) {
        fields.append(py::make_tuple(f.name, FieldTypeName(f.type), f.has_default,
                                     AttrValueToPy(f.default_value)));
      }
    }
    return py::make_tuple(def.num_inputs, key, fields);
  });
  m.def("make_op_call", &MakeOpCall, py::arg("name"), py::arg("args"), py::arg("attrs"));
  // Attrs of operator `name`'s schema from keyword values (relay.Call(op, args, attrs)).
  m.def("make_op_attrs", [](const std::string& name, const py::dict& attrs) {
    const op::OpDef& def = FindOp(name);
    if (!def.attrs_schema) throw relaypass::TypeError("operator " + name + " takes no attributes");
    std::vector<std::pair<std::string, ir::AttrValue>> values;
    for (auto item : attrs) {
      values.emplace_back(item.first.cast<std::string>(), AttrValueFromPy(item.second));
    }
    return ir::MakeAttrs(*def.attrs_schema, values);
  });
}

}  // namespace relaypass::python
