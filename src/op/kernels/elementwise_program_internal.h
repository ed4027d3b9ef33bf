// What elementwise_program.cc shares with its instruction loops (program_isa/), which are
// compiled once per instruction set, the one the processor has picked at run time
// (ElementwiseProgramIsa).
#pragma once

#include <cstdint>

#include "relaypass/op/elementwise_program.h"

namespace relaypass::op::program {

// A value within one piece: n elements at `data`, or one value for the whole piece.
struct Slot {
  const void* data = nullptr;
  bool scalar = false;
};

inline bool IsBinary(ElementwiseProgram::Opcode op) {
  return op <= ElementwiseProgram::Opcode::kLeftShift;
}

// out[0, n) = the instruction applied to its operands args[0, kMaxArgs) (an absent one: data
// null), out[0] alone when all are scalar; out never overlaps an operand.
using InstructionLoops = void (*)(const ElementwiseProgram::Instruction& in, void* out,
                                  const Slot* args, int64_t n);

void InstructionLoopsSse2(const ElementwiseProgram::Instruction& in, void* out, const Slot* args,
                          int64_t n);
void InstructionLoopsAvx2(const ElementwiseProgram::Instruction& in, void* out, const Slot* args,
                          int64_t n);
void InstructionLoopsAvx512(const ElementwiseProgram::Instruction& in, void* out, const Slot* args,
                            int64_t n);

// How many of args an opcode reads (kFixedPointMultiply's left shift is optional).
inline int Arity(ElementwiseProgram::Opcode op) {
  if (op == ElementwiseProgram::Opcode::kFixedPointMultiply) return 5;
  return IsBinary(op) ? 2 : 1;
}

}  // namespace relaypass::op::program
