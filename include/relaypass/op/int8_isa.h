// The instruction sets of the evaluator's int8 GEMM (uint8/int8 operands, int32 products: the
// int8 nn.conv2d, nn.dense, nn.matmul and nn.batch_matmul with out_dtype int32). Each set has its
// own compiled variant of the kernels (src/op/kernels/int8/isa/). relay.build records the set
// TVM's target would use (Int8IsaForTarget) and the graph executor runs that variant
// (Int8IsaScope); anywhere else the evaluator takes the best one the processor has.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace relaypass::op {

enum class Int8Isa {
  kSse2,        // x86-64's baseline: pmaddwd on widened operands
  kSsse3,       // pmaddubsw (nehalem and later)
  kAvx2,        // vpmaddubsw (haswell, core-avx2 and later)
  kAvx512bw,    // 512-bit vpmaddubsw (skylake-avx512)
  kAvx512vnni,  // vpdpbusd (cascadelake and later)
};

/// "sse2", "ssse3", "avx2", "avx512bw", "avx512vnni".
const char* Int8IsaName(Int8Isa isa);
/// The set named by Int8IsaName's text, or nullopt.
std::optional<Int8Isa> ParseInt8Isa(const std::string& name);
/// A readable name for errors and docs ("AVX-512 VNNI", ...).
const char* Int8IsaTitle(Int8Isa isa);

/// The set TVM v0.13's x86 int8 schedules use for an LLVM target with -mcpu=`mcpu` and
/// -mattr=`mattr` (topi/x86/utils.py's target_has_* tables; -mattr features such as
/// "+avx512vnni" raise it). No mcpu or an unknown one: the SSE2 baseline.
Int8Isa Int8IsaForTarget(const std::string& mcpu, const std::vector<std::string>& mattr);

/// True if this processor runs the variant (cpuid), and the environment's RELAYPASS_INT8_ISA (a
/// name, if set) is not a narrower one.
bool HostSupportsInt8Isa(Int8Isa isa);
/// The best variant this processor runs.
Int8Isa BestHostInt8Isa();

/// While alive, the int8 kernels called on this thread use `isa` (relay.build's choice): a
/// processor without it makes them fail with an error naming the missing instruction set.
class Int8IsaScope {
 public:
  explicit Int8IsaScope(Int8Isa isa);
  ~Int8IsaScope();
  Int8IsaScope(const Int8IsaScope&) = delete;
  Int8IsaScope& operator=(const Int8IsaScope&) = delete;

 private:
  std::optional<Int8Isa> saved_;
};

/// The variant the int8 kernels use on this thread: the innermost Int8IsaScope's, else
/// BestHostInt8Isa().
Int8Isa CurrentInt8Isa();
/// Whether an Int8IsaScope is active on this thread.
bool Int8IsaRequested();

}  // namespace relaypass::op
