// The int8 kernels' instruction sets: names, TVM's target tables, cpuid and the per-thread
// choice (include/relaypass/op/int8_isa.h).
#include "relaypass/op/int8_isa.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>

namespace relaypass::op {

namespace {

constexpr std::array<const char*, 5> kNames = {"sse2", "ssse3", "avx2", "avx512bw", "avx512vnni"};
constexpr std::array<const char*, 5> kTitles = {"SSE2", "SSSE3", "AVX2", "AVX-512BW",
                                                "AVX-512 VNNI"};

bool In(std::string_view name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// TVM v0.13's python/tvm/topi/x86/utils.py: target_has_vnni, target_has_avx512, target_has_avx2
// and target_has_sse41/42/avx, each set with the larger ones. alderlake (VNNI without AVX-512) and
// knl/knm (AVX-512F without BW) take the widest variant their instructions run: AVX2.
Int8Isa FromMcpu(std::string_view cpu) {
  if (In(cpu, {"cascadelake", "icelake-client", "icelake-server", "rocketlake", "tigerlake",
               "cooperlake", "sapphirerapids"})) {
    return Int8Isa::kAvx512vnni;
  }
  if (In(cpu, {"skylake-avx512", "skx", "x86-64-v4", "cannonlake"})) return Int8Isa::kAvx512bw;
  if (In(cpu, {"haswell", "core-avx2", "broadwell", "skylake", "bdver4", "znver1", "znver2",
               "znver3", "x86-64-v3", "alderlake", "knl", "knm"})) {
    return Int8Isa::kAvx2;
  }
  if (In(cpu, {"sandybridge", "corei7-avx", "ivybridge", "core-avx-i", "silvermont", "slm",
               "goldmont", "goldmont-plus", "tremont", "nehalem", "corei7", "westmere", "bdver1",
               "bdver2", "bdver3", "x86-64-v2", "btver2", "penryn"})) {
    return Int8Isa::kSsse3;
  }
  return Int8Isa::kSse2;
}

Int8Isa FromMattr(std::string_view feature) {
  if (feature == "+avx512vnni") return Int8Isa::kAvx512vnni;
  if (feature == "+avx512bw") return Int8Isa::kAvx512bw;
  if (feature == "+avx2") return Int8Isa::kAvx2;
  if (In(feature, {"+ssse3", "+sse4.1", "+sse4.2", "+avx"})) return Int8Isa::kSsse3;
  return Int8Isa::kSse2;
}

thread_local std::optional<Int8Isa> requested;

}  // namespace

const char* Int8IsaName(Int8Isa isa) {
  return kNames[static_cast<size_t>(isa)];
}
const char* Int8IsaTitle(Int8Isa isa) {
  return kTitles[static_cast<size_t>(isa)];
}

std::optional<Int8Isa> ParseInt8Isa(const std::string& name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (name == kNames[i]) return static_cast<Int8Isa>(i);
  }
  return std::nullopt;
}

Int8Isa Int8IsaForTarget(const std::string& mcpu, const std::vector<std::string>& mattr) {
  Int8Isa isa = FromMcpu(mcpu);
  for (const std::string& feature : mattr) isa = std::max(isa, FromMattr(feature));
  return isa;
}

namespace {

// RELAYPASS_INT8_ISA=<name> caps the variants taken as this processor's at that one (as if the
// processor had no wider instructions): the error for a build's missing variant and the
// narrower kernels can be tried on any machine. Read once.
std::optional<Int8Isa> HostCap() {
  static const std::optional<Int8Isa> cap = []() -> std::optional<Int8Isa> {
    const char* env = std::getenv("RELAYPASS_INT8_ISA");
    return env ? ParseInt8Isa(env) : std::nullopt;
  }();
  return cap;
}

bool CpuHas(Int8Isa isa) {
#if defined(__GNUC__) && defined(__x86_64__)
  switch (isa) {
    case Int8Isa::kSse2:
      return true;
    case Int8Isa::kSsse3:
      return __builtin_cpu_supports("ssse3");
    case Int8Isa::kAvx2:
      return __builtin_cpu_supports("avx2");
    case Int8Isa::kAvx512bw:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    case Int8Isa::kAvx512vnni:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vnni");
  }
#endif
  return false;
}

}  // namespace

bool HostSupportsInt8Isa(Int8Isa isa) {
  const std::optional<Int8Isa> cap = HostCap();
  return CpuHas(isa) && (!cap || isa <= *cap);
}

Int8Isa BestHostInt8Isa() {
  static const Int8Isa best = [] {
    Int8Isa found = Int8Isa::kSse2;
    for (size_t i = 0; i < kNames.size(); ++i) {
      if (HostSupportsInt8Isa(static_cast<Int8Isa>(i))) found = static_cast<Int8Isa>(i);
    }
    return found;
  }();
  return best;
}

Int8IsaScope::Int8IsaScope(Int8Isa isa) : saved_(requested) {
  requested = isa;
}
Int8IsaScope::~Int8IsaScope() {
  requested = saved_;
}

Int8Isa CurrentInt8Isa() {
  return requested ? *requested : BestHostInt8Isa();
}
bool Int8IsaRequested() {
  return requested.has_value();
}

}  // namespace relaypass::op
