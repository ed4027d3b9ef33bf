// The names TVM's TE compiler gives lowered fused functions (src/relay/backend/te_compiler.cc
// and te_compiler_cache.cc): "fused" and the body's operator names in evaluation order, dots as
// underscores ("fused_nn_conv2d_add_nn_relu"); a name over 80 characters is cut there and
// followed by "_<std::hash of the whole name, hex>_"; then mangled with the module name
// ("tvmgen_default_...") and made unique ("_1", "_2", ...). Structurally equal functions are one
// lowered function and share its name (TVM's cache of lowered functions).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::backend {

class LoweredNames {
 public:
  explicit LoweredNames(std::string mod_name) : mod_name_(std::move(mod_name)) {}

  /// The name of `func` (a primitive function), made when first asked for.
  std::string NameOf(const ir::Function& func);

 private:
  std::string mod_name_;
  std::unordered_map<std::string, int> used_;  // name -> next suffix
  // Functions by structural hash, each with its name (equal hashes compared structurally).
  std::unordered_map<size_t, std::vector<std::pair<ir::Function, std::string>>> cache_;
};

/// "fused_<ops>" of a primitive function, before truncation.
std::string ReadableFusedName(const ir::Function& func);

}  // namespace relaypass::backend
