// Shared pieces of the Python bindings (relaypass._core): the IR's intrusive Ref<T> as the
// pybind11 holder of node classes, GIL-safe ownership of Python objects held by C++ callbacks,
// and the Bind* entry points of each binding file.
#pragma once

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <utility>

#include "relaypass/ir/object.h"

// IR nodes are held by Ref<T> (intrusive count, so a node may be wrapped many times): what
// PYBIND11_DECLARE_HOLDER_TYPE(T, Ref<T>, true) declares, except that None is refused. pybind11
// would pass None as a null Ref, which the C++ API never expects; parameters that may be absent
// are std::optional<Ref<T>> instead, which takes None.
namespace pybind11::detail {
template <typename T>
struct always_construct_holder<relaypass::ir::Ref<T>> : always_construct_holder<void, true> {};

template <typename T>
class type_caster<relaypass::ir::Ref<T>> : public type_caster_holder<T, relaypass::ir::Ref<T>> {
 public:
  bool load(handle src, bool convert) {
    if (src.is_none()) return false;
    return type_caster_holder<T, relaypass::ir::Ref<T>>::load(src, convert);
  }
};

// Ref<T> hands out const pointers (nodes are immutable); pybind11 stores them untyped.
template <typename T>
struct holder_helper<relaypass::ir::Ref<T>> {
  static T* get(const relaypass::ir::Ref<T>& p) { return const_cast<T*>(p.get()); }
};
}  // namespace pybind11::detail

namespace relaypass::python {

namespace py = pybind11;

// A Python object owned from C++ code that may drop it without the GIL (a pass or instrument
// held by a PassContext): the last owner takes the GIL to release it.
class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(py::object obj);
  const py::object& get() const { return *obj_; }
  explicit operator bool() const { return obj_ != nullptr; }

 private:
  std::shared_ptr<py::object> obj_;
};

// Raised in C++ when a Python callback (pass, mutator, instrument, hook) raised: carries the
// Python exception, already reworded as TVM's FFI words it (a traceback whose last line is
// `ValueError: <message>`), through the C++ code to the binding that Python called, where the
// translator in errors.cc raises it again. The GIL must be held to make one.
class PythonCallbackError : public std::exception {
 public:
  explicit PythonCallbackError(py::error_already_set& err);
  const char* what() const noexcept override { return "a Python callback raised an exception"; }
  // Sets the Python error indicator to the exception (GIL held).
  void Restore() const;

 private:
  PyRef exception_;
};

// Calls `fn` (which calls into Python with the GIL held); a Python exception becomes a
// PythonCallbackError so it survives the C++ frames between here and the binding.
template <typename F>
decltype(auto) CallPython(F&& fn) {
  try {
    return std::forward<F>(fn)();
  } catch (py::error_already_set& err) {
    throw PythonCallbackError(err);
  }
}

void BindErrors(py::module_& m);
void BindTypes(py::module_& m);
void BindNDArray(py::module_& m);
void BindExprs(py::module_& m);
void BindAttrs(py::module_& m);
void BindModule(py::module_& m);
void BindOps(py::module_& m);
void BindTransform(py::module_& m);
void BindInstruments(py::module_& m);
void BindPassRegistry(py::module_& m);
void BindEvaluator(py::module_& m);
void BindWorkloads(py::module_& m);
void BindLayoutHooks(py::module_& m);
void BindBenchSupport(py::module_& m);
void BindFrontend(py::module_& m);
void BindPatterns(py::module_& m);
void BindBackend(py::module_& m);
void BindRuntimeFiles(py::module_& m);

}  // namespace relaypass::python

#include "relaypass/eval/value.h"
#include "relaypass/ir/attrs.h"

namespace relaypass::python {
// Where an attribute value comes from or goes to: a call's or function's attributes (ints and
// floats as TVM's IntImm / FloatImm objects; a bad value is a TypeError), or a pass option or
// PassContext config entry (plain Python numbers; a bad value is a PassError).
enum class ValueUse { kAttribute, kOption };
// Attribute values as Python values: None, int, bool, float, str, list (nested for arrays), dict.
py::object AttrValueToPy(const ir::AttrValue& value, ValueUse use = ValueUse::kAttribute);
// A Python value as an attribute value (tuples and lists become arrays, dicts maps; NumPy scalars
// and objects with a `.value`, such as TVM's IntImm, give their value).
ir::AttrValue AttrValueFromPy(py::handle value, ValueUse use = ValueUse::kAttribute);
// An evaluator value as Python: an NDArray, or a tuple of values (a closure is an error).
py::object ValueToPy(const eval::Value& value);
// NDArrays, and tuples or lists of them, as an evaluator value (a TypeError otherwise).
eval::Value ValueFromPy(py::handle value);
// A function's attribute dictionary as a Python dict, or None when it is empty (as TVM).
py::object DictAttrsToPy(const ir::DictAttrs& attrs);
ir::DictAttrs DictAttrsFromPy(const py::object& attrs);
}  // namespace relaypass::python
