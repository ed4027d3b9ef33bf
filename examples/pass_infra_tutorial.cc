// "How to Use TVM Pass Infra" in C++, statement by statement, printing exactly what the tutorial
// prints (to stdout) and nothing else. The PrintIR *pass* writes to stderr, as TVM's does.
#include <cassert>
#include <iostream>
#include <memory>

#include "relaypass/ir/visitor.h"
#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/passes/target.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

using namespace relaypass;  // NOLINT: an example reads best with short names
namespace rt = relaypass::transform;

namespace {

// Python's print(mod): the module text and a newline.
void Print(const ir::IRModule& mod) {
  std::cout << text::PrettyPrint(mod) << "\n";
}

// @relay.transform.function_pass(opt_level=1) class CustomPipeline: replaces every constant c by
// multiply(multiplier, c).
class CustomPipeline {
 public:
  explicit CustomPipeline(ir::Expr multiplier) : multiplier_(std::move(multiplier)) {}

  ir::Function transform_function(const ir::Function& func, const ir::IRModule&,
                                  const rt::PassContext&) const {
    class ReplaceConstant : public ir::ExprMutator {
     public:
      explicit ReplaceConstant(ir::Expr multiplier) : multiplier_(std::move(multiplier)) {}

     protected:
      ir::Expr RewriteConstant(const ir::ConstantNode*, const ir::Expr& c) override {
        return relay::multiply(multiplier_, c);
      }

     private:
      ir::Expr multiplier_;
    };
    return ReplaceConstant(multiplier_).Mutate(func).downcast<ir::FunctionNode>();
  }

 private:
  ir::Expr multiplier_;
};

// @tvm.instrument.pass_instrument class PrintIR: prints the pass info and the IR before each pass.
class PrintIR : public rt::PassInstrument {
 public:
  void run_before_pass(const ir::IRModule& mod, const rt::PassInfo& info) override {
    std::cout << "Running pass: {} " << info << "\n";
    Print(mod);
  }
};

}  // namespace

int main() {
  // Manually Apply Optimization Passes
  ir::Function f = workloads::Example();
  ir::IRModule mod = ir::IRModule::FromExpr(f);
  rt::Pass fold_const = passes::FoldConstant();
  mod = fold_const(mod);
  Print(mod);

  mod = passes::EliminateCommonSubexpr()(mod);
  Print(mod);

  mod = passes::FuseOps(/*fuse_opt_level=*/0)(mod);
  Print(mod);

  // Use Sequential to Apply a Sequence of Passes
  f = workloads::Example();
  mod = ir::IRModule::FromExpr(f);
  rt::Pass seq = rt::Sequential({passes::FoldConstant(), passes::EliminateCommonSubexpr(),
                                 passes::FuseOps(/*fuse_opt_level=*/2)});
  ir::IRModule mod1 = seq(mod);
  Print(mod1);

  ir::IRModule mod2;
  {
    rt::PassContextScope scope(rt::PassContext({.opt_level = 3}));
    mod2 = seq(mod);
  }
  Print(mod2);

  ir::IRModule mod3;
  {
    rt::PassContextScope scope(
        rt::PassContext({.opt_level = 3, .disabled_pass = {"EliminateCommonSubexpr"}}));
    mod3 = seq(mod);
  }
  Print(mod3);

  // Implement a Pass Using Python Decorator
  f = workloads::Example();
  mod = ir::IRModule::FromExpr(f);
  rt::Pass custom_pass = rt::function_pass(CustomPipeline(relay::const_(3, "float32")), 1);
  assert(custom_pass.info().name == "CustomPipeline");
  mod3 = custom_pass(mod);
  Print(mod3);

  // Debug a Pass
  f = workloads::Example();
  mod = ir::IRModule::FromExpr(f);
  seq = rt::Sequential(
      {passes::FoldConstant(), rt::PrintIR(), passes::EliminateCommonSubexpr(), passes::FuseOps()});
  {
    rt::PassContextScope scope(
        rt::PassContext({.opt_level = 3, .instruments = {std::make_shared<PrintIR>()}}));
    passes::TargetScope target(passes::Target("llvm"));
    mod = seq(mod);
  }
  Print(mod);
  std::cout << "done\n";  // the tutorial's last line, print("done")
  return 0;
}
