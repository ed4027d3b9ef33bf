// The pass registry: creating passes from text, the pipeline syntax, errors, and the lint.
#include <gtest/gtest.h>

#include "relaypass/support/error.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"
#include "test_util.h"

namespace relaypass::transform {
namespace {

using testing::Log;

class RegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::EnsureTestPassesRegistered();
    testing::RegisteredPassLog().clear();
  }
  static std::string ErrorOf(const std::function<void()>& fn) {
    try {
      fn();
    } catch (const PassError& e) {
      return e.what();
    }
    return "(no PassError)";
  }
  Log& log() { return testing::RegisteredPassLog(); }
};

TEST_F(RegistryTest, BuiltinPassesAreRegistered) {
  PassRegistry& registry = PassRegistry::Global();
  ASSERT_NE(registry.Find("InferType"), nullptr);
  ASSERT_NE(registry.Find("PrintIR"), nullptr);
  EXPECT_EQ(CreatePass("InferType").info().name, "InferType");
  EXPECT_EQ(CreatePass("PrintIR()").info().name, "PrintIR");
  EXPECT_EQ(CreatePass("InferType").spec(), "InferType");
}

TEST_F(RegistryTest, CreatePassWithOptionsFillsTheDefaults) {
  Pass pass = CreatePass("TestOptions(level=2)");
  EXPECT_EQ(pass.spec(), "TestOptions(level=2)");
  EXPECT_EQ(log(), Log({"created with level=2 flag=False scale=1.0 layout=\"NCHW\""}));
  log().clear();
  CreatePass("TestOptions( layout = 'NHWC' , scale = 2 , flag = True )");
  EXPECT_EQ(log(), Log({"created with level=-1 flag=True scale=2.0 layout=\"NHWC\""}));
}

TEST_F(RegistryTest, DictOptionsAsPythonLiterals) {
  const std::string text =
      "TestConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", "
      "\"default\"]})";
  Pass pass = CreatePass(text);
  EXPECT_EQ(PrintPipeline(pass), text);
  EXPECT_EQ(log(), Log({"created with {\"nn.conv2d\": [\"NHWC\", \"default\"]}"}));
}

TEST_F(RegistryTest, PipelineTextRoundTrips) {
  const std::string text = "TestRequired,TestRequiredOther,TestOptions(level=2)";
  Pass pipeline = ParsePipeline(text);
  EXPECT_EQ(pipeline.info().name, "sequential");
  ASSERT_EQ(SequentialPasses(pipeline)->size(), 3u);
  EXPECT_EQ(PrintPipeline(pipeline), text);
  EXPECT_EQ(PrintPipeline(ParsePipeline(PrintPipeline(pipeline))), text);
  EXPECT_EQ(PrintPipeline(ParsePipeline("  TestRequired ,TestOptions( level = 2, flag=True ) ")),
            "TestRequired,TestOptions(level=2, flag=True)");
  EXPECT_EQ(PrintPipeline(ParsePipeline("")), "");
  EXPECT_EQ(SequentialPasses(ParsePipeline(" "))->size(), 0u);
}

TEST_F(RegistryTest, ParsedPipelineRunsAsASequential) {
  ParsePipeline("TestRequired,TestConvertLayout(desired_layouts={})")(testing::TinyModule(),
                                                                      PassContext());
  // TestConvertLayout is level 3: skipped at the default level 2.
  EXPECT_EQ(log(), Log({"created with {}", "run TestRequired"}));
  log().clear();
  ParsePipeline("TestConvertLayout(desired_layouts={})")(testing::TinyModule(),
                                                         PassContext({.opt_level = 3}));
  EXPECT_EQ(log(), Log({"created with {}", "run TestRequired", "run TestConvertLayout"}));
}

TEST_F(RegistryTest, PrintPipelineOfHandMadePasses) {
  Pass hand = testing::LoggingPass("Hand", 0, &log());
  EXPECT_EQ(PrintPipeline(hand), "Hand");
  EXPECT_EQ(PrintPipeline(Sequential({CreatePass("TestOptions(level=1)"), hand})),
            "TestOptions(level=1),Hand");
  EXPECT_EQ(PrintPipeline(Sequential({hand}, "Named")), "Named");
}

TEST_F(RegistryTest, UnknownPassSuggestsAndListsTheRegisteredOnes) {
  std::string message = ErrorOf([] { CreatePass("InferTyp"); });
  EXPECT_EQ(message.substr(0, message.find(';')), "unknown pass \"InferTyp\"");
  EXPECT_NE(message.find("did you mean \"InferType\"?"), std::string::npos) << message;
  EXPECT_NE(message.find("registered passes: "), std::string::npos) << message;
  // what() is one line of at most about 400 characters (the list cut in the middle); the whole
  // list stays in message().
  EXPECT_LE(message.size(), 400u) << message;
  try {
    CreatePass("InferTyp");
  } catch (const PassError& e) {
    EXPECT_NE(e.message().find("PrintIR"), std::string::npos) << e.message();
  }
}

TEST_F(RegistryTest, OptionErrorsNameThePassAndTheValidOptions) {
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(levle=2)"); }),
            "pass \"TestOptions\" has no option \"levle\"; did you mean \"level\"?; its options: "
            "level, flag, scale, layout");
  EXPECT_EQ(ErrorOf([] { CreatePass("InferType(x=1)"); }),
            "pass \"InferType\" has no option \"x\"; it takes no options");
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(level=\"2\")"); }),
            "option \"level\" of pass \"TestOptions\" expects int, got str \"2\"");
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(level=1, level=2)"); }),
            "option \"level\" of pass \"TestOptions\" is given twice");
  EXPECT_EQ(ErrorOf([] { CreatePass("TestConvertLayout"); }),
            "pass \"TestConvertLayout\" needs option \"desired_layouts\" (dict)");
}

TEST_F(RegistryTest, SyntaxErrorsNameTheColumn) {
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(level=2"); }),
            "pass 'TestOptions(level=2': expected ')' at column 20");
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(=2)"); }),
            "pass 'TestOptions(=2)': expected an option name at column 13");
  EXPECT_EQ(ErrorOf([] { CreatePass("TestOptions(level 2)"); }),
            "pass 'TestOptions(level 2)': expected '=' at column 19");
  EXPECT_EQ(ErrorOf([] { CreatePass("InferType,PrintIR"); }),
            "pass 'InferType,PrintIR': unexpected text after the pass at column 10");
  EXPECT_EQ(ErrorOf([] { ParsePipeline("InferType,,PrintIR"); }),
            "pipeline 'InferType,,PrintIR': expected a pass name at column 11");
  EXPECT_EQ(ErrorOf([] { ParsePipeline("InferType PrintIR"); }),
            "pipeline 'InferType PrintIR': expected ',' between passes at column 11");
  EXPECT_EQ(ErrorOf([] { ParsePipeline("InferType,"); }),
            "pipeline 'InferType,': expected a pass name at column 11");
}

TEST_F(RegistryTest, RegistrationErrors) {
  PassRegistry registry;
  auto factory = [](const PassOptions&) { return testing::LoggingPass("X", 0, nullptr); };
  registry.Register({"X", {}, factory});
  EXPECT_EQ(ErrorOf([&] {
              registry.Register({"X", {}, factory});
            }),
            "pass \"X\" is registered twice");
  EXPECT_EQ(ErrorOf([&] {
              registry.Register({" Y", {}, factory});
            }),
            "cannot register pass \" Y\": a pass name is an identifier");
  EXPECT_EQ(
      ErrorOf([&] {
        registry.Register({"Z", {{"n", OptionType::kInt, OptionValue::Str("1"), ""}}, factory});
      }),
      "pass \"Z\": the default of option \"n\" is not of type int");
  EXPECT_EQ(ErrorOf([&] {
              registry.Register({"W",
                                 {{"n", OptionType::kInt, OptionValue::Int(1), ""},
                                  {"n", OptionType::kInt, OptionValue::Int(1), ""}},
                                 factory});
            }),
            "pass \"W\" declares option \"n\" twice");
  EXPECT_THROW(registry.Create("Nope"), PassError);
}

TEST_F(RegistryTest, LintOfTheProjectRegistryIsClean) {
  EXPECT_EQ(LintPassRegistry(PassRegistry::Global()), std::vector<std::string>());
  for (const std::string& name : PassRegistry::Global().Names()) {
    EXPECT_EQ(name.find_first_of(" \t\n"), std::string::npos) << name;
  }
}

TEST_F(RegistryTest, LintFindsBrokenRegistries) {
  PassRegistry registry;
  registry.Register({"Needs", {}, [](const PassOptions&) {
                       return testing::LoggingPass("Needs", 0, nullptr, {"Missing"});
                     }});
  registry.Register(
      {"needs", {}, [](const PassOptions&) { return testing::LoggingPass("needs", 0, nullptr); }});
  registry.Register({"Misnamed", {}, [](const PassOptions&) {
                       return testing::LoggingPass("Other", 0, nullptr);
                     }});
  registry.Register(
      {"NeedsOption", {{"n", OptionType::kInt, std::nullopt, ""}}, [](const PassOptions&) {
         return testing::LoggingPass("NeedsOption", 0, nullptr, {"Misnamed"});
       }});
  std::vector<std::string> problems = LintPassRegistry(registry);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].rfind("Misnamed: cannot be created with defaults", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1].rfind("Needs requires \"Missing\"", 0), 0u) << problems[1];
  EXPECT_EQ(problems[2].rfind("NeedsOption requires \"Misnamed\"", 0), 0u) << problems[2];
  EXPECT_EQ(problems[3], "\"Needs\" and \"needs\" differ only in case");
}

}  // namespace
}  // namespace relaypass::transform
