// The int8 GEMM for SSSE3 (TVM's nehalem-class targets): uint8 x int8 by pmaddubsw, which adds
// pairs of uint8 * int8 products into int16 lanes with saturation. To stay exact each uint8 is
// split into a & 0x7f and a & 0x80: a pair of products of the first is within
// [2 * 127 * -128, 2 * 127 * 127] = [-32512, 32258], of the second within [-32768, 32512], so
// neither saturates; pmaddwd by ones widens each to int32 and paddd accumulates. uint8 x uint8
// takes the widening product (sse_common.h).
#include <tmmintrin.h>

#include "int8_tiles.h"
#include "sse_common.h"

namespace {

struct SplitU8S8 {
  using Acc = __m128i;
  struct AVec {
    __m128i low7, high1;  // a & 0x7f, a & 0x80
  };
  using BVec = __m128i;
  static constexpr int64_t kBytes = 16;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm_setzero_si128(); }
  static AVec LoadA(const uint8_t* p) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return {_mm_and_si128(v, _mm_set1_epi8(0x7f)), _mm_and_si128(v, _mm_set1_epi8(-128))};
  }
  static BVec LoadB(const int8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  }
  static Acc Dot(Acc acc, const AVec& a, BVec b) {
    const __m128i ones = _mm_set1_epi16(1);
    acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(a.low7, b), ones));
    return _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(a.high1, b), ones));
  }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

}  // namespace

RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8s8_ssse3, int8_t, SplitU8S8)
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_ssse3, uint8_t, WideU8U8)
