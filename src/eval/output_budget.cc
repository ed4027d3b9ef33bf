// CheckResultFitsBudget: the evaluator's size check of a call's result (output_budget.h).
#include "output_budget.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/tensor_size.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"

namespace relaypass::eval {

void CheckResultFitsBudget(const ir::Type& result_type) {
  std::vector<const ir::TensorTypeNode*> tensors;
  std::vector<const ir::Type*> stack = {&result_type};
  while (!stack.empty()) {  // tuples may nest: an explicit stack
    const ir::Type& t = *stack.back();
    stack.pop_back();
    if (const auto* tensor = t.as<ir::TensorTypeNode>()) {
      tensors.push_back(tensor);
    } else if (const auto* tuple = t.as<ir::TupleTypeNode>()) {
      for (const ir::Type& f : tuple->fields) stack.push_back(&f);
    }
  }
  const uint64_t budget = support::MemoryBudget();
  const uint64_t held = support::MemoryInUse();
  const uint64_t left = held < budget ? budget - held : 0;
  uint64_t total = 0;
  for (const ir::TensorTypeNode* tensor : tensors) {
    std::vector<int64_t> shape;
    bool known = true;
    for (ir::Dim d : tensor->shape) {
      known = known && d >= 0;
      shape.push_back(d);
    }
    if (!known) continue;
    const std::optional<int64_t> bytes = ir::ByteCount(shape, tensor->dtype);
    if (!bytes) {
      throw ResourceError(ir::TensorText(shape, tensor->dtype) + ": its size overflows int64");
    }
    total += static_cast<uint64_t>(*bytes);
    if (total > left) {
      throw ResourceError(
          ir::TensorText(shape, tensor->dtype) + " needs " +
          support::BytesText(static_cast<uint64_t>(*bytes)) + ", over the memory budget of " +
          support::BytesText(budget) +
          (held ? " (" + support::BytesText(held) + " held by other tensors)" : std::string()));
    }
  }
}

}  // namespace relaypass::eval
