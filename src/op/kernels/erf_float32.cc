#include "erf_float32.h"

#include "target_clones.h"

#if RELAYPASS_HAVE_AVX512_TARGET
#include <immintrin.h>
#endif

namespace relaypass::op::kernels {

namespace {

// The approximation's coefficients: numerator (odd, x times a polynomial in x^2) and
// denominator (even).
constexpr double kP[] = {-2.72614225801306e-10, 2.77068142495902e-08,  -2.10102402082508e-06,
                         -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
                         -1.60960333262415e-02};
constexpr double kQ[] = {-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
                         -7.37332916720468e-03, -1.42647390514189e-02};

// Separate multiplies and adds (no fused multiply-add), the same in the vector loop below, so
// both give the same bits. The clamp keeps a NaN a NaN. x * (p / q) rather than (x * p) / q: the
// product of a tiny x stays normal longer.
float Erf(float in) {
  double x = static_cast<double>(in);
  x = x > 4.0 ? 4.0 : x;
  x = x < -4.0 ? -4.0 : x;
  const double x2 = x * x;
  double p = x2 * kP[0] + kP[1];
  for (int i = 2; i < 7; ++i) p = x2 * p + kP[i];
  double q = x2 * kQ[0] + kQ[1];
  for (int i = 2; i < 5; ++i) q = x2 * q + kQ[i];
  return static_cast<float>(x * (p / q));
}

#if RELAYPASS_HAVE_AVX512_TARGET
RELAYPASS_AVX512_TARGET void ErfAvx512(const float* in, float* out, int64_t n) {
  const __m512d hi = _mm512_set1_pd(4.0), lo = _mm512_set1_pd(-4.0);
  int64_t i = 0;
  // The masked conversions: g++ 12 warns that the unmasked ones read an undefined register.
  for (; i + 8 <= n; i += 8) {
    __m512d x = _mm512_mask_cvtps_pd(_mm512_setzero_pd(), 0xFF, _mm256_loadu_ps(in + i));
    x = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, hi, _CMP_GT_OQ), x, hi);
    x = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, lo, _CMP_LT_OQ), x, lo);
    const __m512d x2 = _mm512_mul_pd(x, x);
    __m512d p = _mm512_add_pd(_mm512_mul_pd(x2, _mm512_set1_pd(kP[0])), _mm512_set1_pd(kP[1]));
    for (int k = 2; k < 7; ++k) {
      p = _mm512_add_pd(_mm512_mul_pd(x2, p), _mm512_set1_pd(kP[k]));
    }
    __m512d q = _mm512_add_pd(_mm512_mul_pd(x2, _mm512_set1_pd(kQ[0])), _mm512_set1_pd(kQ[1]));
    for (int k = 2; k < 5; ++k) {
      q = _mm512_add_pd(_mm512_mul_pd(x2, q), _mm512_set1_pd(kQ[k]));
    }
    _mm256_storeu_ps(out + i, _mm512_mask_cvtpd_ps(_mm256_setzero_ps(), 0xFF,
                                                   _mm512_mul_pd(x, _mm512_div_pd(p, q))));
  }
  for (; i < n; ++i) out[i] = Erf(in[i]);
}

bool HasAvx512() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return has;
}
#endif

}  // namespace

float ErfFloat32(float x) {
  return Erf(x);
}

void ErfFloat32(const float* x, float* y, int64_t n) {
#if RELAYPASS_HAVE_AVX512_TARGET
  if (HasAvx512()) {
    ErfAvx512(x, y, n);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) y[i] = Erf(x[i]);
}

}  // namespace relaypass::op::kernels
