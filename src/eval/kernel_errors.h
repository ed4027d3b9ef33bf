// How the evaluator reports a kernel's failure: an error naming the op and the call's place.
#pragma once

#include <new>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "relaypass/ir/expr.h"
#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"

namespace relaypass::eval {

// Returns run(); a tensor the kernel cannot have (its size overflows, it is over the memory
// budget, or a scratch buffer fails to allocate) becomes a ResourceError naming `op_name` and
// the call's place, and a kernel's own failure (an integer division by zero) gets that place.
template <typename F>
auto WithCallContext(const ir::CallNode* call, const std::string& op_name, F&& run) {
  try {
    return run();
  } catch (const ResourceError& e) {
    throw ResourceError(op_name + ": " + e.message(), call->span);
  } catch (const std::bad_alloc&) {
    throw ResourceError(op_name + ": out of memory (memory budget " +
                            support::BytesText(support::MemoryBudget()) + ")",
                        call->span);
  } catch (const std::length_error&) {
    throw ResourceError(op_name + ": a buffer of the kernel is too large", call->span);
  } catch (const Error& e) {
    if (typeid(e) != typeid(Error) || e.span().defined() || !call->span.defined()) throw;
    throw Error(e.message(), call->span);
  }
}

}  // namespace relaypass::eval
