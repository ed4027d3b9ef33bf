// relay.build's graph codegen: TVM's graph JSON (names, storage sharing, parameters) and the
// errors for what the graph executor cannot run. Expected values are computed by hand from TVM
// v0.13's algorithms (src/relay/backend/graph_plan_memory.cc, graph_executor_codegen.cc,
// te_compiler.cc), as the comments say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "relaypass/backend/build.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/transform/pass_context.h"

namespace relaypass::backend {
namespace {

using Json = nlohmann::json;

BuiltModule BuildText(const std::string& body, int opt_level = 2, const ParamMap& params = {}) {
  transform::PassContextOptions options;
  options.opt_level = opt_level;
  transform::PassContextScope scope{transform::PassContext(std::move(options))};
  return Build(text::ParseModule("#[version = \"0.0.5\"]\n" + body), params);
}

std::vector<int64_t> StorageIds(const Json& g) {
  return g["attrs"]["storage_id"][1].get<std::vector<int64_t>>();
}

TEST(GraphCodegenTest, ChainOfOpaqueOpsReusesTheFirstFreedBlock) {
  // Three softmaxes (opaque: one fused function each). By hand: %x has block 0 (a parameter,
  // never released); the first result asks with nothing free: block 1; the second: block 2, and
  // block 1 is freed after it ran; the third takes block 1 back.
  const BuiltModule b = BuildText(
      "def @main(%x: Tensor[(1, 16), float32]) {\n"
      "  %0 = nn.softmax(%x);\n  %1 = nn.softmax(%0);\n  nn.softmax(%1)\n}\n");
  const Json g = Json::parse(b.graph.json);
  EXPECT_EQ(StorageIds(g), (std::vector<int64_t>{0, 1, 2, 1}));
  ASSERT_EQ(g["nodes"].size(), 4u);
  EXPECT_EQ(g["nodes"][0], Json::parse(R"({"op": "null", "name": "x", "inputs": []})"));
  // Structurally equal fused functions are one lowered function; the nodes get unique names as
  // GraphExecutorCodegen::_GetUniqueName makes them (name, name1, name2).
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(g["nodes"][i]["op"], "tvm_op");
    EXPECT_EQ(g["nodes"][i]["attrs"]["func_name"], "tvmgen_default_fused_nn_softmax");
    EXPECT_EQ(g["nodes"][i]["attrs"]["num_inputs"], "1");
    EXPECT_EQ(g["nodes"][i]["attrs"]["num_outputs"], "1");
    EXPECT_EQ(g["nodes"][i]["attrs"]["flatten_data"], "0");
    EXPECT_EQ(g["nodes"][i]["inputs"], Json::array({Json::array({i - 1, 0, 0})}));
  }
  EXPECT_EQ(g["nodes"][1]["name"], "tvmgen_default_fused_nn_softmax");
  EXPECT_EQ(g["nodes"][2]["name"], "tvmgen_default_fused_nn_softmax1");
  EXPECT_EQ(g["nodes"][3]["name"], "tvmgen_default_fused_nn_softmax2");
  EXPECT_EQ(g["arg_nodes"], Json::array({0}));
  EXPECT_EQ(g["heads"], Json::array({Json::array({3, 0, 0})}));
  EXPECT_EQ(g["node_row_ptr"], Json::array({0, 1, 2, 3, 4}));
  EXPECT_EQ(g["attrs"]["dltype"],
            Json::parse(R"(["list_str", ["float32", "float32", "float32", "float32"]])"));
  EXPECT_EQ(g["attrs"]["device_index"], Json::parse(R"(["list_int", [1, 1, 1, 1]])"));
  EXPECT_EQ(g["attrs"]["shape"][1][0], Json::array({1, 16}));
}

TEST(GraphCodegenTest, DifferentFunctionsOfOneNameGetSuffixes) {
  // Two softmaxes over different shapes: two lowered functions named fused_nn_softmax, the
  // second made unique by te_compiler's GetUniqueName ("_1").
  const BuiltModule b = BuildText(
      "def @main(%x: Tensor[(1, 16), float32], %y: Tensor[(2, 8), float32]) {\n"
      "  (nn.softmax(%x), nn.softmax(%y))\n}\n");
  const Json g = Json::parse(b.graph.json);
  EXPECT_EQ(g["nodes"][2]["attrs"]["func_name"], "tvmgen_default_fused_nn_softmax");
  EXPECT_EQ(g["nodes"][3]["attrs"]["func_name"], "tvmgen_default_fused_nn_softmax_1");
  EXPECT_EQ(g["heads"], Json::parse("[[2, 0, 0], [3, 0, 0]]"));
  // Both results are outputs: neither block is ever released (storage 2 and 3).
  EXPECT_EQ(StorageIds(g), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(GraphCodegenTest, ConstantsAreParametersAndReshapesShareStorage) {
  // relay.build's params bind %w: a constant of main,: input node p0 with storage of its own. The
  // reshape is a reshape_only function: a "reshape_nop" node running "__nop" on its argument's
  // storage.
  ParamMap params;
  params["w"] = ir::NDArray::Empty({8, 16}, ir::DataType::Float32());
  const BuiltModule b = BuildText(
      "def @main(%x: Tensor[(1, 16), float32], %w: Tensor[(8, 16), float32]) {\n"
      "  %0 = nn.dense(%x, %w, units=8);\n  %1 = nn.softmax(%0);\n  reshape(%1, newshape=[4, "
      "2])\n}\n",
      2, params);
  const Json g = Json::parse(b.graph.json);
  ASSERT_EQ(b.graph.params.size(), 1u);
  ASSERT_TRUE(b.graph.params.count("p0"));
  EXPECT_EQ(g["nodes"][1]["name"], "p0");
  EXPECT_EQ(g["arg_nodes"], Json::array({0, 1}));
  const Json& last = g["nodes"].back();
  EXPECT_EQ(last["name"], "reshape_nop");
  EXPECT_EQ(last["attrs"]["func_name"], "__nop");
  const std::vector<int64_t> ids = StorageIds(g);
  EXPECT_EQ(ids[ids.size() - 1], ids[ids.size() - 2]);  // the reshape's result is its input's
}

TEST(GraphCodegenTest, WhatTheGraphCannotRunIsAnErrorNamingTheVm) {
  try {
    BuildText(
        "def @main(%c: bool, %x: Tensor[(2), float32]) {\n"
        "  if (%c) { nn.relu(%x) } else { %x }\n}\n");
    FAIL() << "built a graph with an if";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("if is not supported"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("VM"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace relaypass::backend
