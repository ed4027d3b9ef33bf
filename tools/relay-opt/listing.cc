#include "listing.h"

#include <algorithm>

#include "pipeline.h"
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

}  // namespace

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
      line += option.default_value ? " = " + option.default_value->ToString() : " (required)";
      if (!option.doc.empty()) line = Pad(line, width + 40) + "  " + option.doc;
      out += line + "\n";
    }
  }
  const transform::PassConfigRegistry& config = transform::PassConfigRegistry::Global();
  out += "\nConfig options (--config=KEY=VALUE):\n";
  for (const std::string& key : config.Names()) {
    const transform::PassConfigOption& option = *config.Find(key);
    out += "  " + key + ": " + transform::OptionTypeName(option.type) + " = " +
           option.default_value.ToString() + (option.doc.empty() ? "" : "  " + option.doc) + "\n";
  }
  out += "\nDefault pipeline (--pipeline=default):\n  " + Join(DefaultPipelineNames(), ",") + "\n";
  out += "\nWorkloads (--workload):\n  " + Join(relaypass::workloads::WorkloadNames(), ", ") + "\n";
  return out;
}

}  // namespace relay_opt
