// 128-bit pieces the SSE2 and SSSE3 int8 GEMMs share (each file compiles its own copy: unnamed
// namespace). The widening product: both operands as int16 lanes, pmaddwd adds pairs of products
// into int32 lanes, paddd accumulates; exact (|product pair| < 2^17).
#pragma once

#include <emmintrin.h>

#include <cstdint>

namespace {

inline int32_t SumLanes(__m128i v) {
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
  return _mm_cvtsi128_si32(v);
}

struct Pair {
  __m128i lo, hi;  // 8 int16 lanes each
};

// 16 uint8 zero-extended: unpacked with zero bytes.
inline Pair LoadUnsigned(const void* p) {
  const __m128i v = _mm_loadu_si128(static_cast<const __m128i*>(p));
  const __m128i zero = _mm_setzero_si128();
  return {_mm_unpacklo_epi8(v, zero), _mm_unpackhi_epi8(v, zero)};
}

// 16 int8 sign-extended: each byte put in the high half of its int16 lane, shifted down.
inline Pair LoadSigned(const void* p) {
  const __m128i v = _mm_loadu_si128(static_cast<const __m128i*>(p));
  const __m128i zero = _mm_setzero_si128();
  return {_mm_srai_epi16(_mm_unpacklo_epi8(zero, v), 8),
          _mm_srai_epi16(_mm_unpackhi_epi8(zero, v), 8)};
}

inline __m128i WideDot(__m128i acc, const Pair& a, const Pair& b) {
  acc = _mm_add_epi32(acc, _mm_madd_epi16(a.lo, b.lo));
  return _mm_add_epi32(acc, _mm_madd_epi16(a.hi, b.hi));
}

// uint8 x uint8 (no instruction multiplies two unsigned bytes): the widening product.
struct WideU8U8 {
  using Acc = __m128i;
  using AVec = Pair;
  using BVec = Pair;
  static constexpr int64_t kBytes = 16;
  static constexpr int64_t kTileRows = 2;
  static Acc Zero() { return _mm_setzero_si128(); }
  static AVec LoadA(const uint8_t* p) { return LoadUnsigned(p); }
  static BVec LoadB(const uint8_t* p) { return LoadUnsigned(p); }
  static Acc Dot(Acc acc, const AVec& a, const BVec& b) { return WideDot(acc, a, b); }
  static int32_t Sum(Acc v) { return SumLanes(v); }
};

}  // namespace
