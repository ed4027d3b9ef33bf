// "How to Use TVM Pass Instrument" in C++, statement by statement, printing what the tutorial
// prints. So far its "Exception Handling" part; the resnet-18 parts (timing profiles and the
// RelayCallNodeDiffer instrument) come with the workloads.
#include <iostream>
#include <stdexcept>
#include <string>

#include "relaypass/relay.h"
#include "relaypass/transform.h"

using namespace relaypass;

namespace {

// Python's ValueError as the tutorial catches it: `str(ex).split("\n")[-1]` of the error TVM
// re-raises is "ValueError: MESSAGE", which is what() here.
class ValueError : public std::runtime_error {
 public:
  explicit ValueError(const std::string& message) : std::runtime_error("ValueError: " + message) {}
};

void PrintCaught(const ValueError& ex) {
  std::string text = ex.what();
  std::cout << "Catching " << text.substr(text.rfind('\n') + 1) << "\n";
}

class PassExampleBase : public transform::PassInstrument {
 public:
  explicit PassExampleBase(std::string name) : name_(std::move(name)) {}

  void enter_pass_ctx() override { std::cout << name_ << " enter_pass_ctx\n"; }
  void exit_pass_ctx() override { std::cout << name_ << " exit_pass_ctx\n"; }
  bool should_run(const ir::IRModule&, const transform::PassInfo&) override {
    std::cout << name_ << " should_run\n";
    return true;
  }
  void run_before_pass(const ir::IRModule&, const transform::PassInfo&) override {
    std::cout << name_ << " run_before_pass\n";
  }
  void run_after_pass(const ir::IRModule&, const transform::PassInfo&) override {
    std::cout << name_ << " run_after_pass\n";
  }

 protected:
  std::string name_;
};

class PassFine : public PassExampleBase {
 public:
  using PassExampleBase::PassExampleBase;
};

class PassBadEnterCtx : public PassExampleBase {
 public:
  using PassExampleBase::PassExampleBase;
  void enter_pass_ctx() override {
    std::cout << name_ << " bad enter_pass_ctx!!!\n";
    throw ValueError(name_ + " bad enter_pass_ctx");
  }
};

class PassBadExitCtx : public PassExampleBase {
 public:
  using PassExampleBase::PassExampleBase;
  void exit_pass_ctx() override {
    std::cout << name_ << " bad exit_pass_ctx!!!\n";
    throw ValueError(name_ + " bad exit_pass_ctx");
  }
};

class PassBadRunBefore : public PassExampleBase {
 public:
  using PassExampleBase::PassExampleBase;
  void run_before_pass(const ir::IRModule&, const transform::PassInfo&) override {
    std::cout << name_ << " bad run_before_pass!!!\n";
    throw ValueError(name_ + " bad run_before_pass");
  }
};

// Fine_0, Bad, Fine_1 as each section of the tutorial lists them.
template <typename Bad>
transform::PassInstruments FineBadFine(const std::string& bad_name) {
  return {std::make_shared<PassFine>("PassFine_0"), std::make_shared<Bad>(bad_name),
          std::make_shared<PassFine>("PassFine_1")};
}

void ExceptionHandling(ir::IRModule relay_mod) {
  // An exception in enter_pass_ctx: the instruments that entered are exited.
  transform::PassContext demo_ctx({.instruments = FineBadFine<PassBadEnterCtx>("PassBadEnterCtx")});
  try {
    transform::PassContextScope scope(demo_ctx);
    relay_mod = transform::InferType()(relay_mod);
  } catch (const ValueError& ex) {
    PrintCaught(ex);
  }
  demo_ctx.override_instruments({});  // no PassFine_0 exit_pass_ctx printed....etc

  // An exception in exit_pass_ctx: later instruments are not exited.
  demo_ctx = transform::PassContext({.instruments = FineBadFine<PassBadExitCtx>("PassBadExitCtx")});
  try {
    // PassFine_1 execute enter_pass_ctx, but not exit_pass_ctx.
    transform::PassContextScope scope(demo_ctx);
    relay_mod = transform::InferType()(relay_mod);
  } catch (const ValueError& ex) {
    PrintCaught(ex);
  }

  // An exception in run_before_pass: the scope exits every instrument.
  demo_ctx =
      transform::PassContext({.instruments = FineBadFine<PassBadRunBefore>("PassBadRunBefore")});
  try {
    // All exit_pass_ctx are called.
    transform::PassContextScope scope(demo_ctx);
    relay_mod = transform::InferType()(relay_mod);
  } catch (const ValueError& ex) {
    PrintCaught(ex);
  }
  demo_ctx.override_instruments({});

  // Without a scope, exit_pass_ctx is not called after the exception.
  transform::PassContext cur_pass_ctx = transform::PassContext::Current();
  cur_pass_ctx.override_instruments(FineBadFine<PassBadRunBefore>("PassBadRunBefore"));
  try {
    // No exit_pass_ctx got executed.
    relay_mod = transform::InferType()(relay_mod);
  } catch (const ValueError& ex) {
    PrintCaught(ex);
  }
  // Clear instruments.
  cur_pass_ctx.override_instruments({});
}

}  // namespace

int main() {
  // Stands in for the tutorial's resnet-18 until the workloads are ported.
  relay::Var data = relay::var("data", {1, 3, 224, 224});
  ir::IRModule relay_mod = ir::IRModule::FromExpr(relay::function({data}, relay::nn::relu(data)));
  ExceptionHandling(relay_mod);
  return 0;
}
