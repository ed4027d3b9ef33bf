#include "relaypass/tools/bisect_verify.h"

#include <memory>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/eval/weak_reference.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/opt_bisect.h"

namespace relaypass::tools {

namespace {

struct Outcome {
  bool same = true;
  std::string message;
};

class Bisector {
 public:
  Bisector(const ir::IRModule& mod, const PipelineRunner& run, const BisectVerifyOptions& options)
      : mod_(mod), run_(run), options_(options) {
    if (!mod.Contains("main")) throw Error("--bisect-verify: the module has no main function");
    inputs_ =
        options.inputs ? *options.inputs : eval::RandomInputs(mod.Lookup("main"), options.seed);
    reference_ = Evaluate(mod_, "the input module");
  }

  const eval::Value& reference() const { return reference_; }

  // The pipeline limited to its first `limit` passes (all for -1), compared with the input.
  Outcome Run(int64_t limit, std::shared_ptr<OptBisectInstrument>* instrument_out = nullptr) {
    auto instrument = std::make_shared<OptBisectInstrument>(
        OptBisectOptions{.limit = limit, .containers = options_.containers, .out = nullptr});
    if (instrument_out) *instrument_out = instrument;
    ++runs_;
    ir::IRModule out;
    try {
      out = run_(mod_, {instrument});
    } catch (const Error& e) {
      return {false, "the pipeline failed: " + e.message()};
    }
    const eval::Value result = Evaluate(out, "the output");
    const eval::CloseResult close =
        eval::AllClose(result, reference_, options_.tolerance, /*equal_nan=*/true);
    return {close.ok, close.message};
  }

  int64_t runs() const { return runs_; }

 private:
  eval::Value Evaluate(const ir::IRModule& mod, const std::string& what) {
    try {
      eval::Interpreter interpreter(mod);
      return interpreter.RunMain(inputs_);
    } catch (const Error& e) {
      throw Error("--bisect-verify: cannot evaluate " + what + ": " + e.message());
    }
  }

  const ir::IRModule& mod_;
  const PipelineRunner& run_;
  const BisectVerifyOptions& options_;
  std::vector<eval::Value> inputs_;
  eval::Value reference_;
  int64_t runs_ = 0;
};

}  // namespace

BisectVerifyResult BisectVerify(const ir::IRModule& mod, const PipelineRunner& run,
                                const BisectVerifyOptions& options) {
  Bisector bisector(mod, run, options);
  BisectVerifyResult result;
  result.weak = eval::WeakReference(bisector.reference());
  std::shared_ptr<OptBisectInstrument> full;
  const Outcome whole = bisector.Run(-1, &full);
  result.passes = full->count();
  if (whole.same) {
    result.runs = bisector.runs();
    return result;
  }
  // Invariant: the first `good` passes keep the results; the first `bad` passes change them.
  int64_t good = 0;
  int64_t bad = result.passes;
  std::string message = whole.message;
  while (bad - good > 1) {
    const int64_t mid = good + (bad - good) / 2;
    const Outcome outcome = bisector.Run(mid);
    if (outcome.same) {
      good = mid;
    } else {
      bad = mid;
      message = outcome.message;
    }
  }
  result.first_bad = bad;
  result.pass = bad > 0 ? full->pass_name(bad) : "";
  result.message = message;
  result.runs = bisector.runs();
  return result;
}

}  // namespace relaypass::tools
