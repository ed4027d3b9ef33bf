// TVM's QNN dialect (relay.qnn): the quantized operators, their lowering to integer Relay
// (canonicalization, TVM's FTVMQnnCanonicalize) and the passes that run it. The layer sits above
// the operators, the passes and the evaluator: a qnn op's kernel is its canonical form evaluated.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/type.h"
#include "relaypass/passes/legalize.h"
#include "relaypass/passes/op_hooks.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::qnn {

/// Registers every qnn.* operator (attrs, type relation, kernel). Runs after the op layer's
/// installer: the qnn ops reuse nn's attrs schemas and relations (qnn.conv2d's Conv2DAttrs, ...).
void RegisterQnnOps(ir::OpRegistry& registry);

/// The lowering of one qnn call: its attrs, its (already rewritten) arguments and the types of the
/// original arguments followed by the result type (TVM's FTVMQnnCanonicalize signature).
using CanonicalizeFunc = std::function<ir::Expr(
    const ir::Attrs& attrs, const std::vector<ir::Expr>& args, const std::vector<ir::Type>& types)>;
/// The lowering of `op_name`: a registered hook (the highest level), else the library's own; an
/// empty function for an op without one. A hook returning null keeps the call.
CanonicalizeFunc GetCanonicalize(const std::string& op_name);
/// Registers `hook` as `op_name`'s lowering at `level` (TVM's register_qnn_canonicalize; the
/// library's own lowerings rank below every registered hook).
[[nodiscard]] passes::OpHook RegisterQnnCanonicalize(const std::string& op_name,
                                                     CanonicalizeFunc hook, int level);

/// TVM's FTVMQnnLegalize hooks: target-specific rewrites of qnn calls before the lowering. The
/// library registers TVM's for qnn.conv2d and qnn.dense at level 10 (legalizations.py: x86 with
/// and without fast int8, ARM with and without dot products, CUDA); they read the current target
/// (passes::Target::Current()) and do nothing without one.
[[nodiscard]] passes::OpHook RegisterQnnLegalize(const std::string& op_name,
                                                 passes::LegalizeFunc hook, int level);
passes::LegalizeFunc GetQnnLegalize(const std::string& op_name);

/// relay.qnn.transform.CanonicalizeOps(): every qnn call replaced by its integer Relay lowering.
transform::Pass CanonicalizeOps();
/// relay.qnn.transform.Legalize(): the FTVMQnnLegalize hooks applied (TVM's Python
/// Legalize("FTVMQnnLegalize")).
transform::Pass LegalizeHooks();
/// TVM's C++ qnn::transform::Legalize, which relay.build runs first: LegalizeHooks, then
/// CanonicalizeOps.
transform::Pass Legalize();
/// Installs the three into the pass registry as "QnnCanonicalizeOps", "QnnTargetLegalize" and
/// "QnnLegalize" (pass names here are identifiers; TVM's pipeline calls the last qnn.Legalize).
void RegisterQnnPasses(transform::PassRegistry& registry);

/// relay.transform.FakeQuantizationToInteger(hard_fail, use_qat, optional_qnn_ops): each
/// `qnn.dequantize -> float ops -> qnn.quantize` region whose ops all have a rule becomes integer
/// ops (qnn.conv2d, qnn.add, ...; TVM's rules). A region with an op without a rule stays, or is
/// a PassError with hard_fail. use_qat also converts the ops of TVM's QAT list whose arguments are
/// dequantize calls, each followed by a dequantize. optional_qnn_ops are not implemented
/// (PassError).
transform::Pass FakeQuantizationToInteger(bool hard_fail = false, bool use_qat = false,
                                          const std::vector<std::string>& optional_qnn_ops = {});
/// relay.analysis.list_fake_quantized_op_freqs: how often each op occurs in the fake-quantized
/// regions of `mod` (the dequantize calls not counted).
std::map<std::string, int64_t> ListFakeQuantizedOpFreqs(const ir::IRModule& mod);

/// TVM's relay.qnn.op.requantize_config: the rounding and compute dtype a requantize with
/// rounding="None" / compute_dtype="None" takes when it is lowered. Per thread, as TVM's
/// RequantizeConfig::Current(); the defaults are TVM's for a CPU target.
struct RequantizeConfig {
  std::string rounding = "UPWARD";
  std::string compute_dtype = "int64";
};
const RequantizeConfig& CurrentRequantizeConfig();
/// Enters a config (a `with requantize_config(...)` block); ExitRequantizeConfig leaves it.
void EnterRequantizeConfig(RequantizeConfig config);
void ExitRequantizeConfig();

}  // namespace relaypass::qnn
