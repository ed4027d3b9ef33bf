#include "py_convert.h"

#include <vector>

#include "relaypass/support/error.h"

namespace relaypass::python {
namespace {

// The containers the conversions on this thread are inside, outermost first.
thread_local std::vector<PyObject*> open_containers;

}  // namespace

NestingGuard::NestingGuard(py::handle container, const char* what) : container_(container.ptr()) {
  if (open_containers.size() >= static_cast<size_t>(kMaxValueNesting)) {
    throw relaypass::ValueError(std::string(what) + " is nested deeper than " +
                                std::to_string(kMaxValueNesting) + " levels");
  }
  for (PyObject* open : open_containers) {
    if (open == container_) {
      throw relaypass::ValueError(std::string(what) + " contains itself (a " +
                                  PyTypeName(container) + " that is its own element)");
    }
  }
  open_containers.push_back(container_);
}

NestingGuard::~NestingGuard() {
  open_containers.pop_back();
}

std::string PyTypeName(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__"));
}

std::string ShortRepr(py::handle value) {
  std::string text;
  try {
    text = py::repr(value);
  } catch (const py::error_already_set&) {
    return "<unprintable " + PyTypeName(value) + ">";
  }
  constexpr size_t kMax = 80;
  if (text.size() > kMax) text = text.substr(0, kMax) + "...";
  return text;
}

int64_t ToInt64(py::handle value, const std::string& what) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0) {
    throw relaypass::ValueError(what + ": " + ShortRepr(value) + " does not fit in int64");
  }
  if (v == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw relaypass::TypeError(what + ": expected an int, got " + PyTypeName(value) + " " +
                               ShortRepr(value));
  }
  return v;
}

std::string ToString(py::handle value, const std::string& what) {
  if (!py::isinstance<py::str>(value)) {
    throw relaypass::TypeError(what + ": expected a str, got " + PyTypeName(value) + " " +
                               ShortRepr(value));
  }
  return value.cast<std::string>();
}

}  // namespace relaypass::python
