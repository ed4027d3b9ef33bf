// What the rest of the library may know of the evaluator's int8 GEMM kernels
// (src/op/kernels/int8/): which products run on them, the kernel functions' names and their
// assembly text as g++ compiled them (get_source("asm") of a build, src/backend/kernel_source.cc).
#pragma once

#include <optional>
#include <string>

#include "relaypass/ir/dtype.h"
#include "relaypass/op/int8_isa.h"

namespace relaypass::op {

/// The kernel an operand pair runs: uint8 (or int8 shifted by 128) x int8, or x uint8.
enum class Int8GemmKind { kU8S8, kU8U8 };

/// The kernel of an int8 product (nn.dense, nn.matmul, nn.batch_matmul, nn.conv2d) with these
/// operand dtypes (data, weight) and out_dtype, or nullopt when it runs elsewhere (operands other
/// than uint8/int8, or out_dtype other than int32).
std::optional<Int8GemmKind> Int8GemmKindFor(ir::DataType data, ir::DataType weight,
                                            ir::DataType out);

/// The kernel function's symbol, e.g. "relaypass_int8_gemm_u8s8_avx512vnni".
std::string Int8KernelSymbol(Int8Isa isa, Int8GemmKind kind);

/// The kernel function's assembly (GNU as syntax), from its .globl line to its .size line, cut
/// from the text g++ wrote when it compiled the variant's file for this library.
std::string Int8KernelAssembly(Int8Isa isa, Int8GemmKind kind);

/// The g++ options the variant's file was compiled with beyond the library's (e.g. "-mavx2";
/// "" for SSE2, x86-64's baseline).
const char* Int8VariantFlags(Int8Isa isa);

}  // namespace relaypass::op
