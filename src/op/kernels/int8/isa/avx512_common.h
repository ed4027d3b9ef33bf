// 512-bit pieces the AVX-512BW and AVX-512 VNNI int8 GEMMs share (each file compiles its own
// copy: unnamed namespace): the lane sum and the widening uint8 x uint8 product (vpmovzxbw,
// vpmaddwd, vpaddd; no instruction multiplies two unsigned bytes).
#pragma once

// g++ 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the 'undefined'
// pass-through vector of _mm512_reduce_add_epi32's extracts and shuffles): a known false
// positive, silenced for the files that include this header.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <immintrin.h>

#include <cstdint>

namespace {

inline int32_t SumLanes(__m512i v) {
  return _mm512_reduce_add_epi32(v);
}

// out[i] = the sum of v[i]'s 16 lanes, for i < 16 (wrapping int32 adds, so the order of the
// tree changes nothing): pairs of vectors interleaved and added, then pairs of 128-bit lanes.
inline void SumLanes16(const __m512i* v, int32_t* out) {
  __m512i s[8], t[4];
  for (int i = 0; i < 8; ++i) {  // per 128-bit lane: v[2i], v[2i+1] lanes (0+2, 1+3)
    s[i] = _mm512_add_epi32(_mm512_unpacklo_epi32(v[2 * i], v[2 * i + 1]),
                            _mm512_unpackhi_epi32(v[2 * i], v[2 * i + 1]));
  }
  for (int i = 0; i < 4; ++i) {  // per 128-bit lane: the 4-lane sums of v[4i .. 4i+3]
    t[i] = _mm512_add_epi32(_mm512_unpacklo_epi64(s[2 * i], s[2 * i + 1]),
                            _mm512_unpackhi_epi64(s[2 * i], s[2 * i + 1]));
  }
  const __m512i u = _mm512_add_epi32(_mm512_shuffle_i32x4(t[0], t[1], 0x88),
                                     _mm512_shuffle_i32x4(t[0], t[1], 0xdd));
  const __m512i w = _mm512_add_epi32(_mm512_shuffle_i32x4(t[2], t[3], 0x88),
                                     _mm512_shuffle_i32x4(t[2], t[3], 0xdd));
  const __m512i z =
      _mm512_add_epi32(_mm512_shuffle_i32x4(u, w, 0x88), _mm512_shuffle_i32x4(u, w, 0xdd));
  _mm512_storeu_si512(out, z);
}

struct WideU8U8 {
  using Acc = __m512i;
  struct AVec {
    __m512i lo, hi;  // 32 int16 lanes each
  };
  using BVec = AVec;
  static constexpr int64_t kBytes = 64;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm512_setzero_si512(); }
  static AVec LoadA(const uint8_t* p) {
    return {_mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))),
            _mm512_cvtepu8_epi16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)))};
  }
  static BVec LoadB(const uint8_t* p) { return LoadA(p); }
  static Acc Dot(Acc acc, const AVec& a, const BVec& b) {
    acc = _mm512_add_epi32(acc, _mm512_madd_epi16(a.lo, b.lo));
    return _mm512_add_epi32(acc, _mm512_madd_epi16(a.hi, b.hi));
  }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

}  // namespace
