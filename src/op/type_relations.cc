#include "type_relations.h"

#include <algorithm>

#include "relaypass/support/error.h"

namespace relaypass::op {

TensorTypeRef TensorOf(const TypeRelationCall& call, size_t index) {
  ir::Type t = call.Resolve(index);
  if (!t || t.as<ir::IncompleteTypeNode>()) return nullptr;
  if (TensorTypeRef tensor = t.downcast<ir::TensorTypeNode>()) return tensor;
  if (index == call.num_args()) {
    call.Fail("expected a tensor result, got " + ir::TypeToString(t));
  }
  call.Fail("expected a tensor for argument " + std::to_string(index) + ", got " +
            ir::TypeToString(t));
}

const ir::AttrsNode& AttrsOf(const TypeRelationCall& call) {
  if (!call.attrs()) call.Fail("the call has no attributes");
  return *call.attrs();
}

std::vector<int64_t> IntsAttr(const TypeRelationCall& call, const std::string& name) {
  const ir::AttrValue& value = AttrsOf(call).get(name);
  if (value.is_null()) call.Fail("attribute " + name + " must not be None");
  return value.as_ints();
}

void ThrowDimOverflow(const char* op, int64_t a, int64_t b) {
  throw TypeError("shape arithmetic overflows int64: " + std::to_string(a) + " " + op + " " +
                  std::to_string(b));
}

Dim DimFloorDiv(Dim a, Dim b) {
  if (IsAny(a) || IsAny(b)) return kAnyDim;
  if (b == 0) throw TypeError("division by zero in shape arithmetic");
  if (b == -1) return CheckedMul(a, -1);  // INT64_MIN / -1 overflows
  Dim q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::string ShapeToString(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += ir::DimText(shape[i]);
  }
  return out + ")";
}

std::string TypeString(const TensorTypeRef& t) {
  return ir::TypeToString(ir::Type(t));
}

int NormalizeAxis(const TypeRelationCall& call, int64_t axis, int ndim, const std::string& what) {
  if (axis < -ndim || axis >= ndim) {
    call.Fail(what + " " + std::to_string(axis) + " is out of range for a tensor of rank " +
              std::to_string(ndim) + " (expected [" + std::to_string(-ndim) + ", " +
              std::to_string(ndim) + "))");
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

ir::DataType DTypeOr(const ir::AttrValue& value, ir::DataType fallback) {
  if (value.is_null() || value.as_string().empty()) return fallback;
  std::optional<ir::DataType> parsed = ir::DataType::Parse(value.as_string());
  return parsed && !parsed->is_void() ? *parsed : fallback;
}

Layout ParseLayout(const TypeRelationCall& call, const std::string& name) {
  try {
    return Layout(name);
  } catch (const TypeError& e) {
    call.Fail(e.message());
  }
}

Shape ConvertShape(const TypeRelationCall& call, const BijectiveLayout& layouts, const Shape& shape,
                   bool forward, const std::string& what) {
  try {
    return forward ? layouts.ForwardShape(shape) : layouts.BackwardShape(shape);
  } catch (const TypeError& e) {
    call.Fail(what + " " + ShapeToString(shape) + ": " + e.message());
  }
}

std::vector<int64_t> PositiveIntsAttr(const TypeRelationCall& call, const std::string& name,
                                      size_t count) {
  std::vector<int64_t> v = IntsAttr(call, name);
  const bool positive = std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; });
  if (v.size() != count || !positive) {
    call.Fail("attribute '" + name + "' must have " + std::to_string(count) + " positive value" +
              (count == 1 ? "" : "s") + ", got " + AttrsOf(call).get(name).ToString());
  }
  return v;
}

std::pair<Dim, Dim> PaddingAttr(const TypeRelationCall& call, const std::string& name) {
  std::optional<std::pair<Dim, Dim>> pad = PaddingHeightWidth(IntsAttr(call, name));
  if (!pad) {
    call.Fail("attribute '" + name + "' must have 1, 2 or 4 values, got " +
              AttrsOf(call).get(name).ToString());
  }
  return *pad;
}

std::optional<std::pair<Dim, Dim>> PaddingHeightWidth(const std::vector<int64_t>& p) {
  switch (p.size()) {
    case 1:
      return std::make_pair(CheckedMul(2, p[0]), CheckedMul(2, p[0]));
    case 2:
      return std::make_pair(CheckedMul(2, p[0]), CheckedMul(2, p[1]));
    case 4:
      return std::make_pair(CheckedAdd(p[0], p[2]), CheckedAdd(p[1], p[3]));
    default:
      return std::nullopt;
  }
}

// TVM's ConcreteBroadcast: align from the right; 1 stretches, `?` defers to the other side, a
// symbolic dimension matches only itself or 1.
std::optional<Shape> BroadcastShape(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 1; i <= n; ++i) {
    bool has_a = i <= a.size(), has_b = i <= b.size();
    Dim x = has_a ? a[a.size() - i] : 1;
    Dim y = has_b ? b[b.size() - i] : 1;
    Dim& o = out[n - i];
    if (!has_a) {
      o = y;
    } else if (!has_b) {
      o = x;
    } else if (x == 1) {
      o = y;
    } else if (y == 1) {
      o = x;
    } else if (x == kAnyDim) {
      o = y;
    } else if (y == kAnyDim || x == y) {
      o = x;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// True if BroadcastShape(big, small) (either order) is `big` itself: each of small's dims,
// aligned from the right, is 1, equal, or `?` against a dim other than 1.
static bool BroadcastsInto(const Shape& small, const Shape& big) {
  if (small.size() > big.size()) return false;
  for (size_t i = 1; i <= small.size(); ++i) {
    const Dim x = big[big.size() - i];
    const Dim y = small[small.size() - i];
    if (!(y == 1 || x == y || (y == kAnyDim && x != 1))) return false;
  }
  return true;
}

static bool BroadcastRelImpl(TypeRelationCall& call, bool compare) {
  TensorTypeRef lhs = TensorOf(call, 0);
  TensorTypeRef rhs = TensorOf(call, 1);
  if (!lhs || !rhs) return false;
  if (lhs->dtype != rhs->dtype) {
    call.Fail("data types " + lhs->dtype.ToString() + " and " + rhs->dtype.ToString() +
              " do not match in BroadcastRel");
  }
  ir::DataType dtype = compare ? ir::DataType::Bool() : lhs->dtype;
  // The common cases, decided without building a shape: the result is one of the inputs.
  if (dtype == lhs->dtype && BroadcastsInto(rhs->shape, lhs->shape)) {
    call.AssignResult(ir::Type(lhs));
    return true;
  }
  if (dtype == rhs->dtype && BroadcastsInto(lhs->shape, rhs->shape)) {
    call.AssignResult(ir::Type(rhs));
    return true;
  }
  std::optional<Shape> shape = BroadcastShape(lhs->shape, rhs->shape);
  if (!shape) {
    call.Fail("Incompatible broadcast type " + TypeString(lhs) + " and " + TypeString(rhs));
  }
  call.AssignResult(ir::TensorType(*shape, dtype));
  return true;
}

bool BroadcastRel(TypeRelationCall& call) {
  return BroadcastRelImpl(call, false);
}
bool BroadcastCompareRel(TypeRelationCall& call) {
  return BroadcastRelImpl(call, true);
}

// Like TVM's IdentityRel (which unifies input and output), a type known on either side flows
// to the other, so an untyped input gets its type from a typed consumer.
bool IdentityRel(TypeRelationCall& call) {
  if (TensorTypeRef data = TensorOf(call, 0)) {
    call.AssignResult(ir::Type(data));
    return true;
  }
  if (TensorTypeRef out = TensorOf(call, call.num_args())) {
    call.Assign(0, ir::Type(out));
    return true;
  }
  return false;
}

}  // namespace relaypass::op
