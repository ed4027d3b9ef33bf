// Helpers for the pass tests: golden files, the tutorial's module, printing.
#pragma once

#include <cstdint>
#include <string>

#include "relaypass/ir/module.h"

namespace relaypass::passes::testing {

// The text of tests/data/passes/<name>.
std::string ReadGolden(const std::string& name);

// `func` as the main function of a module, after type inference.
ir::IRModule Typed(const ir::Function& func);
// `func` as the main function of a module, without types.
ir::IRModule Untyped(const ir::Function& func);

// The tutorial's example() after FoldConstant and InferType, built directly: the folded constants
// (zeros here) are meta[relay.Constant][0] = add(c, c) * 2 and meta[relay.Constant][1] = c.
ir::IRModule TutorialFolded();

// `print(mod)`.
std::string Print(const ir::IRModule& mod);

// `text` with every fresh name `%x_N` renamed to `%x_<N - base>`: GenSym's counter is
// process-global, so a test reads NextGenSymId() first and compares as if in a fresh process.
std::string RebaseGenSym(const std::string& text, uint64_t base);

// `text` without its ` /* ty=... */` type annotations.
std::string StripTypes(std::string text);

}  // namespace relaypass::passes::testing
