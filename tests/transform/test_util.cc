#include "test_util.h"

#include <mutex>

#include "relaypass/ir/type.h"
#include "relaypass/transform/registry.h"

namespace relaypass::transform::testing {

ir::IRModule TinyModule() {
  ir::Var x = ir::MakeVar("x", ir::TensorType({1, 4}, ir::DataType::Float32()));
  return ir::IRModule::FromExpr(ir::MakeFunction({x}, x));
}

Pass LoggingPass(const std::string& name, int opt_level, Log* log,
                 std::vector<std::string> required) {
  return CreateModulePass(
      [name, log](const ir::IRModule& mod, const PassContext&) {
        log->push_back("run " + name);
        return mod;
      },
      opt_level, name, std::move(required));
}

Log& RegisteredPassLog() {
  static Log log;
  return log;
}

void EnsureTestPassesRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistry& registry = PassRegistry::Global();
    for (const char* name : {"TestRequired", "TestRequiredOther"}) {
      registry.Register({name, {}, [name](const PassOptions&) {
                           return LoggingPass(name, 0, &RegisteredPassLog());
                         }});
    }
    registry.Register({"TestOptions",
                       {{"level", OptionType::kInt, OptionValue::Int(-1), "an int"},
                        {"flag", OptionType::kBool, OptionValue::Bool(false), "a bool"},
                        {"scale", OptionType::kFloat, OptionValue::Double(1.0), "a float"},
                        {"layout", OptionType::kString, OptionValue::Str("NCHW"), "a string"}},
                       [](const PassOptions& options) {
                         std::string text;
                         for (const auto& [key, value] : options.values()) {
                           text += (text.empty() ? "" : " ") + key + "=" + OptionLiteral(value);
                         }
                         RegisteredPassLog().push_back("created with " + text);
                         return LoggingPass("TestOptions", 0, &RegisteredPassLog());
                       }});
    registry.Register({"TestConvertLayout",
                       {{"desired_layouts", OptionType::kDict, std::nullopt, "op -> layouts"}},
                       [](const PassOptions& options) {
                         RegisteredPassLog().push_back(
                             "created with " + OptionLiteral(options.Get("desired_layouts")));
                         return LoggingPass("TestConvertLayout", 3, &RegisteredPassLog(),
                                            {"TestRequired"});
                       }});
  });
}

}  // namespace relaypass::transform::testing
