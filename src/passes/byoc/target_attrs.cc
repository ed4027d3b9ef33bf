// The `target.<compiler>` op attributes and the pattern tables: process-wide, guarded by a mutex
// (Python may register while C++ passes run on other threads).
#include <map>
#include <mutex>

#include "relaypass/ir/op_registry.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

struct Tables {
  std::mutex mutex;
  std::map<std::pair<std::string, std::string>, AnnotateTargetFunc> op_attrs;
  std::map<std::string, std::function<PatternTable()>> pattern_tables;
};

Tables& Global() {
  static Tables* tables = new Tables();
  return *tables;
}

}  // namespace

void RegisterOpTargetAttr(const std::string& op_name, const std::string& attr_name,
                          AnnotateTargetFunc fn) {
  if (!ir::OpRegistry::Global().Find(op_name)) {
    throw InternalError("register_op_attr: unknown operator \"" + op_name + "\"");
  }
  if (!fn) throw InternalError("register_op_attr: empty function for " + op_name);
  Tables& t = Global();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.op_attrs[{op_name, attr_name}] = std::move(fn);
}

AnnotateTargetFunc GetOpTargetAttr(const std::string& op_name, const std::string& attr_name) {
  RegisterExampleDnnlTarget();
  Tables& t = Global();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.op_attrs.find({op_name, attr_name});
  return it == t.op_attrs.end() ? AnnotateTargetFunc() : it->second;
}

void ResetOpTargetAttr(const std::string& op_name, const std::string& attr_name) {
  Tables& t = Global();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.op_attrs.erase({op_name, attr_name});
}

void RegisterPatternTable(const std::string& compiler, std::function<PatternTable()> table) {
  Tables& t = Global();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.pattern_tables[compiler] = std::move(table);
}

PatternTable GetPatternTable(const std::string& compiler) {
  RegisterExampleDnnlTarget();
  std::function<PatternTable()> make;
  {
    Tables& t = Global();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.pattern_tables.find(compiler);
    if (it == t.pattern_tables.end()) {
      std::string names;
      for (const auto& [name, fn] : t.pattern_tables) names += (names.empty() ? "" : ", ") + name;
      throw PassError("no pattern table registered for \"" + compiler + "\" (registered: " + names +
                      ")");
    }
    make = it->second;
  }
  return make();
}

}  // namespace relaypass::passes
