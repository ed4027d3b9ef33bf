// An example relay-opt pass plugin (docs/cli.md, "Plugins"):
//
//   build/relay-opt --load-pass-plugin=build/examples/plugin/libexample_plugin.so
//                   --pipeline=ExampleCountCalls
//
// It is built against the relaypass headers only; the library's symbols come from relay-opt
// when it is loaded (relay-opt exports them), so the passes go into relay-opt's own registry.
// It registers four passes and one instrument:
//   ExampleCountCalls(verbose=False)  prints the number of calls of each function to stderr
//   ExampleFail(message="...", when_op="")
//                                     fails with a PassError: always, or when the module calls
//                                     operator `when_op` (a pass that rejects some modules)
//   ExampleNudge(amount=0.001)        adds `amount` to main's result: a wrong optimization,
//                                     for --verify-each, --bisect-verify and --reduce
//   ExampleCrash                      aborts the process (for crash-reproducer tests)
//   ExamplePassCounter (instrument)   counts the passes that ran, printed when the context exits
#include <cstdlib>
#include <iostream>
#include <memory>

#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/plugin.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/pass_instrument.h"
#include "relaypass/transform/registry.h"

namespace {

using namespace relaypass;

transform::Pass CountCalls(bool verbose) {
  return transform::CreateModulePass(
      [verbose](const ir::IRModule& mod, const transform::PassContext&) {
        for (const auto& [gv, func] : mod.functions()) {
          int64_t calls = 0;
          ir::post_order_visit(func, [&](const ir::Expr& e) {
            if (e->kind == ir::ExprKind::kCall) ++calls;
          });
          std::cerr << "example-plugin: @" << gv->name_hint << " has " << calls << " calls";
          if (verbose) std::cerr << " and " << func->params.size() << " parameters";
          std::cerr << "\n";
        }
        return mod;
      },
      /*opt_level=*/0, "ExampleCountCalls");
}

bool CallsOp(const ir::IRModule& mod, const std::string& op) {
  bool found = false;
  for (const auto& [gv, func] : mod.functions()) {
    ir::post_order_visit(func, [&](const ir::Expr& e) {
      if (e->kind == ir::ExprKind::kOp && static_cast<const ir::OpNode*>(e.get())->name == op) {
        found = true;
      }
    });
  }
  return found;
}

transform::Pass Fail(const std::string& message, const std::string& when_op) {
  return transform::CreateModulePass(
      [message, when_op](const ir::IRModule& mod, const transform::PassContext&) {
        if (when_op.empty() || CallsOp(mod, when_op)) {
          throw PassError("ExampleFail: " + message);
        }
        return mod;
      },
      /*opt_level=*/0, "ExampleFail");
}

transform::Pass Nudge(double amount) {
  return transform::CreateModulePass(
      [amount](const ir::IRModule& mod, const transform::PassContext&) {
        const ir::Function main = mod.Lookup("main");
        ir::IRModule out = mod;
        out.Add("main", ir::MakeFunction(main->params,
                                         relay::add(main->body, relay::const_(amount, "float32")),
                                         main->ret_type, main->attrs));
        return transform::InferType()(out);
      },
      /*opt_level=*/0, "ExampleNudge");
}

transform::Pass Crash() {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) -> ir::IRModule {
        std::abort();
        return mod;
      },
      /*opt_level=*/0, "ExampleCrash");
}

class PassCounter final : public transform::PassInstrument {
 public:
  std::string name() const override { return "ExamplePassCounter"; }
  void enter_pass_ctx() override { count_ = 0; }
  void run_after_pass(const ir::IRModule&, const transform::PassInfo&) override { ++count_; }
  void exit_pass_ctx() override { std::cerr << "example-plugin: " << count_ << " passes ran\n"; }

 private:
  int64_t count_ = 0;
};

}  // namespace

extern "C" int relaypass_plugin_abi_version() {
  return RELAYPASS_PLUGIN_ABI_VERSION;
}

extern "C" void relaypass_register_plugin(relaypass::transform::PassRegistry& registry) {
  using relaypass::transform::OptionType;
  using relaypass::transform::OptionValue;
  registry.Register({"ExampleCountCalls",
                     {{"verbose", OptionType::kBool, OptionValue::Bool(false),
                       "also print the number of parameters"}},
                     [](const relaypass::transform::PassOptions& options) {
                       return CountCalls(options.GetBool("verbose"));
                     },
                     "(example plugin) prints the number of calls of each function"});
  registry.Register({"ExampleFail",
                     {{"message", OptionType::kString, OptionValue::Str("failed on purpose"),
                       "the error message"},
                      {"when_op", OptionType::kString, OptionValue::Str(""),
                       "fail only if the module calls this operator"}},
                     [](const relaypass::transform::PassOptions& options) {
                       return Fail(options.GetString("message"), options.GetString("when_op"));
                     },
                     "(example plugin) fails, always or when the module calls when_op"});
  registry.Register({"ExampleNudge",
                     {{"amount", OptionType::kFloat, OptionValue::Double(0.001),
                       "what is added to main's result"}},
                     [](const relaypass::transform::PassOptions& options) {
                       return Nudge(options.GetFloat("amount"));
                     },
                     "(example plugin) adds amount to main's result (a wrong optimization)"});
  registry.Register({"ExampleCrash",
                     {},
                     [](const relaypass::transform::PassOptions&) { return Crash(); },
                     "(example plugin) aborts the process"});
}

extern "C" void relaypass_register_plugin_instruments(relaypass::tools::PluginInstruments& out) {
  out.instruments.push_back(std::make_shared<PassCounter>());
}
