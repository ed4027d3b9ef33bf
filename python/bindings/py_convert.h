// Conversions of user-shaped Python data: bounded nesting, cycle detection, and cast failures
// that name what was being converted. Every binding that walks a Python list, tuple or dict of
// the user's (attributes, configs, shapes, executor arguments) goes through these, so no Python
// value can overflow the C++ stack or surface as pybind11's nameless "Unable to cast".
#pragma once

#include <string>
#include <unordered_set>

#include "common.h"

namespace relaypass::python {

// How deep an attribute or config value may nest (TVM's deepest, padding, nests two levels).
inline constexpr int kMaxValueNesting = 256;

// Held while a conversion is inside a container: refuses a container nested deeper than
// kMaxValueNesting, or one that contains itself, with a relaypass::ValueError naming `what`.
class NestingGuard {
 public:
  NestingGuard(py::handle container, const char* what);
  ~NestingGuard();
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  PyObject* container_;
};

// The type of `value` as Python names it, and a repr cut to a readable length.
std::string PyTypeName(py::handle value);
std::string ShortRepr(py::handle value);

// A Python int as int64, or a relaypass::ValueError naming `what` when it does not fit.
int64_t ToInt64(py::handle value, const std::string& what);

// A Python str, or a relaypass::TypeError naming `what` and what was given.
std::string ToString(py::handle value, const std::string& what);

// `value` cast to T, or a relaypass::TypeError naming `what`, `expected` and what was given.
template <typename T>
T CastNamed(py::handle value, const std::string& what, const char* expected) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw relaypass::TypeError(what + ": expected " + expected + ", got " + PyTypeName(value) +
                               " " + ShortRepr(value));
  }
}

}  // namespace relaypass::python
