#include "relaypass/ir/ndarray.h"

#include <cstring>
#include <new>

#include "relaypass/support/error.h"

namespace relaypass::ir {

namespace {

constexpr size_t kAlignment = 64;

struct AlignedDelete {
  void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(kAlignment)); }
};

}  // namespace

NDArray NDArray::Uninitialized(const Shape& shape, DataType dtype) {
  NDArray out;
  out.shape_ = shape;
  out.dtype_ = dtype;
  for (int64_t d : shape) {
    if (d < 0) throw InternalError("NDArray::Empty: negative dimension");
  }
  size_t bytes = out.nbytes();
  auto* buffer =
      static_cast<uint8_t*>(::operator new[](bytes ? bytes : 1, std::align_val_t(kAlignment)));
  out.storage_ = std::shared_ptr<uint8_t[]>(buffer, AlignedDelete());
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
