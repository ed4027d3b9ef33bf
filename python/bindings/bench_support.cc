// Timing helpers for bench/python_bench.py: the same work timed inside C++ (no Python between
// iterations), so the benchmark can state what calling from Python adds.
#include <chrono>
#include <vector>

#include "common.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/runtime/graph_executor.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::python {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Rebuilds every call, tuple and function (a fresh node each), as a mutator that changes
// every node does: the C++ counterpart of a Python ExprMutator rebuilding all of resnet-50.
class RebuildAll : public ir::ExprMutator {
 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    return ir::MakeCall(call->op, call->args, call->attrs);
  }
  ir::Expr RewriteTuple(const ir::TupleNode*, const ir::Expr& post) override {
    return ir::MakeTuple(post.as<ir::TupleNode>()->fields);
  }
  ir::Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const ir::Expr& post) override {
    auto* node = post.as<ir::TupleGetItemNode>();
    return ir::MakeTupleGetItem(node->tuple, node->index);
  }
  ir::Expr RewriteFunction(const ir::FunctionNode*, const ir::Expr& post) override {
    auto* f = post.as<ir::FunctionNode>();
    return ir::MakeFunction(f->params, f->body, f->ret_type, f->attrs);
  }
};

}  // namespace

void BindBenchSupport(py::module_& m) {
  // Seconds per run of `pass(mod)` under `ctx`, timed in C++ (GIL released).
  m.def("_bench_run_pass", [](const transform::Pass& pass, const ir::IRModule& mod,
                              const transform::PassContext& ctx, int repeats) {
    std::vector<double> out;
    py::gil_scoped_release release;
    transform::PassContextScope scope(ctx);
    for (int i = 0; i < repeats; ++i) {
      auto start = Clock::now();
      ir::IRModule result = pass(mod);
      out.push_back(Seconds(start, Clock::now()));
    }
    return out;
  });
  // Seconds per run of the C++ rebuild-every-node mutator on `expr`.
  m.def("_bench_rebuild_all", [](const ir::Expr& expr, int repeats) {
    std::vector<double> out;
    py::gil_scoped_release release;
    for (int i = 0; i < repeats; ++i) {
      auto start = Clock::now();
      ir::Expr result = RebuildAll().Mutate(expr);
      out.push_back(Seconds(start, Clock::now()));
    }
    return out;
  });
  // Seconds per GraphExecutor::Run on the inputs already set, timed in C++ (what
  // GraphModule.run() costs without Python).
  m.def("_bench_graph_run", [](runtime::GraphExecutor& executor, int repeats) {
    std::vector<double> out;
    py::gil_scoped_release release;
    for (int i = 0; i < repeats; ++i) {
      auto start = Clock::now();
      executor.Run();
      out.push_back(Seconds(start, Clock::now()));
    }
    return out;
  });
  // Seconds per build of the n-node add/relu chain (workloads::Chain) through the C++ builder
  // API, the node-for-node twin of python_bench.py's Python builder loop.
  m.def("_bench_build_chain", [](int64_t n, int repeats) {
    std::vector<double> out;
    py::gil_scoped_release release;
    for (int i = 0; i < repeats; ++i) {
      auto start = Clock::now();
      ir::Function chain = workloads::Chain(n);
      out.push_back(Seconds(start, Clock::now()));
    }
    return out;
  });
  // Seconds per post-order visit of every node of `expr` (ir::CountNodes), the C++ twin of a
  // Python relay.ExprVisitor that visits every node.
  m.def("_bench_visit_all", [](const ir::Expr& expr, int repeats) {
    std::vector<double> out;
    py::gil_scoped_release release;
    for (int i = 0; i < repeats; ++i) {
      auto start = Clock::now();
      size_t count = ir::CountNodes(expr);
      out.push_back(Seconds(start, Clock::now()));
      if (count == 0) throw InternalError("_bench_visit_all: no node visited");
    }
    return out;
  });
  m.def("_count_nodes", [](const ir::Expr& e) { return ir::CountNodes(e); });
}

}  // namespace relaypass::python
