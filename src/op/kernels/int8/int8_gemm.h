// The evaluator's int8 GEMM: C[i, j] = sum_p x[i, p] * w[j, p] in int32 (wrapping as NumPy's
// int32 does), x and w each uint8 or int8, on the variant of the current instruction set
// (relaypass/op/int8_isa.h). The int8 nn.dense, nn.matmul, nn.batch_matmul and nn.conv2d with
// out_dtype int32 run on it.
//
// The variants multiply a uint8 x by an int8 or uint8 w. An int8 x is made uint8 by adding 128
// (TVM's x86 legalization of int8 x int8 does the same): sum (x + 128) * w - 128 * sum w is the
// product exactly, in wrapping int32. Exact integer results, the same at any thread count.
#pragma once

#include <cstdint>
#include "relaypass/op/int8_isa.h"
#include "relaypass/op/int8_kernels.h"

struct RelaypassInt8Epilogue;

namespace relaypass::op::kernels {

using op::Int8GemmKind;

/// C (m x n; element (i, j) at c[i * row_stride + j * col_stride]) = x (m x k, row pitch k) times
/// w (n x k, row pitch k) transposed, on variant `isa`. Fails (relaypass::Error) naming the
/// instruction set when this processor lacks it.
void Int8Gemm(Int8Isa isa, int64_t m, int64_t n, int64_t k, const void* x, bool x_signed,
              const void* w, bool w_signed, int32_t* c, int64_t row_stride, int64_t col_stride);

/// x as the variants read it (int8_tiles.h): Int8PackedRows(m) rows of Int8PackedDepth(k) bytes,
/// x[i][p] at row i, byte p, xor 0x80 if x is int8 (then uint8: x + 128), zeros past k and in the
/// rows past m.
int64_t Int8PackedDepth(int64_t k);
int64_t Int8PackedRows(int64_t m);

/// Int8Gemm with x already packed so (conv2d's patches are gathered straight into it).
void Int8GemmPackedX(Int8Isa isa, int64_t m, int64_t n, int64_t k, const uint8_t* packed_x,
                     bool x_signed, const void* w, bool w_signed, int32_t* c, int64_t row_stride,
                     int64_t col_stride);

/// The convolutions' panel product on AVX-512 VNNI (only where HostSupportsInt8Isa says so):
/// y[r * y_row_stride + p] = sum_j w[r * 4 * k4 + j] * data(p, j) for r < rows, p < pixels, the
/// uint8 data packed in blocks of 16 pixels, block b at panels + b * 64 * k4 holding bytes
/// [q][p % 16][4] for the products 4q .. 4q + 3; int8 weights, rows 4 * k4 bytes apart.
void Int8PanelsVnni(const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels,
                    int64_t rows, int32_t* y, int64_t y_row_stride);

/// Int8PanelsVnni with `epilogue` (isa/panel_epilogue.h) applied to each result row before it is
/// stored (row r is output channel first_channel + r; epilogue->out_bytes per result). Only where
/// Int8PanelEpilogueRuns() (VNNI and AVX-512DQ).
void Int8PanelsVnniEpilogue(const uint8_t* panels, const int8_t* w, int64_t k4, int64_t pixels,
                            int64_t rows, void* y, int64_t y_row_stride,
                            const RelaypassInt8Epilogue* epilogue, int64_t first_channel);
bool Int8PanelEpilogueRuns();

}  // namespace relaypass::op::kernels
