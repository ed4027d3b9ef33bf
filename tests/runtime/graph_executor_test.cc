// runtime::GraphExecutor on relay.build's result: inputs by name and index, graph parameters,
// outputs, and the errors for bad input. Expected numbers are hand computations.
#include <gtest/gtest.h>

#include "relaypass/backend/build.h"
#include "relaypass/runtime/graph_executor.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"

namespace relaypass::runtime {
namespace {

ir::NDArray Filled(const ir::Shape& shape, float value) {
  ir::NDArray a = ir::NDArray::Empty(shape, ir::DataType::Float32());
  for (int64_t i = 0; i < a.size(); ++i) a.mutable_data<float>()[i] = value;
  return a;
}

// add(%x, %b) with %b bound by relay.build's params: the graph parameter p0.
GraphExecutor MakeExecutor() {
  backend::ParamMap params;
  params["b"] = Filled({4}, 1.0f);
  return GraphExecutor(backend::Build(
      text::ParseModule("#[version = \"0.0.5\"]\n"
                        "def @main(%x: Tensor[(4), float32], %b: Tensor[(4), float32]) {\n"
                        "  nn.relu(add(%x, %b))\n}\n"),
      params));
}

TEST(GraphExecutorTest, RunsWithTheBuildsParametersAndNewOnes) {
  GraphExecutor ex = MakeExecutor();
  ASSERT_EQ(ex.num_inputs(), 2u);  // %x, then p0 (TVM counts parameters as inputs)
  EXPECT_EQ(ex.InputIndex("x"), 0);
  EXPECT_EQ(ex.InputIndex("p0"), 1);
  EXPECT_EQ(ex.InputIndex("b"), -1);  // bound at build
  EXPECT_TRUE(ex.IsParam(1));
  ex.SetInput(0, Filled({4}, 2.0f));
  ex.Run();
  // relu(2 + 1) = 3.
  EXPECT_EQ(ex.GetOutput(0).data<float>()[3], 3.0f);
  // A new value for p0 replaces the constant: relu(2 - 5) = 0.
  ex.SetInput(1, Filled({4}, -5.0f));
  ex.Run();
  EXPECT_EQ(ex.GetOutput(0).data<float>()[0], 0.0f);
  EXPECT_EQ(ex.num_outputs(), 1u);
}

TEST(GraphExecutorTest, BadInputIsAnErrorNotACrash) {
  GraphExecutor ex = MakeExecutor();
  EXPECT_THROW(ex.GetOutput(0), Error);  // before a run
  try {
    ex.Run();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x' was not set"), std::string::npos) << e.what();
  }
  try {
    ex.SetInput(0, Filled({5}, 1.0f));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x' is Tensor[(4), float32], got shape (5,)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(ex.SetInput(0, ir::NDArray::Empty({4}, ir::DataType::Int(32))), Error);
  EXPECT_THROW(ex.SetInput(7, Filled({4}, 1.0f)), Error);
  ex.SetInput(0, Filled({4}, 1.0f));
  ex.Run();
  EXPECT_THROW(ex.GetOutput(1), Error);
}

}  // namespace
}  // namespace relaypass::runtime
