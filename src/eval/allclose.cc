#include "relaypass/eval/allclose.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "relaypass/support/error.h"
#include "relaypass/support/float16.h"

namespace relaypass::eval {

namespace {

std::string ShapeText(const ir::Shape& shape) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? ", " : "") << shape[i];
  os << (shape.size() == 1 ? ",)" : ")");
  return os.str();
}

std::vector<int64_t> Coords(const ir::Shape& shape, int64_t index) {
  std::vector<int64_t> coords(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    coords[i] = shape[i] ? index % shape[i] : 0;
    index = shape[i] ? index / shape[i] : 0;
  }
  return coords;
}

CloseResult Failure(std::string message) {
  CloseResult r;
  r.ok = false;
  r.message = std::move(message);
  return r;
}

}  // namespace

Tolerance DefaultTolerance(ir::DataType dtype) {
  if (dtype.is_float()) {
    if (dtype.bits() <= 16) return {1e-2, 1e-2};
    if (dtype.bits() == 32) return {1e-5, 1e-5};
    return {1e-9, 1e-12};
  }
  return {0, 0};
}

double ElementAsDouble(const ir::NDArray& array, int64_t index) {
  const ir::DataType dtype = array.dtype();
  if (dtype.bits() == 16 && dtype.lanes() == 1) {
    const uint16_t bits = array.data<uint16_t>()[index];
    if (dtype.code() == ir::DataType::Code::kFloat) return support::HalfToFloat(bits);
    if (dtype.code() == ir::DataType::Code::kBFloat) return support::BFloat16ToFloat(bits);
  }
  return array.GetAsDouble(index);
}

CloseResult AllClose(const ir::NDArray& actual, const ir::NDArray& expected,
                     std::optional<Tolerance> tol, bool equal_nan) {
  if (!actual.defined() || !expected.defined()) return Failure("an array is undefined");
  if (actual.dtype() != expected.dtype()) {
    return Failure("dtypes differ: actual " + actual.dtype().ToString() + ", expected " +
                   expected.dtype().ToString());
  }
  if (actual.shape() != expected.shape()) {
    return Failure("shapes differ: actual " + ShapeText(actual.shape()) + ", expected " +
                   ShapeText(expected.shape()));
  }
  const Tolerance t = tol ? *tol : DefaultTolerance(actual.dtype());
  CloseResult r;
  double worst_excess = -INFINITY;
  const int64_t n = actual.size();
  for (int64_t i = 0; i < n; ++i) {
    const double a = ElementAsDouble(actual, i), e = ElementAsDouble(expected, i);
    double diff, excess;
    if (std::isnan(a) || std::isnan(e)) {
      const bool same = equal_nan && std::isnan(a) && std::isnan(e);
      diff = same ? 0 : INFINITY;
      excess = same ? -INFINITY : INFINITY;
    } else if (std::isinf(a) || std::isinf(e)) {
      diff = a == e ? 0 : INFINITY;
      excess = a == e ? -INFINITY : INFINITY;
    } else {
      diff = std::fabs(a - e);
      excess = diff - (t.atol + t.rtol * std::fabs(e));
    }
    if (excess > 0) ++r.mismatches;
    if (diff > r.max_abs_diff) r.max_abs_diff = diff;
    if (r.worst_index < 0 || excess > worst_excess) {
      worst_excess = excess;
      r.worst_index = i;
      r.actual = a;
      r.expected = e;
    }
  }
  if (r.worst_index >= 0) r.worst_coords = Coords(actual.shape(), r.worst_index);
  if (r.mismatches > 0) {
    r.ok = false;
    std::ostringstream os;
    os.precision(9);
    os << r.mismatches << " of " << n << " elements differ (rtol " << t.rtol << ", atol " << t.atol
       << "); worst at [";
    for (size_t i = 0; i < r.worst_coords.size(); ++i) os << (i ? ", " : "") << r.worst_coords[i];
    os << "] (flat " << r.worst_index << "): actual " << r.actual << ", expected " << r.expected
       << ", |diff| " << std::fabs(r.actual - r.expected);
    r.message = os.str();
  }
  return r;
}

CloseResult AllClose(const Value& actual, const Value& expected, std::optional<Tolerance> tol,
                     bool equal_nan) {
  // Iterative over nested tuples; `path` names the field being compared.
  struct Item {
    const Value* a;
    const Value* e;
    std::string path;
  };
  std::vector<Item> stack = {{&actual, &expected, ""}};
  double max_abs_diff = 0;  // over every tensor compared
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    const std::string where = item.path.empty() ? "" : "field " + item.path + ": ";
    if (item.a->kind() != item.e->kind()) return Failure(where + "value kinds differ");
    if (item.a->is_tensor()) {
      CloseResult r = AllClose(item.a->tensor(), item.e->tensor(), tol, equal_nan);
      max_abs_diff = std::max(max_abs_diff, r.max_abs_diff);
      if (!r.ok) {
        r.message = where + r.message;
        r.max_abs_diff = max_abs_diff;
        return r;
      }
    } else if (item.a->is_tuple()) {
      const auto& fa = item.a->fields();
      const auto& fe = item.e->fields();
      if (fa.size() != fe.size()) return Failure(where + "tuple sizes differ");
      for (size_t i = fa.size(); i-- > 0;) {
        stack.push_back({&fa[i], &fe[i], item.path + "." + std::to_string(i)});
      }
    } else {
      return Failure(where + "closures cannot be compared");
    }
  }
  CloseResult ok;
  ok.max_abs_diff = max_abs_diff;
  return ok;
}

}  // namespace relaypass::eval
