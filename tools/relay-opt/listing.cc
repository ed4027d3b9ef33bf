#include "listing.h"

#include <algorithm>

#include "pipeline.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/pass_config.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/workloads.h"

namespace relay_opt {

namespace {

namespace transform = relaypass::transform;

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string Join(const std::vector<std::string>& names, const char* separator) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : separator) + name;
  return out;
}

// opt_level and required passes, from a pass made with default options (if it can be).
std::string InfoText(const transform::PassRegistration& reg) {
  try {
    const transform::Pass pass = reg.create(transform::PassOptions([&] {
      std::vector<std::pair<std::string, transform::OptionValue>> values;
      for (const transform::PassOption& option : reg.options) {
        if (!option.default_value) throw relaypass::PassError("no default");
        values.emplace_back(option.name, *option.default_value);
      }
      return values;
    }()));
    const transform::PassInfo& info = pass.info();
    std::string out = "opt_level=" + std::to_string(info.opt_level);
    if (!info.required.empty()) out += "  required=[" + Join(info.required, ", ") + "]";
    return out;
  } catch (const relaypass::Error&) {
    return "(needs options)";
  }
}

const char* PatternName(relaypass::op::OpPattern pattern) {
  using relaypass::op::OpPattern;
  switch (pattern) {
    case OpPattern::kElemWise:
      return "ElemWise";
    case OpPattern::kBroadcast:
      return "Broadcast";
    case OpPattern::kInjective:
      return "Injective";
    case OpPattern::kCommReduce:
      return "CommReduce";
    case OpPattern::kOutEWiseFusable:
      return "OutEWiseFusable";
    case OpPattern::kTuple:
      return "Tuple";
    case OpPattern::kOpaque:
      return "Opaque";
  }
  return "?";
}

}  // namespace

std::string ListOps() {
  const relaypass::op::OpRegistry& registry = relaypass::op::OpRegistry::Global();
  const std::vector<std::string> names = registry.ListNames();
  size_t width = 0;
  for (const std::string& name : names) width = std::max(width, name.size());
  std::string out = "Operators (name, inputs, fusion pattern, layout rule; attributes):\n";
  for (const std::string& name : names) {
    const relaypass::op::OpDef& def = *registry.Find(name);
    std::string traits = Pad(std::to_string(def.num_inputs), 3) + Pad(PatternName(def.pattern), 16);
    std::string layout = def.infer_layout ? "layout" : "";
    if (def.convert_layout) layout += "+convert";
    traits += Pad(layout, 16);
    if (def.is_reshape_op) traits += "reshape";
    out += "  " + Pad(name, width) + "  " + Pad(traits, 42) + "  " + def.description + "\n";
    if (!def.attrs_schema) continue;
    std::string attrs;
    for (const relaypass::ir::AttrField& field : def.attrs_schema->fields()) {
      attrs += (attrs.empty() ? "" : ", ") + field.name +
               (field.has_default ? "=" + field.default_value.ToString() : " (required)");
    }
    out += "      " + attrs + "\n";
  }
  return out;
}

std::string ListPasses() {
  const transform::PassRegistry& registry = transform::PassRegistry::Global();
  const std::vector<std::string> names = registry.Names();
  size_t width = 0;
  for (const std::string& name : names) width = std::max(width, name.size());
  std::string out = "Passes (--passes, --pipeline):\n";
  for (const std::string& name : names) {
    const transform::PassRegistration& reg = *registry.Find(name);
    out += "  " + Pad(name, width) + "  " + Pad(InfoText(reg), 36) + "  " + reg.doc + "\n";
    for (const transform::PassOption& option : reg.options) {
      std::string line = "      " + option.name + ": " + transform::OptionTypeName(option.type);
      line += option.default_value ? " = " + transform::OptionLiteral(*option.default_value)
                                   : " (required)";
      if (!option.doc.empty()) line = Pad(line, width + 40) + "  " + option.doc;
      out += line + "\n";
    }
  }
  const transform::PassConfigRegistry& config = transform::PassConfigRegistry::Global();
  out += "\nConfig options (--config=KEY=VALUE):\n";
  for (const std::string& key : config.Names()) {
    const transform::PassConfigOption& option = *config.Find(key);
    out += "  " + key + ": " + transform::OptionTypeName(option.type) + " = " +
           transform::OptionLiteral(option.default_value) +
           (option.doc.empty() ? "" : "  " + option.doc) + "\n";
  }
  out += "\nDefault pipeline (--pipeline=default):\n  " + Join(DefaultPipelineNames(), ",") + "\n";
  out += "\nWorkloads (--workload):\n  " + Join(relaypass::workloads::WorkloadNames(), ", ") + "\n";
  return out;
}

}  // namespace relay_opt
