// Errors across the boundary: relaypass's typed C++ errors become the Python exceptions TVM
// raises (classes in relaypass/_errors.py), and a Python exception raised in a callback comes
// out of the outer call as the same exception type, worded as TVM's FFI words it.
#include <new>

#include "common.h"
#include "relaypass/support/error.h"

namespace relaypass::python {

PyRef::PyRef(py::object obj)
    : obj_(new py::object(std::move(obj)), [](py::object* p) {
        // At interpreter exit the object is leaked rather than released without an interpreter.
        if (!Py_IsInitialized()) {
          (void)p->release();
          delete p;
          return;
        }
        py::gil_scoped_acquire gil;
        delete p;
      }) {}

PythonCallbackError::PythonCallbackError(py::error_already_set& err) {
  // relaypass._errors.ffi_error rewords the exception once (nested callbacks keep the first).
  py::object reworded = py::module_::import("relaypass._errors")
                            .attr("ffi_error")(err.value(), err.trace() ? err.trace() : py::none());
  exception_ = PyRef(std::move(reworded));
}

void PythonCallbackError::Restore() const {
  const py::object& exc = exception_.get();
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
}

namespace {

void SetError(const char* class_name, const char* message) {
  py::object cls = py::module_::import("relaypass._errors").attr(class_name);
  PyErr_SetString(cls.ptr(), message);
}

}  // namespace

void BindErrors(py::module_& m) {
  // Registered last is tried first: this one handles every exception of the library.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const PythonCallbackError& e) {
      e.Restore();
    } catch (const ParseError& e) {
      SetError("ParseError", e.what());
    } catch (const relaypass::TypeError& e) {
      SetError("RelayTypeError", e.what());
    } catch (const PassError& e) {
      SetError("PassError", e.what());
    } catch (const InternalError& e) {
      SetError("InternalError", e.what());
    } catch (const relaypass::ValueError& e) {
      SetError("TVMValueError", e.what());
    } catch (const Error& e) {
      SetError("TVMError", e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory");
    } catch (const py::error_already_set&) {
      throw;  // pybind11's own handling restores it
    } catch (const py::cast_error& e) {
      // A value of the wrong type met a C++ parameter (pybind11 would say RuntimeError; with
      // PYBIND11_DETAILED_ERROR_MESSAGES the message names both types).
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const py::builtin_exception&) {
      throw;
    } catch (const std::exception& e) {
      SetError("TVMError", e.what());
    }
  });
  m.def("_raise_for_test", [](const std::string& kind, const std::string& message) {
    if (kind == "parse") throw ParseError(message);
    if (kind == "type") throw relaypass::TypeError(message);
    if (kind == "pass") throw PassError(message);
    if (kind == "internal") throw InternalError(message);
    throw std::runtime_error(message);
  });
}

}  // namespace relaypass::python
