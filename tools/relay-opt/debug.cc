#include "debug.h"

#include <iostream>
#include <typeinfo>

#include "relaypass/support/error.h"
#include "relaypass/tools/bisect_verify.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/reducer.h"

namespace relay_opt {

namespace {

namespace ir = relaypass::ir;
namespace transform = relaypass::transform;
namespace tools = relaypass::tools;

// Records the first non-container pass that failed (the innermost: it is reported first).
class FailedPass final : public transform::PassInstrument {
 public:
  explicit FailedPass(std::set<std::string> containers) : containers_(std::move(containers)) {}
  std::string name() const override { return "FailedPass"; }
  void run_after_pass_status(const ir::IRModule&, const transform::PassInfo& info,
                             transform::PassStatus status) override {
    if (status == transform::PassStatus::kFailed && pass_.empty() &&
        !containers_.count(info.name)) {
      pass_ = info.name;
    }
  }
  const std::string& pass() const { return pass_; }

 private:
  std::set<std::string> containers_;
  std::string pass_;
};

std::set<std::string> ContainerNames(const PassPlan& plan) {
  std::set<std::string> names;
  if (plan.pipeline.defined()) names = tools::SequentialNames(plan.pipeline);
  for (const transform::Pass& pass : plan.direct) names.merge(tools::SequentialNames(pass));
  return names;
}

// What a failure is, for --reduce: the error's class and the pass it came from ("" when the
// pipeline succeeded).
std::string ErrorKind(const std::exception& e) {
  if (dynamic_cast<const relaypass::ParseError*>(&e)) return "ParseError";
  if (dynamic_cast<const relaypass::TypeError*>(&e)) return "TypeError";
  if (dynamic_cast<const relaypass::PassError*>(&e)) {
    const std::string& message = static_cast<const relaypass::Error&>(e).message();
    // --verify-each's own failure, told apart from a pass that throws.
    return message.find("\" changed the results of @main") != std::string::npos ? "verify"
                                                                                : "PassError";
  }
  if (dynamic_cast<const relaypass::InternalError*>(&e)) return "InternalError";
  if (dynamic_cast<const relaypass::Error*>(&e)) return "Error";
  return "exception";
}

struct Failure {
  std::string kind;  // "" if the pipeline succeeded
  std::string pass;
  std::string message;
  bool operator==(const Failure& other) const { return kind == other.kind && pass == other.pass; }
};

Failure RunForFailure(const Options& quiet, const PassPlan& plan, const ir::IRModule& mod) {
  auto failed = std::make_shared<FailedPass>(ContainerNames(plan));
  try {
    RunPasses(quiet, plan, mod, {}, {failed});
  } catch (const std::exception& e) {
    return {ErrorKind(e), failed->pass(), e.what()};
  }
  return {};
}

std::string Describe(const Failure& f) {
  return f.kind + (f.pass.empty() ? "" : " in pass \"" + f.pass + "\"");
}

}  // namespace

ir::IRModule Reduce(const Options& o, const PassPlan& plan, const ir::IRModule& mod) {
  Options quiet = QuietOptions(o);
  quiet.verify_each = o.verify_each || o.reduce_check == "verify";
  const Failure target = RunForFailure(quiet, plan, mod);
  if (target.kind.empty()) {
    throw relaypass::Error("--reduce: the check does not hold for the input: the pipeline " +
                           std::string(quiet.verify_each ? "passes --verify-each" : "succeeds"));
  }
  if (o.reduce_check == "verify" && target.kind != "verify") {
    throw relaypass::Error(
        "--reduce: the check does not hold for the input: the pipeline fails "
        "before --verify-each does: " +
        target.message);
  }
  std::cerr << "relay-opt: reduce: keeping " << Describe(target) << ": " << target.message << "\n";
  tools::ReduceOptions options;
  options.max_checks = o.reduce_max_checks;
  options.log = [](const std::string& note) { std::cerr << "relay-opt: reduce: " << note << "\n"; };
  const tools::ReduceResult result = tools::ReduceModule(
      mod,
      [&](const ir::IRModule& candidate) {
        return RunForFailure(quiet, plan, candidate) == target;
      },
      options);
  std::cerr << "relay-opt: reduce: " << result.nodes_before << " -> " << result.nodes_after
            << " expression nodes in " << result.checks << " checks (" << result.kept
            << " reductions kept"
            << (result.budget_exhausted ? "; stopped at --reduce-max-checks" : "") << ")\n";
  return result.module;
}

void BisectVerify(const Options& o, const PassPlan& plan, const ir::IRModule& mod,
                  std::vector<relaypass::eval::Value> inputs) {
  Options quiet = QuietOptions(o);
  quiet.verify_each = false;
  tools::BisectVerifyOptions options;
  options.seed = o.seed;
  if (!inputs.empty()) options.inputs = std::move(inputs);
  if (!o.verify_tolerance.empty()) options.tolerance = ParseTolerance(o.verify_tolerance);
  options.containers = ContainerNames(plan);
  const tools::BisectVerifyResult result = tools::BisectVerify(
      mod,
      [&](const ir::IRModule& input, const transform::PassInstruments& extra) {
        return RunPasses(quiet, plan, input, {}, extra);
      },
      options);
  if (!result.weak.empty()) {
    std::cerr << "relay-opt: warning: bisect-verify: weak reference (" << result.weak
              << "): a wrong result may go unnoticed\n";
  }
  if (result.first_bad == 0) {
    std::cerr << "relay-opt: bisect-verify: results of all " << result.passes
              << " passes match the input's (" << result.runs << " pipeline run"
              << (result.runs == 1 ? "" : "s") << ")\n";
    return;
  }
  std::cerr << "relay-opt: bisect-verify: " << result.runs
            << " pipeline runs; --opt-bisect-limit=" << result.first_bad - 1
            << " keeps the results, --opt-bisect-limit=" << result.first_bad << " changes them\n";
  throw relaypass::PassError("bisect-verify: pass (" + std::to_string(result.first_bad) + ") \"" +
                             result.pass + "\" of " + std::to_string(result.passes) +
                             " is the first after which the results of @main differ from the "
                             "input's: " +
                             result.message);
}

}  // namespace relay_opt
