// TVM's match exhaustion check (src/relay/analysis/match_exhaustion.cc), with the same
// candidates in the same order.
#include "relaypass/ir/match_exhaustion.h"

#include <string>
#include <utility>

#include "relaypass/support/error.h"

namespace relaypass::ir {

namespace {

enum class MatchResult { kMatch, kClash, kUnspecified };

constexpr int kMaxPatternDepth = 10000;

bool SameConstructor(const Constructor& a, const Constructor& b) {
  if (a.same_as(b)) return true;
  return a->name_hint == b->name_hint && TypeEqual(a->belong_to, b->belong_to);
}

const std::vector<Pattern>* SubPatterns(const PatternNode* p) {
  if (p->kind == PatternKind::kConstructor) {
    return &static_cast<const PatternConstructorNode*>(p)->patterns;
  }
  if (p->kind == PatternKind::kTuple) return &static_cast<const PatternTupleNode*>(p)->patterns;
  return nullptr;
}

// Whether the clause pattern matches every value of the candidate, none, or some (the candidate
// must be refined). Iterative: a clash anywhere decides; an unspecified part otherwise.
MatchResult Check(const Pattern& clause, const Pattern& cand) {
  bool unspecified = false;
  std::vector<std::pair<const PatternNode*, const PatternNode*>> stack = {
      {clause.get(), cand.get()}};
  while (!stack.empty()) {
    auto [p, c] = stack.back();
    stack.pop_back();
    if (p->kind == PatternKind::kWildcard || p->kind == PatternKind::kVar) continue;
    if (p->kind != c->kind) {
      // A wildcard candidate where the clause needs a constructor or a tuple: to be refined.
      unspecified = true;
      continue;
    }
    if (p->kind == PatternKind::kConstructor &&
        !SameConstructor(static_cast<const PatternConstructorNode*>(p)->constructor,
                         static_cast<const PatternConstructorNode*>(c)->constructor)) {
      return MatchResult::kClash;
    }
    const std::vector<Pattern>& ps = *SubPatterns(p);
    const std::vector<Pattern>& cs = *SubPatterns(c);
    if (ps.size() != cs.size()) return MatchResult::kClash;
    for (size_t i = ps.size(); i-- > 0;) stack.emplace_back(ps[i].get(), cs[i].get());
  }
  return unspecified ? MatchResult::kUnspecified : MatchResult::kMatch;
}

std::vector<std::vector<Pattern>> CartesianProduct(
    const std::vector<std::vector<Pattern>>& fields) {
  std::vector<std::vector<Pattern>> out = {{}};
  for (const std::vector<Pattern>& choices : fields) {
    std::vector<std::vector<Pattern>> next;
    for (const std::vector<Pattern>& prefix : out) {
      for (const Pattern& choice : choices) {
        next.push_back(prefix);
        next.back().push_back(choice);
      }
    }
    out = std::move(next);
  }
  return out;
}

// Every refinement of `cand` one step towards the clause pattern (TVM's ExpandWildcards).
// Recursion on the clause pattern's depth, capped.
std::vector<Pattern> ExpandWildcards(const Pattern& clause, const Pattern& cand,
                                     const IRModule& mod, int depth) {
  if (depth > kMaxPatternDepth) {
    throw Error("unmatched_cases: patterns nest more than " + std::to_string(kMaxPatternDepth) +
                " levels deep");
  }
  if (auto* pc = clause.as<PatternConstructorNode>()) {
    if (cand->kind == PatternKind::kWildcard) {
      // A wildcard becomes each constructor of the ADT, with wildcard fields.
      TypeData data = mod.LookupTypeDef(pc->constructor->belong_to);
      std::vector<Pattern> out;
      for (const Constructor& c : data->constructors) {
        out.push_back(MakePatternConstructor(
            c, std::vector<Pattern>(c->inputs.size(), MakePatternWildcard())));
      }
      return out;
    }
    auto* cc = cand.as<PatternConstructorNode>();
    std::vector<std::vector<Pattern>> fields;
    for (size_t i = 0; i < cc->patterns.size(); ++i) {
      fields.push_back(ExpandWildcards(pc->patterns[i], cc->patterns[i], mod, depth + 1));
    }
    std::vector<Pattern> out;
    for (std::vector<Pattern>& sub : CartesianProduct(fields)) {
      out.push_back(MakePatternConstructor(cc->constructor, std::move(sub)));
    }
    return out;
  }
  if (auto* pt = clause.as<PatternTupleNode>()) {
    if (cand->kind == PatternKind::kWildcard) {
      return {MakePatternTuple(std::vector<Pattern>(pt->patterns.size(), MakePatternWildcard()))};
    }
    auto* ct = cand.as<PatternTupleNode>();
    std::vector<std::vector<Pattern>> fields;
    for (size_t i = 0; i < ct->patterns.size(); ++i) {
      fields.push_back(ExpandWildcards(pt->patterns[i], ct->patterns[i], mod, depth + 1));
    }
    std::vector<Pattern> out;
    for (std::vector<Pattern>& sub : CartesianProduct(fields)) {
      out.push_back(MakePatternTuple(std::move(sub)));
    }
    return out;
  }
  return {cand};
}

}  // namespace

std::vector<Pattern> UnmatchedCases(const Match& match, const IRModule& mod) {
  std::vector<Pattern> candidates = {MakePatternWildcard()};
  std::vector<Pattern> failures;
  while (!candidates.empty()) {
    Pattern cand = std::move(candidates.back());
    candidates.pop_back();
    bool failure = true;
    for (const Clause& clause : match->clauses) {
      MatchResult check = Check(clause->lhs, cand);
      if (check == MatchResult::kClash) continue;
      failure = false;
      if (check == MatchResult::kUnspecified) {
        for (Pattern& p : ExpandWildcards(clause->lhs, cand, mod, 0)) {
          candidates.push_back(std::move(p));
        }
      }
      break;
    }
    if (failure) failures.push_back(std::move(cand));
  }
  return failures;
}

std::string PatternToString(const Pattern& pattern) {
  std::string out;
  struct Item {
    const PatternNode* pattern;  // null: append `text`
    const char* text;
  };
  std::vector<Item> stack = {{pattern.get(), nullptr}};
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    if (item.text) {
      out += item.text;
      continue;
    }
    const PatternNode* p = item.pattern;
    const std::vector<Pattern>* subs = SubPatterns(p);
    if (p->kind == PatternKind::kWildcard) {
      out += "_";
    } else if (p->kind == PatternKind::kVar) {
      out += "%" + static_cast<const PatternVarNode*>(p)->var->name_hint;
    } else {
      if (p->kind == PatternKind::kConstructor) {
        out += static_cast<const PatternConstructorNode*>(p)->constructor->name_hint;
        if (subs->empty()) continue;
      }
      out += "(";
      stack.push_back({nullptr, ")"});
      for (size_t i = subs->size(); i-- > 0;) {
        stack.push_back({(*subs)[i].get(), nullptr});
        if (i) stack.push_back({nullptr, ", "});
      }
    }
  }
  return out;
}

}  // namespace relaypass::ir
