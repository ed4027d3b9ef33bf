#include "reliability_util.h"

#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::reliability {

std::string ValueForRequiredOption(const std::string& pass, const std::string& option) {
  if (pass == "ConvertLayout" && option == "desired_layouts") {
    return "{\"nn.conv2d\": [\"NHWC\", \"default\"]}";
  }
  if (pass == "SimplifyFCTranspose" && option == "target_weight") return "[\"weight\"]";
  return "";
}

std::string PassText(const std::string& name) {
  const transform::PassRegistration* registration = transform::PassRegistry::Global().Find(name);
  if (!registration) return name;
  std::string options;
  for (const transform::PassOption& option : registration->options) {
    if (option.default_value) continue;
    const std::string value = ValueForRequiredOption(name, option.name);
    if (value.empty()) {
      ADD_FAILURE() << "pass " << name << " needs option " << option.name
                    << ": give it a value in ValueForRequiredOption (reliability_util.cc)";
      continue;
    }
    options += (options.empty() ? "" : ", ") + option.name + "=" + value;
  }
  return options.empty() ? name : name + "(" + options + ")";
}

std::vector<NamedPass> AllRegisteredPasses() {
  std::vector<NamedPass> passes;
  for (const std::string& name : transform::PassRegistry::Global().Names()) {
    passes.push_back({name, transform::CreatePass(PassText(name))});
  }
  return passes;
}

Snapshot TakeSnapshot(const ir::IRModule& mod) {
  return {ir::StructuralHash(mod), text::PrettyPrint(mod)};
}

void ExpectUnchanged(const Snapshot& before, const ir::IRModule& mod, const std::string& what) {
  EXPECT_EQ(ir::StructuralHash(mod), before.hash) << what << " changed its input module";
  // Compared without gtest's diff: the texts can be megabytes long.
  EXPECT_TRUE(text::PrettyPrint(mod) == before.text)
      << what << " changed the printed text of its input module";
}

const ir::IRModule& ExampleModule() {
  static const ir::IRModule mod = workloads::GetWorkload("example").mod;
  return mod;
}

const ir::IRModule& TypedExampleModule() {
  static const ir::IRModule mod = ir::InferTypes(ExampleModule());
  return mod;
}

const ir::IRModule& BoundResNet18() {
  static const ir::IRModule mod = [] {
    workloads::Workload w = workloads::GetWorkload("resnet-18");
    ir::IRModule bound = w.mod;
    bound.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
    return ir::InferTypes(bound);
  }();
  return mod;
}

}  // namespace relaypass::reliability
