#include "pass_test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"

namespace relaypass::passes::testing {

std::string ReadGolden(const std::string& name) {
  std::ifstream in(std::string(RELAYPASS_TEST_DATA) + "/passes/" + name, std::ios::binary);
  EXPECT_TRUE(in) << "missing golden file " << name;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

ir::IRModule Typed(const ir::Function& func) {
  return ir::InferTypes(ir::IRModule::FromExpr(func));
}

ir::IRModule Untyped(const ir::Function& func) {
  return ir::IRModule::FromExpr(func);
}

ir::IRModule TutorialFolded() {
  auto f32 = ir::DataType::Float32();
  relay::Expr c0 = relay::const_(ir::NDArray::Empty({1, 64, 54, 54}, f32));
  relay::Expr c1 = relay::const_(ir::NDArray::Empty({1, 64, 54, 54}, f32));
  relay::Var x = relay::var("x", ir::TensorType({1, 64, 56, 56}, f32));
  relay::Var weight = relay::var("weight", {64, 64, 3, 3});
  relay::Expr y = relay::add(relay::nn::conv2d(x, weight), c0);
  relay::Expr z = relay::add(y, c1);
  relay::Expr z1 = relay::add(y, c1);
  return Typed(relay::function({x, weight}, relay::add(z, z1)));
}

std::string Print(const ir::IRModule& mod) {
  return text::PrettyPrint(mod);
}

std::string StripTypes(std::string text) {
  for (size_t at; (at = text.find(" /* ty=")) != std::string::npos;) {
    text.erase(at, text.find("*/", at) + 2 - at);
  }
  return text;
}

std::string RebaseGenSym(const std::string& text, uint64_t base) {
  static const std::regex fresh("%x_([0-9]+)");
  std::string out;
  auto end = std::sregex_iterator();
  size_t last = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fresh); it != end; ++it) {
    out.append(text, last, static_cast<size_t>(it->position()) - last);
    uint64_t n = std::stoull((*it)[1].str());
    out += "%x_" + std::to_string(n - base);
    last = static_cast<size_t>(it->position() + it->length());
  }
  out.append(text, last);
  return out;
}

}  // namespace relaypass::passes::testing
