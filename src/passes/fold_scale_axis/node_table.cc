#include "node_table.h"

#include "relaypass/ir/visitor.h"

namespace relaypass::passes::fold_scale_axis {

NodeIndex::NodeIndex(const ir::Expr& root) : nodes_(ir::PostOrder(root)) {
  index_.reserve(nodes_.size());
  for (size_t i = 0; i < nodes_.size(); ++i) {
    index_.emplace(nodes_[i].get(), static_cast<uint32_t>(i));
  }
}

}  // namespace relaypass::passes::fold_scale_axis
