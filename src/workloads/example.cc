#include "relaypass/relay.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {

ir::Function Example() {
  using namespace relay;  // NOLINT: reads like the tutorial
  // c_data = np.empty(shape): uninitialised in the tutorial; zeros here, so runs are reproducible.
  Constant c = const_(ir::NDArray::Empty({1, 64, 54, 54}, ir::DataType::Float32()));
  Var weight = var("weight", {64, 64, 3, 3});
  Var x = var("x", {1, 64, 56, 56});
  Expr conv = nn::conv2d(x, weight);
  Expr y = add(c, c);
  y = multiply(y, const_(2, "float32"));
  y = add(conv, y);
  Expr z = add(y, c);
  Expr z1 = add(y, c);
  Expr z2 = add(z, z1);
  return function({x, weight}, z2);
}

}  // namespace relaypass::workloads
