#include "pipeline.h"

#include <cstdlib>
#include <iostream>
#include <set>

#include "relaypass/eval/allclose.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/chrome_trace.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/op_count.h"
#include "relaypass/tools/print_ir_instrument.h"
#include "relaypass/tools/report_instrument.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/transform/timing.h"

namespace relay_opt {

namespace {

namespace transform = relaypass::transform;
namespace tools = relaypass::tools;
using relaypass::Error;
using relaypass::ir::IRModule;

// Runs `make`, prefixing the message of a relaypass::Error with the option it came from.
template <typename F>
auto ForOption(const std::string& option, F&& make) {
  try {
    return make();
  } catch (const Error& e) {
    throw Error(option + ": " + e.message());
  }
}

std::set<std::string> Containers(const PassPlan& plan) {
  std::set<std::string> names;
  if (plan.pipeline.defined()) names = tools::SequentialNames(plan.pipeline);
  for (const transform::Pass& pass : plan.direct) names.merge(tools::SequentialNames(pass));
  return names;
}

// A name that matches no registered pass is almost always a typo; TVM accepts it silently.
void WarnUnknownNames(const std::string& option, const std::vector<std::string>& names,
                      const std::set<std::string>& containers, bool allow_all) {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  for (const std::string& name : names) {
    if (registry.Find(name) || containers.count(name) || (allow_all && name == "all")) continue;
    std::cerr << "relay-opt: warning: " << option << ": no registered pass is named '" << name
              << "'\n";
  }
}

relaypass::eval::Tolerance ParseTolerance(const std::string& text) {
  const size_t comma = text.find(',');
  auto number = [&](const std::string& part) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    if (part.empty() || *end != '\0' || value < 0) {
      throw Error("--verify-tolerance: expected RTOL[,ATOL] with non-negative numbers, got '" +
                  text + "'");
    }
    return value;
  };
  relaypass::eval::Tolerance tolerance;
  tolerance.rtol = number(text.substr(0, comma));
  tolerance.atol = comma == std::string::npos ? tolerance.rtol : number(text.substr(comma + 1));
  return tolerance;
}

// The instruments the options ask for. Hooks run in list order both before and after a pass,
// so the list is: printing before, the trace, the timer, printing after, verification, op
// counts. The timer's before-hook is then the last one before the pass and its after-hook the
// first one after it: the timing tree measures passes, not other instruments (the trace, just
// outside it, excludes its own node counting).
struct Instruments {
  std::shared_ptr<tools::ChromeTraceInstrument> trace;
  std::shared_ptr<transform::PassTimingInstrument> timing;
  std::shared_ptr<tools::VerifyInstrument> verify;
  std::shared_ptr<tools::OpCountInstrument> op_counts;
  std::shared_ptr<tools::ReportInstrument> report;
  transform::PassInstruments list;
};

Instruments MakeInstruments(const Options& o, const std::set<std::string>& containers,
                            std::vector<relaypass::eval::Value> inputs) {
  Instruments out;
  if (!o.print_ir_before.empty()) {
    tools::PrintIROptions before;
    before.before = o.print_ir_before;
    before.containers = containers;
    out.list.push_back(std::make_shared<tools::PrintIRInstrument>(std::move(before)));
  }
  if (!o.time_trace.empty()) {
    tools::ChromeTraceOptions trace;
    trace.process_name = "relay-opt";
    out.trace = std::make_shared<tools::ChromeTraceInstrument>(std::move(trace));
    out.list.push_back(out.trace);
  }
  if (o.time_passes) {
    out.timing = std::make_shared<transform::PassTimingInstrument>();
    out.list.push_back(out.timing);
  }
  // Right after the timer: its after-hook is then the first after the pass (its own times leave
  // the other instruments out); verification results are matched to passes when it renders.
  if (!o.report.empty()) {
    tools::ReportOptions report;
    report.input = o.input.empty() ? "--workload=" + o.workload : o.input;
    report.command_line = o.command_line;
    report.containers = containers;
    out.report = std::make_shared<tools::ReportInstrument>(std::move(report));
    out.list.push_back(out.report);
  }
  if (!o.print_ir_after.empty() || o.print_changed) {
    tools::PrintIROptions after;
    after.after = o.print_ir_after;
    after.changed_only = o.print_changed;
    after.containers = containers;
    out.list.push_back(std::make_shared<tools::PrintIRInstrument>(std::move(after)));
  }
  if (o.verify_each) {
    tools::VerifyOptions verify;
    verify.seed = o.seed;
    verify.containers = containers;
    if (!inputs.empty()) verify.inputs = std::move(inputs);
    if (!o.verify_tolerance.empty()) verify.tolerance = ParseTolerance(o.verify_tolerance);
    out.verify = std::make_shared<tools::VerifyInstrument>(std::move(verify));
    out.list.push_back(out.verify);
    if (out.report) out.report->SetVerify(out.verify);
  }
  if (o.op_counts) {
    out.op_counts = std::make_shared<tools::OpCountInstrument>();
    out.list.push_back(out.op_counts);
  }
  return out;
}

// One warning per pass checked against a weak reference (NaN or constant outputs), then the
// count of passes verified: a weak check is not counted as one.
void ReportVerification(const tools::VerifyInstrument& verify) {
  for (const tools::WeakCheck& weak : verify.weak_checks()) {
    std::cerr << "relay-opt: warning: verify-each: pass \"" << weak.pass
              << "\" not verified: weak reference (" << weak.reason << ")\n";
  }
  const int64_t weak = static_cast<int64_t>(verify.weak_checks().size());
  const int64_t verified = verify.passes_checked() - weak;
  std::cerr << "relay-opt: verify-each: results unchanged by the " << verified
            << (verified == 1 ? " pass that" : " passes that") << " changed the module";
  if (weak > 0) {
    std::cerr << "; " << weak << (weak == 1 ? " pass" : " passes")
              << " compared against a weak reference only";
  }
  std::cerr << "\n";
}

}  // namespace

const std::vector<std::string>& BuildPrefixNames() {
  return relaypass::passes::BuildPrefixNames();
}

std::vector<std::string> DefaultPipelineNames() {
  return relaypass::passes::DefaultPipelineNames();
}

std::map<std::string, transform::OptionValue> ParseConfig(const std::vector<std::string>& entries) {
  const transform::PassConfigRegistry& registry = transform::PassConfigRegistry::Global();
  std::map<std::string, transform::OptionValue> config;
  for (const std::string& entry : entries) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw Error("--config: expected KEY=VALUE, got '" + entry + "'");
    }
    const std::string key = entry.substr(0, eq);
    const std::string text = entry.substr(eq + 1);
    const transform::PassConfigOption* option = registry.Find(key);
    transform::OptionValue value;
    if (option) {
      try {
        value = transform::ParseOptionValue(text);
      } catch (const Error& e) {
        // A bare word is accepted for a string option: --config=relay.layout=NHWC.
        if (option->type != transform::OptionType::kString) {
          throw Error("--config: " + key + ": cannot read '" + text + "': " + e.message());
        }
        value = transform::OptionValue::Str(text);
      }
    }
    // Validate names the valid keys for an unknown one and the type for a wrong value.
    config[key] = ForOption("--config", [&] { return registry.Validate(key, value); });
  }
  return config;
}

PassPlan MakePassPlan(const Options& o) {
  PassPlan plan;
  plan.config = ParseConfig(o.config);
  if (!o.passes.empty()) {
    const transform::Pass seq =
        ForOption("--passes", [&] { return transform::ParsePipeline(o.passes); });
    plan.direct = *transform::SequentialPasses(seq);
  }
  if (!o.pipeline.empty()) {
    if (o.pipeline == "default") {
      std::vector<transform::Pass> passes;
      for (const std::string& name : DefaultPipelineNames()) {
        passes.push_back(
            ForOption("--pipeline=default", [&] { return transform::CreatePass(name); }));
      }
      plan.pipeline = transform::Sequential(std::move(passes));
    } else {
      plan.pipeline = ForOption("--pipeline", [&] { return transform::ParsePipeline(o.pipeline); });
    }
  }
  return plan;
}

IRModule RunPasses(const Options& o, const PassPlan& plan, IRModule mod,
                   std::vector<relaypass::eval::Value> inputs) {
  const std::set<std::string> containers = Containers(plan);
  WarnUnknownNames("--disabled-pass", o.disabled_pass, containers, false);
  WarnUnknownNames("--required-pass", o.required_pass, containers, false);
  WarnUnknownNames("--print-ir-before", o.print_ir_before, containers, true);
  WarnUnknownNames("--print-ir-after", o.print_ir_after, containers, true);

  transform::PassContextOptions ctx_options;
  ctx_options.opt_level = o.opt_level;
  ctx_options.required_pass = o.required_pass;
  ctx_options.disabled_pass = o.disabled_pass;
  ctx_options.config = plan.config;
  Instruments instruments = MakeInstruments(o, containers, std::move(inputs));
  ctx_options.instruments = instruments.list;
  const transform::PassContext ctx(std::move(ctx_options));

  try {
    transform::PassContextScope scope(ctx);
    for (const transform::Pass& pass : plan.direct) mod = pass(mod);
    if (plan.pipeline.defined()) mod = plan.pipeline(mod);
    // PassTimingInstrument forgets its records when the context exits: render inside.
    if (instruments.timing) std::cerr << instruments.timing->render();
  } catch (...) {
    // The trace and the report show where it failed (the failing pass has status "failed").
    if (instruments.trace) {
      try {
        instruments.trace->WriteFile(o.time_trace);
      } catch (...) {
      }
    }
    if (instruments.report) {
      try {
        instruments.report->WriteFile(o.report);
      } catch (...) {
      }
    }
    throw;
  }
  if (instruments.trace) instruments.trace->WriteFile(o.time_trace);
  if (instruments.report) instruments.report->WriteFile(o.report);
  if (instruments.op_counts) {
    if (instruments.op_counts->has_result()) {
      std::cerr << instruments.op_counts->Render();
    } else {
      const tools::OpCounts counts = tools::CountOps(mod);
      std::cerr << tools::RenderOpCountTable(counts, counts);
    }
  }
  if (instruments.verify) ReportVerification(*instruments.verify);
  return mod;
}

}  // namespace relay_opt
