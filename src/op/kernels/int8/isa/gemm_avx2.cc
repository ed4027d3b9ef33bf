// The int8 GEMM for AVX2 (TVM's core-avx2-class targets): uint8 x int8 by vpmaddubsw on the
// split uint8 (a & 0x7f and a & 0x80, exact for the reason gemm_ssse3.cc gives), vpmaddwd by
// ones and vpaddd; uint8 x uint8 by the widening product (vpmovzxbw, vpmaddwd, vpaddd).
#include <immintrin.h>

#include "int8_tiles.h"

namespace {

inline int32_t SumLanes(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
  return _mm_cvtsi128_si32(s);
}

struct SplitU8S8 {
  using Acc = __m256i;
  struct AVec {
    __m256i low7, high1;
  };
  using BVec = __m256i;
  static constexpr int64_t kBytes = 32;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm256_setzero_si256(); }
  static AVec LoadA(const uint8_t* p) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    return {_mm256_and_si256(v, _mm256_set1_epi8(0x7f)),
            _mm256_and_si256(v, _mm256_set1_epi8(-128))};
  }
  static BVec LoadB(const int8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static Acc Dot(Acc acc, const AVec& a, BVec b) {
    const __m256i ones = _mm256_set1_epi16(1);
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a.low7, b), ones));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(a.high1, b), ones));
  }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

struct WideU8U8 {
  using Acc = __m256i;
  struct AVec {
    __m256i lo, hi;  // 16 int16 lanes each
  };
  using BVec = AVec;
  static constexpr int64_t kBytes = 32;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm256_setzero_si256(); }
  static AVec LoadA(const uint8_t* p) {
    return {_mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))),
            _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)))};
  }
  static BVec LoadB(const uint8_t* p) { return LoadA(p); }
  static Acc Dot(Acc acc, const AVec& a, const BVec& b) {
    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(a.lo, b.lo));
    return _mm256_add_epi32(acc, _mm256_madd_epi16(a.hi, b.hi));
  }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

}  // namespace

RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8s8_avx2, int8_t, SplitU8S8)
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_avx2, uint8_t, WideU8U8)
