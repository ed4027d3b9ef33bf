// The memory budget: the most tensor memory the process may hold at once. Every tensor
// allocation (ir::NDArray) reserves its bytes against it, so a tensor that would not fit is a
// ResourceError naming its shape and size instead of std::bad_alloc, a crash or the OOM killer.
//
// The budget defaults to the machine's available memory (MemAvailable of /proc/meminfo, read
// once, and no more than the address-space limit of `ulimit -v`). A program may set it for the
// process (relay-opt's --memory-budget) and a scope may lower it for one thread (FoldConstant
// under the PassContext config "relay.memory_budget").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaypass::support {

/// The budget in effect on this thread, in bytes.
uint64_t MemoryBudget();
/// Sets the process's budget; 0 restores the default (the available memory).
void SetMemoryBudget(uint64_t bytes);
/// The machine's available memory as the default budget sees it.
uint64_t AvailableMemory();
/// Bytes held by live tensors in the whole process.
uint64_t MemoryInUse();

/// Reserves `bytes` for a tensor: false (and nothing reserved) if the tensors already held plus
/// `bytes` would exceed MemoryBudget(). Every successful reservation is released once.
bool TryReserveMemory(uint64_t bytes);
void ReleaseMemory(uint64_t bytes);

/// Lowers (never raises) this thread's budget to `bytes` while the scope lives; 0 changes
/// nothing.
class MemoryBudgetScope {
 public:
  explicit MemoryBudgetScope(uint64_t bytes);
  ~MemoryBudgetScope();
  MemoryBudgetScope(const MemoryBudgetScope&) = delete;
  MemoryBudgetScope& operator=(const MemoryBudgetScope&) = delete;

 private:
  uint64_t saved_;
};

/// "1.5 GiB (1610612736 bytes)", for messages.
std::string BytesText(uint64_t bytes);
/// A byte count written as digits with an optional suffix K, M, G or T (powers of 1024, an
/// optional "i" and "B" after it: 4G, 4GiB, 512M, 100000): the count, or nullopt if the text is
/// malformed or the count does not fit in 63 bits.
std::optional<uint64_t> ParseByteCount(std::string_view text);

}  // namespace relaypass::support
