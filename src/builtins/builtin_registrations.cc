// The library's own operators, passes and config options, installed into the process-wide
// registries before main (a static initialiser). The IR core and the pass infrastructure own
// those registries but name no operator or pass; this file, the top of the library, names the
// lists (op::RegisterBuiltinOps, qnn::RegisterQnnOps, passes::RegisterAllPasses,
// qnn::RegisterQnnPasses, passes::RegisterAllConfigOptions).
//
// A static library drops an object file nothing refers to, so every user of librelaypass.a links
// with `--undefined=relaypass_builtin_registrations` (CMake's relaypass target and relaypass.pc
// carry it): the linker then keeps this file and its initialiser.
#include "relaypass/ir/op_registry.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/registered_passes.h"
#include "relaypass/qnn/qnn.h"

// The symbol the linker option names.
extern "C" {
extern const int relaypass_builtin_registrations;
const int relaypass_builtin_registrations = 1;
}

namespace relaypass {
namespace {

struct InstallBuiltins {
  InstallBuiltins() {
    ir::OpRegistry::AddInstaller(&op::RegisterBuiltinOps);
    ir::OpRegistry::AddInstaller(&qnn::RegisterQnnOps);  // after the ops whose schemas it reuses
    transform::PassRegistry::AddInstaller(&passes::RegisterAllPasses);
    transform::PassRegistry::AddInstaller(&qnn::RegisterQnnPasses);
    transform::PassConfigRegistry::AddInstaller(&passes::RegisterAllConfigOptions);
  }
};
const InstallBuiltins install_builtins;

}  // namespace
}  // namespace relaypass
