// The int8 GEMM for AVX-512BW (TVM's skylake-avx512-class targets): uint8 x int8 by vpmaddubsw on
// the split uint8 (a & 0x7f and a & 0x80, exact for the reason gemm_ssse3.cc gives), vpmaddwd by
// ones and vpaddd; uint8 x uint8 by the widening product (avx512_common.h).
#include "avx512_common.h"
#include "int8_tiles.h"

namespace {

struct SplitU8S8 {
  using Acc = __m512i;
  struct AVec {
    __m512i low7, high1;
  };
  using BVec = __m512i;
  static constexpr int64_t kBytes = 64;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm512_setzero_si512(); }
  static AVec LoadA(const uint8_t* p) {
    const __m512i v = _mm512_loadu_si512(p);
    return {_mm512_and_si512(v, _mm512_set1_epi8(0x7f)),
            _mm512_and_si512(v, _mm512_set1_epi8(-128))};
  }
  static BVec LoadB(const int8_t* p) { return _mm512_loadu_si512(p); }
  static Acc Dot(Acc acc, const AVec& a, BVec b) {
    const __m512i ones = _mm512_set1_epi16(1);
    acc = _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(a.low7, b), ones));
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(a.high1, b), ones));
  }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

}  // namespace

RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8s8_avx512bw, int8_t, SplitU8S8)
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_avx512bw, uint8_t, WideU8U8)
