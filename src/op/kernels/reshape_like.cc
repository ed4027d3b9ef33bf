// reshape_like (TVM v0.13's ReshapeLikeAttrs): data's elements in a shape spliced from data's and
// another tensor's dimensions.
#include <optional>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// A [begin, end) range of dimensions of a rank-`ndim` shape, with TVM's reading: negative bounds
// count from the end, an unset end is the rank.
std::optional<std::pair<int64_t, int64_t>> DimRange(int64_t begin, const ir::AttrValue& end,
                                                    int64_t ndim) {
  int64_t e = end.is_null() ? ndim : end.as_int();
  if (begin < 0) begin += ndim;
  if (e < 0) e += ndim;
  if (begin < 0 || e > ndim || begin > e) return std::nullopt;
  return std::make_pair(begin, e);
}

std::string Text(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + ")";
}

}  // namespace

std::optional<std::vector<int64_t>> ReshapeLikeShape(const std::vector<int64_t>& data,
                                                     const std::vector<int64_t>& like,
                                                     const ir::AttrsNode& attrs,
                                                     std::string* error) {
  const auto lhs =
      DimRange(attrs.get_int("lhs_begin"), attrs.get("lhs_end"), static_cast<int64_t>(data.size()));
  const auto rhs =
      DimRange(attrs.get_int("rhs_begin"), attrs.get("rhs_end"), static_cast<int64_t>(like.size()));
  if (!lhs || !rhs) {
    *error = std::string(!lhs ? "lhs" : "rhs") + "_begin/" + (!lhs ? "lhs" : "rhs") +
             "_end do not select a range of the " + (!lhs ? "data's" : "shape_like's") +
             " dimensions";
    return std::nullopt;
  }
  std::vector<int64_t> out(data.begin(), data.begin() + lhs->first);
  out.insert(out.end(), like.begin() + rhs->first, like.begin() + rhs->second);
  out.insert(out.end(), data.begin() + lhs->second, data.end());
  return out;
}

Arrays ReshapeLike(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "reshape_like");
  std::string error;
  const auto shape =
      ReshapeLikeShape(in[0].shape(), in[1].shape(), AttrsOf(attrs, "reshape_like"), &error);
  if (!shape) Fail("reshape_like: " + error);
  if (NumElements(*shape) != in[0].size()) {
    Fail("reshape_like: data of shape " + Text(in[0].shape()) +
         " does not have the element count of the shape " + Text(*shape));
  }
  return {Reshaped(in[0], *shape)};
}

}  // namespace relaypass::op::kernels
