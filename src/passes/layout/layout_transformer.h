// Inserting layout conversions (TVM's TransformMemorizer): a value in one layout made available
// in another through layout_transform, with expand_dims first when the value has fewer primal
// axes (a per-channel "C" vector next to an "NCHW16c" tensor). Each conversion of a node is built
// once and shared by every consumer.
#pragma once

#include <string>
#include <unordered_map>

#include "relaypass/ir/expr.h"
#include "relaypass/op/layout.h"

namespace relaypass::passes::layout {

class LayoutTransformer {
 public:
  /// `value` (in layout `src`) in layout `dst`: `value` itself if the layouts are equal, or if
  /// `value` is a typed scalar (all dims 1) with fewer axes; otherwise
  /// `layout_transform(expand_dims(value, 0, k)?, src', dst)`. Memoized per (value, src, dst).
  /// PassError if a layout is undefined or the two are not convertible.
  ir::Expr Transform(const ir::Expr& value, const op::Layout& src, const op::Layout& dst);

 private:
  ir::Expr Build(const ir::Expr& value, const op::Layout& src, const op::Layout& dst) const;

  struct Key {
    const ir::ExprNode* node;
    std::string src, dst;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  struct Entry {
    ir::Expr value;  // keeps the key's node alive, so its address is not reused
    ir::Expr result;
  };
  std::unordered_map<Key, Entry, KeyHash> memo_;
};

}  // namespace relaypass::passes::layout
