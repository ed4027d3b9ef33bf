// Thread safety (issue 9): passes running concurrently from 4 threads, each under its own
// PassContext (with its own config and instruments), give the same results as the same runs done
// one after the other: StructuralEqual modules with the same printed text. ToANormalForm names
// its variables %x_N from a process-wide counter, as TVM's gensym does, so the texts are compared
// with those numbers renumbered in order of appearance. `make test-sanitize` runs these tests under
// ThreadSanitizer (gtest filter ThreadSafetyTest.*).
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/timing.h"
#include "relaypass/workloads/workloads.h"
#include "reliability_util.h"

namespace relaypass::reliability {
namespace {

constexpr int kThreads = 4;

// Every registered pass except PrintIR (which writes to the shared stderr), in name order, as a
// pipeline: the gating of each pass then depends on the thread's own context.
// LazyGradientInit goes last: its GradCell values are ADTs reached through global calls, which
// ToMixedPrecision refuses (as TVM's does).
std::string FullPipeline() {
  std::string text;
  for (const std::string& name : transform::PassRegistry::Global().Names()) {
    if (name == "PrintIR" || name == "LazyGradientInit") continue;
    text += (text.empty() ? "" : ",") + PassText(name);
  }
  return text + "," + PassText("LazyGradientInit");
}

// A different module per thread.
ir::IRModule ModuleFor(int thread) {
  switch (thread) {
    case 0:
      return TypedExampleModule();
    case 1:
      return BoundResNet18();
    case 2:
      return ir::InferTypes(workloads::GetWorkload("mobilenet").mod);
    default:
      return ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(2000)));
  }
}

// The context of thread `i`: its own opt_level, FuseOps depth limit and timing instrument, so
// that a context leaking from one thread to another would change the results.
transform::PassContext ContextFor(int thread) {
  return transform::PassContext(
      {.opt_level = thread % 2 == 0 ? 3 : 2,
       .instruments = {std::make_shared<transform::PassTimingInstrument>()},
       .config = {{"relay.FuseOps.max_depth", transform::OptionValue::Int(4 + 3 * thread)}}});
}

// The printed module with ToANormalForm's %x_N renumbered from 0 in order of appearance.
std::string Canonical(const ir::IRModule& mod) {
  const std::string text = text::PrettyPrint(mod);
  static const std::regex gensym("%x_([0-9]+)");
  std::map<std::string, int> numbers;
  std::string out;
  auto last = text.cbegin();
  for (std::sregex_iterator it(text.begin(), text.end(), gensym), end; it != end; ++it) {
    out.append(last, (*it)[0].first);
    auto [entry, added] = numbers.emplace((*it)[1].str(), static_cast<int>(numbers.size()));
    out += "%x_" + std::to_string(entry->second);
    last = (*it)[0].second;
  }
  out.append(last, text.cend());
  return out;
}

// Runs the pipeline on `mod` as thread `thread` does: inside a scope of its context (so that
// PassContext::Current() is the thread's).
ir::IRModule RunAs(int thread, const ir::IRModule& mod) {
  transform::PassContext ctx = ContextFor(thread);
  transform::PassContextScope scope(ctx);
  transform::Pass pipeline = transform::ParsePipeline(FullPipeline());
  return pipeline(mod);
}

void ExpectSameResult(const ir::IRModule& concurrent, const ir::IRModule& sequential,
                      const std::string& what) {
  EXPECT_TRUE(ir::StructuralEqual(concurrent, sequential)) << what << " differs structurally";
  EXPECT_TRUE(Canonical(concurrent) == Canonical(sequential)) << what << " prints differently";
}

// Runs `body(thread)` on kThreads threads at once; exceptions are reported as failures.
template <typename F>
void OnThreads(F&& body) {
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        body(t);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(errors[t], "") << "thread " << t;
}

TEST(ThreadSafetyTest, DifferentModulesWithTheirOwnContextsMatchSequentialRuns) {
  std::vector<ir::IRModule> modules;
  for (int t = 0; t < kThreads; ++t) modules.push_back(ModuleFor(t));
  std::vector<ir::IRModule> sequential;
  for (int t = 0; t < kThreads; ++t) sequential.push_back(RunAs(t, modules[t]));

  std::vector<ir::IRModule> concurrent(kThreads);
  OnThreads([&](int t) { concurrent[t] = RunAs(t, modules[t]); });
  for (int t = 0; t < kThreads; ++t) {
    ExpectSameResult(concurrent[t], sequential[t], "thread " + std::to_string(t));
  }
}

// All threads on the same input module (shared nodes, reference counts touched from every
// thread), each with its own context: each gets what its context gives sequentially, and the
// shared input is unchanged.
TEST(ThreadSafetyTest, OneSharedModuleWithDifferentContextsMatchesSequentialRuns) {
  const ir::IRModule& mod = TypedExampleModule();
  const Snapshot before = TakeSnapshot(mod);
  std::vector<ir::IRModule> sequential;
  for (int t = 0; t < kThreads; ++t) sequential.push_back(RunAs(t, mod));

  std::vector<ir::IRModule> concurrent(kThreads);
  OnThreads([&](int t) {
    for (int round = 0; round < 3; ++round) concurrent[t] = RunAs(t, mod);
  });
  for (int t = 0; t < kThreads; ++t) {
    ExpectSameResult(concurrent[t], sequential[t], "thread " + std::to_string(t));
  }
  ExpectUnchanged(before, mod, "concurrent pipelines");
}

// Each pass on its own, from every thread at once, on one shared module: the same result as a
// sequential call. This also creates passes from the registry concurrently.
TEST(ThreadSafetyTest, EveryPassConcurrentlyOnASharedModule) {
  const ir::IRModule& mod = TypedExampleModule();
  for (const std::string& name : transform::PassRegistry::Global().Names()) {
    if (name == "PrintIR") continue;
    SCOPED_TRACE(name);
    const std::string text = PassText(name);
    const ir::IRModule expected =
        transform::CreatePass(text)(mod, transform::PassContext({.opt_level = 3}));
    std::vector<ir::IRModule> results(kThreads);
    OnThreads([&](int t) {
      transform::PassContext ctx({.opt_level = 3});
      results[t] = transform::CreatePass(text)(mod, ctx);
    });
    for (int t = 0; t < kThreads; ++t) {
      ExpectSameResult(results[t], expected, "thread " + std::to_string(t));
    }
  }
}

}  // namespace
}  // namespace relaypass::reliability
