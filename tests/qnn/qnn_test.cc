// The QNN layer: fixed-point multipliers, the lowerings' values, type checks, text and the
// passes. Expected values are worked by hand from TVM's formulas (src/relay/qnn/utils.cc,
// requantize.cc, quantize.cc), as the comments show.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "../../src/qnn/lowering.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/qnn/qnn.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::qnn {
namespace {

using ir::DataType;
using ir::NDArray;

template <typename T>
NDArray Array(const std::vector<T>& values, DataType dtype) {
  NDArray a = NDArray::Empty({static_cast<int64_t>(values.size())}, dtype);
  for (size_t i = 0; i < values.size(); ++i) a.mutable_data<T>()[i] = values[i];
  return a;
}

template <typename T>
std::vector<T> Values(const NDArray& a) {
  return std::vector<T>(a.data<T>(), a.data<T>() + a.size());
}

ir::Expr F32(float v) {
  return relay::const_(NDArray::Scalar<float>(v, DataType::Float32()));
}
ir::Expr I32(int32_t v) {
  return relay::const_(NDArray::Scalar<int32_t>(v, DataType::Int32()));
}

ir::Expr Requantize(ir::Expr data, float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                    const std::string& rounding, const std::string& out_dtype) {
  return relay::call(
      "qnn.requantize", {data, F32(in_scale), I32(in_zp), F32(out_scale), I32(out_zp)},
      {{"rounding", ir::AttrValue::Str(rounding)}, {"out_dtype", ir::AttrValue::Str(out_dtype)}});
}

std::vector<NDArray> RunOne(const ir::Var& x, const ir::Expr& body, const NDArray& input) {
  ir::IRModule mod = ir::IRModule::FromExpr(relay::function({x}, body));
  return eval::RunMain(ir::InferTypes(mod), {input});
}

TEST(QnnTest, FixedPointMultiplierShiftIsTvms) {
  // frexp(0.5) = 0.5 * 2^0: significand 2^30, shift 0.
  EXPECT_EQ(FixedPointMultiplierShift(0.5), std::make_pair(int32_t{1} << 30, 0));
  // 1/16 = 0.5 * 2^-3.
  EXPECT_EQ(FixedPointMultiplierShift(0.0625), std::make_pair(int32_t{1} << 30, -3));
  // 0.75 = 0.75 * 2^0: 0.75 * 2^31 = 1610612736.
  EXPECT_EQ(FixedPointMultiplierShift(0.75), std::make_pair(1610612736, 0));
  // 3 = 0.75 * 2^2.
  EXPECT_EQ(FixedPointMultiplierShift(3.0), std::make_pair(1610612736, 2));
  // A significand that rounds up to 2^31 is halved and the shift grows.
  EXPECT_EQ(FixedPointMultiplierShift(std::nextafter(1.0, 0.0)),
            std::make_pair(int32_t{1} << 30, 1));
  EXPECT_EQ(FixedPointMultiplierShift(0.0), std::make_pair(0, 0));
}

TEST(QnnTest, RequantizeRoundsAsTvm) {
  ir::Var x = relay::var("x", {4}, "int32");
  NDArray data = Array<int32_t>({-24, -8, 8, 24}, DataType::Int32());
  // x / 16: -1.5, -0.5, 0.5, 1.5. UPWARD rounds halves up: -1, 0, 1, 2; TONEAREST away from
  // zero: -2, -1, 1, 2.
  EXPECT_EQ(Values<int8_t>(RunOne(x, Requantize(x, 1, 0, 16, 0, "UPWARD", "int8"), data)[0]),
            (std::vector<int8_t>{-1, 0, 1, 2}));
  EXPECT_EQ(Values<int8_t>(RunOne(x, Requantize(x, 1, 0, 16, 0, "TONEAREST", "int8"), data)[0]),
            (std::vector<int8_t>{-2, -1, 1, 2}));
  // Zero points: (x - 8) / 16 + 3 = -2, -1, 0, 1 (+3) with UPWARD: -2+3 ... as computed:
  // (-32/16 = -2) -> 1, (-16/16 = -1) -> 2, 0 -> 3, 16/16 = 1 -> 4.
  EXPECT_EQ(Values<int8_t>(RunOne(x, Requantize(x, 1, 8, 16, 3, "UPWARD", "int8"), data)[0]),
            (std::vector<int8_t>{1, 2, 3, 4}));
}

TEST(QnnTest, RequantizeConfigSuppliesTheRounding) {
  ir::Var x = relay::var("x", {2}, "int32");
  NDArray data = Array<int32_t>({-8, -24}, DataType::Int32());
  ir::Expr unset = Requantize(x, 1, 0, 16, 0, "None", "int8");
  EXPECT_EQ(Values<int8_t>(RunOne(x, unset, data)[0]), (std::vector<int8_t>{0, -1}));
  EnterRequantizeConfig({"TONEAREST", "float32"});
  EXPECT_EQ(Values<int8_t>(RunOne(x, unset, data)[0]), (std::vector<int8_t>{-1, -2}));
  ExitRequantizeConfig();
  EXPECT_THROW(EnterRequantizeConfig({"DOWNWARD", "int64"}), ValueError);
}

TEST(QnnTest, QuantizeSaturatesAndDequantizeScales) {
  ir::Var x = relay::var("x", {3}, "float32");
  ir::Expr q = relay::call("qnn.quantize", {x, F32(0.5f), I32(10)},
                           {{"out_dtype", ir::AttrValue::Str("uint8")}});
  // 100 / 0.5 + 10 = 210; -100 / 0.5 + 10 = -190 -> 0; 1000 / 0.5 + 10 -> 255.
  EXPECT_EQ(Values<uint8_t>(RunOne(x, q, Array<float>({100, -100, 1000}, DataType::Float32()))[0]),
            (std::vector<uint8_t>{210, 0, 255}));
  ir::Var y = relay::var("y", {2}, "int8");
  ir::Expr d = relay::call("qnn.dequantize", {y, F32(0.25f), I32(-4)});
  EXPECT_EQ(Values<float>(RunOne(y, d, Array<int8_t>({-4, 4}, DataType::Int(8)))[0]),
            (std::vector<float>{0.0f, 2.0f}));
}

TEST(QnnTest, TypeInferenceChecksScalesAndZeroPoints) {
  auto infer = [](ir::Var v, ir::Expr body) {
    return ir::InferTypes(ir::IRModule::FromExpr(relay::function({v}, body)));
  };
  ir::Var x = relay::var("x", {2, 3}, "float32");
  // Three channels along axis 1, two scales.
  ir::Expr scales = relay::const_(Array<float>({1, 2}, DataType::Float32()));
  EXPECT_THROW(
      infer(x, relay::call("qnn.quantize", {x, scales, I32(0)}, {{"axis", ir::AttrValue::Int(1)}})),
      TypeError);
  // A float input to dequantize.
  EXPECT_THROW(infer(x, relay::call("qnn.dequantize", {x, F32(1), I32(0)})), TypeError);
  // An int32 scale.
  ir::Var q = relay::var("q", {2}, "int8");
  EXPECT_THROW(infer(q, relay::call("qnn.dequantize", {q, I32(1), I32(0)})), TypeError);
  // Axis out of range with per-channel parameters.
  ir::Expr two = relay::const_(Array<float>({1, 2}, DataType::Float32()));
  EXPECT_THROW(
      infer(q, relay::call("qnn.dequantize", {q, two, I32(0)}, {{"axis", ir::AttrValue::Int(3)}})),
      TypeError);
  // The message names the op.
  try {
    infer(x, relay::call("qnn.dequantize", {x, F32(1), I32(0)}));
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("qnn.dequantize"), std::string::npos);
  }
}

TEST(QnnTest, TextRoundTripsAndCanonicalizeOpsLeavesNoQnnCall) {
  ir::Var x = relay::var("x", {4}, "int32");
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(
      relay::function({x}, Requantize(x, 0.5f, 1, 0.25f, 0, "TONEAREST", "int8"))));
  const std::string text = text::AsText(mod);
  EXPECT_NE(text.find("qnn.requantize(%x, 0.5f /* ty=float32 */, 1 /* ty=int32 */, 0.25f"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("rounding=\"TONEAREST\", out_dtype=\"int8\")"), std::string::npos) << text;
  EXPECT_EQ(text::AsText(ir::InferTypes(text::ParseModule(text))), text);
  ir::IRModule lowered = CanonicalizeOps()(mod);
  EXPECT_EQ(text::AsText(lowered).find("qnn."), std::string::npos);
  NDArray data = Array<int32_t>({-3, 0, 5, 100}, DataType::Int32());
  // (x - 1) * 2 with halves away from zero: -8, -2, 8, 127 (198 saturates).
  EXPECT_EQ(Values<int8_t>(eval::RunMain(lowered, {data})[0]),
            (std::vector<int8_t>{-8, -2, 8, 127}));
  EXPECT_EQ(Values<int8_t>(eval::RunMain(mod, {data})[0]), (std::vector<int8_t>{-8, -2, 8, 127}));
}

TEST(QnnTest, LoweringNeedsConstantScales) {
  ir::Var x = relay::var("x", {2}, "int32");
  ir::Var s = relay::var("s", {}, "float32");
  ir::Expr body = relay::call("qnn.requantize", {x, s, I32(0), F32(1), I32(0)},
                              {{"out_dtype", ir::AttrValue::Str("int8")}});
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({x, s}, body)));
  try {
    CanonicalizeOps()(mod);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("qnn.requantize: input_scale must be a constant"),
              std::string::npos);
  }
}

TEST(QnnTest, DenseAndConv2DSubtractZeroPoints) {
  ir::Var d = relay::var("d", {1, 2}, "uint8");
  ir::Expr w = relay::const_(Array<int8_t>({3, -1}, DataType::Int(8)));
  ir::Expr weight = relay::reshape(w, {1, 2});
  ir::Expr dense =
      relay::call("qnn.dense", {d, weight, I32(10), I32(1), F32(1), F32(1)},
                  {{"units", ir::AttrValue::Int(1)}, {"out_dtype", ir::AttrValue::Str("int32")}});
  // (12 - 10) * (3 - 1) + (20 - 10) * (-1 - 1) = 4 - 20 = -16.
  NDArray data = NDArray::Empty({1, 2}, DataType::UInt(8));
  data.mutable_data<uint8_t>()[0] = 12;
  data.mutable_data<uint8_t>()[1] = 20;
  EXPECT_EQ(Values<int32_t>(RunOne(d, dense, data)[0]), (std::vector<int32_t>{-16}));
}

TEST(QnnTest, Conv2DTransposeSubtractsZeroPointsAndChecksTypes) {
  // TVM's lowering: (data - 10) and (kernel - 1) in int16, then nn.conv2d_transpose.
  ir::Var d = relay::var("d", {1, 1, 1, 2}, "uint8");
  ir::Expr w = relay::const_(Array<int8_t>({3, -1}, DataType::Int(8)));
  ir::Expr weight = relay::reshape(w, {1, 1, 1, 2});  // IOHW
  auto conv = [&](ir::Expr kernel_scale) {
    return relay::call("qnn.conv2d_transpose", {d, weight, I32(10), I32(1), F32(1), kernel_scale},
                       {{"channels", ir::AttrValue::Int(1)},
                        {"kernel_layout", ir::AttrValue::Str("IOHW")},
                        {"out_dtype", ir::AttrValue::Str("int32")}});
  };
  NDArray data = NDArray::Empty({1, 1, 1, 2}, DataType::UInt(8));
  data.mutable_data<uint8_t>()[0] = 12;
  data.mutable_data<uint8_t>()[1] = 20;
  // Shifted data [2, 10], kernel [2, -2]; out[j] = sum_i data[i] * kernel[j - i]:
  // 2*2 = 4, 2*(-2) + 10*2 = 16, 10*(-2) = -20.
  EXPECT_EQ(Values<int32_t>(RunOne(d, conv(F32(1)), data)[0]), (std::vector<int32_t>{4, 16, -20}));
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(relay::function({d}, conv(F32(1)))));
  ir::IRModule lowered = CanonicalizeOps()(mod);
  const std::string text = text::AsText(lowered);
  EXPECT_EQ(text.find("qnn."), std::string::npos) << text;
  EXPECT_NE(text.find("nn.conv2d_transpose"), std::string::npos) << text;
  EXPECT_EQ(Values<int32_t>(eval::RunMain(lowered, {data})[0]), (std::vector<int32_t>{4, 16, -20}));
  // Three kernel scales for one output channel, and a float input, fail type inference.
  ir::Expr three = relay::const_(Array<float>({1, 2, 3}, DataType::Float32()));
  EXPECT_THROW(ir::InferTypes(ir::IRModule::FromExpr(relay::function({d}, conv(three)))),
               TypeError);
  ir::Var f = relay::var("f", {1, 1, 1, 2}, "float32");
  ir::Expr float_conv =
      relay::call("qnn.conv2d_transpose", {f, weight, I32(0), I32(0), F32(1), F32(1)},
                  {{"kernel_layout", ir::AttrValue::Str("IOHW")}});
  EXPECT_THROW(ir::InferTypes(ir::IRModule::FromExpr(relay::function({f}, float_conv))), TypeError);
}

}  // namespace
}  // namespace relaypass::qnn
