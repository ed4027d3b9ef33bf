// Building blocks for type relations: reading the tensor types of a call, dimension arithmetic
// with `?`, and the generic relations (broadcast, identity) that many ops share.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/type.h"
#include "relaypass/op/layout.h"
#include "relaypass/op/registry.h"

namespace relaypass::op {

using TensorTypeRef = ir::Ref<ir::TensorTypeNode>;
using ir::Dim;
using ir::kAnyDim;
using Shape = std::vector<Dim>;

// The tensor type at `index` (an argument, or num_args() for the result), or null while it is
// still unknown. A known type that is not a tensor fails the call.
TensorTypeRef TensorOf(const TypeRelationCall& call, size_t index);

// The call's attrs; fails the call if it has none (e.g. built without them).
const ir::AttrsNode& AttrsOf(const TypeRelationCall& call);

// The integer-array attribute `name`; fails the call if it is None (which the parser accepts for
// any array field).
std::vector<int64_t> IntsAttr(const TypeRelationCall& call, const std::string& name);

// The integer-array attribute `name` with `count` values, each positive (strides, dilation,
// pool_size, kernel_size: a zero or negative one is impossible); fails the call naming the
// attribute and its value otherwise.
std::vector<int64_t> PositiveIntsAttr(const TypeRelationCall& call, const std::string& name,
                                      size_t count);

// Dimension arithmetic in which an unknown extent absorbs: any operand `?` or symbolic gives `?`.
// IsAny is true for both (a relation that copies a dimension keeps a symbolic one).
inline bool IsAny(Dim d) {
  return d < 0;
}
// Plain int64 arithmetic for shape computations (no `?` meaning for -1): a result that does not
// fit (huge shapes or attributes from text) throws TypeError, to which the type inferencer adds
// the op and the call's location.
[[noreturn]] void ThrowDimOverflow(const char* op, int64_t a, int64_t b);
inline int64_t CheckedAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) ThrowDimOverflow("+", a, b);
  return r;
}
inline int64_t CheckedSub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) ThrowDimOverflow("-", a, b);
  return r;
}
inline int64_t CheckedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) ThrowDimOverflow("*", a, b);
  return r;
}
inline Dim DimAdd(Dim a, Dim b) {
  return IsAny(a) || IsAny(b) ? kAnyDim : CheckedAdd(a, b);
}
inline Dim DimMul(Dim a, Dim b) {
  return IsAny(a) || IsAny(b) ? kAnyDim : CheckedMul(a, b);
}
Dim DimFloorDiv(Dim a, Dim b);  // b must be non-zero unless a is `?`

// "(1, 3, 224, 224)", TVM's way of printing a shape in messages.
std::string ShapeToString(const Shape& shape);
// "Tensor[(1, 3), float32]"
std::string TypeString(const TensorTypeRef& t);

// `axis` made non-negative against `ndim`; fails the call naming `what` unless -ndim <= axis <
// ndim.
int NormalizeAxis(const TypeRelationCall& call, int64_t axis, int ndim, const std::string& what);

// A dtype attribute ("" means unset) or `fallback`.
ir::DataType DTypeOr(const ir::AttrValue& value, ir::DataType fallback);

// `name` parsed as a layout; a malformed string fails the call.
Layout ParseLayout(const TypeRelationCall& call, const std::string& name);
// `shape` converted by `layouts` (forward: src to dst, else back); on a rank or sub-axis mismatch
// fails the call with a message that starts with `what`.
Shape ConvertShape(const TypeRelationCall& call, const BijectiveLayout& layouts, const Shape& shape,
                   bool forward, const std::string& what);
// The (pad_h, pad_w) totals of a 1, 2 or 4 value padding (TVM's GetPaddingHeightWidth): p ->
// (2p, 2p); (a, b) -> (2a, 2b); (top, left, bottom, right) -> (top+bottom, left+right). Empty if
// the length is anything else.
std::optional<std::pair<Dim, Dim>> PaddingHeightWidth(const std::vector<int64_t>& padding);
// PaddingHeightWidth of the attribute `name`; fails the call naming the attribute and its value
// if it has another length.
std::pair<Dim, Dim> PaddingAttr(const TypeRelationCall& call, const std::string& name);

// Both inputs broadcast against each other (numpy rules); the result has the lhs dtype.
bool BroadcastRel(TypeRelationCall& call);
// Like BroadcastRel but the result is bool (comparisons).
bool BroadcastCompareRel(TypeRelationCall& call);
// The result has the type of the first input.
bool IdentityRel(TypeRelationCall& call);

// The broadcast shape of two shapes; an empty optional if they do not broadcast.
std::optional<Shape> BroadcastShape(const Shape& a, const Shape& b);

}  // namespace relaypass::op
