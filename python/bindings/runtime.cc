// What runs and what is built in: the evaluator (relay.create_executor), bind_params_by_name,
// analysis helpers over the C++ traversals, the built-in workloads (relay.testing), targets
// (tvm.target.Target as a `with` context) and AlterOpLayout and Legalize hooks written in Python.
#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common.h"
#include "py_convert.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/type_vars.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/infer_type_local.h"
#include "relaypass/passes/legalize.h"
#include "relaypass/passes/target.h"
#include "relaypass/passes/to_a_normal_form.h"
#include "relaypass/passes/to_mixed_precision.h"
#include "relaypass/support/error.h"
#include "relaypass/workloads/init.h"
#include "relaypass/workloads/mobilenet.h"
#include "relaypass/workloads/resnet.h"

namespace relaypass::python {
namespace {

py::tuple WorkloadToPy(const workloads::Workload& w) {
  py::dict params;
  for (const auto& [name, array] : w.params) params[py::str(name)] = array;
  return py::make_tuple(w.mod, params);
}

std::vector<int64_t> ImageShape(const py::object& shape) {
  if (shape.is_none()) return {};
  return shape.cast<std::vector<int64_t>>();
}

// `with Target(...)`: the scopes entered on this thread, innermost last, each with the Python
// object that entered it (scopes must be left in the reverse order, as TVM checks).
struct EnteredTarget {
  PyRef target;  // not py::object: a scope left open is released after the interpreter is gone
  std::unique_ptr<passes::TargetScope> scope;
};
thread_local std::vector<EnteredTarget> target_scopes;

// A per-operator hook written in Python (Legalize's, AlterOpLayout's): called with the GIL, it
// returns an expression or None (keep the call); its exceptions come back as they were raised.
template <typename... Args>
std::function<ir::Expr(Args...)> ExprHookFromPython(const py::object& fn) {
  PyRef hook(fn);
  return [hook](Args... args) -> ir::Expr {
    py::gil_scoped_acquire gil;
    return CallPython([&]() -> ir::Expr {
      py::object result = hook.get()(args...);
      if (result.is_none()) return nullptr;
      return result.cast<ir::Expr>();
    });
  };
}

}  // namespace

// Values nest as deep as the program made them (a 100,000-deep tuple is a valid result), so both
// conversions walk them on an explicit stack.
py::object ValueToPy(const eval::Value& value) {
  struct Frame {
    const eval::Value* value;
    size_t next = 0;
    py::list fields;
  };
  auto leaf = [](const eval::Value& v) -> py::object {
    if (v.is_tensor()) return py::cast(v.tensor());
    if (v.is_ref()) {
      return py::module_::import("relaypass.relay.backend.interpreter")
          .attr("RefValue")(ValueToPy(v.ref_content()));
    }
    throw relaypass::InternalError("the evaluator returned a closure, which Python cannot hold");
  };
  // Tuples become Python tuples; ADT values TVM's ConstructorValue (tag, fields, constructor).
  auto nested = [](const eval::Value& v) { return v.is_tuple() || v.is_adt(); };
  auto fields_of = [](const eval::Value& v) -> const std::vector<eval::Value>& {
    return v.is_tuple() ? v.fields() : v.adt().fields;
  };
  if (!nested(value)) return leaf(value);
  py::object constructor_value =
      py::module_::import("relaypass.relay.backend.interpreter").attr("ConstructorValue");
  std::vector<Frame> stack;
  stack.push_back({&value, 0, py::list()});
  py::object done;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (done) {
      top.fields.append(std::move(done));
      done = py::object();
    }
    const std::vector<eval::Value>& fields = fields_of(*top.value);
    if (top.next == fields.size()) {
      if (top.value->is_tuple()) {
        done = py::tuple(top.fields);
      } else {
        const eval::AdtValue& adt = top.value->adt();
        done = constructor_value(adt.tag, top.fields, adt.constructor);
      }
      stack.pop_back();
      continue;
    }
    const eval::Value& field = fields[top.next++];
    if (nested(field)) {
      stack.push_back({&field, 0, py::list()});
    } else {
      top.fields.append(leaf(field));
    }
  }
  return done;
}

namespace {

// A ConstructorValue (TVM's interpreter value of an ADT) as an evaluator value. Nested
// ConstructorValues (a list, a nat) are walked with an explicit stack; other fields convert
// through ValueFromPy.
eval::Value AdtFromPy(py::handle root, const py::object& constructor_value) {
  struct Frame {
    py::object obj;
    py::list fields;
    size_t next = 0;
    std::vector<eval::Value> done;
  };
  std::vector<Frame> stack;
  stack.push_back({py::reinterpret_borrow<py::object>(root), py::list(root.attr("fields")), 0, {}});
  eval::Value result;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next < top.fields.size()) {
      py::object field = top.fields[top.next++];
      if (py::isinstance(field, constructor_value)) {
        if (stack.size() > 1000000) throw py::value_error("ADT value nested too deeply");
        stack.push_back({field, py::list(field.attr("fields")), 0, {}});
      } else {
        top.done.push_back(ValueFromPy(field));
      }
      continue;
    }
    eval::Value built = eval::Value::MakeAdt(top.obj.attr("constructor").cast<ir::Constructor>(),
                                             std::move(top.done));
    stack.pop_back();
    if (stack.empty()) {
      result = std::move(built);
    } else {
      stack.back().done.push_back(std::move(built));
    }
  }
  return result;
}

}  // namespace

eval::Value ValueFromPy(py::handle value) {
  auto is_sequence = [](py::handle v) {
    return py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v);
  };
  auto leaf = [](py::handle v) -> eval::Value {
    if (py::isinstance<ir::NDArray>(v)) return v.cast<ir::NDArray>();
    py::module_ interpreter = py::module_::import("relaypass.relay.backend.interpreter");
    py::object ref_value = interpreter.attr("RefValue");
    py::object constructor_value = interpreter.attr("ConstructorValue");
    if (py::isinstance(v, constructor_value)) return AdtFromPy(v, constructor_value);
    if (py::isinstance(v, ref_value)) return eval::Value::MakeRef(ValueFromPy(v.attr("value")));
    throw py::type_error("evaluator arguments are NDArrays, RefValues or tuples of them, not " +
                         PyTypeName(v));
  };
  if (!is_sequence(value)) return leaf(value);
  struct Frame {
    py::object items;  // a tuple or list, held so that it outlives the walk
    size_t next = 0;
    std::vector<eval::Value> fields;
  };
  std::vector<Frame> stack;
  std::unordered_set<PyObject*> open;  // the sequences being converted: a cycle is refused
  stack.push_back({py::reinterpret_borrow<py::object>(value), 0, {}});
  open.insert(value.ptr());
  eval::Value done;
  bool have_done = false;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (have_done) {
      top.fields.push_back(std::move(done));
      have_done = false;
    }
    if (top.next == py::len(top.items)) {
      done = eval::Value::Tuple(std::move(top.fields));
      have_done = true;
      open.erase(top.items.ptr());
      stack.pop_back();
      continue;
    }
    py::object item = top.items[py::int_(top.next++)];
    if (!is_sequence(item)) {
      top.fields.push_back(leaf(item));
      continue;
    }
    if (!open.insert(item.ptr()).second) {
      throw relaypass::ValueError("an evaluator argument contains itself (a " + PyTypeName(item) +
                                  " that is its own element)");
    }
    stack.push_back({std::move(item), 0, {}});
  }
  return done;
}

void BindEvaluator(py::module_& m) {
  m.def("run_main", [](const ir::IRModule& mod, const py::list& args) {
    std::vector<eval::Value> values;
    for (py::handle a : args) values.push_back(ValueFromPy(a));
    eval::Value result;
    {
      py::gil_scoped_release release;
      eval::Interpreter interpreter(mod);
      result = interpreter.RunMain(values);
    }
    return ValueToPy(result);
  });
  m.def("evaluate_expr", [](const ir::Expr& expr, const ir::IRModule& mod) {
    eval::Value result;
    {
      py::gil_scoped_release release;
      result = eval::Evaluate(expr, mod);
    }
    return ValueToPy(result);
  });
  m.def("bind_params_by_name", [](const ir::Function& func, const py::dict& params) {
    std::map<std::string, ir::NDArray> values;
    for (auto item : params)
      values[item.first.cast<std::string>()] = item.second.cast<ir::NDArray>();
    return ir::BindParamsByName(func, values);
  });
  m.def("post_order_visit", [](const ir::Expr& expr, const py::object& fvisit) {
    ir::post_order_visit(expr, [&](const ir::Expr& e) { CallPython([&] { fvisit(e); }); });
  });
  m.def("free_vars", &ir::FreeVars);
  m.def("free_type_vars", py::overload_cast<const ir::Expr&>(&ir::FreeTypeVars));
  m.def("free_type_vars", py::overload_cast<const ir::Type&>(&ir::FreeTypeVars));
  m.def("bound_type_vars", py::overload_cast<const ir::Expr&>(&ir::BoundTypeVars));
  m.def("bound_type_vars", py::overload_cast<const ir::Type&>(&ir::BoundTypeVars));
  m.def("all_type_vars", py::overload_cast<const ir::Expr&>(&ir::AllTypeVars));
  m.def("all_type_vars", py::overload_cast<const ir::Type&>(&ir::AllTypeVars));
  // relay.analysis.check_basic_block_normal_form raises on the first of these (Python side).
  m.def("basic_block_normal_form_violations", [](const ir::Expr& expr) {
    py::gil_scoped_release release;
    return passes::BasicBlockNormalFormViolations(expr);
  });
  m.def("infer_types", [](const ir::IRModule& mod) {
    py::gil_scoped_release release;
    return ir::InferTypes(mod);
  });
  m.def("infer_type_local", [](const ir::Expr& expr) {
    py::gil_scoped_release release;
    return passes::InferTypeLocal(expr);
  });
}

// init.create_workload on a network built from `options` (ResNetOptions or MobileNetOptions,
// which share these fields), the GIL released while it is built and initialised.
template <typename Options, typename Net>
py::tuple MakeWorkload(Options options, Net net, int batch_size, int num_classes,
                       const py::object& image_shape, const std::string& layout,
                       const std::string& dtype) {
  options.batch_size = batch_size;
  options.num_classes = num_classes;
  options.image_shape = ImageShape(image_shape);
  options.layout = layout;
  options.dtype = dtype;
  workloads::Workload w;
  {
    py::gil_scoped_release release;
    w = workloads::CreateWorkload(net(options));
  }
  return WorkloadToPy(w);
}

void BindWorkloads(py::module_& m) {
  m.def("resnet_workload",
        [](int batch_size, int num_classes, int num_layers, const py::object& image_shape,
           const std::string& layout, const std::string& dtype) {
          workloads::ResNetOptions options;
          options.num_layers = num_layers;
          return MakeWorkload(options, workloads::ResNet, batch_size, num_classes, image_shape,
                              layout, dtype);
        });
  m.def("mobilenet_workload", [](int batch_size, int num_classes, const py::object& image_shape,
                                 const std::string& layout, const std::string& dtype) {
    return MakeWorkload(workloads::MobileNetOptions{}, workloads::MobileNet, batch_size,
                        num_classes, image_shape, layout, dtype);
  });
}

void BindLayoutHooks(py::module_& m) {
  py::class_<passes::Target>(m, "Target")
      .def(py::init<const std::string&>(), py::arg("target"))
      .def_property_readonly("kind", [](const passes::Target& t) { return t.kind(); })
      .def_property_readonly("keys", &passes::Target::keys)
      .def_property_readonly("device_type", &passes::Target::device_type)
      .def_property_readonly("attrs", &passes::Target::attrs)
      .def("attr_type",
           [](const passes::Target& t, const std::string& k) -> py::object {
             std::optional<passes::TargetAttrType> type = t.AttrType(k);
             if (!type) return py::none();
             switch (*type) {
               case passes::TargetAttrType::kString:
                 return py::str("str");
               case passes::TargetAttrType::kBool:
                 return py::str("bool");
               case passes::TargetAttrType::kInteger:
                 return py::str("int");
               case passes::TargetAttrType::kStringArray:
                 return py::str("array");
             }
             return py::none();
           })
      .def_static("list_kinds", &passes::Target::ListKinds)
      .def_static("list_kind_options", &passes::Target::ListKindOptions)
      .def("get_attr", [](const passes::Target& t, const std::string& k) { return t.GetAttr(k); })
      .def("__str__", &passes::Target::str)
      .def("__repr__", &passes::Target::str)
      .def_static(
          "current", [](bool) { return passes::Target::Current(); }, py::arg("allow_none") = true)
      .def("__enter__",
           [](const py::object& self) {
             auto scope = std::make_unique<passes::TargetScope>(self.cast<passes::Target>());
             target_scopes.push_back({PyRef(self), std::move(scope)});
             return self;
           })
      .def("__exit__", [](const py::object& self, const py::args&) {
        if (target_scopes.empty()) throw py::value_error("Target.__exit__ without __enter__");
        if (!target_scopes.back().target.get().is(self)) {
          throw py::value_error("Target.__exit__ out of order: the innermost target scope is " +
                                target_scopes.back().target.get().cast<passes::Target>().str() +
                                ", not " + self.cast<passes::Target>().str());
        }
        target_scopes.pop_back();
      });

  // Legalize's and AlterOpLayout's registrations are both passes::OpHook: one class, two names.
  py::class_<passes::OpHook>(m, "OpHook")
      .def_property_readonly("registered", &passes::OpHook::registered)
      .def("unregister", &passes::OpHook::Unregister);
  m.attr("AlterOpLayoutHook") = m.attr("OpHook");
  m.attr("LegalizeHook") = m.attr("OpHook");
  m.def(
      "register_alter_op_layout",
      [](const std::string& op_name, const py::object& fn, int level) {
        return passes::RegisterAlterOpLayout(
            op_name,
            ExprHookFromPython<const ir::Attrs&, const std::vector<ir::Expr>&,
                               const std::vector<ir::Type>&, const ir::Type&>(fn),
            level);
      },
      py::arg("op_name"), py::arg("fn"), py::arg("level") = 10);
  m.def(
      "register_legalize",
      [](const std::string& op_name, const py::object& fn, int level) {
        return passes::RegisterLegalize(
            op_name,
            ExprHookFromPython<const ir::Attrs&, const std::vector<ir::Expr>&,
                               const std::vector<ir::Type>&>(fn),
            level);
      },
      py::arg("op_name"), py::arg("fn"), py::arg("level") = 10);

  // TVM's FTVMMixedPrecisionConversionType from Python: fn(call, mixed_precision_type) returns
  // [category, accumulation dtype, output dtype].
  m.def(
      "register_mixed_precision_conversion",
      [](const std::string& op_name, const py::object& fn) {
        PyRef hook(fn);
        passes::RegisterMixedPrecisionConversion(
            op_name,
            [hook, op_name](const ir::Call& call,
                            const std::string& mixed_type) -> passes::MixedPrecisionConversion {
              py::gil_scoped_acquire gil;
              return CallPython([&]() -> passes::MixedPrecisionConversion {
                py::object result = hook.get()(call, mixed_type);
                auto list = result.cast<std::vector<py::object>>();
                if (list.size() != 3) {
                  throw PassError(
                      "the mixed precision rule of " + op_name + " returned " +
                      std::to_string(list.size()) +
                      " values (expected [category, accumulation dtype, output dtype])");
                }
                const int category = list[0].cast<int>();
                if (category < 0 || category > 2) {
                  throw PassError("the mixed precision rule of " + op_name + " returned category " +
                                  std::to_string(category));
                }
                return {static_cast<passes::MixedPrecisionCategory>(category),
                        list[1].cast<std::string>(), list[2].cast<std::string>()};
              });
            });
      },
      py::arg("op_name"), py::arg("fn"));
}

}  // namespace relaypass::python
