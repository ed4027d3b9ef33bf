// A group of elementwise ops run as one kernel: FuseOps' primitive functions whose body is
// elementwise arithmetic (a quantized graph's requantize and add lowerings, a convolution's
// epilogue) compiled to a list of instructions that the kernel applies to the output in pieces
// of a few hundred elements, each piece going through every instruction while it is in cache,
// instead of one full pass over memory, and one new array, per op. Each instruction computes what
// its op's own kernel computes for an element (src/op/kernels/element_ops.h), so running a
// function as a program changes no bit of its result.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/ndarray.h"

namespace relaypass::op {

struct ElementwiseProgram {
  enum class Opcode : uint8_t {
    kAdd,
    kSubtract,
    kMultiply,
    kDivide,
    kMaximum,
    kMinimum,
    kRightShift,
    kLeftShift,
    kNegative,
    kRelu,
    kRound,
    kClip,
    kCast,
    // (int32) ((((int64) x << left_shift) * multiplier + addend) >> right_shift), each step
    // as its op (wrapping): a requantize's fixed-point multiply in one loop
    // (FuseElementwiseInstructions makes it; the importers never write it).
    kFixedPointMultiply,
  };
  static constexpr int kMaxArgs = 5;
  struct Instruction {
    Opcode op = Opcode::kAdd;
    ir::DataType dtype;      // the operands' dtype (a cast's source dtype)
    ir::DataType out_dtype;  // the result's dtype
    // Values: the inputs are [0, num_inputs), instruction k's result is num_inputs + k; -1 for
    // none. Unary opcodes take args[0], binary ones args[0] and args[1], kFixedPointMultiply
    // (x, multiplier, addend, right_shift, left_shift or -1).
    std::array<int, kMaxArgs> args = {-1, -1, -1, -1, -1};
    double lo = 0, hi = 0;  // kClip's bounds (a_min, a_max)
  };
  int num_inputs = 0;
  std::vector<Instruction> instructions;  // the last one's result is the program's result
};

// `program` with each run of instructions that one fused opcode computes replaced by it (a
// requantize's cast, left_shift, multiply, add, right_shift and cast by kFixedPointMultiply) where
// the run's intermediate values have no other use. The result is bitwise the same.
ElementwiseProgram FuseElementwiseInstructions(const ElementwiseProgram& program);

// The opcode of the Relay op `name` (add, subtract, multiply, divide, maximum, minimum,
// right_shift, left_shift, negative, nn.relu, round, clip, cast, nn.bias_add as kAdd), or false.
bool ElementwiseOpcodeOf(const std::string& name, ElementwiseProgram::Opcode* opcode);

// Whether the programs run `op` on operands of `dtype` (int8 to int64, uint8, float32; round on
// float32 only; shifts on integers only).
bool ElementwiseProgramSupports(ElementwiseProgram::Opcode op, ir::DataType dtype);

// `program` applied to `inputs`, each broadcast to `out_shape` by NumPy's rules (right-aligned):
// an array of `out_shape` and the last instruction's dtype. Fails (op::kernels::Fail) if an input
// does not broadcast to out_shape, and where the ops' own kernels fail (integer division by zero).
ir::NDArray RunElementwiseProgram(const ElementwiseProgram& program,
                                  const std::vector<ir::NDArray>& inputs,
                                  const ir::Shape& out_shape);

// The instruction set the programs' loops run on: "avx512" (F, DQ, BW and VL), "avx2" or "sse2",
// the best the processor has. Every variant computes the same bits.
const char* ElementwiseProgramIsa();
// Makes the programs run on `isa` (tests compare the variants); false if the processor lacks it.
bool SetElementwiseProgramIsa(const std::string& isa);

}  // namespace relaypass::op
