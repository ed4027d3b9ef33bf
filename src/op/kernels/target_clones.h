// RELAYPASS_AVX2_CLONES: a hot loop's function compiled for AVX2 as well as the baseline x86-64
// the project builds for, the version picked when the program loads (g++'s function
// multiversioning; elsewhere, only the baseline). AVX2 alone, not FMA: the rounding stays that of
// separate multiplies and adds, the same bits on every machine and in every version.
#pragma once

// Not under ThreadSanitizer: the loader runs the clones' resolvers (IFUNCs) before the TSan
// runtime starts, and the instrumented resolver crashes the program before main.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#define RELAYPASS_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define RELAYPASS_AVX2_CLONES
#endif

// RELAYPASS_AVX512_TARGET: a function compiled for AVX-512F alone, called only where
// PackedSgemmAvailable() (packed_sgemm.h) said the processor has it. RELAYPASS_HAVE_AVX512_TARGET
// is 0 where such functions cannot be compiled (then PackedSgemmAvailable() is false).
#if defined(__GNUC__) && defined(__x86_64__)
#define RELAYPASS_HAVE_AVX512_TARGET 1
#define RELAYPASS_AVX512_TARGET __attribute__((target("avx512f")))
#else
#define RELAYPASS_HAVE_AVX512_TARGET 0
#define RELAYPASS_AVX512_TARGET
#endif
