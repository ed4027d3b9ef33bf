// Cheap facts about a module that instruments report: its size in expression nodes and whether a
// pass changed it. Used by the trace writer, the print-IR instrument and the verifier.
#pragma once

#include <cstddef>
#include <set>
#include <string>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass.h"

namespace relaypass::tools {

/// Expression nodes reachable from the module's functions (a node shared inside one function
/// counts once; Op nodes count). Iterative, linear in the module's size.
size_t CountModuleNodes(const ir::IRModule& mod);

/// True if `after` is a different program from `before`: a function was added or removed, or a
/// function is not structurally equal to the one of the same name. Checked types (the
/// `/* ty=... */` of the text) are ignored; annotations are part of the program, so an
/// InferType that fills a missing return type counts as a change. Functions that are the same
/// node are not compared (passes keep unchanged functions), so this is cheap for a pass that
/// changed nothing.
bool ModuleChanged(const ir::IRModule& before, const ir::IRModule& after);

/// The names of the Sequentials in `pass` (itself included if it is one), at any depth: the
/// passes that only group others. Instruments use it to leave containers out of "all".
std::set<std::string> SequentialNames(const transform::Pass& pass);

}  // namespace relaypass::tools
