// The names of symbolic dimensions (ir/type.h): a process-wide list indexed by id.
#include <deque>
#include <mutex>
#include <string>

#include "relaypass/ir/type.h"

namespace relaypass::ir {
namespace {

struct SymbolicDimNames {
  std::mutex mutex;
  std::deque<std::string> names;  // a deque: references stay valid as it grows
};

SymbolicDimNames& Names() {
  static SymbolicDimNames* names = new SymbolicDimNames();  // never destroyed: used at exit
  return *names;
}

}  // namespace

Dim NewSymbolicDim(const std::string& name) {
  SymbolicDimNames& table = Names();
  std::lock_guard<std::mutex> lock(table.mutex);
  // Ids run from 0 down from the base; 2^62 of them before a Dim would overflow.
  const Dim id = static_cast<Dim>(table.names.size());
  table.names.push_back(name.empty() ? "v" : name);
  return kSymbolicDimBase - id;
}

std::string SymbolicDimName(Dim d) {
  if (!IsSymbolicDim(d)) return "?";
  SymbolicDimNames& table = Names();
  std::lock_guard<std::mutex> lock(table.mutex);
  const Dim id = kSymbolicDimBase - d;
  if (id >= static_cast<Dim>(table.names.size())) return "?";
  return table.names[static_cast<size_t>(id)];
}

std::string DimText(Dim d) {
  if (IsSymbolicDim(d)) return SymbolicDimName(d);
  if (d == kAnyDim) return "?";
  return std::to_string(d);
}

}  // namespace relaypass::ir
