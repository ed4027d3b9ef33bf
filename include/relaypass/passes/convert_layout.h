// ConvertLayout(desired_layouts): converts the listed operators to the layouts the user asks for
// and inserts the layout_transforms that keep the program's meaning (relay_semantics.md 3.8).
//
//   passes::ConvertLayout({{"nn.conv2d", {"NHWC", "default"}}})
// is TVM's relay.transform.ConvertLayout({"nn.conv2d": ["NHWC", "default"]}): conv2d's data
// layout becomes NHWC and its kernel layout the default for it (HWIO; HWOI if depthwise).
// Operators with a conversion hook (nn.conv2d and the 2D pooling ops) that are not listed keep
// their layouts, with a warning on stderr as in TVM; the others adapt to their inputs through
// their layout rules.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Operator name -> the desired layout of each input ("default" allowed for conv2d's kernel).
using DesiredLayouts = std::map<std::string, std::vector<std::string>>;

/// Function pass "ConvertLayout", opt_level 3, requires InferType and CanonicalizeOps (bias_add
/// has no layout rule). PassError when it runs, for desired layouts an operator cannot take.
transform::Pass ConvertLayout(DesiredLayouts desired_layouts);
/// Registers the pass with its option `desired_layouts` (a dict of lists of strings, required):
/// `ConvertLayout(desired_layouts={"nn.conv2d": ["NHWC", "default"]})`.
void RegisterConvertLayout(transform::PassRegistry& registry);

}  // namespace relaypass::passes
