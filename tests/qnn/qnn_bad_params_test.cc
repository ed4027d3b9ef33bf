// Bad quantization parameters at type inference, for every qnn op that takes them: a zero,
// negative or NaN constant scale, an output zero point outside the output dtype, per-channel
// lengths that do not match the quantized axis, an axis out of range. Each is a TypeError whose
// message names the op and the problem (docs/quantization.md, "Bad input"); what TVM's lowering
// would do instead (divide by zero, flip signs, wrap) is the reason, not an expected value.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {
namespace {

using ir::AttrValue;
using ir::DataType;
using ir::NDArray;

ir::Expr F32s(const std::vector<float>& values) {
  NDArray a = NDArray::Empty({static_cast<int64_t>(values.size())}, DataType::Float32());
  for (size_t i = 0; i < values.size(); ++i) a.mutable_data<float>()[i] = values[i];
  return relay::const_(a);
}
ir::Expr I32s(const std::vector<int32_t>& values) {
  NDArray a = NDArray::Empty({static_cast<int64_t>(values.size())}, DataType::Int32());
  for (size_t i = 0; i < values.size(); ++i) a.mutable_data<int32_t>()[i] = values[i];
  return relay::const_(a);
}
ir::Expr F32(float v) {
  return relay::const_(NDArray::Scalar<float>(v, DataType::Float32()));
}
ir::Expr I32(int32_t v) {
  return relay::const_(NDArray::Scalar<int32_t>(v, DataType::Int32()));
}

// The TypeError message of inferring `body` over `params`, or "" when it type-checks.
std::string InferError(const std::vector<ir::Var>& params, const ir::Expr& body) {
  try {
    ir::InferTypes(ir::IRModule::FromExpr(relay::function(params, body)));
  } catch (const TypeError& e) {
    return e.what();
  }
  return "";
}

void ExpectError(const std::vector<ir::Var>& params, const ir::Expr& body,
                 const std::vector<std::string>& parts) {
  const std::string message = InferError(params, body);
  ASSERT_FALSE(message.empty()) << "no TypeError; expected one with " << parts[0];
  for (const std::string& part : parts) {
    EXPECT_NE(message.find(part), std::string::npos) << message << "\nlacks: " << part;
  }
}

const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(QnnBadParamsTest, QuantizeScalesZeroPointsAxis) {
  ir::Var x = relay::var("x", {2, 3}, "float32");
  auto quantize = [&](ir::Expr scale, ir::Expr zp, int64_t axis, const char* dtype = "int8") {
    return relay::call("qnn.quantize", {x, scale, zp},
                       {{"out_dtype", AttrValue::Str(dtype)}, {"axis", AttrValue::Int(axis)}});
  };
  ExpectError({x}, quantize(F32(0), I32(0), -1), {"qnn.quantize", "output scale", "got 0"});
  ExpectError({x}, quantize(F32(-0.5f), I32(0), -1), {"qnn.quantize", "got -0.5"});
  ExpectError({x}, quantize(F32(kNaN), I32(0), -1), {"qnn.quantize", "positive and finite"});
  ExpectError({x}, quantize(F32s({1, 0, 2}), I32s({0, 0, 0}), 1), {"qnn.quantize", "got 0 at 1"});
  ExpectError({x}, quantize(F32(1), I32(300), -1),
              {"qnn.quantize", "output zero point 300", "int8 [-128, 127]"});
  ExpectError({x}, quantize(F32(1), I32(-1), -1, "uint8"), {"uint8 [0, 255]"});
  ExpectError({x}, quantize(F32s({1, 2}), I32s({0, 0}), 1),
              {"qnn.quantize", "has 2 values but the quantized axis has 3"});
  ExpectError({x}, quantize(F32(1), I32(0), 2), {"qnn.quantize", "axis 2 is out of range"});
  ExpectError({x}, quantize(F32(1), I32(0), -3), {"axis -3 is out of range"});
  // In range: no error (the checks do not refuse good parameters).
  EXPECT_EQ(InferError({x}, quantize(F32s({1, 2, 3}), I32s({0, 1, -1}), 1)), "");
  EXPECT_EQ(InferError({x}, quantize(F32(1), I32(255), -1, "uint8")), "");
}

TEST(QnnBadParamsTest, DequantizeAndRequantize) {
  ir::Var q = relay::var("q", {2, 3}, "int8");
  auto dequantize = [&](ir::Expr scale, ir::Expr zp, int64_t axis) {
    return relay::call("qnn.dequantize", {q, scale, zp}, {{"axis", AttrValue::Int(axis)}});
  };
  ExpectError({q}, dequantize(F32(0), I32(0), -1), {"qnn.dequantize", "input scale", "got 0"});
  ExpectError({q}, dequantize(F32s({1, 2, 3, 4}), I32(0), 1),
              {"qnn.dequantize", "has 4 values but the quantized axis has 3"});
  ExpectError({q}, dequantize(F32(1), I32s({0, 0}), 1), {"quantized axis has 3"});
  ExpectError({q}, dequantize(F32(1), I32(0), 5), {"qnn.dequantize", "axis 5 is out of range"});

  auto requantize = [&](ir::Expr in_scale, ir::Expr out_scale, ir::Expr out_zp, int64_t axis) {
    return relay::call("qnn.requantize", {q, in_scale, I32(0), out_scale, out_zp},
                       {{"axis", AttrValue::Int(axis)}, {"out_dtype", AttrValue::Str("uint8")}});
  };
  ExpectError({q}, requantize(F32(-1), F32(1), I32(0), -1), {"qnn.requantize", "input scale"});
  ExpectError({q}, requantize(F32(1), F32(0), I32(0), -1), {"qnn.requantize", "output scale"});
  ExpectError({q}, requantize(F32(1), F32(1), I32(256), -1),
              {"qnn.requantize", "output zero point 256", "uint8"});
  ExpectError({q}, requantize(F32s({1, 2}), F32(1), I32(0), 1), {"quantized axis has 3"});
  ExpectError({q}, requantize(F32(1), F32(1), I32(0), 2), {"qnn.requantize", "axis 2"});
}

TEST(QnnBadParamsTest, BinaryAndUnaryOps) {
  ir::Var a = relay::var("a", {2, 3}, "uint8");
  ir::Var b = relay::var("b", {2, 3}, "uint8");
  for (const char* op : {"qnn.add", "qnn.subtract", "qnn.mul"}) {
    auto call = [&](ir::Expr lhs_scale, ir::Expr out_scale, ir::Expr out_zp) {
      return relay::call(op, {a, b, lhs_scale, I32(0), F32(1), I32(0), out_scale, out_zp});
    };
    ExpectError({a, b}, call(F32(0), F32(1), I32(0)), {op, "lhs scale"});
    ExpectError({a, b}, call(F32(1), F32(-2), I32(0)), {op, "output scale"});
    ExpectError({a, b}, call(F32(1), F32(1), I32(-3)), {op, "output zero point -3", "uint8"});
    ExpectError({a, b}, call(F32s({1, 2}), F32(1), I32(0)), {op, "quantized axis has 3"});
  }
  for (const char* op : {"qnn.sigmoid", "qnn.tanh", "qnn.exp", "qnn.hardswish"}) {
    ExpectError({a}, relay::call(op, {a, F32(0), I32(0), F32(1), I32(0)}), {op, "scale"});
    ExpectError({a}, relay::call(op, {a, F32(1), I32(0), F32(1), I32(1000)}),
                {op, "output zero point 1000"});
    ExpectError({a}, relay::call(op, {a, F32s({1, 2}), I32(0), F32(1), I32(0)}),
                {op, "single value"});
  }
}

TEST(QnnBadParamsTest, DenseConvBatchMatmul) {
  ir::Var d = relay::var("d", {1, 4}, "int8");
  ir::Var w = relay::var("w", {3, 4}, "int8");
  auto dense = [&](ir::Expr in_scale, ir::Expr k_zp, ir::Expr k_scale) {
    return relay::call("qnn.dense", {d, w, I32(0), k_zp, in_scale, k_scale},
                       {{"units", AttrValue::Int(3)}, {"out_dtype", AttrValue::Str("int32")}});
  };
  ExpectError({d, w}, dense(F32(0), I32(0), F32(1)), {"qnn.dense", "input scale"});
  ExpectError({d, w}, dense(F32(1), I32(0), F32s({1, -1, 1})),
              {"qnn.dense", "kernel scale", "got -1 at 1"});
  ExpectError({d, w}, dense(F32(1), I32s({0, 0}), F32(1)),
              {"qnn.dense", "kernel zero point has 2 values but the quantized axis has 3"});

  ir::Var x = relay::var("x", {1, 2, 5, 5}, "uint8");
  ir::Var k = relay::var("k", {4, 2, 3, 3}, "int8");
  auto conv = [&](ir::Expr k_scale) {
    return relay::call("qnn.conv2d", {x, k, I32(0), I32(0), F32(1), k_scale},
                       {{"channels", AttrValue::Int(4)},
                        {"kernel_size", AttrValue::Ints({3, 3})},
                        {"out_dtype", AttrValue::Str("int32")}});
  };
  ExpectError({x, k}, conv(F32s({1, 1, 1})), {"qnn.conv2d", "quantized axis has 4"});
  ExpectError({x, k}, conv(F32s({1, 1, 0, 1})), {"qnn.conv2d", "got 0 at 2"});
  EXPECT_EQ(InferError({x, k}, conv(F32s({1, 2, 3, 4}))), "");

  ir::Var p = relay::var("p", {2, 3, 4}, "int8");
  ir::Var r = relay::var("r", {2, 5, 4}, "int8");
  ExpectError({p, r},
              relay::call("qnn.batch_matmul", {p, r, I32(0), I32(0), F32(1), F32(0)},
                          {{"out_dtype", AttrValue::Str("int32")}}),
              {"qnn.batch_matmul", "kernel scale"});
}

TEST(QnnBadParamsTest, ConcatenateChecksEveryInputScaleAndTheOutput) {
  ir::Var a = relay::var("a", {1, 2}, "int8");
  ir::Var b = relay::var("b", {1, 3}, "int8");
  auto concat = [&](ir::Expr second_scale, ir::Expr out_scale, ir::Expr out_zp) {
    return relay::call("qnn.concatenate",
                       {relay::tuple({a, b}), relay::tuple({F32(1), second_scale}),
                        relay::tuple({I32(0), I32(0)}), out_scale, out_zp},
                       {{"axis", AttrValue::Int(1)}});
  };
  ExpectError({a, b}, concat(F32(0), F32(1), I32(0)),
              {"qnn.concatenate", "input scale 1", "got 0"});
  ExpectError({a, b}, concat(F32(1), F32(-1), I32(0)), {"qnn.concatenate", "output scale"});
  ExpectError({a, b}, concat(F32(1), F32(1), I32(128)),
              {"qnn.concatenate", "output zero point 128", "int8 [-128, 127]"});
  EXPECT_EQ(InferError({a, b}, concat(F32(2), F32(1), I32(127))), "");
}

}  // namespace
}  // namespace relaypass::qnn
