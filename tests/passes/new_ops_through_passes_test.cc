// The operators the ONNX importer needs (take, strided_slice, where, nn.batch_matmul, ...)
// through every pass: each small graph is type-checked, printed and parsed back structurally
// equal, run through every registered pass (the results evaluate as the input does and print
// back), constant-folded to one constant when its inputs are constants, and fused by FuseOps
// into primitive functions.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"

namespace relaypass::passes {
namespace {

using namespace relay;  // NOLINT: reads like the tutorials
using ir::NDArray;

NDArray IntArray(const ir::Shape& shape, const std::vector<int64_t>& values,
                 ir::DataType dtype = ir::DataType::Int64()) {
  NDArray a = NDArray::Empty(shape, dtype);
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == ir::DataType::Int32()) {
      a.mutable_data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      a.mutable_data<int64_t>()[i] = values[i];
    }
  }
  return a;
}

// x > 0 (the comparisons have no builder).
Expr Positive(Expr x) {
  return ir::MakeCall(op::GetOp("greater"), {std::move(x), const_(0.0f)});
}

NDArray Weights(const ir::Shape& shape, uint64_t seed) {
  return eval::RandomTensor(shape, ir::DataType::Float32(), seed);
}

struct Case {
  std::string name;
  ir::Shape input;
  std::function<Expr(Expr)> build;
  bool fuses = true;  // FuseOps makes at least one primitive function
};

std::vector<Case> Cases() {
  auto C = [](const NDArray& a) { return relay::const_(a); };
  return {
      {"take",
       {3, 4},
       [&](Expr x) {
         return take(x, C(IntArray({2, 2}, {0, 2, 3, -1})), 1);
       }},
      {"take_flat",
       {3, 4},
       [&](Expr x) {
         return take(x, C(IntArray({3}, {11, 0, 5})));
       }},
      {"strided_slice",
       {3, 4},
       [](Expr x) {
         return strided_slice(x, {1, 0}, {3, 4}, Ints{1, 2});
       }},
      {"strided_slice_axes",
       {3, 4},
       [](Expr x) { return strided_slice(x, {-1}, {-4}, Ints{-1}, Ints{1}); }},
      {"where", {3, 4}, [](Expr x) { return where(Positive(x), x, zeros_like(x)); }},
      {"broadcast_tile",
       {1, 4},
       [](Expr x) {
         return tile(broadcast_to(x, {3, 4}), {2, 1});
       }},
      {"like_ops",
       {1, 4},
       [&](Expr x) {
         Expr b = broadcast_to_like(x, C(Weights({3, 4}, 12)));
         return cast_like(cast_like(b, C(IntArray({1}, {0}))), x);
       }},
      {"gather",
       {3, 4},
       [&](Expr x) {
         return gather(x, 1, C(IntArray({3, 2}, {0, 3, 1, 1, 2, 0})));
       }},
      {"gather_nd",
       {3, 4},
       [&](Expr x) {
         return gather_nd(x, C(IntArray({2, 2}, {0, 2, 1, 3})));
       }},
      {"one_hot",
       {3},
       [&](Expr x) {
         Expr oh = one_hot(C(IntArray({3}, {0, 3, 1}, ir::DataType::Int32())), const_(1.0f),
                           const_(0.0f), 4, -1, "float32");
         return add(oh, expand_dims(x, 1));
       }},
      {"cumsum_reverse", {3, 4}, [](Expr x) { return reverse(cumsum(x, 1, "", true), 0); }},
      {"topk", {3, 5}, [](Expr x) { return get_item(topk(x, 2, 1), 0); }, false},
      {"trilu", {4, 5}, [&](Expr x) { return trilu(x, C(IntArray({}, {1})), false); }},
      {"argmax",
       {3, 4},
       [](Expr x) { return cast(argmax(x, Ints{1}, true, false, true), "float32"); }},
      {"elementwise",
       {3, 4},
       [](Expr x) {
         Expr mask = logical_xor(Positive(x), logical_not(isnan(x)));
         return add(multiply(sign(x), cast(mask, "float32")),
                    floor_mod(x, full(const_(0.75f), {3, 4}, "float32")));
       }},
      {"prelu_lrn",
       {1, 3, 4, 4},
       [&](Expr x) { return nn::lrn(nn::prelu(x, C(Weights({3}, 3))), 3, 1, 1.0, 0.001, 0.75); }},
      {"norms",
       {2, 3, 4},
       [&](Expr x) {
         Expr a = nn::instance_norm(x, C(Weights({3}, 4)), C(Weights({3}, 5)));
         return nn::layer_norm(a, C(Weights({4}, 6)), C(Weights({4}, 7)));
       }},
      {"batch_matmul",
       {2, 3, 4},
       [&](Expr x) {
         return nn::batch_matmul(x, C(Weights({1, 5, 4}, 8)));
       }},
      {"conv2d_transpose",
       {1, 2, 4, 4},
       [&](Expr x) {
         nn::ConvTransposeArgs a;
         a.strides = {2, 2};
         a.padding = {1, 1};
         a.output_padding = {1, 1};
         a.channels = 3;
         a.kernel_size = Ints{3, 3};
         return nn::conv2d_transpose(x, C(Weights({2, 3, 3, 3}, 9)), a);
       }},
      {"conv3d_pool3d",
       {1, 2, 5, 5, 5},
       [&](Expr x) {
         nn::Conv3DArgs c;
         c.padding = {1, 1, 1};
         c.channels = 3;
         c.kernel_size = Ints{3, 3, 3};
         Expr y = nn::conv3d(x, C(Weights({3, 2, 3, 3, 3}, 10)), c);
         nn::Pool3DArgs p;
         p.pool_size = {2, 2, 2};
         p.strides = {2, 2, 2};
         p.ceil_mode = true;
         return add(nn::max_pool3d(y, p), nn::avg_pool3d(y, p));
       }},
      {"resize_upsampling",
       {1, 4, 4, 4},
       [](Expr x) {
         image::Resize2DArgs a;
         a.method = "cubic";
         Expr r = image::resize2d(x, {8, 6}, a);
         Expr s = nn::space_to_depth(nn::depth_to_space(x, 2, "NCHW", "CRD"), 2);
         return add(nn::upsampling(s, 2, 1.5, "NCHW", "bilinear"), r);
       }},
  };
}

ir::IRModule Module(const Case& c) {
  Var x = var("x", c.input);
  return ir::InferTypes(ir::IRModule::FromExpr(function({x}, c.build(x))));
}

std::string ReadsBack(const ir::IRModule& mod) {
  const std::string astext = text::AsText(mod);
  try {
    const ir::IRModule parsed = text::ParseModule(astext);
    if (!ir::StructuralEqual(parsed, mod)) return "parses to a different module:\n" + astext;
  } catch (const Error& e) {
    return std::string("does not parse: ") + e.what() + "\n" + astext;
  }
  return "";
}

void ExpectClose(const std::vector<NDArray>& got, const std::vector<NDArray>& want,
                 const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (size_t i = 0; i < got.size(); ++i) {
    eval::CloseResult r = eval::AllClose(got[i], want[i], eval::Tolerance{1e-5, 1e-5}, true);
    EXPECT_TRUE(r.ok) << where << ": " << r.message;
  }
}

TEST(NewOpsThroughPassesTest, PrintParseEveryPassFoldAndFuse) {
  std::vector<transform::Pass> passes;
  for (const std::string& name : transform::PassRegistry::Global().Names()) {
    try {
      passes.push_back(transform::CreatePass(name));
    } catch (const PassError&) {
    }
  }
  ASSERT_GE(passes.size(), 10u);
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    ir::IRModule mod;
    ASSERT_NO_THROW(mod = Module(c));
    EXPECT_EQ(ReadsBack(mod), "");
    const NDArray input = eval::RandomTensor(c.input, ir::DataType::Float32(), 11);
    const std::vector<NDArray> want = eval::RunMain(mod, {input});

    for (const transform::Pass& pass : passes) {
      const std::string where = c.name + " after " + pass.info().name;
      ir::IRModule out;
      try {
        ::testing::internal::CaptureStderr();
        out = pass(mod);
        ::testing::internal::GetCapturedStderr();
      } catch (const Error& e) {
        ::testing::internal::GetCapturedStderr();
        ADD_FAILURE() << where << ": " << e.what();
        continue;
      }
      EXPECT_EQ(ReadsBack(ir::InferTypes(out)), "") << where;
      // ToMixedPrecision changes the precision by design (its own tests check its numbers).
      if (pass.info().name == "ToMixedPrecision") continue;
      ExpectClose(eval::RunMain(ir::InferTypes(out), {input}), want, where);
    }

    // With the input bound to a constant, FoldConstant leaves one constant: the same values.
    ir::Function main = mod.Lookup("main");
    ir::Function bound = ir::BindParamsByName(main, {{"x", input}});
    ir::IRModule folded = FoldConstant()(ir::InferTypes(ir::IRModule::FromExpr(bound)));
    const ir::Expr body = folded.Lookup("main")->body;
    ASSERT_NE(body.as<ir::ConstantNode>(), nullptr) << text::PrettyPrint(folded);
    ExpectClose({body.as<ir::ConstantNode>()->data}, want, c.name + " folded");

    // FuseOps groups the ops by their patterns into primitive functions.
    const std::string fused = text::PrettyPrint(FuseOps(2)(mod));
    if (c.fuses) {
      EXPECT_NE(fused.find("Primitive=1"), std::string::npos) << fused;
    }
  }
}

}  // namespace
}  // namespace relaypass::passes
