#include "pipeline.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>

#include "relaypass/eval/allclose.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/support/closest_name.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/chrome_trace.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/op_count.h"
#include "relaypass/tools/opt_bisect.h"
#include "relaypass/tools/print_ir_instrument.h"
#include "relaypass/tools/report_instrument.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/pipeline_text.h"
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

// The kebab-case names that match no pass are an error; the others are noted on stderr.
void ReportSpellings(const std::string& option, const std::vector<transform::PassNameFix>& fixes,
                     const std::vector<std::string>& unknown) {
  if (!unknown.empty()) {
    const std::string best =
        relaypass::support::ClosestName(unknown[0], transform::PassRegistry::Global().Names());
    throw Error(option + ": unknown pass \"" + unknown[0] + "\"" +
                (best.empty() ? "" : "; did you mean \"" + best + "\"?") +
                " (relay-opt --list-passes lists them)");
  }
  for (const transform::PassNameFix& fix : fixes) {
    std::cerr << "relay-opt: note: " << option << ": read '" << fix.written << "' as '"
              << fix.registered << "'\n";
  }
}

// Pipeline text with kebab-case pass names read as the registered ones.
std::string CamelCaseNames(const std::string& option, const std::string& text) {
  std::vector<transform::PassNameFix> fixes;
  std::vector<std::string> unknown;
  std::string out = ForOption(option, [&] {
    return transform::NormalizePipelineNames(text, transform::PassRegistry::Global(), &fixes,
                                             &unknown);
  });
  ReportSpellings(option, fixes, unknown);
  return out;
}

// A list of pass names (not pipeline text: any string is a name here) with kebab-case
// spellings read as the registered ones.
std::vector<std::string> CamelCaseList(const std::string& option,
                                       const std::vector<std::string>& names) {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  std::vector<std::string> out;
  std::vector<transform::PassNameFix> fixes;
  std::vector<std::string> unknown;
  for (const std::string& name : names) {
    const std::string registered = transform::RegisteredSpelling(name, registry);
    if (!registered.empty()) fixes.push_back({name, registered});
    if (registered.empty() && name.find('-') != std::string::npos && !registry.Find(name)) {
      unknown.push_back(name);
    }
    out.push_back(registered.empty() ? name : registered);
  }
  ReportSpellings(option, fixes, unknown);
  return out;
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
  if (o.opt_bisect_limit >= 0) {
    out.list.push_back(std::make_shared<tools::OptBisectInstrument>(tools::OptBisectOptions{
        .limit = o.opt_bisect_limit, .containers = containers, .out = &std::cerr}));
  }
  if (!o.print_ir_before.empty()) {
    tools::PrintIROptions before;
    before.before = o.print_ir_before;
    before.containers = containers;
    before.functions = o.filter_print_funcs;
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
  if (!o.print_ir_after.empty() || !o.print_changed.empty() || o.print_ir_after_failure) {
    tools::PrintIROptions after;
    after.after = o.print_ir_after;
    after.changed_only = !o.print_changed.empty();
    after.diff = o.print_changed == "diff";
    after.after_failure = o.print_ir_after_failure;
    after.functions = o.filter_print_funcs;
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

relaypass::eval::Tolerance ParseTolerance(const std::string& text) {
  const size_t comma = text.find(',');
  auto number = [&](const std::string& part) {
    char* end = nullptr;
    const double value = std::strtod(part.c_str(), &end);
    // NaN, infinity and values beyond double's range (1e999) are no tolerance.
    if (part.empty() || *end != '\0' || !(value >= 0) || !std::isfinite(value)) {
      throw Error(
          "--verify-tolerance: expected RTOL[,ATOL] with non-negative finite numbers, "
          "got '" +
          text + "'");
    }
    return value;
  };
  relaypass::eval::Tolerance tolerance;
  tolerance.rtol = number(text.substr(0, comma));
  tolerance.atol = comma == std::string::npos ? tolerance.rtol : number(text.substr(comma + 1));
  return tolerance;
}

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
    const std::string text = CamelCaseNames("--passes", o.passes);
    const transform::Pass seq =
        ForOption("--passes", [&] { return transform::ParsePipeline(text); });
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
      const std::string text = CamelCaseNames("--pipeline", o.pipeline);
      plan.pipeline = ForOption("--pipeline", [&] { return transform::ParsePipeline(text); });
    }
  }
  return plan;
}

transform::PassContext MakeContext(const Options& o, const PassPlan& plan,
                                   transform::PassInstruments instruments) {
  transform::PassContextOptions ctx_options;
  ctx_options.opt_level = o.opt_level;
  ctx_options.required_pass = CamelCaseList("--required-pass", o.required_pass);
  ctx_options.disabled_pass = CamelCaseList("--disabled-pass", o.disabled_pass);
  ctx_options.config = plan.config;
  ctx_options.instruments = std::move(instruments);
  return transform::PassContext(std::move(ctx_options));
}

std::string DumpPassPipeline(const Options& o, const PassPlan& plan) {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  std::string out;
  if (!plan.direct.empty()) {
    out += "// --passes: each called directly (no opt_level gating)\n";
    for (const transform::Pass& pass : plan.direct) {
      out += transform::PrintResolvedPipeline(pass, registry);
    }
  }
  if (plan.pipeline.defined()) {
    const transform::PassContext ctx = MakeContext(o, plan, {});
    out += "// --pipeline at opt_level " + std::to_string(o.opt_level) + "\n";
    out += transform::PrintResolvedPipeline(plan.pipeline, registry, &ctx);
  }
  if (plan.empty()) out += "// no passes\n";
  return out;
}

std::vector<std::string> ReplayArguments(const Options& o, const PassPlan& plan) {
  std::vector<std::string> args;
  for (const std::string& plugin : o.plugins) {
    // A path is made absolute, so the reproducer replays from any directory.
    const bool is_path = plugin.find('/') != std::string::npos;
    args.push_back("--load-pass-plugin=" +
                   (is_path ? std::filesystem::absolute(plugin).string() : plugin));
  }
  if (!plan.direct.empty()) {
    std::string text;
    for (const transform::Pass& pass : plan.direct) {
      text += (text.empty() ? "" : ",") + transform::PrintPipeline(pass);
    }
    args.push_back("--passes=" + text);
  }
  if (plan.pipeline.defined()) {
    args.push_back("--pipeline=" + transform::PrintPipeline(plan.pipeline));
  }
  args.push_back("--opt-level=" + std::to_string(o.opt_level));
  for (const std::string& name : CamelCaseList("--required-pass", o.required_pass)) {
    args.push_back("--required-pass=" + name);
  }
  for (const std::string& name : CamelCaseList("--disabled-pass", o.disabled_pass)) {
    args.push_back("--disabled-pass=" + name);
  }
  for (const auto& [key, value] : plan.config) {
    args.push_back("--config=" + key + "=" + transform::OptionLiteral(value));
  }
  if (o.verify_each) args.push_back("--verify-each");
  if (!o.verify_tolerance.empty()) args.push_back("--verify-tolerance=" + o.verify_tolerance);
  if (o.verify_each || o.run) args.push_back("--seed=" + std::to_string(o.seed));
  for (const std::string& input : o.inputs) {
    const size_t eq = input.find('=');
    args.push_back("--input=" + input.substr(0, eq + 1) +
                   std::filesystem::absolute(input.substr(eq + 1)).string());
  }
  if (o.run) args.push_back("--run");
  if (o.random_inputs) args.push_back("--random-inputs");
  if (o.opt_bisect_limit >= 0) {
    args.push_back("--opt-bisect-limit=" + std::to_string(o.opt_bisect_limit));
  }
  return args;
}

Options QuietOptions(const Options& o) {
  Options quiet = o;
  quiet.print_ir_before.clear();
  quiet.print_ir_after.clear();
  quiet.print_changed.clear();
  quiet.print_ir_after_failure = false;
  quiet.time_passes = false;
  quiet.time_trace.clear();
  quiet.op_counts = false;
  quiet.opt_bisect_limit = -1;
  quiet.dump_pass_pipeline = false;
  return quiet;
}

IRModule RunPasses(const Options& o, const PassPlan& plan, IRModule mod,
                   std::vector<relaypass::eval::Value> inputs,
                   const transform::PassInstruments& extra) {
  const std::set<std::string> containers = Containers(plan);
  WarnUnknownNames("--disabled-pass", CamelCaseList("--disabled-pass", o.disabled_pass), containers,
                   false);
  WarnUnknownNames("--required-pass", CamelCaseList("--required-pass", o.required_pass), containers,
                   false);
  WarnUnknownNames("--print-ir-before", o.print_ir_before, containers, true);
  WarnUnknownNames("--print-ir-after", o.print_ir_after, containers, true);

  Instruments instruments = MakeInstruments(o, containers, std::move(inputs));
  transform::PassInstruments list = instruments.list;
  list.insert(list.end(), plan.plugin_instruments.begin(), plan.plugin_instruments.end());
  list.insert(list.end(), extra.begin(), extra.end());
  const transform::PassContext ctx = MakeContext(o, plan, std::move(list));

  try {
    transform::PassContextScope scope(ctx);
    try {
      for (const transform::Pass& pass : plan.direct) mod = pass(mod);
      if (plan.pipeline.defined()) mod = plan.pipeline(mod);
    } catch (...) {
      // The timing tree up to the failure (the failing pass included).
      if (instruments.timing) std::cerr << instruments.timing->render();
      throw;
    }
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
