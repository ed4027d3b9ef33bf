// Running a dyn.* operator: its run-time shape arguments (tensors) are read as the attributes of
// the static operator it stands for, and that operator runs on the data inputs. TVM computes a
// dyn op's output shape with a shape function at run time; here the static op's own type
// relation does it on the inputs' real types, so a run-time value gets the checks an attribute
// gets at compile time, and a bad one is an error naming the dyn op.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../op_common.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/op/registry.h"

namespace relaypass::op::dyn {

// The static op `static_name` applied to `inputs` with `attrs` (named values of its schema):
// its type relation on the inputs' concrete types gives the result type, then its kernel runs.
// A value the static op refuses, a relation that cannot decide, or a result without a known
// shape is a relaypass::Error "<dyn_name>: ..." (a ResourceError when the result's size does not
// fit in int64).
std::vector<ir::NDArray> RunStaticOp(const std::string& dyn_name, const std::string& static_name,
                                     const std::vector<ir::NDArray>& inputs,
                                     const AttrValues& attrs);

// The kernel of the dyn op `dyn_name`: `form` applied to the inputs' values, then RunStaticOp on
// the inputs the form passes on.
Kernel DynKernel(const std::string& dyn_name, ToStaticForm form);

// The values of a tensor of rank 0 or 1 (a shape, axes, begin/end/strides), integers or floats
// (truncated, as TVM's shape functions take them); `what` names the argument in the error for a
// higher rank, another dtype or a float outside int64's range.
std::vector<int64_t> IntValues(const ir::NDArray& t, const std::string& dyn_name,
                               const std::string& what);
// The value of a one-element integer tensor (k, depth, axis).
int64_t IntScalar(const ir::NDArray& t, const std::string& dyn_name, const std::string& what);
// The value of a one-element tensor of any numeric dtype, as double (scales).
double DoubleScalar(const ir::NDArray& t, const std::string& dyn_name, const std::string& what);

}  // namespace relaypass::op::dyn
