#include "relaypass/passes/target.h"

#include <algorithm>
#include <sstream>

#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using T = TargetAttrType;

// TVM v0.13's src/target/target_kind.cc registrations (the options relaypass reads or checks).
const std::vector<TargetKindInfo>& Kinds() {
  static const std::vector<TargetKindInfo> kinds = [] {
    const std::map<std::string, T> gpu = {{"mcpu", T::kString},
                                          {"arch", T::kString},
                                          {"max_num_threads", T::kInteger},
                                          {"thread_warp_size", T::kInteger},
                                          {"max_shared_memory_per_block", T::kInteger},
                                          {"max_threads_per_block", T::kInteger},
                                          {"registers_per_block", T::kInteger},
                                          {"l2_cache_size_bytes", T::kInteger},
                                          {"max_function_args", T::kInteger},
                                          {"mtriple", T::kString},
                                          {"mattr", T::kStringArray},
                                          {"supports_float16", T::kBool},
                                          {"supports_int8", T::kBool},
                                          {"supports_8bit_buffer", T::kBool},
                                          {"supports_16bit_buffer", T::kBool},
                                          {"max_num_compute_units", T::kInteger}};
    std::vector<TargetKindInfo> list = {
        {"llvm",
         1,
         {"cpu"},
         {{"mattr", T::kStringArray},
          {"mcpu", T::kString},
          {"mtriple", T::kString},
          {"mfloat-abi", T::kString},
          {"mabi", T::kString},
          {"num-cores", T::kInteger},
          {"fast-math", T::kBool},
          {"fast-math-nnan", T::kBool},
          {"fast-math-ninf", T::kBool},
          {"fast-math-nsz", T::kBool},
          {"fast-math-arcp", T::kBool},
          {"fast-math-contract", T::kBool},
          {"fast-math-reassoc", T::kBool},
          {"opt-level", T::kInteger},
          {"cl-opt", T::kStringArray},
          {"jit", T::kString},
          {"vector-width", T::kInteger}}},
        {"c",
         1,
         {"cpu"},
         {{"mcpu", T::kString},
          {"march", T::kString},
          {"workspace-byte-alignment", T::kInteger},
          {"constants-byte-alignment", T::kInteger}}},
        {"stackvm", 1, {"cpu"}, {}},
        {"cuda", 2, {"cuda", "gpu"}, gpu},
        {"nvptx", 2, {"cuda", "gpu"}, gpu},
        {"rocm", 10, {"rocm", "gpu"}, gpu},
        {"opencl", 4, {"opencl", "gpu"}, gpu},
        {"vulkan", 7, {"vulkan", "gpu"}, gpu},
        {"metal", 8, {"metal", "gpu"}, gpu},
        {"webgpu", 15, {"webgpu", "gpu"}, gpu},
        {"hexagon",
         16,
         {"hexagon", "cpu"},
         {{"mattr", T::kStringArray},
          {"mcpu", T::kString},
          {"mtriple", T::kString},
          {"llvm-options", T::kStringArray},
          {"num-cores", T::kInteger},
          {"vtcm-capacity", T::kInteger}}},
        {"ext_dev", 12, {"ext_dev"}, {}},
        {"hybrid", 1, {}, {}},
        {"composite", 1, {}, {}},
    };
    return list;
  }();
  return kinds;
}

// Options every kind has (TVM_REGISTER_TARGET_KIND's own).
const std::map<std::string, T>& CommonOptions() {
  static const std::map<std::string, T> common = {
      {"keys", T::kStringArray}, {"libs", T::kStringArray}, {"device", T::kString},
      {"model", T::kString},     {"tag", T::kString},       {"from_device", T::kInteger}};
  return common;
}

const TargetKindInfo* FindKind(const std::string& name) {
  for (const TargetKindInfo& k : Kinds()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

const char* TypeName(T type) {
  switch (type) {
    case T::kString:
      return "runtime.String";
    case T::kBool:
      return "IntImm";
    case T::kInteger:
      return "IntImm";
    case T::kStringArray:
      return "Array";
  }
  return "";
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// The value in its canonical string form, checked against its type.
std::string Canonical(const std::string& spec, const std::string& key, T type,
                      const std::string& value) {
  auto bad = [&](const char* what) {
    return ValueError("target \"" + spec + "\": option -" + key + " takes " + what + ", got '" +
                      value + "'");
  };
  switch (type) {
    case T::kBool:
      if (value == "1" || value == "true" || value == "True") return "1";
      if (value == "0" || value == "false" || value == "False") return "0";
      throw bad("a boolean (1, 0, true, false)");
    case T::kInteger: {
      size_t used = 0;
      try {
        (void)std::stoll(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != value.size()) throw bad("an integer");
      return value;
    }
    case T::kStringArray: {
      std::string joined;
      for (const std::string& item : SplitCommas(value))
        joined += (joined.empty() ? "" : ",") + item;
      return joined;
    }
    case T::kString:
      return value;
  }
  return value;
}

std::vector<Target>& Stack() {
  thread_local std::vector<Target> stack;
  return stack;
}

}  // namespace

Target::Target(const std::string& spec) {
  std::istringstream in(spec);
  std::string word;
  std::vector<std::string> words;
  while (in >> word) words.push_back(word);
  if (words.empty() || words[0][0] == '-') {
    throw ValueError("target \"" + spec + "\" has no kind");
  }
  kind_ = words[0];
  const TargetKindInfo* info = FindKind(kind_);
  if (!info) {
    std::string names;
    for (const std::string& k : ListKinds()) names += (names.empty() ? "" : ", ") + k;
    throw ValueError("Target kind \"" + kind_ + "\" is not defined (target \"" + spec +
                     "\"; kinds: " + names + ")");
  }
  std::vector<std::string> given_keys;
  for (size_t i = 1; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.size() < 2 || w[0] != '-') {
      throw ValueError("target \"" + spec + "\": expected an option -key=value, got \"" + w + "\"");
    }
    const size_t start = w[1] == '-' ? 2 : 1;
    const size_t eq = w.find('=');
    const std::string key =
        w.substr(start, eq == std::string::npos ? std::string::npos : eq - start);
    std::optional<T> type = AttrType(key);
    if (!type) {
      std::string names;
      for (const auto& [name, t] : ListKindOptions(kind_))
        names += (names.empty() ? "" : ", ") + name;
      throw ValueError("Cannot recognize '" + w + "': target kind \"" + kind_ +
                       "\" has no option -" + key + " (target \"" + spec +
                       "\"; its options: " + names + ")");
    }
    std::string value;
    if (eq != std::string::npos) {
      value = w.substr(eq + 1);
    } else if (*type == T::kBool) {
      value = "1";
    } else if (i + 1 < words.size() && words[i + 1][0] != '-') {
      value = words[++i];  // `-key value`
    } else {
      throw ValueError("target \"" + spec + "\": option -" + key + " has no value");
    }
    value = Canonical(spec, key, *type, value);
    if (key == "keys") {
      for (const std::string& k : SplitCommas(value)) given_keys.push_back(k);
    } else {
      attrs_[key] = value;
    }
  }
  // TVM's key order: the keys given, the -device, then the kind's defaults; each once.
  auto add_key = [&](const std::string& k) {
    if (std::find(keys_.begin(), keys_.end(), k) == keys_.end()) keys_.push_back(k);
  };
  for (const std::string& k : given_keys) add_key(k);
  if (auto device = attrs_.find("device"); device != attrs_.end()) add_key(device->second);
  for (const std::string& k : info->default_keys) add_key(k);
}

int Target::device_type() const {
  return FindKind(kind_)->device_type;
}

std::optional<std::string> Target::GetAttr(const std::string& key) const {
  auto it = attrs_.find(key);
  if (it == attrs_.end()) return std::nullopt;
  return it->second;
}

std::optional<TargetAttrType> Target::AttrType(const std::string& key) const {
  const TargetKindInfo* info = FindKind(kind_);
  if (auto it = info->options.find(key); it != info->options.end()) return it->second;
  if (auto it = CommonOptions().find(key); it != CommonOptions().end()) return it->second;
  return std::nullopt;
}

std::string Target::str() const {
  std::string s = kind_;
  if (!keys_.empty()) {
    s += " -keys=";
    for (size_t i = 0; i < keys_.size(); ++i) s += (i ? "," : "") + keys_[i];
  }
  // TVM prints the options after a space, sorted by name (an empty list leaves the space).
  std::string options;
  for (const auto& [key, value] : attrs_)
    options += (options.empty() ? "-" : " -") + key + "=" + value;
  return s + " " + options;
}

std::optional<Target> Target::Current() {
  if (Stack().empty()) return std::nullopt;
  return Stack().back();
}

std::vector<std::string> Target::ListKinds() {
  std::vector<std::string> names;
  for (const TargetKindInfo& k : Kinds()) names.push_back(k.name);
  return names;
}

std::map<std::string, std::string> Target::ListKindOptions(const std::string& kind) {
  const TargetKindInfo* info = FindKind(kind);
  if (!info) throw ValueError("Target kind \"" + kind + "\" is not defined");
  std::map<std::string, std::string> out;
  for (const auto& [name, type] : CommonOptions()) out[name] = TypeName(type);
  for (const auto& [name, type] : info->options) out[name] = TypeName(type);
  return out;
}

TargetScope::TargetScope(Target target) {
  Stack().push_back(std::move(target));
}

TargetScope::~TargetScope() {
  Stack().pop_back();
}

}  // namespace relaypass::passes
