// TVM's `debug` operator (src/relay/op/debug.cc): the identity on its argument, whose evaluation
// calls the function the call names (DebugAttrs' debug_func: a callback registered by name,
// op/debug_callbacks.h; empty for none). Opaque, so fusion leaves it alone; TVM's support level 1.
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "families.h"
#include "op_common.h"
#include "relaypass/op/debug_callbacks.h"
#include "relaypass/support/error.h"

namespace relaypass::op {

namespace {

struct DebugCallbacks {
  std::mutex mutex;
  std::map<std::string, DebugCallback> by_name;
};

DebugCallbacks& Callbacks() {
  static DebugCallbacks* callbacks = new DebugCallbacks();  // callbacks may outlive main
  return *callbacks;
}

const ir::AttrsSchema* DebugAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.DebugAttrs",
                                      {ir::AttrsSchema::String("debug_func", "")});
  return &schema;
}

// TVM's IdentityRel on any value: a tensor or a tuple.
bool DebugRel(TypeRelationCall& call) {
  ir::Type in = call.arg(0);
  if (!in || in.as<ir::IncompleteTypeNode>()) return false;
  call.AssignResult(in);
  return true;
}

std::vector<ir::NDArray> DebugKernel(const std::vector<ir::NDArray>& in, const ir::Attrs& attrs,
                                     const ir::Type&) {
  const std::string name = attrs ? attrs->get_string("debug_func") : std::string();
  if (name.empty()) return in;
  DebugCallback callback;
  {
    DebugCallbacks& callbacks = Callbacks();
    std::lock_guard<std::mutex> lock(callbacks.mutex);
    auto it = callbacks.by_name.find(name);
    if (it == callbacks.by_name.end()) {
      throw Error("debug: no debug function is registered as " + name);
    }
    callback = it->second;
  }
  callback(in);  // outside the lock: the callback may register others
  return in;
}

}  // namespace

void RegisterDebugCallback(const std::string& name, DebugCallback callback) {
  if (name.empty()) throw Error("a debug function needs a name");
  DebugCallbacks& callbacks = Callbacks();
  std::lock_guard<std::mutex> lock(callbacks.mutex);
  callbacks.by_name[name] = std::move(callback);
}

void RegisterDebugOp(OpRegistry& registry) {
  OpDef& def = RegisterOp(registry, "debug", 1, OpPattern::kOpaque, DebugRel,
                          "Calls the debug function with its argument's value; its value is its "
                          "argument.");
  def.attrs_schema = DebugAttrs();
  def.kernel = DebugKernel;
}

}  // namespace relaypass::op
