#include "relaypass/text/print_ir.h"

#include <iostream>

#include "relaypass/text/printer.h"

namespace relaypass::transform {

Pass PrintIR() {
  static const Pass pass = CreateModulePass(
      [](const ir::IRModule& mod, const PassContext&) {
        std::cerr << text::PrettyPrint(mod);
        return mod;
      },
      0, "PrintIR");
  return pass;
}

}  // namespace relaypass::transform
