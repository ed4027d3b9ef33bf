// The catalogue of bad pass requests (issue 9): unknown passes and options, bad option values,
// pipeline syntax, and unknown or mistyped PassContext config. The library throws PassError with
// a one-line message (these have no source location); relay-opt exits 1 with
// `relay-opt: error: --OPTION: <the same message>` and nothing on stdout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/workloads.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

using transform::OptionValue;

// How the request reaches the library: one pass (CreatePass), a pipeline (ParsePipeline).
enum class Via { kPass, kPipeline };

struct PassCase {
  std::string name;
  Via via;
  std::string text;
  std::string message;  // what the PassError's message starts with
};

std::ostream& operator<<(std::ostream& os, const PassCase& c) {
  return os << c.name;
}

std::vector<PassCase> PassCatalogue() {
  return {
      {"unknown_pass", Via::kPass, "FoldConstnt",
       "unknown pass \"FoldConstnt\"; did you mean \"FoldConstant\"?"},
      {"unknown_pass_in_pipeline", Via::kPipeline, "InferType,NoSuchPass,FuseOps",
       "unknown pass \"NoSuchPass\""},
      {"lowercase_pass", Via::kPass, "fuseops", "unknown pass \"fuseops\""},
      {"unknown_option", Via::kPass, "FuseOps(fuse_level=2)",
       "pass \"FuseOps\" has no option \"fuse_level\"; its options: fuse_opt_level"},
      {"option_of_optionless_pass", Via::kPass, "InferType(level=1)",
       "pass \"InferType\" has no option \"level\""},
      {"string_for_int", Via::kPass, "FuseOps(fuse_opt_level=\"two\")",
       "option \"fuse_opt_level\" of pass \"FuseOps\" expects int, got str \"two\""},
      {"float_for_int", Via::kPass, "FuseOps(fuse_opt_level=1.5)",
       "option \"fuse_opt_level\" of pass \"FuseOps\" expects int"},
      {"int_for_bool", Via::kPass, "DeadCodeElimination(inline_once=2)",
       "option \"inline_once\" of pass \"DeadCodeElimination\" expects bool, got int 2"},
      {"option_given_twice", Via::kPass, "FoldConstant(fold_qnn=True, fold_qnn=False)",
       "option \"fold_qnn\" of pass \"FoldConstant\" is given twice"},
      {"missing_required_option", Via::kPass, "ConvertLayout",
       "pass \"ConvertLayout\" needs option \"desired_layouts\" (dict)"},
      {"int_for_dict", Via::kPass, "ConvertLayout(desired_layouts=3)",
       "option \"desired_layouts\" of pass \"ConvertLayout\" expects dict, got int 3"},
      {"bad_dict_entry", Via::kPass, "ConvertLayout(desired_layouts={\"nn.conv2d\": 3})",
       "ConvertLayout: desired_layouts[\"nn.conv2d\"] must be a list of layout strings"},
      {"unclosed_options", Via::kPipeline, "FuseOps(fuse_opt_level=1",
       "pipeline 'FuseOps(fuse_opt_level=1': expected ')' at column 25"},
      {"empty_pipeline_entry", Via::kPipeline, "InferType,,FuseOps",
       "pipeline 'InferType,,FuseOps': expected a pass name at column 11"},
      {"missing_comma", Via::kPipeline, "InferType FuseOps",
       "pipeline 'InferType FuseOps': expected ',' between passes at column 11"},
      {"int_out_of_range", Via::kPipeline, "FuseOps(fuse_opt_level=99999999999999999999)",
       "pipeline 'FuseOps(fuse_opt_level=99999999999999999999)': integer out of range at column "
       "24"},
      {"unterminated_string_value", Via::kPipeline, "FuseOps(fuse_opt_level=\"2)",
       "pipeline 'FuseOps(fuse_opt_level=\"2)': "},
  };
}

std::string PassErrorOf(const PassCase& c) {
  try {
    if (c.via == Via::kPass) {
      transform::CreatePass(c.text);
    } else {
      transform::ParsePipeline(c.text);
    }
  } catch (const PassError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("(not a PassError) ") + e.what();
  }
  return "(no error)";
}

class PassCatalogueTest : public ::testing::TestWithParam<PassCase> {};

TEST_P(PassCatalogueTest, LibraryThrowsOneLinePassError) {
  const PassCase& c = GetParam();
  const std::string what = PassErrorOf(c);
  EXPECT_EQ(what.substr(0, c.message.size()), c.message) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
}

TEST_P(PassCatalogueTest, RelayOptExitsOneWithOneDiagnostic) {
  const PassCase& c = GetParam();
  const std::string option = c.via == Via::kPass ? "--passes" : "--pipeline";
  const ToolRun run = RunRelayOpt(option + "=" + ShellQuote(c.text));
  ExpectToolError(run, option + ": " + c.message);
  EXPECT_EQ(run.err, run.first_err_line() + "\n");
}

INSTANTIATE_TEST_SUITE_P(Catalogue, PassCatalogueTest, ::testing::ValuesIn(PassCatalogue()),
                         [](const ::testing::TestParamInfo<PassCase>& info) {
                           return info.param.name;
                         });

// ---------------------------------------------------------------------------------------------
// PassContext config

struct ConfigCase {
  std::string name;
  std::string key;
  std::string value;  // a Python literal, as relay-opt's --config takes it
  std::string message;
};

std::ostream& operator<<(std::ostream& os, const ConfigCase& c) {
  return os << c.name;
}

std::vector<ConfigCase> ConfigCatalogue() {
  return {
      {"unknown_key", "relay.FuseOps.maxdepth", "3",
       "unknown PassContext config option \"relay.FuseOps.maxdepth\""},
      {"unknown_namespace", "tir.disable_vectorize", "True",
       "unknown PassContext config option \"tir.disable_vectorize\""},
      {"string_for_int", "relay.FuseOps.max_depth", "\"deep\"",
       "PassContext config option \"relay.FuseOps.max_depth\" expects int"},
      {"float_for_int", "relay.FuseOps.max_depth", "2.5",
       "PassContext config option \"relay.FuseOps.max_depth\" expects int"},
      {"int_for_bool", "relay.FuseOps.link_params", "2",
       "PassContext config option \"relay.FuseOps.link_params\" expects bool"},
      {"list_for_bool", "relay.FuseOps.link_params", "[True]",
       "PassContext config option \"relay.FuseOps.link_params\" expects bool"},
  };
}

class ConfigCatalogueTest : public ::testing::TestWithParam<ConfigCase> {};

TEST_P(ConfigCatalogueTest, ContextConstructorThrowsOneLinePassError) {
  const ConfigCase& c = GetParam();
  try {
    transform::PassContext ctx({.config = {{c.key, transform::ParseOptionValue(c.value)}}});
    ADD_FAILURE() << "no error";
  } catch (const PassError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.substr(0, c.message.size()), c.message) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST_P(ConfigCatalogueTest, SetConfigThrowsAndLeavesTheContextUnchanged) {
  const ConfigCase& c = GetParam();
  transform::PassContext ctx({.config = {{"relay.FuseOps.max_depth", OptionValue::Int(7)}}});
  EXPECT_THROW(ctx.SetConfig(c.key, transform::ParseOptionValue(c.value)), PassError);
  ASSERT_EQ(ctx.config().size(), 1u);
  EXPECT_EQ(ctx.GetConfig("relay.FuseOps.max_depth"), OptionValue::Int(7));
}

TEST_P(ConfigCatalogueTest, RelayOptExitsOneWithOneDiagnostic) {
  const ConfigCase& c = GetParam();
  const ToolRun run = RunRelayOpt("--config=" + ShellQuote(c.key + "=" + c.value));
  ExpectToolError(run, "--config: " + c.message);
}

INSTANTIATE_TEST_SUITE_P(Catalogue, ConfigCatalogueTest, ::testing::ValuesIn(ConfigCatalogue()),
                         [](const ::testing::TestParamInfo<ConfigCase>& info) {
                           return info.param.name;
                         });

TEST(ConfigTest, GetConfigOfAnUnknownKeyThrows) {
  EXPECT_THROW(transform::PassContext().GetConfig("relay.FuseOps.maxdepth"), PassError);
}

TEST(ConfigTest, MalformedConfigArgument) {
  ExpectToolError(RunRelayOpt("--config=relay.FuseOps.max_depth"),
                  "--config: expected KEY=VALUE, got 'relay.FuseOps.max_depth'");
  ExpectToolError(RunRelayOpt("--config=" + ShellQuote("relay.FuseOps.max_depth=[1,")),
                  "--config: ");
}

// ---------------------------------------------------------------------------------------------
// Bad option values that only show when the pass runs: the error names the pass, and relay-opt
// still prints nothing on stdout.

TEST(PassRunTest, ConvertLayoutToAnUnknownLayout) {
  ir::IRModule mod = workloads::GetWorkload("example").mod;
  const std::string before = text::PrettyPrint(mod);
  transform::Pass pass = transform::CreatePass(
      "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"XYZW\", \"default\"]})");
  try {
    pass(mod);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("XYZW"), std::string::npos) << what;
  }
  EXPECT_EQ(text::PrettyPrint(mod), before);
  ExpectToolError(
      RunRelayOpt(
          "--passes=" +
          ShellQuote("ConvertLayout(desired_layouts={\"nn.conv2d\": [\"XYZW\", \"default\"]})")),
      "Layout XYZW is not yet supported");
}

}  // namespace
}  // namespace relaypass::bad_input
