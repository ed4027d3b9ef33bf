#include "layout_transformer.h"

#include <functional>

#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::passes::layout {

namespace {

// TVM's IsScalar on a typed expression: a tensor whose dims are all 1 (rank 0 included).
bool IsTypedScalar(const ir::Expr& e) {
  auto* tensor = e->checked_type.as<ir::TensorTypeNode>();
  if (tensor == nullptr) return false;
  for (ir::Dim d : tensor->shape) {
    if (d != 1) return false;
  }
  return true;
}

}  // namespace

size_t LayoutTransformer::KeyHash::operator()(const Key& k) const {
  size_t h = std::hash<const void*>()(k.node);
  h = h * 31 + std::hash<std::string>()(k.src);
  return h * 31 + std::hash<std::string>()(k.dst);
}

ir::Expr LayoutTransformer::Transform(const ir::Expr& value, const op::Layout& src,
                                      const op::Layout& dst) {
  if (src == dst) return value;
  Key key{value.get(), src.name(), dst.name()};
  auto it = memo_.find(key);
  if (it != memo_.end()) return it->second.result;
  ir::Expr result = Build(value, src, dst);
  memo_.emplace(std::move(key), Entry{value, result});
  return result;
}

ir::Expr LayoutTransformer::Build(const ir::Expr& value, const op::Layout& src,
                                  const op::Layout& dst) const {
  ir::Expr input = value;
  op::Layout from = src;
  if (src.defined() && dst.defined() && src.ndim_primal() < dst.ndim_primal()) {
    // A scalar broadcasts in any layout; a lower-rank tensor gets the missing axes in front.
    if (IsTypedScalar(value)) return value;
    int missing = static_cast<int>(dst.ndim_primal() - src.ndim_primal());
    from = src.ExpandPrimal(dst);
    input = relay::expand_dims(input, 0, missing);
    if (from == dst) return input;
  }
  if (!from.defined() || !dst.defined()) {
    throw PassError("Cannot insert layout transform because there are undefined layouts");
  }
  if (!op::BijectiveLayout(from, dst).defined()) {
    throw PassError("Cannot insert layout transform because there are inconvertible layouts: " +
                    from.name() + " v.s. " + dst.name());
  }
  return relay::layout_transform(input, from.name(), dst.name());
}

}  // namespace relaypass::passes::layout
