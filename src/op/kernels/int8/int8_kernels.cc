// The int8 kernels as the rest of the library sees them (relaypass/op/int8_kernels.h): which
// products run on them, their symbols, and their assembly text, cut from the variants' .s files
// that the build embedded (cmake/embed_assembly.cmake writes int8_assembly_text.cc).
#include "relaypass/op/int8_kernels.h"

#include <array>
#include <string_view>

namespace relaypass::op {

// Defined in the generated int8_assembly_text.cc: each variant's whole .s text, by Int8Isa.
extern const char* const kInt8VariantAssembly[5];

namespace {

constexpr std::array<const char*, 5> kFlags = {"", "-mssse3", "-mavx2", "-mavx512f -mavx512bw",
                                               "-mavx512f -mavx512bw -mavx512vnni"};

}  // namespace

std::optional<Int8GemmKind> Int8GemmKindFor(ir::DataType data, ir::DataType weight,
                                            ir::DataType out) {
  auto is_byte = [](ir::DataType t) {
    return t == ir::DataType::Int(8) || t == ir::DataType::UInt(8);
  };
  if (!is_byte(data) || !is_byte(weight) || out != ir::DataType::Int(32)) return std::nullopt;
  return weight == ir::DataType::Int(8) ? Int8GemmKind::kU8S8 : Int8GemmKind::kU8U8;
}

std::string Int8KernelSymbol(Int8Isa isa, Int8GemmKind kind) {
  return std::string("relaypass_int8_gemm_") + (kind == Int8GemmKind::kU8S8 ? "u8s8_" : "u8u8_") +
         Int8IsaName(isa);
}

const char* Int8VariantFlags(Int8Isa isa) {
  return kFlags[static_cast<size_t>(isa)];
}

std::string Int8KernelAssembly(Int8Isa isa, Int8GemmKind kind) {
  const std::string_view text = kInt8VariantAssembly[static_cast<size_t>(isa)];
  const std::string symbol = Int8KernelSymbol(isa, kind);
  // From ".globl NAME" to the end of the ".size NAME, ..." line (g++ writes ".-NAME" there,
  // clang a local end label).
  const size_t begin = text.find("\t.globl\t" + symbol + "\n");
  if (begin == std::string_view::npos) return "";
  const size_t size = text.find("\t.size\t" + symbol + ",", begin);
  const size_t end = size == std::string_view::npos ? size : text.find('\n', size);
  if (end == std::string_view::npos) return "";
  return std::string(text.substr(begin, end + 1 - begin));
}

}  // namespace relaypass::op
