// TVM's QNN dialect (relay.qnn): the quantized operators, their lowering to integer Relay
// (canonicalization, TVM's FTVMQnnCanonicalize) and the passes that run it. The layer sits above
// the operators, the passes and the evaluator: a qnn op's kernel is its canonical form evaluated.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/type.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::qnn {

// Registers every qnn.* operator (attrs, type relation, kernel). Runs after the op layer's
// installer: the qnn ops reuse nn's attrs schemas and relations (qnn.conv2d's Conv2DAttrs, ...).
void RegisterQnnOps(ir::OpRegistry& registry);

// The lowering of one qnn call: its attrs, its (already rewritten) arguments and the types of the
// original arguments followed by the result type (TVM's FTVMQnnCanonicalize signature).
using CanonicalizeFunc = std::function<ir::Expr(
    const ir::Attrs& attrs, const std::vector<ir::Expr>& args, const std::vector<ir::Type>& types)>;
// The lowering registered for `op_name`, or an empty function.
CanonicalizeFunc GetCanonicalize(const std::string& op_name);

// relay.qnn.transform.CanonicalizeOps(): every qnn call replaced by its integer Relay lowering.
transform::Pass CanonicalizeOps();
// relay.qnn.transform.Legalize(): TVM's qnn Legalize (FTVMQnnLegalize hooks; none are registered
// for the CPU target) followed by CanonicalizeOps, as relay.build runs it first.
transform::Pass Legalize();
// Installs CanonicalizeOps and Legalize into the pass registry (as "QnnCanonicalizeOps" and
// "QnnLegalize", their names in pass timings and pipelines).
void RegisterQnnPasses(transform::PassRegistry& registry);

// TVM's relay.qnn.op.requantize_config: the rounding and compute dtype a requantize with
// rounding="None" / compute_dtype="None" takes when it is lowered. Per thread, as TVM's
// RequantizeConfig::Current(); the defaults are TVM's for a CPU target.
struct RequantizeConfig {
  std::string rounding = "UPWARD";
  std::string compute_dtype = "int64";
};
const RequantizeConfig& CurrentRequantizeConfig();
// Enters a config (a `with requantize_config(...)` block); ExitRequantizeConfig leaves it.
void EnterRequantizeConfig(RequantizeConfig config);
void ExitRequantizeConfig();

}  // namespace relaypass::qnn
