#include "relaypass/passes/target.h"

#include <sstream>
#include <vector>

#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

std::vector<Target>& Stack() {
  thread_local std::vector<Target> stack;
  return stack;
}

}  // namespace

Target::Target(const std::string& spec) {
  std::istringstream in(spec);
  std::string word;
  while (in >> word) {
    if (kind_.empty()) {
      if (word[0] == '-') throw PassError("target \"" + spec + "\" has no kind");
      kind_ = word;
      continue;
    }
    if (word.size() < 2 || word[0] != '-') {
      throw PassError("target \"" + spec + "\": expected an option -key=value, got \"" + word +
                      "\"");
    }
    size_t eq = word.find('=');
    std::string key = word.substr(1, eq == std::string::npos ? std::string::npos : eq - 1);
    if (key.empty()) throw PassError("target \"" + spec + "\": empty option name");
    attrs_[key] = eq == std::string::npos ? "true" : word.substr(eq + 1);
  }
  if (kind_.empty()) throw PassError("target \"" + spec + "\" has no kind");
}

std::optional<std::string> Target::GetAttr(const std::string& key) const {
  auto it = attrs_.find(key);
  if (it == attrs_.end()) return std::nullopt;
  return it->second;
}

std::string Target::str() const {
  std::string s = kind_;
  for (const auto& [key, value] : attrs_) s += " -" + key + "=" + value;
  return s;
}

std::optional<Target> Target::Current() {
  if (Stack().empty()) return std::nullopt;
  return Stack().back();
}

TargetScope::TargetScope(Target target) {
  Stack().push_back(std::move(target));
}

TargetScope::~TargetScope() {
  Stack().pop_back();
}

}  // namespace relaypass::passes
