// Operators registered at run time (op/user_ops.h) and TVM's support levels.
#include "relaypass/op/user_ops.h"

#include <map>
#include <mutex>
#include <set>
#include <string>

#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "type_relations.h"

namespace relaypass::op {
namespace {

// TVM v0.13's set_support_level of its unary and binary operators (src/relay/op/tensor/unary.cc
// and binary.cc), of the bitserial ones (nn/bitserial.cc) and of debug. Operators not listed report
// TVM's default, 10.
const std::map<std::string, int>& BuiltinLevels() {
  static const std::map<std::string, int> levels = [] {
    std::map<std::string, int> m;
    for (const char* name :
         {"log",       "log2",     "log10",   "tan",          "cos",          "cosh",
          "sin",       "sinh",     "acos",    "acosh",        "asin",         "asinh",
          "atan",      "atanh",    "exp",     "fast_exp",     "erf",          "fast_erf",
          "sqrt",      "rsqrt",    "sigmoid", "tanh",         "fast_tanh",    "add",
          "subtract",  "multiply", "divide",  "floor_divide", "trunc_divide", "mod",
          "floor_mod", "trunc_mod"}) {
      m[name] = 1;
    }
    m["nn.bitserial_dense"] = 1;
    m["debug"] = 1;
    m["nn.bitpack"] = 2;
    m["nn.bitserial_conv2d"] = 2;
    for (const char* name : {"copy", "clip", "floor", "ceil", "trunc", "round", "sign", "abs",
                             "negative", "isnan", "isfinite", "isinf"}) {
      m[name] = 3;
    }
    for (const char* name :
         {"zeros_like",  "ones_like",   "logical_not",  "bitwise_not", "power",      "maximum",
          "minimum",     "right_shift", "left_shift",   "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or",  "bitwise_xor",  "equal",       "not_equal",  "less",
          "less_equal",  "greater",     "greater_equal"}) {
      m[name] = 4;
    }
    return m;
  }();
  return levels;
}

struct UserOps {
  std::mutex mutex;
  std::map<std::string, OpDef*> defs;  // owned by the registry
  std::map<std::string, int> levels;
};

UserOps& Users() {
  static UserOps* users = new UserOps();  // never destroyed: the registry outlives main
  return *users;
}

// The record of a user operator, for a change made under the lock.
OpDef& UserDef(UserOps& users, const std::string& op_name) {
  auto it = users.defs.find(op_name);
  if (it == users.defs.end()) {
    throw Error("operator " + op_name +
                " was not registered with relay.op.op.register: a built-in operator cannot be "
                "changed");
  }
  return *it->second;
}

}  // namespace

int SupportLevel(const std::string& op_name) {
  UserOps& users = Users();
  {
    std::lock_guard<std::mutex> lock(users.mutex);
    auto it = users.levels.find(op_name);
    if (it != users.levels.end()) return it->second;
  }
  auto it = BuiltinLevels().find(op_name);
  return it == BuiltinLevels().end() ? 10 : it->second;
}

void RegisterUserOp(const std::string& op_name, const std::string& description) {
  if (op_name.empty()) throw Error("an operator needs a name");
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  OpRegistry& registry = OpRegistry::Global();
  if (registry.GetOp(op_name)) {
    throw Error("AttributeError: Operator " + op_name + " is registered before");
  }
  OpDef& def = registry.Register(op_name);
  def.description = description;
  users.defs[op_name] = &def;
}

void SetUserOpNumInputs(const std::string& op_name, int num_inputs) {
  if (num_inputs < -1) throw Error("num_inputs must be -1 (variadic) or at least 0");
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  UserDef(users, op_name).num_inputs = num_inputs;
}

void SetUserOpTypeRelation(const std::string& op_name, const std::string& rel_name) {
  static const std::map<std::string, ir::TypeRelation> named = {
      {"Identity", IdentityRel},
      {"Broadcast", BroadcastRel},
      {"BroadcastComp", BroadcastCompareRel},
  };
  auto it = named.find(rel_name);
  if (it == named.end()) {
    throw Error("add_type_rel: relaypass has no type relation named " + rel_name +
                " (it has Identity, Broadcast and BroadcastComp)");
  }
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  UserDef(users, op_name).type_relation = it->second;
}

void SetUserOpSupportLevel(const std::string& op_name, int level) {
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  UserDef(users, op_name);  // must be a user operator
  users.levels[op_name] = level;
}

void SetUserOpPattern(const std::string& op_name, int pattern) {
  if (pattern < 0 || pattern > 8 || pattern == 5 || pattern == 6) {
    throw Error("TOpPattern must be one of TVM's OpPattern values (0-4, 7, 8), got " +
                std::to_string(pattern));
  }
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  UserDef(users, op_name).pattern = static_cast<ir::OpPattern>(pattern);
}

void SetUserOpStateful(const std::string& op_name, bool stateful) {
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  UserDef(users, op_name).stateful = stateful;
}

bool IsUserOp(const std::string& op_name) {
  UserOps& users = Users();
  std::lock_guard<std::mutex> lock(users.mutex);
  return users.defs.count(op_name) > 0;
}

}  // namespace relaypass::op
