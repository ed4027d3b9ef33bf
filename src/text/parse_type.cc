// Types: `Tensor[(1, 3), float32]`, `float32`, `(T1, T2)`, `fn (T) -> T`, `ref(T)`, `_`, type
// variables (`A`) and ADTs (`List[A]`, `nat`).
// TVM's parser does not read `ref(T)`, which its printer writes for a reference type (a let
// variable typed by InferType): read here so that such text parses back.
#include "parser_impl.h"

namespace relaypass::text {

std::optional<ir::Type> Parser::ParseOptionalAnnotation() {
  if (!Accept(TokenKind::kColon)) return std::nullopt;
  return ParseType();
}

ir::Type Parser::ParseType() {
  const Token& token = Peek();
  NestingGuard guard(*this, token.loc);
  if (token.kind == TokenKind::kLParen) return ParseTupleType();
  if (token.kind != TokenKind::kIdent) Unexpected(token, "a type");
  if (token.IsIdent("Tensor")) return ParseTensorType();
  if (token.IsIdent("fn")) return ParseFuncType();
  if (token.IsIdent("ref")) return ParseRefType();
  if (token.IsIdent("_")) {
    Consume();
    return ir::IncompleteType();
  }
  // A bare dtype is a rank-0 tensor. As TVM's String2DLDataType, `int`, `uint` and `float`
  // without bits are 32-bit.
  std::string_view name = token.text;
  std::string with_bits;
  if (name == "int" || name == "uint" || name == "float") {
    with_bits = std::string(name) + "32";
    name = with_bits;
  }
  auto dtype = ir::DataType::Parse(name);
  if (!dtype || dtype->is_void()) {
    if (IsDtypeName(token.text)) Fail(token.loc, "unknown type '" + std::string(token.text) + "'");
    return ParseNamedType();
  }
  Consume();
  return ir::ScalarType(*dtype);
}

ir::Type Parser::GlobalTypeVarNamed(std::string_view name) {
  auto it = type_names_.find(name);
  if (it == type_names_.end()) {
    it = type_names_.emplace(std::string(name), ir::GlobalTypeVar(std::string(name))).first;
  }
  return it->second;
}

// As TVM's ParseNonPrimitiveType: a type variable in scope, else the ADT of that name (made at
// its first mention, so definitions may refer to each other); an ADT is always applied, to no
// arguments if none are written.
ir::Type Parser::ParseNamedType() {
  Token name = Consume();
  ir::Type head;
  for (auto it = type_scope_.rbegin(); it != type_scope_.rend(); ++it) {
    if (it->first == name.text) {
      head = it->second;
      break;
    }
  }
  if (!head) {
    head = GlobalTypeVarNamed(name.text);
    type_first_use_.emplace(std::string(name.text), name.loc);
  }
  std::vector<ir::Type> args;
  if (Accept(TokenKind::kLBracket)) {
    while (Peek().kind != TokenKind::kRBracket) {
      args.push_back(ParseType());
      if (!Accept(TokenKind::kComma)) break;
    }
    Expect(TokenKind::kRBracket);
  }
  if (args.empty() && head->kind == ir::TypeKind::kTypeVar) return head;
  return ir::TypeCall(std::move(head), std::move(args));
}

// Tensor[(d0, d1, ...), dtype] with dims that are integers (`224`, `224i64`) or `?`.
ir::Type Parser::ParseTensorType() {
  Consume();  // Tensor
  Expect(TokenKind::kLBracket);
  Expect(TokenKind::kLParen);
  std::vector<ir::Dim> shape;
  while (Peek().kind != TokenKind::kRParen) {
    const Token& dim = Peek();
    if (dim.kind == TokenKind::kQuestion) {
      shape.push_back(ir::kAnyDim);
    } else if (dim.kind == TokenKind::kInt) {
      if (dim.int_value < 0) Fail(dim.loc, "negative dimension " + std::string(dim.text));
      shape.push_back(dim.int_value);
    } else if (dim.kind == TokenKind::kMeta) {
      Fail(dim.loc, "symbolic dimensions (meta[...]) are not supported");
    } else {
      Unexpected(dim, "a dimension");
    }
    Consume();
    if (!Accept(TokenKind::kComma)) break;
  }
  Expect(TokenKind::kRParen);
  Expect(TokenKind::kComma);
  const Token& name = Peek();
  auto dtype = name.kind == TokenKind::kIdent ? ir::DataType::Parse(name.text) : std::nullopt;
  if (!dtype || dtype->is_void()) Unexpected(name, "a dtype such as float32");
  Consume();
  Expect(TokenKind::kRBracket);
  return ir::TensorType(std::move(shape), *dtype);
}

// `()`, `(T,)`, `(T1, T2)`; as in TVM, `(T)` is a one-field tuple too.
ir::Type Parser::ParseTupleType() {
  Consume();  // '('
  std::vector<ir::Type> fields;
  while (Peek().kind != TokenKind::kRParen) {
    fields.push_back(ParseType());
    if (!Accept(TokenKind::kComma)) break;
  }
  Expect(TokenKind::kRParen);
  return ir::TupleType(std::move(fields));
}

// `fn (A) -> R`, and `fn [T](T) -> T` as the printer writes a polymorphic function's type.
ir::Type Parser::ParseFuncType() {
  Consume();  // fn
  size_t scope = type_scope_.size();
  std::vector<ir::Type> type_params;
  if (Peek().kind == TokenKind::kLBracket) type_params = ParseTypeParams();
  Expect(TokenKind::kLParen);
  std::vector<ir::Type> args;
  while (Peek().kind != TokenKind::kRParen) {
    args.push_back(ParseType());
    if (!Accept(TokenKind::kComma)) break;
  }
  Expect(TokenKind::kRParen);
  Expect(TokenKind::kArrow);
  ir::Type ret = ParseType();
  type_scope_.resize(scope);
  return ir::FuncType(std::move(args), std::move(ret), std::move(type_params));
}

ir::Type Parser::ParseRefType() {
  Consume();  // ref
  Expect(TokenKind::kLParen);
  ir::Type value = ParseType();
  Expect(TokenKind::kRParen);
  return ir::RefType(std::move(value));
}

}  // namespace relaypass::text
