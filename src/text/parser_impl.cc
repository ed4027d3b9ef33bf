#include "parser_impl.h"

#include <algorithm>

#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::text {

Parser::Parser(std::string_view text, const ParseOptions& options)
    : options_(options),
      source_(text, options.source_name),
      main_lexer_(source_),
      lexer_(&main_lexer_),
      ops_(ir::OpRegistry::Global()) {
  // The init module's names (TVM's parser seeds its tables with them).
  for (const auto& [gv, fn] : options.init_module.functions()) {
    globals_.emplace(gv->name_hint, GlobalEntry{gv, Location{}, true, true});
  }
  for (const auto& [var, data] : options.init_module.type_definitions()) {
    type_names_.emplace(var.as<ir::GlobalTypeVarNode>()->name_hint, var);
    types_defined_.emplace(var.as<ir::GlobalTypeVarNode>()->name_hint);
    for (const ir::Constructor& c : data->constructors) constructors_.emplace(c->name_hint, c);
  }
}

const Token& Parser::Peek(size_t ahead) {
  while (count_ <= ahead) {
    ring_[(head_ + count_) % ring_.size()] = lexer_->Next();
    ++count_;
  }
  return ring_[(head_ + ahead) % ring_.size()];
}

Token Parser::Consume() {
  Peek();
  Token token = std::move(ring_[head_]);
  head_ = (head_ + 1) % ring_.size();
  --count_;
  return token;
}

bool Parser::Accept(TokenKind kind) {
  if (Peek().kind != kind) return false;
  Consume();
  return true;
}

Token Parser::Expect(TokenKind kind) {
  if (Peek().kind != kind) Unexpected(Peek(), TokenKindSpelling(kind));
  return Consume();
}

void Parser::ExpectKeyword(std::string_view word) {
  if (!PeekKeyword(word)) Unexpected(Peek(), "'" + std::string(word) + "'");
  Consume();
}

void Parser::Fail(const Location& loc, const std::string& message) const {
  source_.Fail(loc, message);
}

void Parser::Unexpected(const Token& found, const std::string& what) const {
  Fail(found.loc, "expected " + what + " but found " + DescribeToken(found));
}

Parser::NestingGuard::NestingGuard(Parser& parser, const Location& loc) : parser_(parser) {
  // depth_ counts the outermost level too.
  if (++parser_.depth_ > kMaxNesting + 1) {
    --parser_.depth_;
    parser_.Fail(loc, "nesting too deep (more than " + std::to_string(kMaxNesting) + " levels)");
  }
}

void Parser::CloseScope(size_t mark) {
  while (scope_log_.size() > mark) {
    locals_[scope_log_.back()].pop_back();
    scope_log_.pop_back();
    in_scope_[scope_numbers_.back()] = false;
    scope_numbers_.pop_back();
  }
}

ir::Var Parser::DeclareLocal(const Token& name, ir::Type annotation) {
  ir::Var var = WithSpan(ir::MakeVar(std::string(name.name()), std::move(annotation)), name.loc);
  locals_[name.name()].push_back(var);
  scope_log_.push_back(name.name());
  const auto number = static_cast<int64_t>(declared_.size());
  scope_numbers_.push_back(number);
  declared_.push_back(var);
  in_scope_.push_back(true);
  return var;
}

ir::Expr Parser::LookupLocal(const Token& name) {
  auto it = locals_.find(name.name());
  if (it == locals_.end() || it->second.empty()) {
    Fail(name.loc, "undefined variable " + std::string(name.text) +
                       " (declare it as a parameter, with let, or with free_var)");
  }
  const ir::Var& var = it->second.back();
  if (!defining_.empty()) {
    auto self = defining_.find(var.get());
    if (self != defining_.end() && self->second.line == 0) self->second = name.loc;
  }
  return var;
}

Parser::GraphBinding* Parser::FindGraph(int64_t n) {
  if (n < static_cast<int64_t>(graph_dense_.size())) return &graph_dense_[n];
  auto it = graph_sparse_.find(n);
  return it == graph_sparse_.end() ? nullptr : &it->second;
}

ir::Expr Parser::LookupGraph(const Token& name) {
  GraphBinding* binding = FindGraph(name.int_value);
  if (!binding || !binding->value) Fail(name.loc, "use of undefined " + std::string(name.text));
  // Everything in scope at the binding still is: the common case, checked in constant time.
  if (binding->scope_top >= 0 && !in_scope_[binding->scope_top]) CheckGraphScope(*binding, name);
  return binding->value;
}

void Parser::CheckGraphScope(GraphBinding& binding, const Token& use) {
  if (binding.needs == -2) {
    // The locals the value uses were all in scope at the binding, numbered in scope order: if
    // the innermost of them is still in scope, so are the others. Computed once per binding.
    binding.needs = -1;
    // Numbers of the locals declared since the last check (kept only for these checks).
    for (size_t i = local_number_.size(); i < declared_.size(); ++i) {
      local_number_.emplace(declared_[i].get(), static_cast<int64_t>(i));
    }
    for (const ir::Var& v : ir::FreeVars(binding.value)) {
      auto it = local_number_.find(v.get());
      if (it != local_number_.end()) binding.needs = std::max(binding.needs, it->second);
    }
  }
  if (binding.needs < 0 || in_scope_[binding.needs]) return;
  const ir::VarNode* var = declared_[binding.needs].get();
  Fail(use.loc, "%" + std::to_string(use.int_value) + " (bound at " +
                    std::to_string(binding.loc.line) + ":" + std::to_string(binding.loc.column) +
                    ") uses %" + var->name_hint + " (declared at " +
                    std::to_string(var->span.line) + ":" + std::to_string(var->span.column) +
                    "), which is not in scope here: a binding made inside a function, let or " +
                    "if branch cannot be used outside it");
}

void Parser::BindGraph(const Token& name, ir::Expr value) {
  int64_t n = name.int_value;
  if (GraphBinding* existing = FindGraph(n); existing && existing->value) {
    Fail(name.loc, "redefinition of " + std::string(name.text) + " (first defined at " +
                       std::to_string(existing->loc.line) + ":" +
                       std::to_string(existing->loc.column) + ")");
  }
  ++graph_count_;
  size_t dense_limit = 2 * graph_count_ + 1024;
  if (n >= static_cast<int64_t>(graph_dense_.size()) && static_cast<size_t>(n) < dense_limit) {
    graph_dense_.resize(std::max(static_cast<size_t>(n) + 1, 2 * graph_dense_.size()));
    // Entries the vector now covers move over from the map.
    for (auto it = graph_sparse_.begin(); it != graph_sparse_.end();) {
      if (it->first < static_cast<int64_t>(graph_dense_.size())) {
        graph_dense_[it->first] = std::move(it->second);
        it = graph_sparse_.erase(it);
      } else {
        ++it;
      }
    }
  }
  GraphBinding binding{std::move(value), name.loc,
                       scope_numbers_.empty() ? -1 : scope_numbers_.back()};
  if (n < static_cast<int64_t>(graph_dense_.size())) {
    graph_dense_[n] = std::move(binding);
  } else {
    graph_sparse_.emplace(n, std::move(binding));
  }
}

ir::GlobalVar Parser::LookupGlobal(const Token& name) {
  auto it = globals_.find(name.name());
  if (it == globals_.end()) {
    ir::GlobalVar var = WithSpan(ir::MakeGlobalVar(std::string(name.name())), name.loc);
    it = globals_.emplace(std::string(name.name()), GlobalEntry{var, name.loc, false}).first;
  }
  return it->second.var;
}

void Parser::CheckGlobalsDefined() const {
  const GlobalEntry* first = nullptr;
  for (const auto& [name, entry] : globals_) {
    if (entry.defined) continue;
    if (!first || entry.first_use.offset < first->first_use.offset) first = &entry;
  }
  if (first) Fail(first->first_use, "undefined global @" + first->var->name_hint);
}

void Parser::CheckTypeNamesDefined() const {
  const std::pair<const std::string, Location>* first = nullptr;
  for (const auto& use : type_first_use_) {
    if (types_defined_.count(use.first)) continue;
    if (!first || use.second.offset < first->second.offset) first = &use;
  }
  if (first) {
    Fail(first->second, "the type constructor `" + first->first +
                            "` is undefined (neither a type variable in scope nor an ADT defined "
                            "by a `type` definition)");
  }
}

}  // namespace relaypass::text
