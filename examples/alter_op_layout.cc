// The AlterOpLayout example of the pass-infra tutorial (pass_infra_tutorial_zh.txt) in C++:
//
//   @relay.op.register_alter_op_layout("nn.conv2d", level=101)
//   def alter_conv2d(attrs, inputs, tinfos, out_type):
//       data, weight = inputs
//       new_attrs = dict(attrs)
//       new_attrs["data_layout"] = "NCHW16c"
//       return relay.nn.conv2d(data, weight, **new_attrs)
//
//   f = example(); mod = tvm.IRModule.from_expr(f)
//   seq1 = tvm.transform.Sequential([relay.transform.AlterOpLayout()])
//   with tvm.transform.PassContext(opt_level=3):
//       with tvm.target.Target("llvm"):
//           mod5 = seq1(mod)
//   print(mod5)
#include <iostream>
#include <map>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/alter_op_layout.h"
#include "relaypass/passes/target.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

using namespace relaypass;

namespace {

ir::Expr AlterConv2D(const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                     const std::vector<ir::Type>& /*tinfos*/, const ir::Type& /*out_type*/) {
  ir::Attrs new_attrs = attrs->With("data_layout", ir::AttrValue::Str("NCHW16c"));
  return ir::MakeCall(op::GetOp("nn.conv2d"), inputs, new_attrs);
}

// The zh tutorial's output was printed by an older TVM, whose printer put no `/* ty=... */`
// comment on function parameters (v0.13's printer, like ours, shows one on typed parameters). To
// print what the tutorial shows, the parameters are swapped for untyped copies (same names and
// annotations); every other node keeps its type.
ir::Function WithUntypedParams(const ir::Function& func) {
  class ParamSwapper : public ir::ExprMutator {
   public:
    explicit ParamSwapper(const ir::Function& func) {
      for (const ir::Var& p : func->params) {
        fresh_[p.get()] = ir::MakeVar(p->name_hint, p->type_annotation);
      }
    }

   protected:
    ir::Expr Rewrite(const ir::Expr& pre, const ir::Expr& post) override {
      if (auto it = fresh_.find(pre.get()); it != fresh_.end()) return it->second;
      ir::Expr out = ir::ExprMutator::Rewrite(pre, post);
      if (!out.same_as(pre) && pre->checked_type) out = ir::WithCheckedType(out, pre->checked_type);
      return out;
    }

   private:
    std::map<const ir::ExprNode*, ir::Var> fresh_;
  };
  return ParamSwapper(func).Mutate(func).downcast<ir::FunctionNode>();
}

}  // namespace

int main() {
  passes::AlterOpLayoutHook hook = passes::RegisterAlterOpLayout("nn.conv2d", AlterConv2D, 101);

  ir::IRModule mod = ir::IRModule::FromExpr(workloads::Example());
  transform::Pass seq1 = transform::Sequential({passes::AlterOpLayout()});
  transform::PassContextScope ctx(transform::PassContext({.opt_level = 3}));
  passes::TargetScope target(passes::Target("llvm"));
  ir::IRModule mod5 = seq1(mod);
  mod5.Add("main", WithUntypedParams(mod5.Lookup("main")));
  std::cout << text::PrettyPrint(mod5) << "\n";
  return 0;
}
