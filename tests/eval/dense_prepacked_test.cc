// nn.dense on a weight prepacked for the AVX-512 GEMM (relaypass/op/dense_prepacked.h) and the
// interpreter's use of it for FuseOps' dense groups (src/eval/fused_dense.h). The expected values
// are the sum the GEMM documents (src/op/kernels/packed_sgemm.h), computed here in scalar code:
// per output element, 256-deep partial sums, each 0 then std::fma(x, w, sum) in k order, added
// to the element after the first; bit for bit, at one thread and at two. Skipped on processors
// without AVX-512 (there the prepacking declines, checked below).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../../src/eval/fused_dense.h"
#include "../../src/op/kernels/packed_sgemm.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/dense_prepacked.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/support/parallel.h"
#include "relaypass/transform/infer_type.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using op::kernels::PackedSgemmAvailable;

constexpr int64_t kDepthBlock = 256;  // the GEMM's KC

// out[i][j] = sum_p x[i][p] * w[j][p], as the GEMM documents its order.
NDArray Reference(const NDArray& x, const NDArray& w) {
  const int64_t k = w.shape()[1], n = w.shape()[0], m = x.size() / k;
  Shape shape = x.shape();
  shape.back() = n;
  NDArray out = NDArray::Empty(shape, DataType::Float32());
  const float *a = x.data<float>(), *b = w.data<float>();
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int64_t k0 = 0; k0 < k; k0 += kDepthBlock) {
        float partial = 0.0f;
        for (int64_t p = k0; p < std::min(k, k0 + kDepthBlock); ++p) {
          partial = std::fma(a[i * k + p], b[j * k + p], partial);
        }
        sum = k0 == 0 ? partial : sum + partial;
      }
      out.mutable_data<float>()[i * n + j] = sum;
    }
  }
  return out;
}

void ExpectBitwiseEqual(const NDArray& got, const NDArray& expected) {
  ASSERT_EQ(got.shape(), expected.shape());
  ASSERT_EQ(got.dtype(), expected.dtype());
  EXPECT_EQ(std::memcmp(got.raw_data(), expected.raw_data(), got.nbytes()), 0);
}

class DensePrepackedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PackedSgemmAvailable()) {
      EXPECT_EQ(op::PrepackDenseWeight(Random({4, 3}, 1)), nullptr);
      GTEST_SKIP() << "no AVX-512 on this processor";
    }
  }
  void TearDown() override { support::SetNumThreads(1); }
};

// Odd shapes: rows not a multiple of the register block (14), units not of a panel (32), depths
// of one and of several 256-deep blocks, a batch axis; BERT-base's first dense (128 x 768 x 768).
TEST_F(DensePrepackedTest, MatchesTheDocumentedSumAtOneAndTwoThreads) {
  struct Case {
    Shape data;
    int64_t units;
  };
  const Case cases[] = {{{1, 1}, 1},    {{5, 7}, 33},     {{15, 300}, 31},  {{2, 3, 513}, 100},
                        {{29, 64}, 65}, {{130, 257}, 96}, {{128, 768}, 768}};
  uint64_t seed = 1;
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::PrintToString(c.data) + " units " + std::to_string(c.units));
    const NDArray x = Random(c.data, seed++), w = Random({c.units, c.data.back()}, seed++);
    const auto packed = op::PrepackDenseWeight(w);
    ASSERT_NE(packed, nullptr);
    const NDArray expected = Reference(x, w);
    for (int threads : {1, 2}) {
      support::SetNumThreads(threads);
      ExpectBitwiseEqual(op::DenseWithPrepackedWeight(x, *packed), expected);
    }
    // And within float32 rounding of nn.dense's own kernel (OpenBLAS).
    ExpectClose(op::DenseWithPrepackedWeight(x, *packed), EvalOp(relay::nn::dense(C(x), C(w))),
                1e-4, 1e-5);
  }
}

TEST_F(DensePrepackedTest, DeclinesOtherWeightsAndRejectsMismatchedData) {
  EXPECT_EQ(op::PrepackDenseWeight(Random({4, 3}, 1, DataType::Float(64))), nullptr);
  EXPECT_EQ(op::PrepackDenseWeight(Random({2, 4, 3}, 1)), nullptr);
  EXPECT_EQ(op::PrepackDenseWeight(Random({0, 3}, 1)), nullptr);
  const auto packed = op::PrepackDenseWeight(Random({4, 3}, 1));
  ASSERT_NE(packed, nullptr);
  EXPECT_THROW(op::DenseWithPrepackedWeight(Random({2, 5}, 2), *packed), Error);
  EXPECT_THROW(op::DenseWithPrepackedWeight(Random({2, 3}, 2, DataType::Float(64)), *packed),
               Error);
  // No rows: an empty result.
  EXPECT_EQ(op::DenseWithPrepackedWeight(Random({0, 3}, 2), *packed).shape(), (Shape{0, 4}));
}

// `body` over the parameters as a module, typed, then fused.
ir::IRModule FusedModule(const std::vector<ir::Var>& params, const ir::Expr& body) {
  ir::IRModule mod;
  mod.Add("main", relay::function(params, body));
  mod = transform::InferType()(mod);
  return passes::FuseOps(2)(mod);
}

// Two dense layers with a relu between (the relu fuses into the first's group, which then is
// not a lone dense), then one whose group is the dense alone: the interpreter runs that one on
// the prepacked weight, the same bits on every call and at two threads.
TEST_F(DensePrepackedTest, InterpreterRunsLoneDenseGroupsPrepacked) {
  const NDArray w1 = Random({24, 16}, 1), w2 = Random({40, 24}, 2);
  ir::Var x = relay::var("x", {6, 16});
  const ir::Expr hidden = relay::nn::relu(relay::nn::dense(x, C(w1)));
  const ir::Expr body = relay::nn::dense(relay::nn::relu(hidden), C(w2));
  const ir::IRModule fused = FusedModule({x}, body);
  const NDArray input = Random({6, 16}, 3);
  const NDArray h = EvalOp(relay::nn::relu(C(EvalOp(relay::nn::dense(C(input), C(w1))))));
  const NDArray expected = Reference(h, w2);
  Interpreter interp(fused);
  ExpectBitwiseEqual(interp.RunMain({Value(input)}).tensor(), expected);
  support::SetNumThreads(2);
  ExpectBitwiseEqual(interp.RunMain({Value(input)}).tensor(), expected);
  EXPECT_EQ(interp.stats().prepacked_dense_calls, 2u);
}

// `body` over `params` as a primitive function called from main (typed), and that function.
const ir::FunctionNode* Primitive(const std::vector<ir::Var>& params, const ir::Expr& body,
                                  ir::IRModule* mod) {
  ir::DictAttrs attrs;
  attrs.Set("Primitive", ir::AttrValue::Int(1));
  const ir::Function prim = ir::MakeFunction(params, body, nullptr, attrs);
  std::vector<ir::Var> outer;
  std::vector<ir::Expr> args;
  for (const ir::Var& p : params) {
    outer.push_back(relay::var(p->name_hint + "_outer", p->type_annotation));
    args.push_back(outer.back());
  }
  mod->Add("main", relay::function(outer, ir::MakeCall(prim, args)));
  *mod = transform::InferType()(*mod);
  const ir::FunctionNode* found = nullptr;
  ir::post_order_visit(mod->Lookup("main")->body, [&](const ir::Expr& e) {
    const auto* f = e.as<ir::FunctionNode>();
    if (f && f->is_primitive()) found = f;
  });
  return found;
}

TEST_F(DensePrepackedTest, MatchesOnlyLoneFloat32DenseGroups) {
  const NDArray weight = Random({5, 4}, 1);
  struct Case {
    const char* what;
    bool with_weight_param, relu, float64, matched;
  };
  const Case cases[] = {
      {"constant weight", false, false, false, true},
      {"weight parameter (prepacked per call site)", true, false, false, true},
      {"dense then relu", false, true, false, false},
      {"float64", false, false, true, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const DataType dtype = c.float64 ? DataType::Float(64) : DataType::Float32();
    ir::Var x = relay::var("x", {3, 4}, c.float64 ? "float64" : "float32"),
            w = relay::var("w", {5, 4}, c.float64 ? "float64" : "float32");
    std::vector<ir::Var> params = {x};
    ir::Expr weight_expr = C(Random({5, 4}, 2, dtype));
    if (c.with_weight_param) {
      params.push_back(w);
      weight_expr = w;
    }
    ir::Expr body = relay::nn::dense(x, weight_expr);
    if (c.relu) body = relay::nn::relu(body);
    ir::IRModule mod;
    const ir::FunctionNode* fn = Primitive(params, body, &mod);
    ASSERT_NE(fn, nullptr);
    EXPECT_EQ(MatchFusedDense(fn) != nullptr, c.matched);
  }
}

}  // namespace
}  // namespace relaypass::eval
