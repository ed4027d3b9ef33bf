// Pipeline text's one owner: the grammar read and written back, kebab-case spellings of pass
// names, and a pipeline printed with every option resolved. Expected texts are written by hand
// from the registered passes' options (relay-opt --list-passes shows the same).
#include <gtest/gtest.h>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pipeline_text.h"
#include "relaypass/transform/registry.h"

namespace relaypass::transform {
namespace {

TEST(PipelineTextTest, ReadsAndWritesTheGrammar) {
  const std::vector<PassText> passes = ReadPipelineText(
      " FoldConstant , FuseOps( fuse_opt_level = 2 ),fold-constant,"
      "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", \"default\"]})");
  ASSERT_EQ(passes.size(), 4u);
  EXPECT_EQ(passes[0].name, "FoldConstant");
  EXPECT_EQ(passes[0].column, 2u);
  EXPECT_EQ(passes[1].name, "FuseOps");
  ASSERT_EQ(passes[1].options.size(), 1u);
  EXPECT_EQ(passes[1].options[0].first, "fuse_opt_level");
  EXPECT_EQ(passes[1].options[0].second.as_int(), 2);
  EXPECT_EQ(passes[2].name, "fold-constant") << "a kebab-case spelling reads as a name";
  EXPECT_EQ(WritePipelineText(passes),
            "FoldConstant,FuseOps(fuse_opt_level=2),fold-constant,"
            "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", \"default\"]})");
  EXPECT_EQ(WritePipelineText(ReadPipelineText(WritePipelineText(passes))),
            WritePipelineText(passes));
  EXPECT_TRUE(ReadPipelineText("  ").empty());
}

TEST(PipelineTextTest, SyntaxErrorsNameTheColumnOfTheTextGiven) {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      ReadPipelineText(text);
    } catch (const PassError& e) {
      return e.what();
    }
    return "(no PassError)";
  };
  EXPECT_EQ(error_of("fold-constant FuseOps"),
            "pipeline 'fold-constant FuseOps': expected ',' between passes at column 15");
  EXPECT_EQ(error_of("FuseOps(fuse_opt_level=)"),
            "pipeline 'FuseOps(fuse_opt_level=)': expected a value (a number, True, False, None, "
            "a \"string\", [...] or {...}) at column 24");
  EXPECT_THROW(ReadPassText("FoldConstant,FuseOps"), PassError);
}

TEST(PipelineTextTest, KebabCaseSpellingsOfRegisteredNames) {
  const PassRegistry& registry = PassRegistry::Global();
  EXPECT_EQ(RegisteredSpelling("fold-constant", registry), "FoldConstant");
  EXPECT_EQ(RegisteredSpelling("fuse_ops", registry), "FuseOps");
  EXPECT_EQ(RegisteredSpelling("infertype", registry), "") << "no separator: case-sensitive";
  EXPECT_EQ(RegisteredSpelling("FoldConstant", registry), "") << "already registered";
  EXPECT_EQ(RegisteredSpelling("fold-constants", registry), "");
  std::vector<PassNameFix> fixes;
  std::vector<std::string> unknown;
  EXPECT_EQ(NormalizePipelineNames(
                "fold-constant, fuse-ops(fuse_opt_level=2),no-such-pass,"
                "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", \"default\"]})",
                registry, &fixes, &unknown),
            "FoldConstant,FuseOps(fuse_opt_level=2),no-such-pass,"
            "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", \"default\"]})");
  ASSERT_EQ(fixes.size(), 2u);
  EXPECT_EQ(fixes[1].written, "fuse-ops");
  EXPECT_EQ(fixes[1].registered, "FuseOps");
  EXPECT_EQ(unknown, std::vector<std::string>{"no-such-pass"});
}

TEST(PipelineTextTest, ResolvedPipelineShowsEveryOption) {
  const PassRegistry& registry = PassRegistry::Global();
  const Pass pipeline = ParsePipeline("FoldConstant,FuseOps(fuse_opt_level=2)");
  EXPECT_EQ(PrintPipeline(pipeline), "FoldConstant,FuseOps(fuse_opt_level=2)");
  EXPECT_EQ(PrintResolvedPipeline(pipeline, registry),
            "sequential\n  FoldConstant(fold_qnn=False)\n  FuseOps(fuse_opt_level=2)\n");
  PassContextOptions options;
  options.opt_level = 1;
  const PassContext ctx(options);
  EXPECT_EQ(PrintResolvedPipeline(pipeline, registry, &ctx),
            "sequential\n  FoldConstant(fold_qnn=False)  // skipped: opt_level 2 > 1\n"
            "  FuseOps(fuse_opt_level=2)\n");
}

}  // namespace
}  // namespace relaypass::transform
