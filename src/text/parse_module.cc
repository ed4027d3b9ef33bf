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
  ir::IRModule mod = options_.init_module;
  std::vector<ir::TypeData> types;
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
      bool is_extern = token.IsIdent("extern");
      Location loc = token.loc;
      if (is_extern) Consume();
      ir::TypeData data = ParseTypeDefinition();
      if (is_extern && !data->constructors.empty()) {
        Fail(loc, "an external type may not have any constructors");
      }
      types.push_back(std::move(data));
    } else if (token.kind == TokenKind::kVersion) {
      Fail(token.loc, "the version header must be the first line");
    } else {
      Unexpected(token, "'def'");
    }
  }
  CheckGlobalsDefined();
  CheckTypeNamesDefined();
  // As TVM's parser: the type definitions enter the module after the whole text is read.
  for (const ir::TypeData& data : types) mod.AddTypeDef(data->header, data, true);
  return mod;
}

ir::TypeData Parser::ParseTypeDefinition() {
  ExpectKeyword("type");
  Token name = Expect(TokenKind::kIdent);
  if (IsDtypeName(name.text) || name.IsIdent("Tensor")) {
    Fail(name.loc, "'" + std::string(name.text) + "' cannot name a type definition");
  }
  ir::Type header = GlobalTypeVarNamed(name.text);
  types_defined_.emplace(name.text);
  size_t scope = type_scope_.size();
  std::vector<ir::Type> type_vars;
  if (Peek().kind == TokenKind::kLBracket) type_vars = ParseTypeParams();
  std::vector<ir::Constructor> ctors;
  if (Accept(TokenKind::kLBrace)) {
    while (Peek().kind != TokenKind::kRBrace) {
      Token ctor_name = Expect(TokenKind::kIdent);
      std::vector<ir::Type> inputs;
      if (Accept(TokenKind::kLParen)) {
        while (Peek().kind != TokenKind::kRParen) {
          inputs.push_back(ParseType());
          if (!Accept(TokenKind::kComma)) break;
        }
        Expect(TokenKind::kRParen);
      }
      ir::Constructor ctor =
          ir::MakeConstructor(std::string(ctor_name.text), std::move(inputs), header);
      if (!constructors_.emplace(std::string(ctor_name.text), ctor).second) {
        Fail(ctor_name.loc, "a constructor with the name `" + std::string(ctor_name.text) +
                                "` was previously defined");
      }
      ctors.push_back(std::move(ctor));
      if (!Accept(TokenKind::kComma)) break;
    }
    Expect(TokenKind::kRBrace);
  }
  type_scope_.resize(scope);
  return ir::MakeTypeData(std::move(header), std::move(type_vars), std::move(ctors));
}

std::vector<ir::Type> Parser::ParseTypeParams() {
  Expect(TokenKind::kLBracket);
  std::vector<ir::Type> params;
  while (Peek().kind != TokenKind::kRBracket) {
    Token name = Expect(TokenKind::kIdent);
    ir::Type var = ir::TypeVar(std::string(name.text), ir::TypeVarKind::kType);
    type_scope_.emplace_back(std::string(name.text), var);
    params.push_back(std::move(var));
    if (!Accept(TokenKind::kComma)) break;
  }
  Expect(TokenKind::kRBracket);
  return params;
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
  if (entry.defined && !entry.from_init) {
    Fail(name.loc, "redefinition of " + std::string(name.text));
  }
  entry.defined = true;
  entry.from_init = false;
  mod.AddChecked(var, ParseFunction(start));
}

ir::Function Parser::ParseFunction(const Location& start) {
  size_t type_scope = type_scope_.size();
  std::vector<ir::Type> type_params;
  if (Peek().kind == TokenKind::kLBracket) type_params = ParseTypeParams();
  Expect(TokenKind::kLParen);
  size_t scope = OpenScope();
  std::vector<ir::Var> params;
  std::unordered_set<std::string_view> param_names;  // a set: wide functions stay linear
  ir::DictAttrs attrs;
  ir::VirtualDevice virtual_device;  // TVM's `virtual_device=` pseudo-attribute
  if (!Accept(TokenKind::kRParen)) {
    while (true) {
      const Token& token = Peek();
      if (token.kind == TokenKind::kLocal) {
        if (!attrs.empty()) Fail(token.loc, "parameter after function attributes");
        Token name = Consume();
        if (!param_names.insert(name.name()).second) {
          Fail(name.loc, "duplicate parameter " + std::string(name.text));
        }
        ir::VirtualDevice param_device;
        if (Peek().kind == TokenKind::kLBrace) param_device = ParseParamVirtualDevice();
        ir::Type annotation = ParseOptionalAnnotation().value_or(nullptr);
        params.push_back(DeclareLocal(name, std::move(annotation)));
        if (param_device)
          const_cast<ir::VarNode*>(params.back().get())->virtual_device = param_device;
      } else if ((token.kind == TokenKind::kIdent &&
                  (Peek(1).kind == TokenKind::kEqual || Peek(1).kind == TokenKind::kDot)) ||
                 (token.kind == TokenKind::kString && Peek(1).kind == TokenKind::kEqual)) {
        NamedAttr attr = ParseNamedAttr();
        if (attrs.find(attr.name) || (attr.name == "virtual_device" && virtual_device))
          Fail(attr.name_loc, "duplicate function attribute '" + attr.name + "'");
        if (attr.name == "virtual_device") {
          // Not an attribute: TVM's parser moves it to the function's virtual_device_.
          if (attr.value.kind() != ir::AttrValue::Kind::kVirtualDevice)
            Fail(attr.value_loc, "virtual_device must be a meta[VirtualDevice][i] reference");
          virtual_device = attr.value.as_virtual_device();
        } else {
          attrs.Set(attr.name, std::move(attr.value));
        }
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
  type_scope_.resize(type_scope);
  ir::Function function =
      WithSpan(ir::MakeFunction(std::move(params), std::move(body), std::move(ret_type),
                                std::move(attrs), std::move(type_params)),
               start);
  const_cast<ir::FunctionNode*>(function.get())->virtual_device = std::move(virtual_device);
  return function;
}

void Parser::ParseMetadataSection(const Token& section) {
  if (has_metadata_) return;  // already read ahead for a reference
  try {
    metadata_ = ParseMetaSection(section.str_view, &metadata_virtual_devices_);
  } catch (const ParseError& e) {
    Fail(section.loc, "malformed metadata section: " + e.message());
  }
  metadata_searched_ = true;
  has_metadata_ = true;
}

}  // namespace relaypass::text
