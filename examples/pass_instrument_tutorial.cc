// "How to Use TVM Pass Instrument" in C++, statement by statement, printing what the tutorial
// prints: resnet-18, two timing profiles, the RelayCallNodeDiffer instrument, and the
// exception-handling sections.
#include <algorithm>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/convert_layout.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/relay.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

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

// Counts, per pass, how the number of calls of each operator changes (the tutorial's
// RelayCallNodeDiffer). Passes nest, so the counts before each pass are kept on a stack.
class RelayCallNodeDiffer : public transform::PassInstrument {
 public:
  using OpCounts = std::map<std::string, int64_t>;  // sorted by name, as pprint prints dicts
  struct Diff {
    size_t depth;
    std::string pass_name;
    OpCounts op_diff;
  };

  void enter_pass_ctx() override {
    op_diff_.clear();
    op_cnt_before_stack_.clear();
  }
  void exit_pass_ctx() override {
    if (!op_cnt_before_stack_.empty()) {
      throw std::logic_error("The stack is not empty. Something wrong.");
    }
  }
  void run_before_pass(const ir::IRModule& mod, const transform::PassInfo& info) override {
    op_cnt_before_stack_.emplace_back(info.name, CountNodes(mod));
  }
  void run_after_pass(const ir::IRModule& mod, const transform::PassInfo& info) override {
    auto [name_before, op_to_cnt_before] = op_cnt_before_stack_.back();
    op_cnt_before_stack_.pop_back();
    if (name_before != info.name) throw std::logic_error("name_before != info.name");
    OpCounts op_diff = DiffCounts(CountNodes(mod), op_to_cnt_before);
    if (!op_diff.empty()) op_diff_.push_back({op_cnt_before_stack_.size(), info.name, op_diff});
  }
  const std::vector<Diff>& get_pass_to_op_diff() const { return op_diff_; }

 private:
  static OpCounts CountNodes(const ir::IRModule& mod) {
    OpCounts ret;
    ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& node) {
      if (auto* call = node.as<ir::CallNode>()) {
        // Calls of functions have no op name.
        if (auto* op = call->op_node()) ++ret[op->name];
      }
    });
    return ret;
  }
  static OpCounts DiffCounts(const OpCounts& after, const OpCounts& before) {
    OpCounts ret;
    for (const auto& [k, v] : after) {
      auto it = before.find(k);
      int64_t d = v - (it == before.end() ? 0 : it->second);
      if (d) ret[k] = d;
    }
    for (const auto& [k, v] : before) {
      if (!after.count(k)) ret[k] = -v;
    }
    return ret;
  }

  std::vector<Diff> op_diff_;
  std::vector<std::pair<std::string, OpCounts>> op_cnt_before_stack_;
};

// Python's repr of one (depth, name, {op: diff}) entry.
std::string Repr(const RelayCallNodeDiffer::Diff& d) {
  std::string out = "(" + std::to_string(d.depth) + ", '" + d.pass_name + "', {";
  bool first = true;
  for (const auto& [op, n] : d.op_diff) {
    out += (first ? "'" : ", '") + op + "': " + std::to_string(n);
    first = false;
  }
  return out + "})";
}

// pprint of the list: on one line if it fits in 80 columns, else one entry per line.
void PPrint(const std::vector<RelayCallNodeDiffer::Diff>& diffs) {
  std::vector<std::string> items;
  size_t total = 2;
  for (const auto& d : diffs) {
    items.push_back(Repr(d));
    total += items.back().size() + 2;
  }
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += total > 80 ? ",\n " : ", ";
    out += items[i];
  }
  std::cout << out << "]\n";
}

}  // namespace

int main() {
  // Create An Example Relay Program
  workloads::Workload resnet = workloads::GetWorkload("resnet-18");
  ir::IRModule relay_mod = resnet.mod;
  const std::map<std::string, ir::NDArray>& relay_params = resnet.params;
  std::cout << "Printing the IR module...\n";
  std::cout << text::AsText(relay_mod, /*show_meta_data=*/false) << "\n";

  // Create PassContext With Instruments
  auto timing_inst = std::make_shared<transform::PassTimingInstrument>();
  std::string profiles;
  {
    transform::PassContextScope scope(transform::PassContext({.instruments = {timing_inst}}));
    relay_mod = transform::InferType()(relay_mod);
    relay_mod = passes::FoldScaleAxis()(relay_mod);
    // before exiting the context, get profile results.
    profiles = timing_inst->render();
  }
  std::cout << "Printing results of timing profile...\n" << profiles << "\n";

  // Use Current PassContext With Instruments
  transform::PassContext cur_pass_ctx = transform::PassContext::Current();
  cur_pass_ctx.override_instruments({timing_inst});
  relay_mod = transform::InferType()(relay_mod);
  relay_mod = passes::FoldScaleAxis()(relay_mod);
  profiles = timing_inst->render();
  std::cout << "Printing results of timing profile...\n" << profiles << "\n";

  // Register empty list to clear existing instruments.
  cur_pass_ctx.override_instruments({});

  // Apply Passes and Multiple Instrument Classes
  auto call_node_inst = std::make_shared<RelayCallNodeDiffer>();
  passes::DesiredLayouts desired_layouts = {{"nn.conv2d", {"NHWC", "HWIO"}}};
  transform::Pass pass_seq = transform::Sequential(
      {passes::FoldConstant(), passes::ConvertLayout(desired_layouts), passes::FoldConstant()});
  relay_mod.Add("main", ir::BindParamsByName(relay_mod.Lookup("main"), relay_params));
  {
    // timing_inst is put after call_node_inst, so the execution time of
    // call_node_inst.run_after_pass() is also counted.
    transform::PassContextScope scope(
        transform::PassContext({.opt_level = 3, .instruments = {call_node_inst, timing_inst}}));
    relay_mod = pass_seq(relay_mod);
    profiles = timing_inst->render();
  }
  std::cout << "Printing the change in number of occurrences of each operator caused by each "
               "pass...\n";
  PPrint(call_node_inst->get_pass_to_op_diff());

  ExceptionHandling(relay_mod);
  return 0;
}
