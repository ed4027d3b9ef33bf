// RunElementwiseProgram (include/relaypass/op/elementwise_program.h): the output is cut into
// pieces of at most kPiece elements along a suffix of its axes over which every input is either
// laid out as the output (a run of elements) or broadcast (one value); each piece goes through
// every instruction in registers of kPiece elements before the next piece starts.
#include "relaypass/op/elementwise_program.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

#include "elementwise_program_internal.h"
#include "kernel_util.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op {

namespace {

using kernels::Fail;
using kernels::TypeTag;
using Opcode = ElementwiseProgram::Opcode;
using Instruction = ElementwiseProgram::Instruction;
using ir::DataType;

using program::IsBinary;
using program::Slot;

// 512 elements of 8 bytes: a program's few live registers stay within the L1 cache.
constexpr int64_t kPiece = 512;

bool ProgramType(DataType dtype) {
  return dtype == DataType::Float32() || dtype == DataType::Int(8) || dtype == DataType::UInt(8) ||
         dtype == DataType::Int(16) || dtype == DataType::Int(32) || dtype == DataType::Int(64);
}

struct LoopsVariant {
  const char* name;
  program::InstructionLoops loops;
  bool (*available)();
};

bool HasAvx2() {
  return __builtin_cpu_supports("avx2");
}
bool HasAvx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
}
bool Always() {
  return true;
}

// Best first.
constexpr LoopsVariant kVariants[] = {
    {"avx512", program::InstructionLoopsAvx512, HasAvx512},
    {"avx2", program::InstructionLoopsAvx2, HasAvx2},
    {"sse2", program::InstructionLoopsSse2, Always},
};

std::atomic<const LoopsVariant*>& CurrentVariant() {
  static std::atomic<const LoopsVariant*> current = [] {
    for (const LoopsVariant& v : kVariants) {
      if (v.available()) return &v;
    }
    return &kVariants[2];
  }();
  return current;
}

// Where each input's elements are for a piece: the output is [outer, inner] (inner the product of
// the axes from `split`), and input i's element for output (o, j) is at offset(i, o) + j if it
// is a run, offset(i, o) if it is broadcast over the inner axes.
struct Layout {
  int split = 0;
  int64_t outer = 1, inner = 1;
  std::vector<std::vector<int64_t>> strides;  // per input, over the output's axes (0: broadcast)
  std::vector<bool> run;                      // per input: a run over the inner axes
};

Layout PlanLayout(const std::vector<ir::NDArray>& inputs, const ir::Shape& out) {
  const int nd = static_cast<int>(out.size());
  Layout layout;
  std::vector<ir::Shape> aligned;
  for (const ir::NDArray& x : inputs) {
    const ir::Shape& s = x.shape();
    if (static_cast<int>(s.size()) > nd) {
      Fail("elementwise program: input " + kernels::ShapeString(s) + " has more axes than " +
           kernels::ShapeString(out));
    }
    ir::Shape a(static_cast<size_t>(nd) - s.size(), 1);
    a.insert(a.end(), s.begin(), s.end());
    std::vector<int64_t> strides(static_cast<size_t>(nd), 0);
    int64_t stride = 1;
    for (int d = nd - 1; d >= 0; --d) {
      if (a[d] != out[d] && a[d] != 1) {
        Fail("elementwise program: input " + kernels::ShapeString(s) + " does not broadcast to " +
             kernels::ShapeString(out));
      }
      strides[d] = a[d] == 1 ? 0 : stride;
      stride *= a[d];
    }
    aligned.push_back(std::move(a));
    layout.strides.push_back(std::move(strides));
  }
  // The longest suffix of axes over which each input is all there or all broadcast.
  auto uniform = [&](int split, std::vector<bool>* run) {
    run->assign(inputs.size(), true);
    for (size_t i = 0; i < inputs.size(); ++i) {
      bool full = true, broadcast = true;
      for (int d = split; d < nd; ++d) {
        if (out[d] == 1) continue;
        (aligned[i][d] == 1 ? full : broadcast) = false;
      }
      if (!full && !broadcast) return false;
      (*run)[i] = full && !broadcast;
    }
    return true;
  };
  int split = 0;
  while (split < nd && !uniform(split, &layout.run)) ++split;
  if (split == nd) uniform(nd, &layout.run);
  layout.split = split;
  for (int d = 0; d < split; ++d) layout.outer *= out[d];
  for (int d = split; d < nd; ++d) layout.inner *= out[d];
  return layout;
}

// Register of each instruction's result (the last one's is the output itself: -1), reusing a
// register once its value has had its last use; a result never shares its operands' register.
std::vector<int> AllocateRegisters(const ElementwiseProgram& p, int* count) {
  const int n = static_cast<int>(p.instructions.size());
  std::vector<int> last_use(static_cast<size_t>(n), -1);
  for (int k = 0; k < n; ++k) {
    const Instruction& in = p.instructions[static_cast<size_t>(k)];
    for (int v : in.args) {
      if (v >= p.num_inputs) last_use[static_cast<size_t>(v - p.num_inputs)] = k;
    }
  }
  std::vector<int> reg(static_cast<size_t>(n), -1), free_list;
  *count = 0;
  for (int k = 0; k + 1 < n; ++k) {
    if (free_list.empty()) {
      reg[static_cast<size_t>(k)] = (*count)++;
    } else {
      reg[static_cast<size_t>(k)] = free_list.back();
      free_list.pop_back();
    }
    const Instruction& in = p.instructions[static_cast<size_t>(k)];
    for (int i = 0; i < ElementwiseProgram::kMaxArgs; ++i) {
      const int v = in.args[static_cast<size_t>(i)];
      if (v < p.num_inputs) continue;
      if (std::find(in.args.begin(), in.args.begin() + i, v) != in.args.begin() + i) continue;
      const size_t j = static_cast<size_t>(v - p.num_inputs);
      if (last_use[j] == k) free_list.push_back(reg[j]);  // each operand once
    }
  }
  return reg;
}

void CheckProgram(const ElementwiseProgram& p, const std::vector<ir::NDArray>& inputs) {
  if (static_cast<int>(inputs.size()) != p.num_inputs || p.instructions.empty()) {
    Fail("elementwise program: expects " + std::to_string(p.num_inputs) + " inputs, got " +
         std::to_string(inputs.size()));
  }
  for (size_t k = 0; k < p.instructions.size(); ++k) {
    const Instruction& in = p.instructions[k];
    const int limit = p.num_inputs + static_cast<int>(k);
    const int arity = program::Arity(in.op);
    bool valid = ProgramType(in.dtype) && ProgramType(in.out_dtype);
    for (int i = 0; i < ElementwiseProgram::kMaxArgs; ++i) {
      const int v = in.args[static_cast<size_t>(i)];
      const bool optional = in.op == Opcode::kFixedPointMultiply && i == 4;
      if (i >= arity ? v != -1 : (v < (optional ? -1 : 0) || v >= limit)) valid = false;
    }
    if (!valid) {
      Fail("elementwise program: instruction " + std::to_string(k) + " is malformed");
    }
  }
  for (int i = 0; i < p.num_inputs; ++i) {
    if (!ProgramType(inputs[static_cast<size_t>(i)].dtype())) {
      Fail("elementwise program: input of dtype " +
           inputs[static_cast<size_t>(i)].dtype().ToString());
    }
  }
}

}  // namespace

const char* ElementwiseProgramIsa() {
  return CurrentVariant().load()->name;
}

bool SetElementwiseProgramIsa(const std::string& name) {
  for (const LoopsVariant& v : kVariants) {
    if (name == v.name && v.available()) {
      CurrentVariant().store(&v);
      return true;
    }
  }
  return false;
}

bool ElementwiseOpcodeOf(const std::string& name, Opcode* opcode) {
  static const std::unordered_map<std::string, Opcode> kOpcodes = {
      {"add", Opcode::kAdd},
      {"nn.bias_add", Opcode::kAdd},
      {"subtract", Opcode::kSubtract},
      {"multiply", Opcode::kMultiply},
      {"divide", Opcode::kDivide},
      {"maximum", Opcode::kMaximum},
      {"minimum", Opcode::kMinimum},
      {"right_shift", Opcode::kRightShift},
      {"left_shift", Opcode::kLeftShift},
      {"negative", Opcode::kNegative},
      {"nn.relu", Opcode::kRelu},
      {"round", Opcode::kRound},
      {"clip", Opcode::kClip},
      {"cast", Opcode::kCast},
  };
  auto it = kOpcodes.find(name);
  if (it == kOpcodes.end()) return false;
  *opcode = it->second;
  return true;
}

namespace {

// The one instruction that reads value `v` (-1 if none or several; the program's result counts
// as a use of the last instruction's value).
int SoleUser(const ElementwiseProgram& p, int v, const std::vector<int>& uses) {
  if (uses[static_cast<size_t>(v)] != 1) return -1;
  for (size_t k = 0; k < p.instructions.size(); ++k) {
    for (int a : p.instructions[k].args) {
      if (a == v) return static_cast<int>(k);
    }
  }
  return -1;
}

// The run from instruction `k` (a cast int32 -> int64) to its cast back, as the operands of
// kFixedPointMultiply and the instructions it replaces; false if the run is not there.
bool MatchFixedPoint(const ElementwiseProgram& p, const std::vector<int>& uses, int k,
                     std::array<int, ElementwiseProgram::kMaxArgs>* args, std::vector<int>* run) {
  const auto& ins = p.instructions;
  const Instruction& cast = ins[static_cast<size_t>(k)];
  if (cast.op != Opcode::kCast || cast.dtype != DataType::Int(32) ||
      cast.out_dtype != DataType::Int(64)) {
    return false;
  }
  *args = {cast.args[0], -1, -1, -1, -1};
  run->assign(1, k);
  int value = p.num_inputs + k;
  // The other operand of binary instruction `user` whose one operand is `value` (the shifts
  // need `value` first).
  auto other = [&](const Instruction& user, bool commutes) {
    if (user.args[0] == value) return user.args[1] == value ? -1 : user.args[1];
    return commutes && user.args[1] == value ? user.args[0] : -1;
  };
  const Opcode steps[] = {Opcode::kLeftShift, Opcode::kMultiply, Opcode::kAdd, Opcode::kRightShift,
                          Opcode::kCast};
  for (Opcode step : steps) {
    const int user = SoleUser(p, value, uses);
    if (user < 0) return false;
    const Instruction& in = ins[static_cast<size_t>(user)];
    if (in.op != step) {
      if (step == Opcode::kLeftShift) continue;  // optional
      return false;
    }
    if (step == Opcode::kCast) {
      if (in.dtype != DataType::Int(64) || in.out_dtype != DataType::Int(32)) return false;
    } else {
      const int operand = other(in, step == Opcode::kMultiply || step == Opcode::kAdd);
      if (in.dtype != DataType::Int(64) || operand < 0) return false;
      const int slot = step == Opcode::kLeftShift  ? 4
                       : step == Opcode::kMultiply ? 1
                       : step == Opcode::kAdd      ? 2
                                                   : 3;
      (*args)[static_cast<size_t>(slot)] = operand;
    }
    run->push_back(user);
    value = p.num_inputs + user;
  }
  return true;
}

}  // namespace

ElementwiseProgram FuseElementwiseInstructions(const ElementwiseProgram& program) {
  const size_t n = program.instructions.size();
  std::vector<int> uses(static_cast<size_t>(program.num_inputs) + n, 0);
  for (const Instruction& in : program.instructions) {
    for (int v : in.args) {
      if (v >= 0) ++uses[static_cast<size_t>(v)];
    }
  }
  if (n > 0) ++uses[static_cast<size_t>(program.num_inputs) + n - 1];
  // replaced[k]: instruction k is inside a fused run (dropped), or the run's new instruction.
  std::vector<bool> dropped(n, false);
  std::vector<std::optional<Instruction>> fused(n);
  for (size_t k = 0; k < n; ++k) {
    std::array<int, ElementwiseProgram::kMaxArgs> args;
    std::vector<int> run;
    if (dropped[k] || !MatchFixedPoint(program, uses, static_cast<int>(k), &args, &run)) continue;
    Instruction in;
    in.op = Opcode::kFixedPointMultiply;
    in.dtype = in.out_dtype = DataType::Int(32);
    in.args = args;
    for (size_t i = 0; i + 1 < run.size(); ++i) dropped[static_cast<size_t>(run[i])] = true;
    fused[static_cast<size_t>(run.back())] = in;  // where the run's result is
  }
  ElementwiseProgram out;
  out.num_inputs = program.num_inputs;
  std::vector<int> renumber(static_cast<size_t>(program.num_inputs) + n, -1);
  for (int i = 0; i < program.num_inputs; ++i) renumber[static_cast<size_t>(i)] = i;
  for (size_t k = 0; k < n; ++k) {
    if (dropped[k]) continue;
    Instruction in = fused[k] ? *fused[k] : program.instructions[k];
    for (int& v : in.args) {
      if (v >= 0) v = renumber[static_cast<size_t>(v)];
    }
    renumber[static_cast<size_t>(program.num_inputs) + k] =
        out.num_inputs + static_cast<int>(out.instructions.size());
    out.instructions.push_back(in);
  }
  return out;
}

bool ElementwiseProgramSupports(Opcode op, ir::DataType dtype) {
  if (!ProgramType(dtype)) return false;
  if (op == Opcode::kRound) return dtype.is_float();
  if (op == Opcode::kFixedPointMultiply) return dtype == DataType::Int(32);
  if (op == Opcode::kRightShift || op == Opcode::kLeftShift) return !dtype.is_float();
  return true;
}

ir::NDArray RunElementwiseProgram(const ElementwiseProgram& program,
                                  const std::vector<ir::NDArray>& inputs,
                                  const ir::Shape& out_shape) {
  CheckProgram(program, inputs);
  const Layout layout = PlanLayout(inputs, out_shape);
  int num_registers = 0;
  const std::vector<int> reg = AllocateRegisters(program, &num_registers);
  const Instruction& last = program.instructions.back();
  ir::NDArray out = ir::NDArray::Uninitialized(out_shape, last.out_dtype);
  if (out.size() == 0) return out;
  const size_t out_bytes = static_cast<size_t>(last.out_dtype.bytes());
  auto* out_base = static_cast<uint8_t*>(out.mutable_raw_data());
  const program::InstructionLoops loops = CurrentVariant().load()->loops;
  const int64_t pieces_per_row = (layout.inner + kPiece - 1) / kPiece;
  const int64_t grain = std::max<int64_t>(1, kernels::kParallelGrain / kPiece);
  std::vector<const uint8_t*> input_base;
  std::vector<int64_t> input_bytes;
  for (const ir::NDArray& x : inputs) {
    input_base.push_back(static_cast<const uint8_t*>(x.raw_data()));
    input_bytes.push_back(x.dtype().bytes());
  }
  support::ParallelFor(layout.outer * pieces_per_row, grain, [&](int64_t begin, int64_t end) {
    std::vector<uint64_t> registers(static_cast<size_t>(std::max(num_registers, 1) * kPiece));
    std::vector<Slot> slots(static_cast<size_t>(program.num_inputs) + program.instructions.size());
    // Each input's offset at the current outer index, recomputed when that index changes.
    std::vector<int64_t> outer_offset(static_cast<size_t>(program.num_inputs), 0);
    int64_t current_o = -1;
    for (int64_t piece = begin; piece < end; ++piece) {
      const int64_t o = piece / pieces_per_row;
      const int64_t j0 = (piece % pieces_per_row) * kPiece;
      const int64_t n = std::min(kPiece, layout.inner - j0);
      if (o != current_o) {
        std::fill(outer_offset.begin(), outer_offset.end(), 0);
        int64_t rest = o;
        for (int d = layout.split - 1; d >= 0; --d) {
          const int64_t index = rest % out_shape[d];
          rest /= out_shape[d];
          for (int i = 0; i < program.num_inputs; ++i) {
            outer_offset[static_cast<size_t>(i)] +=
                index * layout.strides[static_cast<size_t>(i)][d];
          }
        }
        current_o = o;
      }
      for (int i = 0; i < program.num_inputs; ++i) {
        const bool run = layout.run[static_cast<size_t>(i)];
        const int64_t offset = outer_offset[static_cast<size_t>(i)] + (run ? j0 : 0);
        slots[static_cast<size_t>(i)] = {
            input_base[static_cast<size_t>(i)] + offset * input_bytes[static_cast<size_t>(i)],
            !run};
      }
      uint8_t* out_piece = out_base + static_cast<size_t>(o * layout.inner + j0) * out_bytes;
      for (size_t k = 0; k < program.instructions.size(); ++k) {
        const Instruction& in = program.instructions[k];
        Slot args[ElementwiseProgram::kMaxArgs];
        bool scalar = true;
        for (int j = 0; j < ElementwiseProgram::kMaxArgs; ++j) {
          const int v = in.args[static_cast<size_t>(j)];
          if (v < 0) continue;
          args[j] = slots[static_cast<size_t>(v)];
          scalar = scalar && args[j].scalar;
        }
        const bool is_last = k + 1 == program.instructions.size();
        void* dst = is_last && !scalar
                        ? static_cast<void*>(out_piece)
                        : static_cast<void*>(registers.data() +
                                             (is_last ? 0 : reg[k]) * static_cast<size_t>(kPiece));
        loops(in, dst, args, scalar ? 1 : n);
        if (is_last && scalar) {
          for (int64_t i = 0; i < n; ++i) {
            std::memcpy(out_piece + static_cast<size_t>(i) * out_bytes, dst, out_bytes);
          }
        }
        slots[static_cast<size_t>(program.num_inputs) + k] = {dst, scalar};
      }
    }
  });
  return out;
}

}  // namespace relaypass::op
