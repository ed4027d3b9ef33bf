// Files, definitions and functions.
#include <unordered_set>

#include "meta_table.h"
#include "parser_impl.h"

namespace relaypass::text {

namespace {

constexpr const char* kVersion = "0.0.5";

}  // namespace

// `#[version = "0.0.5"]` is required by TVM's parser; here only when options ask for it, so
// that the `print(mod)` form (no header) parses too.
void Parser::ParseHeader() {
  const Token& first = Peek();
  if (first.kind == TokenKind::kVersion) {
    if (first.str != kVersion) {
      Fail(first.loc,
           "unsupported text format version \"" + first.str + "\" (expected \"" + kVersion + "\")");
    }
    Consume();
  } else if (options_.require_version) {
    Fail(first.loc, std::string("missing version header #[version = \"") + kVersion + "\"]");
  }
}

ir::IRModule Parser::ParseModule() {
  ParseHeader();
  ir::IRModule mod;
  while (true) {
    const Token& token = Peek();
    if (token.kind == TokenKind::kEnd) break;
    if (token.kind == TokenKind::kMetadata) {
      ParseMetadataSection(Consume());
      break;
    }
    if (token.IsIdent("def")) {
      ParseDefinition(mod);
    } else if (token.IsIdent("type") || token.IsIdent("extern")) {
      Fail(token.loc, "type definitions are not supported");
    } else if (token.kind == TokenKind::kVersion) {
      Fail(token.loc, "the version header must be the first line");
    } else {
      Unexpected(token, "'def'");
    }
  }
  CheckGlobalsDefined();
  return mod;
}

ir::Expr Parser::ParseStandaloneExpr() {
  ParseHeader();
  ir::Expr expr = ParseBlock(TokenKind::kEnd);
  if (Peek().kind == TokenKind::kMetadata) ParseMetadataSection(Consume());
  if (Peek().kind != TokenKind::kEnd) Unexpected(Peek(), "end of input");
  CheckGlobalsDefined();
  return expr;
}

void Parser::ParseDefinition(ir::IRModule& mod) {
  Location start = Consume().loc;  // def
  Token name = Expect(TokenKind::kGlobal);
  ir::GlobalVar var = LookupGlobal(name);
  GlobalEntry& entry = globals_.find(name.name())->second;
  if (entry.defined) Fail(name.loc, "redefinition of " + std::string(name.text));
  entry.defined = true;
  mod.Add(var, ParseFunction(start));
}

ir::Function Parser::ParseFunction(const Location& start) {
  if (Peek().kind == TokenKind::kLBracket) Fail(Peek().loc, "type parameters are not supported");
  Expect(TokenKind::kLParen);
  size_t scope = OpenScope();
  std::vector<ir::Var> params;
  std::unordered_set<std::string_view> param_names;  // a set: wide functions stay linear
  ir::DictAttrs attrs;
  if (!Accept(TokenKind::kRParen)) {
    while (true) {
      const Token& token = Peek();
      if (token.kind == TokenKind::kLocal) {
        if (!attrs.empty()) Fail(token.loc, "parameter after function attributes");
        Token name = Consume();
        if (!param_names.insert(name.name()).second) {
          Fail(name.loc, "duplicate parameter " + std::string(name.text));
        }
        ir::Type annotation = ParseOptionalAnnotation().value_or(nullptr);
        params.push_back(DeclareLocal(name, std::move(annotation)));
      } else if ((token.kind == TokenKind::kIdent &&
                  (Peek(1).kind == TokenKind::kEqual || Peek(1).kind == TokenKind::kDot)) ||
                 (token.kind == TokenKind::kString && Peek(1).kind == TokenKind::kEqual)) {
        NamedAttr attr = ParseNamedAttr();
        if (attrs.find(attr.name))
          Fail(attr.name_loc, "duplicate function attribute '" + attr.name + "'");
        attrs.Set(attr.name, std::move(attr.value));
      } else {
        Unexpected(token, "a parameter");
      }
      if (Accept(TokenKind::kComma)) continue;
      Expect(TokenKind::kRParen);
      break;
    }
  }
  ir::Type ret_type;
  if (Accept(TokenKind::kArrow)) ret_type = ParseType();
  Expect(TokenKind::kLBrace);
  ir::Expr body = ParseBlock(TokenKind::kRBrace);
  Expect(TokenKind::kRBrace);
  CloseScope(scope);
  return WithSpan(
      ir::MakeFunction(std::move(params), std::move(body), std::move(ret_type), std::move(attrs)),
      start);
}

void Parser::ParseMetadataSection(const Token& section) {
  if (has_metadata_) return;  // already read ahead for a reference
  try {
    metadata_ = ParseMetaSection(section.str_view);
  } catch (const ParseError& e) {
    Fail(section.loc, "malformed metadata section: " + e.message());
  }
  metadata_searched_ = true;
  has_metadata_ = true;
}

}  // namespace relaypass::text
