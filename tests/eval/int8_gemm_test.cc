// The int8 GEMM (src/op/kernels/int8/int8_gemm.h) against a scalar reference loop: C[i][j] =
// sum_p x[i][p] * w[j][p] in int64, which must equal the kernel's int32 exactly (the shapes
// here cannot overflow int32). Every variant this processor runs, every operand pair (uint8 x
// int8, int8 x int8, uint8 x uint8, int8 x uint8), shapes that leave partial tiles (m not even,
// n not a multiple of 4) and depths that are not a multiple of 4, 16 or 64, operands at the
// extremes (-128, 127, 255: where pmaddubsw would saturate without the split of gemm_ssse3.cc),
// strided output, and the same result at one and two threads. Also the target tables
// (TVM v0.13's topi/x86/utils.py) and the error for a variant the processor lacks.
#include <cstring>
#include <random>
#include <vector>

#include "../../src/op/kernels/int8/int8_gemm.h"
#include "relaypass/op/int8_kernels.h"
#include "relaypass/support/error.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using op::Int8Isa;

constexpr Int8Isa kAllIsas[] = {Int8Isa::kSse2, Int8Isa::kSsse3, Int8Isa::kAvx2, Int8Isa::kAvx512bw,
                                Int8Isa::kAvx512vnni};

enum class Fill { kRandom, kExtremes };

std::vector<uint8_t> Bytes(int64_t size, bool is_signed, Fill fill, uint32_t seed) {
  std::mt19937 gen(seed);
  std::vector<uint8_t> v(static_cast<size_t>(size));
  for (size_t i = 0; i < v.size(); ++i) {
    if (fill == Fill::kExtremes) {
      // Signed: -128 and 127; unsigned: 255 and 0 (mostly the large ones).
      const uint32_t r = gen() % 8;
      v[i] = is_signed ? static_cast<uint8_t>(r < 4 ? 0x80 : (r < 7 ? 0x7f : 0))
                       : static_cast<uint8_t>(r < 7 ? 255 : 0);
    } else {
      v[i] = static_cast<uint8_t>(gen());
    }
  }
  return v;
}

int64_t Value(uint8_t byte, bool is_signed) {
  return is_signed ? static_cast<int8_t>(byte) : byte;
}

struct Shape3 {
  int64_t m, n, k;
};

void CheckCase(Int8Isa isa, Shape3 s, bool x_signed, bool w_signed, Fill fill) {
  const auto x = Bytes(s.m * s.k, x_signed, fill, 1);
  const auto w = Bytes(s.n * s.k, w_signed, fill, 2);
  // Row stride n + 3 and column stride 1: the output's rows are wider than n.
  const int64_t pitch = s.n + 3;
  std::vector<int32_t> c(static_cast<size_t>(std::max<int64_t>(s.m * pitch, 1)), 12345);
  op::kernels::Int8Gemm(isa, s.m, s.n, s.k, x.data(), x_signed, w.data(), w_signed, c.data(), pitch,
                        1);
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      int64_t want = 0;
      for (int64_t p = 0; p < s.k; ++p) {
        want += Value(x[i * s.k + p], x_signed) * Value(w[j * s.k + p], w_signed);
      }
      ASSERT_EQ(c[i * pitch + j], want)
          << op::Int8IsaName(isa) << " " << (x_signed ? "s8" : "u8") << "x"
          << (w_signed ? "s8" : "u8") << " m=" << s.m << " n=" << s.n << " k=" << s.k << " at ("
          << i << ", " << j << ")";
    }
    for (int64_t j = s.n; j < pitch; ++j) ASSERT_EQ(c[i * pitch + j], 12345) << "wrote past n";
  }
}

TEST(Int8Gemm, EveryVariantMatchesTheReferenceLoop) {
  const Shape3 shapes[] = {{1, 1, 1},     {3, 5, 7},    {2, 4, 64}, {7, 9, 97}, {5, 3, 129},
                           {33, 17, 250}, {4, 29, 153}, {0, 3, 5},  {3, 0, 5},  {2, 3, 0}};
  int variants = 0;
  for (Int8Isa isa : kAllIsas) {
    if (!op::HostSupportsInt8Isa(isa)) continue;
    ++variants;
    for (const Shape3& s : shapes) {
      for (int pair = 0; pair < 4; ++pair) {
        for (Fill fill : {Fill::kRandom, Fill::kExtremes}) {
          CheckCase(isa, s, pair & 1, pair & 2, fill);
        }
      }
    }
  }
  EXPECT_GE(variants, 1);  // SSE2 at least, on any x86-64
}

TEST(Int8Gemm, ExtremesWherePmaddubswWouldSaturate) {
  // 255 * 127 + 255 * 127 = 64770 and 255 * -128 * 2 = -65280 do not fit int16: a plain
  // pmaddubsw would give 32767 / -32768 per pair. All bytes at the extreme, long depth.
  for (Int8Isa isa : kAllIsas) {
    if (!op::HostSupportsInt8Isa(isa)) continue;
    for (uint8_t wbyte : {uint8_t{0x7f}, uint8_t{0x80}}) {
      const int64_t m = 3, n = 5, k = 131;
      std::vector<uint8_t> x(m * k, 255), w(n * k, wbyte);
      std::vector<int32_t> c(m * n);
      op::kernels::Int8Gemm(isa, m, n, k, x.data(), false, w.data(), true, c.data(), n, 1);
      const int32_t want = static_cast<int32_t>(255 * k * static_cast<int8_t>(wbyte));
      for (int32_t v : c) ASSERT_EQ(v, want) << op::Int8IsaName(isa);
    }
  }
}

TEST(Int8Gemm, SameResultAtOneAndTwoThreads) {
  const Int8Isa isa = op::BestHostInt8Isa();
  const int64_t m = 301, n = 37, k = 300;
  const auto x = Bytes(m * k, true, Fill::kRandom, 3);
  const auto w = Bytes(n * k, true, Fill::kRandom, 4);
  std::vector<int32_t> one(m * n), two(m * n);
  const int saved = support::NumThreads();
  support::SetNumThreads(1);
  op::kernels::Int8Gemm(isa, m, n, k, x.data(), true, w.data(), true, one.data(), n, 1);
  support::SetNumThreads(2);
  op::kernels::Int8Gemm(isa, m, n, k, x.data(), true, w.data(), true, two.data(), n, 1);
  support::SetNumThreads(saved);
  EXPECT_EQ(one, two);
}

TEST(Int8Gemm, TransposedOutputStrides) {
  // Column stride m, row stride 1: C transposed, as conv2d writes NCHW.
  const int64_t m = 7, n = 6, k = 19;
  const auto x = Bytes(m * k, false, Fill::kRandom, 5);
  const auto w = Bytes(n * k, true, Fill::kRandom, 6);
  std::vector<int32_t> c(m * n);
  op::kernels::Int8Gemm(op::BestHostInt8Isa(), m, n, k, x.data(), false, w.data(), true, c.data(),
                        1, m);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t want = 0;
      for (int64_t p = 0; p < k; ++p)
        want += Value(x[i * k + p], false) * Value(w[j * k + p], true);
      ASSERT_EQ(c[j * m + i], want);
    }
  }
}

TEST(Int8Gemm, MissingInstructionSetIsAnError) {
  for (Int8Isa isa : kAllIsas) {
    if (op::HostSupportsInt8Isa(isa)) continue;
    uint8_t x = 1, w = 1;
    int32_t c = 0;
    EXPECT_THROW(op::kernels::Int8Gemm(isa, 1, 1, 1, &x, false, &w, true, &c, 1, 1), Error);
  }
}

// TVM v0.13 topi/x86/utils.py: target_has_vnni / _avx512 / _avx2 / _sse42.
TEST(Int8Isa, TargetTables) {
  EXPECT_EQ(op::Int8IsaForTarget("cascadelake", {}), Int8Isa::kAvx512vnni);
  EXPECT_EQ(op::Int8IsaForTarget("icelake-server", {}), Int8Isa::kAvx512vnni);
  EXPECT_EQ(op::Int8IsaForTarget("skylake-avx512", {}), Int8Isa::kAvx512bw);
  EXPECT_EQ(op::Int8IsaForTarget("core-avx2", {}), Int8Isa::kAvx2);
  EXPECT_EQ(op::Int8IsaForTarget("nehalem", {}), Int8Isa::kSsse3);
  EXPECT_EQ(op::Int8IsaForTarget("x86-64", {}), Int8Isa::kSse2);
  EXPECT_EQ(op::Int8IsaForTarget("", {}), Int8Isa::kSse2);
  EXPECT_EQ(op::Int8IsaForTarget("", {"+avx512bw", "+avx512vnni"}), Int8Isa::kAvx512vnni);
  EXPECT_EQ(op::Int8IsaForTarget("nehalem", {"+avx2"}), Int8Isa::kAvx2);
  for (Int8Isa isa : kAllIsas) EXPECT_EQ(op::ParseInt8Isa(op::Int8IsaName(isa)), isa);
  EXPECT_FALSE(op::ParseInt8Isa("avx9"));
}

TEST(Int8Kernels, AssemblyIsTheVariantsOwnInstructions) {
  using op::Int8GemmKind;
  auto asm_of = [](Int8Isa isa, Int8GemmKind kind) { return op::Int8KernelAssembly(isa, kind); };
  const std::string vnni = asm_of(Int8Isa::kAvx512vnni, Int8GemmKind::kU8S8);
  EXPECT_NE(vnni.find("relaypass_int8_gemm_u8s8_avx512vnni:"), std::string::npos);
  EXPECT_NE(vnni.find("vpdpbusd"), std::string::npos);
  const std::string bw = asm_of(Int8Isa::kAvx512bw, Int8GemmKind::kU8S8);
  for (const char* op : {"vpmaddubsw", "vpmaddwd", "vpaddd"}) {
    EXPECT_NE(bw.find(op), std::string::npos) << op;
  }
  EXPECT_NE(asm_of(Int8Isa::kSsse3, Int8GemmKind::kU8S8).find("pmaddubsw"), std::string::npos);
  const std::string sse2 = asm_of(Int8Isa::kSse2, Int8GemmKind::kU8S8);
  EXPECT_NE(sse2.find("pmaddwd"), std::string::npos);
  EXPECT_NE(sse2.find("paddd"), std::string::npos);
  // uint8 x uint8 has no byte product instruction: the widening path only.
  for (Int8Isa isa : kAllIsas) {
    const std::string u8u8 = asm_of(isa, Int8GemmKind::kU8U8);
    EXPECT_NE(u8u8.find(".size\trelaypass_int8_gemm_u8u8_"), std::string::npos);
    EXPECT_EQ(u8u8.find("pmaddubs"), std::string::npos) << op::Int8IsaName(isa);
    EXPECT_EQ(u8u8.find("vpdpbusd"), std::string::npos) << op::Int8IsaName(isa);
  }
}

}  // namespace
}  // namespace relaypass::eval
