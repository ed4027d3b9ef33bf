// examples/byoc_dnnl: the BYOC flow on resnet-18 for the pretend dnnl target. The example itself
// checks that the partitioned module evaluates to the original's outputs (exit status 1 if not).
#include <gtest/gtest.h>

#include <string>

#include "example_runner.h"

namespace relaypass::conformance {
namespace {

TEST(ByocDnnlExampleTest, PartitionsResnet18AndEvaluatesTheSame) {
  int status = -1;
  const std::string out = RunExample("byoc_dnnl", &status);
  EXPECT_EQ(status, 0);
  // The first region is the first convolution (with its relu): region ids follow TVM's
  // numbering of compiler_begin annotations in post-order.
  EXPECT_NE(out.find("def @tvmgen_default_dnnl_main_0(%dnnl_0_i0: Tensor[(1, 3, 224, 224), "
                     "float32]"),
            std::string::npos);
  EXPECT_NE(out.find("global_symbol=\"tvmgen_default_dnnl_main_0\", Primitive=1, "
                     "Compiler=\"dnnl\", Inline=1"),
            std::string::npos);
  EXPECT_EQ(out.find("annotation.compiler_"), std::string::npos);
  size_t functions = 0;
  for (size_t at = out.find("\ndef @tvmgen_default_dnnl_main_"); at != std::string::npos;
       at = out.find("\ndef @tvmgen_default_dnnl_main_", at + 1)) {
    ++functions;
  }
  EXPECT_EQ(functions, 19u);
}

}  // namespace
}  // namespace relaypass::conformance
