#include "relaypass/ir/ndarray.h"

#include <cstring>
#include <new>

#include "relaypass/ir/tensor_size.h"
#include "relaypass/support/error.h"
#include "relaypass/support/float16.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/support/table_allocator.h"

namespace relaypass::ir {

namespace {

constexpr size_t kAlignment = 64;

struct AlignedDelete {
  uint64_t reserved;
  void operator()(uint8_t* p) const {
    ::operator delete[](p, std::align_val_t(kAlignment));
    support::ReleaseMemory(reserved);
  }
};

}  // namespace

std::optional<int64_t> ElementCount(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

std::optional<int64_t> ByteCount(const std::vector<int64_t>& shape, DataType dtype) {
  const std::optional<int64_t> n = ElementCount(shape);
  int64_t bytes = 0;
  if (!n || __builtin_mul_overflow(*n, int64_t{dtype.bytes()}, &bytes)) return std::nullopt;
  return bytes;
}

std::string TensorText(const std::vector<int64_t>& shape, DataType dtype) {
  std::string out = "tensor of shape (";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",) " : ") ") + dtype.ToString();
}

NDArray NDArray::Uninitialized(const Shape& shape, DataType dtype) {
  NDArray out;
  out.shape_ = shape;
  out.dtype_ = dtype;
  for (int64_t d : shape) {
    if (d < 0) throw InternalError("NDArray::Empty: negative dimension");
  }
  const std::optional<int64_t> count = ByteCount(shape, dtype);
  if (!count) throw ResourceError(TensorText(shape, dtype) + ": its size overflows int64");
  const auto bytes = static_cast<uint64_t>(*count);
  if (!support::TryReserveMemory(bytes)) {
    const uint64_t budget = support::MemoryBudget();
    const uint64_t held = support::MemoryInUse();
    throw ResourceError(TensorText(shape, dtype) + " needs " + support::BytesText(bytes) +
                        ", over the memory budget of " + support::BytesText(budget) +
                        (bytes <= budget && held
                             ? " (" + support::BytesText(held) + " held by other tensors)"
                             : std::string()));
  }
  uint8_t* buffer = nullptr;
  try {
    buffer =
        static_cast<uint8_t*>(::operator new[](bytes ? bytes : 1, std::align_val_t(kAlignment)));
  } catch (const std::bad_alloc&) {
    support::ReleaseMemory(bytes);
    throw ResourceError(TensorText(shape, dtype) + ": cannot allocate " +
                        support::BytesText(bytes) + " (out of memory)");
  }
  // Large tensors are written once right after this (decoded weights, kernel outputs): on huge
  // pages that costs a fault per 2 MiB instead of one per 4 KiB, which dominated parsing.
  support::AdviseHugePages(buffer, bytes);
  out.storage_ = std::shared_ptr<uint8_t[]>(buffer, AlignedDelete{bytes});
  return out;
}

NDArray NDArray::Empty(const Shape& shape, DataType dtype) {
  NDArray out = Uninitialized(shape, dtype);
  if (out.nbytes()) std::memset(out.mutable_raw_data(), 0, out.nbytes());
  return out;
}

int64_t NDArray::size() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

double NDArray::GetAsDouble(int64_t i) const {
  const void* p = raw_data();
  switch (dtype_.code()) {
    case DataType::Code::kFloat:
      if (dtype_.bits() == 32) return static_cast<const float*>(p)[i];
      if (dtype_.bits() == 64) return static_cast<const double*>(p)[i];
      if (dtype_.bits() == 16) return support::HalfToFloat(static_cast<const uint16_t*>(p)[i]);
      break;
    case DataType::Code::kBFloat:
      if (dtype_.bits() == 16) return support::BFloat16ToFloat(static_cast<const uint16_t*>(p)[i]);
      break;
    case DataType::Code::kInt:
      switch (dtype_.bits()) {
        case 8:
          return static_cast<const int8_t*>(p)[i];
        case 16:
          return static_cast<const int16_t*>(p)[i];
        case 32:
          return static_cast<const int32_t*>(p)[i];
        case 64:
          return static_cast<double>(static_cast<const int64_t*>(p)[i]);
      }
      break;
    case DataType::Code::kUInt:
      switch (dtype_.bits()) {
        case 8:
          return static_cast<const uint8_t*>(p)[i];
        case 16:
          return static_cast<const uint16_t*>(p)[i];
        case 32:
          return static_cast<const uint32_t*>(p)[i];
        case 64:
          return static_cast<double>(static_cast<const uint64_t*>(p)[i]);
      }
      break;
    case DataType::Code::kBool:
      return static_cast<const uint8_t*>(p)[i] != 0;
    default:
      break;
  }
  throw InternalError("NDArray::GetAsDouble: unsupported dtype " + dtype_.ToString());
}

NDArray NDArray::FromBytes(const Shape& shape, DataType dtype, const void* bytes) {
  NDArray out = Uninitialized(shape, dtype);
  const size_t n = out.nbytes();
  if (n == 0) return out;
  std::memcpy(out.mutable_raw_data(), bytes, n);
  if (dtype.code() == DataType::Code::kBool) {
    uint8_t* b = static_cast<uint8_t*>(out.mutable_raw_data());
    for (size_t i = 0; i < n; ++i) b[i] = b[i] != 0;
  }
  return out;
}

NDArray NDArray::Copy() const {
  NDArray out = Empty(shape_, dtype_);
  if (nbytes()) std::memcpy(out.mutable_raw_data(), raw_data(), nbytes());
  return out;
}

bool NDArray::BitwiseEqual(const NDArray& other) const {
  if (dtype_ != other.dtype_ || shape_ != other.shape_) return false;
  return nbytes() == 0 || std::memcmp(raw_data(), other.raw_data(), nbytes()) == 0;
}

}  // namespace relaypass::ir
