#include "relaypass/eval/weak_reference.h"

#include <cmath>
#include <sstream>

#include "relaypass/eval/allclose.h"

namespace relaypass::eval {

namespace {

// Why one output is weak, or "".
std::string WeakTensor(const ir::NDArray& array, size_t index) {
  const int64_t n = array.size();
  int64_t nans = 0;
  bool constant = n >= 2;
  const double first = n > 0 ? ElementAsDouble(array, 0) : 0;
  for (int64_t i = 0; i < n; ++i) {
    const double v = ElementAsDouble(array, i);
    if (std::isnan(v)) ++nans;
    // Bitwise-equal values only: 0 and -0 are equal here, NaNs are counted above.
    if (constant && !(v == first)) constant = false;
  }
  std::ostringstream os;
  os.precision(9);
  if (nans > 0) {
    os << "output " << index << " is NaN in " << nans << " of " << n << " elements";
  } else if (constant) {
    os << "output " << index << " is constant: all " << n << " elements are " << first;
  }
  return os.str();
}

}  // namespace

std::string WeakReference(const Value& reference) {
  const std::vector<ir::NDArray> outputs = FlattenTensors(reference);
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::string why = WeakTensor(outputs[i], i);
    if (!why.empty()) return why;
  }
  return "";
}

}  // namespace relaypass::eval
