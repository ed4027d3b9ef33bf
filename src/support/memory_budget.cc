#include "relaypass/support/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <limits>

namespace relaypass::support {

namespace {

std::atomic<uint64_t> g_budget{0};  // 0: the available memory
std::atomic<uint64_t> g_in_use{0};
thread_local uint64_t t_budget = 0;  // 0: no scope

uint64_t ReadAvailableMemory() {
  uint64_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
  }
  if (available == 0) {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) {
      available = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
    }
  }
  if (available == 0) available = uint64_t{1} << 62;  // nothing known: no practical limit
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    available = std::min<uint64_t>(available, limit.rlim_cur);
  }
  return available;
}

}  // namespace

uint64_t AvailableMemory() {
  static const uint64_t available = ReadAvailableMemory();
  return available;
}

uint64_t MemoryBudget() {
  const uint64_t set = g_budget.load(std::memory_order_relaxed);
  const uint64_t process = set ? set : AvailableMemory();
  return t_budget ? std::min(t_budget, process) : process;
}

void SetMemoryBudget(uint64_t bytes) {
  g_budget.store(bytes, std::memory_order_relaxed);
}

uint64_t MemoryInUse() {
  return g_in_use.load(std::memory_order_relaxed);
}

bool TryReserveMemory(uint64_t bytes) {
  if (bytes == 0) return true;
  const uint64_t budget = MemoryBudget();
  uint64_t held = g_in_use.load(std::memory_order_relaxed);
  do {
    if (bytes > budget || held > budget - bytes) return false;
  } while (!g_in_use.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

void ReleaseMemory(uint64_t bytes) {
  if (bytes) g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
}

MemoryBudgetScope::MemoryBudgetScope(uint64_t bytes) : saved_(t_budget) {
  if (bytes) t_budget = saved_ ? std::min(saved_, bytes) : bytes;
}

MemoryBudgetScope::~MemoryBudgetScope() {
  t_budget = saved_;
}

std::string BytesText(uint64_t bytes) {
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.1f %s", value, kUnits[unit]);
  return std::string(buf) + " (" + std::to_string(bytes) + " bytes)";
}

std::optional<uint64_t> ParseByteCount(std::string_view text) {
  size_t i = 0;
  uint64_t value = 0;
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  int shift = 0;
  if (!suffix.empty()) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'T':
        shift = 40;
        break;
      case 'B':
        break;
      default:
        return std::nullopt;
    }
    if (shift) suffix.remove_prefix(1);
    if (shift && !suffix.empty() && suffix[0] == 'i') suffix.remove_prefix(1);
    if (!suffix.empty() && (suffix[0] == 'B' || suffix[0] == 'b')) suffix.remove_prefix(1);
    if (!suffix.empty()) return std::nullopt;
  }
  if (shift && value > (kMax >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace relaypass::support
