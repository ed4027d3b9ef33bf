// Helpers of the reliability tests: every registered pass made with usable options, and a
// snapshot of a module (structural hash and printed text) to prove it was not changed.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/transform/pass.h"

namespace relaypass::reliability {

// The value given to a registered option that has no default (e.g. ConvertLayout's
// desired_layouts), as pass-creation text such as `desired_layouts={"nn.conv2d": [...]}`; ""
// if the test does not know the option (the test then fails, asking for one here).
std::string ValueForRequiredOption(const std::string& pass, const std::string& option);

// The text that creates `name` from the registry: its name, plus values for required options.
std::string PassText(const std::string& name);

// Every registered pass, created with PassText(name), in name order.
struct NamedPass {
  std::string name;
  transform::Pass pass;
};
std::vector<NamedPass> AllRegisteredPasses();

// What must not change when a pass runs on a module: its structural hash (constants by value)
// and its printed text (which also shows the checked types).
struct Snapshot {
  size_t hash = 0;
  std::string text;
};
Snapshot TakeSnapshot(const ir::IRModule& mod);
// Fails the test (naming `what`) if `mod` no longer matches `before`.
void ExpectUnchanged(const Snapshot& before, const ir::IRModule& mod, const std::string& what);

// The built-in workloads the tests use: the tutorial example (untyped and typed) and resnet-18
// with its parameters bound as constants (typed), each made once per process.
const ir::IRModule& ExampleModule();
const ir::IRModule& TypedExampleModule();
const ir::IRModule& BoundResNet18();

}  // namespace relaypass::reliability
