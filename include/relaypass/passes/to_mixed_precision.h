// ToMixedPrecision (TVM v0.13, src/relay/transforms/to_mixed_precision.cc and
// python/tvm/relay/transform/mixed_precision.py): rewrites a function so that as many operations
// as possible compute in a lower-precision float type (float16 by default), with casts where the
// precision changes. Each operator has a conversion rule giving its category:
//   ALWAYS  its float arguments are cast to the mixed type (convolutions, dense, batch_matmul);
//   FOLLOW  it computes in the mixed type when every argument already is one (or is a variable or
//           constant, which can be cast), else in float32;
//   NEVER   its float arguments are cast back to float32 (exp, softmax, sums, ...);
// plus the dtype it accumulates in (written to its out_dtype / dtype attribute) and the dtype of
// its output (a cast follows when the two differ). The default rules are TVM's lists; an operator
// without a rule is FOLLOW and is reported according to missing_op_mode (0: error, 1: a warning
// on stderr, 2: silent). Calls of functions are NEVER (their signatures are kept).
#pragma once

#include <functional>
#include <string>

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

enum class MixedPrecisionCategory { kAlways = 0, kFollow = 1, kNever = 2 };

struct MixedPrecisionConversion {
  MixedPrecisionCategory category;
  std::string accumulation_dtype;
  std::string output_dtype;
};

/// An operator's rule (TVM's FTVMMixedPrecisionConversionType): given the call and the mixed
/// precision type's name, its category, accumulation dtype and output dtype.
using MixedPrecisionRule =
    std::function<MixedPrecisionConversion(const ir::Call& call, const std::string& mixed_type)>;

/// Sets the rule of operator `op_name` (replacing the default or an earlier one), as TVM's
/// register_mixed_precision_conversion does; thread-safe.
void RegisterMixedPrecisionConversion(const std::string& op_name, MixedPrecisionRule rule);
/// TVM's generic rule for a category: [category, mixed_type, mixed_type].
MixedPrecisionRule GenericMixedPrecisionRule(MixedPrecisionCategory category);

/// Function pass "ToMixedPrecision", opt_level 0. `mixed_precision_type` is a float dtype
/// ("float16", "bfloat16"); PassError for others and for a missing_op_mode outside 0..2.
transform::Pass ToMixedPrecision(const std::string& mixed_precision_type = "float16",
                                 int missing_op_mode = 1);
void RegisterToMixedPrecision(transform::PassRegistry& registry);

}  // namespace relaypass::passes
