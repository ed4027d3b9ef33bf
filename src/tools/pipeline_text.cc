#include "relaypass/tools/pipeline_text.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::tools {

namespace {

// Letters and digits in lower case, '.' kept: what CamelCasePassName compares.
std::string Key(const std::string& name) {
  std::string key;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') {
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return key;
}

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// `NAME(a=1, b="x")` -> the text between the outer parentheses split at top-level commas.
std::vector<std::string> SplitOptions(const std::string& inner) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (quote) {
      current += c;
      if (c == '\\' && i + 1 < inner.size()) {
        current += inner[++i];
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

std::string Trim(const std::string& text) {
  const size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string::npos) return "";
  const size_t end = text.find_last_not_of(" \t\n");
  return text.substr(begin, end - begin + 1);
}

std::string ResolvedPass(const transform::Pass& pass, const transform::PassRegistry& registry) {
  const std::string& spec = pass.spec();
  const std::string name = pass.info().name;
  const transform::PassRegistration* reg = registry.Find(name);
  if (!reg) return name;
  std::vector<std::pair<std::string, std::string>> given;
  const size_t open = spec.find('(');
  const size_t close = spec.rfind(')');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    for (const std::string& part : SplitOptions(spec.substr(open + 1, close - open - 1))) {
      const size_t eq = part.find('=');
      if (eq == std::string::npos) continue;
      given.emplace_back(Trim(part.substr(0, eq)), Trim(part.substr(eq + 1)));
    }
  }
  if (reg->options.empty()) return name;
  std::string out = name + "(";
  for (size_t i = 0; i < reg->options.size(); ++i) {
    const transform::PassOption& option = reg->options[i];
    auto it = std::find_if(given.begin(), given.end(),
                           [&](const auto& entry) { return entry.first == option.name; });
    std::string value;
    if (it != given.end()) {
      try {
        value = transform::ParseOptionValue(it->second).ToString();
      } catch (const std::exception&) {
        value = it->second;
      }
    } else if (option.default_value) {
      value = option.default_value->ToString();
    }
    out += (i ? ", " : "") + option.name + "=" + value;
  }
  return out + ")";
}

}  // namespace

std::string CamelCasePassName(const std::string& name, const transform::PassRegistry& registry) {
  // Only a name written with separators is another spelling; "fuseops" stays an unknown pass
  // (names are case-sensitive, as in TVM), for which the registry suggests the closest name.
  if (name.find_first_of("-_") == std::string::npos || registry.Find(name)) return "";
  const std::string key = Key(name);
  std::string match;
  for (const std::string& candidate : registry.Names()) {
    if (Key(candidate) != key) continue;
    if (!match.empty()) return "";  // ambiguous
    match = candidate;
  }
  return match;
}

std::string NormalizePipelineNames(const std::string& text, const transform::PassRegistry& registry,
                                   std::vector<PassNameFix>* fixes,
                                   std::vector<std::string>* unknown) {
  std::string out;
  int depth = 0;
  char quote = 0;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (quote) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == quote) {
        quote = 0;
      }
      ++i;
      continue;
    }
    if (depth == 0 && IsNameChar(c)) {
      size_t end = i;
      while (end < text.size() && IsNameChar(text[end])) ++end;
      const std::string name = text.substr(i, end - i);
      const std::string registered = CamelCasePassName(name, registry);
      if (registered.empty()) {
        out += name;
        if (unknown && name.find('-') != std::string::npos && !registry.Find(name)) {
          unknown->push_back(name);
        }
      } else {
        out += registered;
        if (fixes) fixes->push_back({name, registered});
      }
      i = end;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    out += c;
    ++i;
  }
  return out;
}

std::string ResolvedPipelineText(const transform::Pass& pass,
                                 const transform::PassRegistry& registry,
                                 const transform::PassContext* ctx) {
  // Depth-first over Sequentials with an explicit stack: (pass, level, gated by a Sequential).
  std::string out;
  struct Item {
    transform::Pass pass;
    int level;
    bool member;
  };
  std::vector<Item> stack = {{pass, 0, false}};
  while (!stack.empty()) {
    auto [current, level, member] = std::move(stack.back());
    stack.pop_back();
    const std::vector<transform::Pass>* members = transform::SequentialPasses(current);
    const std::string indent(static_cast<size_t>(2 * level), ' ');
    std::string note;
    if (ctx && member) {
      const transform::PassInfo& info = current.info();
      switch (ctx->Gate(info)) {
        case transform::PassStatus::kSkippedDisabled:
          note = "  // skipped: disabled";
          break;
        case transform::PassStatus::kSkippedOptLevel:
          note = "  // skipped: opt_level " + std::to_string(info.opt_level) + " > " +
                 std::to_string(ctx->opt_level());
          break;
        default:
          if (ctx->IsRequired(info.name) && info.opt_level > ctx->opt_level()) {
            note = "  // required";
          }
          break;
      }
    }
    if (members) {
      out += indent + current.info().name + note + "\n";
      for (auto it = members->rbegin(); it != members->rend(); ++it) {
        stack.push_back({*it, level + 1, true});
      }
      continue;
    }
    out += indent + ResolvedPass(current, registry) + note + "\n";
  }
  return out;
}

}  // namespace relaypass::tools
