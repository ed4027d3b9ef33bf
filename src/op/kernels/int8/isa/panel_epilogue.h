// The per-channel integer steps the VNNI panel kernel applies to its int32 results before it
// stores them (gemm_avx512vnni.cc): the bias add, zero-point terms, fixed-point multiply and
// clip that TVM's qnn lowering puts after an int8 convolution, each step as its op's own kernel
// computes an element (../../element_ops.h). Plain structs: the driver (int8_products.cc) fills
// them, the variant's code reads them.
#pragma once

#include <cstdint>

struct RelaypassInt8EpilogueStep {
  enum Kind : int32_t { kAdd, kSubtract, kMaximum, kMinimum, kClip, kFixedPoint };
  int32_t kind;
  // Operand k's value for output channel c: operand[k][c * stride[k]] (stride 0: one value).
  // kAdd .. kMinimum read operand 0 (int32 values); kFixedPoint reads the multiplier, the
  // addend, the right shift and the left shift (operand 3 null: none), int64 values.
  const int64_t* operand[4];
  int64_t stride[4];
  int32_t lo, hi;  // kClip's bounds, already saturated to int32
};

struct RelaypassInt8Epilogue {
  const RelaypassInt8EpilogueStep* steps;
  int32_t num_steps;
  int32_t out_bytes;  // 4: int32 results; 1: their low byte (a cast to uint8 or int8)
};
