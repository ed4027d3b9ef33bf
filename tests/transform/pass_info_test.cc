// PassInfo's printed form, as the pass-infra tutorial's trace shows it.
#include <gtest/gtest.h>

#include <sstream>

#include "relaypass/text/print_ir.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass_info.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::transform {
namespace {

TEST(PassInfoTest, PrintedFormWithoutRequiredPasses) {
  PassInfo info{2, "FoldConstant", {}};
  EXPECT_EQ(info.ToString(),
            "The meta data of the pass - pass name: FoldConstant, opt_level: 2, "
            "required passes: []\n");
}

TEST(PassInfoTest, PrintedFormWithRequiredPasses) {
  PassInfo info{3, "EliminateCommonSubexpr", {"InferType"}};
  EXPECT_EQ(info.ToString(),
            "The meta data of the pass - pass name: EliminateCommonSubexpr, opt_level: 3, "
            "required passes: [\nInferType, ]\n");
  PassInfo two{3, "ConvertLayout", {"InferType", "CanonicalizeOps"}};
  EXPECT_EQ(two.ToString(),
            "The meta data of the pass - pass name: ConvertLayout, opt_level: 3, "
            "required passes: [\nInferType, CanonicalizeOps, ]\n");
}

TEST(PassInfoTest, StreamsLikePythonPrint) {
  // print("Running pass: {}", info) in the tutorial.
  std::ostringstream os;
  os << "Running pass: {} " << Sequential({}).info() << "\n";
  EXPECT_EQ(os.str(),
            "Running pass: {} The meta data of the pass - pass name: sequential, opt_level: 0, "
            "required passes: []\n\n");
}

TEST(PassInfoTest, BuiltinPasses) {
  EXPECT_EQ(InferType().info().ToString(),
            "The meta data of the pass - pass name: InferType, opt_level: 0, "
            "required passes: []\n");
  EXPECT_EQ(PrintIR().info().ToString(),
            "The meta data of the pass - pass name: PrintIR, opt_level: 0, "
            "required passes: []\n");
  EXPECT_EQ(InferType().kind(), PassKind::kModule);
  EXPECT_EQ(PrintIR().kind(), PassKind::kModule);
}

}  // namespace
}  // namespace relaypass::transform
