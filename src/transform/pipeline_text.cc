#include "relaypass/transform/pipeline_text.h"

#include <algorithm>
#include <cctype>

#include "relaypass/support/error.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"
#include "text_cursor.h"

namespace relaypass::transform {

namespace {

// NAME [ '(' [ option '=' literal { ',' option '=' literal } ] ')' ]
PassText ReadPass(detail::TextCursor& cursor) {
  PassText pass;
  cursor.SkipSpace();
  pass.column = cursor.pos() + 1;
  pass.name = std::string(cursor.PassName());
  if (pass.name.empty()) cursor.Fail("expected a pass name");
  if (cursor.TryConsume('(') && !cursor.TryConsume(')')) {
    do {
      std::string option(cursor.Identifier());
      if (option.empty()) cursor.Fail("expected an option name");
      cursor.Expect('=');
      pass.options.emplace_back(std::move(option), cursor.Literal());
    } while (cursor.TryConsume(','));
    cursor.Expect(')');
  }
  return pass;
}

// Letters and digits in lower case, '.' kept: what RegisteredSpelling compares.
std::string SpellingKey(const std::string& name) {
  std::string key;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.') {
      key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return key;
}

// `FuseOps(fuse_opt_level=2)`: every registered option, given (from the pass's spec) or default.
std::string ResolvedPassText(const Pass& pass, const PassRegistry& registry) {
  const std::string name = pass.info().name;
  const PassRegistration* reg = registry.Find(name);
  if (!reg || reg->options.empty()) return name;
  PassText given;
  try {
    if (!pass.spec().empty()) given = ReadPassText(pass.spec());
  } catch (const PassError&) {
    return pass.spec();  // a spec set by hand (Pass::WithSpec), not pipeline text: shown as is
  }
  PassText resolved{name, {}, 0};
  for (const PassOption& option : reg->options) {
    auto it = std::find_if(given.options.begin(), given.options.end(),
                           [&](const auto& entry) { return entry.first == option.name; });
    if (it != given.options.end()) {
      resolved.options.push_back(*it);
    } else if (option.default_value) {
      resolved.options.emplace_back(option.name, *option.default_value);
    }
  }
  return WritePassText(resolved);
}

// "  // skipped: ..." or "  // required" for a Sequential member under ctx's gating, or "".
std::string GateNote(const PassInfo& info, const PassContext& ctx) {
  switch (ctx.Gate(info)) {
    case PassStatus::kSkippedDisabled:
      return "  // skipped: disabled";
    case PassStatus::kSkippedOptLevel:
      return "  // skipped: opt_level " + std::to_string(info.opt_level) + " > " +
             std::to_string(ctx.opt_level());
    default:
      return ctx.IsRequired(info.name) && info.opt_level > ctx.opt_level() ? "  // required" : "";
  }
}

}  // namespace

std::vector<PassText> ReadPipelineText(const std::string& text) {
  detail::TextCursor cursor(text, "pipeline");
  std::vector<PassText> passes;
  cursor.SkipSpace();
  if (cursor.AtEnd()) return passes;
  do {
    passes.push_back(ReadPass(cursor));
  } while (cursor.TryConsume(','));
  cursor.SkipSpace();
  if (!cursor.AtEnd()) cursor.Fail("expected ',' between passes");
  return passes;
}

PassText ReadPassText(const std::string& text) {
  detail::TextCursor cursor(text, "pass");
  PassText pass = ReadPass(cursor);
  cursor.SkipSpace();
  if (!cursor.AtEnd()) cursor.Fail("unexpected text after the pass");
  return pass;
}

std::string WritePassText(const PassText& pass) {
  if (pass.options.empty()) return pass.name;
  std::string out = pass.name + "(";
  for (size_t i = 0; i < pass.options.size(); ++i) {
    if (i) out += ", ";
    out += pass.options[i].first + "=" + OptionLiteral(pass.options[i].second);
  }
  return out + ")";
}

std::string WritePipelineText(const std::vector<PassText>& passes) {
  std::string out;
  for (size_t i = 0; i < passes.size(); ++i) out += (i ? "," : "") + WritePassText(passes[i]);
  return out;
}

std::string RegisteredSpelling(const std::string& name, const PassRegistry& registry) {
  // Only a name written with separators is another spelling; "fuseops" stays an unknown pass
  // (names are case-sensitive, as in TVM), for which the registry suggests the closest name.
  if (name.find_first_of("-_") == std::string::npos || registry.Find(name)) return "";
  const std::string key = SpellingKey(name);
  std::string match;
  for (const std::string& candidate : registry.Names()) {
    if (SpellingKey(candidate) != key) continue;
    if (!match.empty()) return "";  // ambiguous
    match = candidate;
  }
  return match;
}

std::string NormalizePipelineNames(const std::string& text, const PassRegistry& registry,
                                   std::vector<PassNameFix>* fixes,
                                   std::vector<std::string>* unknown) {
  std::vector<PassText> passes = ReadPipelineText(text);
  for (PassText& pass : passes) {
    const std::string registered = RegisteredSpelling(pass.name, registry);
    if (!registered.empty()) {
      if (fixes) fixes->push_back({pass.name, registered});
      pass.name = registered;
    } else if (unknown && pass.name.find('-') != std::string::npos && !registry.Find(pass.name)) {
      unknown->push_back(pass.name);
    }
  }
  return WritePipelineText(passes);
}

Pass CreatePass(const std::string& text) {
  return CreatePass(text, PassRegistry::Global());
}

Pass CreatePass(const std::string& text, const PassRegistry& registry) {
  PassText pass = ReadPassText(text);
  return registry.Create(pass.name, pass.options);
}

Pass ParsePipeline(const std::string& text) {
  return ParsePipeline(text, PassRegistry::Global());
}

Pass ParsePipeline(const std::string& text, const PassRegistry& registry) {
  std::vector<Pass> passes;
  for (const PassText& pass : ReadPipelineText(text)) {
    passes.push_back(registry.Create(pass.name, pass.options));
  }
  return Sequential(std::move(passes));
}

std::string PrintPipeline(const Pass& pass) {
  if (!pass.spec().empty()) return pass.spec();
  const std::vector<Pass>* members = SequentialPasses(pass);
  if (members && pass.info().name == "sequential") {
    std::string out;
    for (size_t i = 0; i < members->size(); ++i) {
      if (i) out += ",";
      out += PrintPipeline((*members)[i]);
    }
    return out;
  }
  return pass.info().name;
}

std::string PrintResolvedPipeline(const Pass& pass, const PassRegistry& registry,
                                  const PassContext* ctx) {
  // Depth-first over Sequentials with an explicit stack: (pass, level, gated by a Sequential).
  std::string out;
  struct Item {
    Pass pass;
    int level;
    bool member;
  };
  std::vector<Item> stack = {{pass, 0, false}};
  while (!stack.empty()) {
    auto [current, level, member] = std::move(stack.back());
    stack.pop_back();
    const std::vector<Pass>* members = SequentialPasses(current);
    const std::string indent(static_cast<size_t>(2 * level), ' ');
    const std::string note = ctx && member ? GateNote(current.info(), *ctx) : "";
    if (members) {
      out += indent + current.info().name + note + "\n";
      for (auto it = members->rbegin(); it != members->rend(); ++it) {
        stack.push_back({*it, level + 1, true});
      }
      continue;
    }
    out += indent + ResolvedPassText(current, registry) + note + "\n";
  }
  return out;
}

}  // namespace relaypass::transform
