// The int8 GEMM for AVX-512 VNNI (TVM's cascadelake-class targets): uint8 x int8 by vpdpbusd,
// which adds four uint8 * int8 products into each int32 lane without saturation (exact);
// uint8 x uint8 by the widening product (avx512_common.h).
#include "avx512_common.h"
#include "int8_tiles.h"

namespace {

struct VnniU8S8 {
  using Acc = __m512i;
  using AVec = __m512i;
  using BVec = __m512i;
  static constexpr int64_t kBytes = 64;
  static constexpr int64_t kTileRows = 4;
  static Acc Zero() { return _mm512_setzero_si512(); }
  static AVec LoadA(const uint8_t* p) { return _mm512_loadu_si512(p); }
  static BVec LoadB(const int8_t* p) { return _mm512_loadu_si512(p); }
  static Acc Dot(Acc acc, AVec a, BVec b) { return _mm512_dpbusd_epi32(acc, a, b); }
  static int32_t Sum(Acc v) { return SumLanes(v); }
  static void SumTile(const Acc* v, int32_t* out) { SumLanes16(v, out); }  // 4 x 4 tiles
};

}  // namespace

RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8s8_avx512vnni, int8_t, VnniU8S8)
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_avx512vnni, uint8_t, WideU8U8)
