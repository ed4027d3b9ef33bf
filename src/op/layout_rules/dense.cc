// DenseInferCorrectLayout: dense works on (batch, features) whatever its producers did.
#include "layout_rules.h"

namespace relaypass::op::layout_rules {

InferLayoutOutput Dense(const ir::Attrs& attrs, const Layouts* /*new_in_layouts*/,
                        const Layouts& /*old_in_layouts*/,
                        const std::vector<ir::Type>& /*old_in_types*/) {
  return {{Layout("NC"), Layout("NC")}, {Layout("NC")}, attrs};
}

}  // namespace relaypass::op::layout_rules
