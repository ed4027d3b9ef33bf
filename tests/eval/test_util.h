// Helpers for the evaluator tests: building arrays, evaluating one op call on constants, reading
// values back, and comparing with expectations computed in the test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/op/registry.h"
#include "relaypass/relay.h"

namespace relaypass::eval::testing {

using ir::DataType;
using ir::NDArray;
using ir::Shape;

// An array of `dtype` holding `values` (converted), row-major.
template <typename T = float>
NDArray Array(const Shape& shape, const std::vector<double>& values,
              DataType dtype = DataType::Float32()) {
  NDArray out = NDArray::Empty(shape, dtype);
  EXPECT_EQ(static_cast<int64_t>(values.size()), out.size());
  T* p = out.template mutable_data<T>();
  for (size_t i = 0; i < values.size() && static_cast<int64_t>(i) < out.size(); ++i) {
    p[i] = static_cast<T>(values[i]);
  }
  return out;
}

inline NDArray Random(const Shape& shape, uint64_t seed, DataType dtype = DataType::Float32()) {
  return RandomTensor(shape, dtype, seed);
}

// Every element as double.
inline std::vector<double> Values(const NDArray& a) {
  std::vector<double> out(static_cast<size_t>(a.size()));
  for (int64_t i = 0; i < a.size(); ++i) out[i] = ElementAsDouble(a, i);
  return out;
}

// Evaluates `call` (an op call whose arguments are constants) with the op's kernel.
inline Value EvalValue(const ir::Expr& call) {
  const auto* node = call.as<ir::CallNode>();
  EXPECT_NE(node, nullptr);
  return EvaluateConstantCall(node);
}
inline NDArray EvalOp(const ir::Expr& call) {
  return EvalValue(call).tensor();
}

inline ir::Expr C(const NDArray& a) {
  return relay::const_(a);
}

// A call to the op `name` without attrs (for ops that have no builder, such as comparisons).
inline ir::Expr CallOp(const std::string& name, std::vector<ir::Expr> args) {
  return ir::MakeCall(op::GetOp(name), std::move(args));
}

// Expects `actual` to be close to `expected` (values in row-major order, same shape).
inline void ExpectClose(const NDArray& actual, const NDArray& expected, double rtol = 1e-5,
                        double atol = 1e-5) {
  CloseResult r = AllClose(actual, expected, Tolerance{rtol, atol});
  EXPECT_TRUE(r.ok) << r.message;
}

inline void ExpectValues(const NDArray& actual, const Shape& shape,
                         const std::vector<double>& expected, double tol = 1e-6) {
  ASSERT_EQ(actual.shape(), shape);
  std::vector<double> got = Values(actual);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_NEAR(got[i], expected[i], tol) << "element " << i;
  }
}

// Index helper for naive loops over row-major arrays.
inline int64_t Offset(const Shape& shape, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t i = 0; i < shape.size(); ++i) off = off * shape[i] + idx[i];
  return off;
}

// A naive transpose: output axis i is input axis perm[i].
inline NDArray NaivePermute(const NDArray& x, const std::vector<int>& perm) {
  Shape out_shape;
  for (int p : perm) out_shape.push_back(x.shape()[p]);
  NDArray out = NDArray::Empty(out_shape, DataType::Float32());
  std::vector<int64_t> idx(out_shape.size(), 0), src(out_shape.size());
  for (int64_t o = 0; o < out.size(); ++o) {
    for (size_t i = 0; i < perm.size(); ++i) src[perm[i]] = idx[i];
    out.mutable_data<float>()[o] = x.data<float>()[Offset(x.shape(), src)];
    for (size_t d = out_shape.size(); d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace relaypass::eval::testing
