// The pretend "dnnl" target: which ops it takes and its pattern table. The table is the one of
// TVM v0.13's tests/python/relay/test_pass_partition_graph.py (test_dnnl_fuse):
// relu(add(conv2d(data, weight), bias)) and relu(conv2d(data, weight)), all wildcards.
#include <mutex>

#include "relaypass/passes/byoc.h"

namespace relaypass::passes {

namespace {

pattern::DFPattern ConvRelu(bool with_bias) {
  using namespace pattern;  // NOLINT(google-build-using-namespace)
  DFPattern conv = IsOp("nn.conv2d")({Wildcard(), Wildcard()});
  DFPattern out = with_bias ? IsOp("add")({conv, Wildcard()}) : conv;
  return IsOp("nn.relu")({out});
}

}  // namespace

void RegisterExampleDnnlTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* op : {"nn.conv2d", "nn.relu", "add"}) {
      RegisterOpTargetAttr(op, "target.dnnl", [](const ir::Expr&) { return true; });
    }
    RegisterPatternTable("dnnl", [] {
      return PatternTable{{"dnnl.conv2d_bias_relu", ConvRelu(true)},
                          {"dnnl.conv2d_relu", ConvRelu(false)}};
    });
  });
}

}  // namespace relaypass::passes
