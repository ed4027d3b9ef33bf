// Blocks, expressions and calls.
#include <cstdint>

#include "literal.h"
#include "parser_impl.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/support/float16.h"

namespace relaypass::text {

namespace {

struct InfixOp {
  int precedence;
  const char* op_name;
};

// TVM's precedence table: `* /` bind tighter than `+ -`, then comparisons, then equality; all
// left-associative.
std::optional<InfixOp> Infix(TokenKind kind) {
  switch (kind) {
    case TokenKind::kStar:
      return InfixOp{12, "multiply"};
    case TokenKind::kSlash:
      return InfixOp{12, "divide"};
    case TokenKind::kPlus:
      return InfixOp{10, "add"};
    case TokenKind::kMinus:
      return InfixOp{10, "subtract"};
    case TokenKind::kLess:
      return InfixOp{8, "less"};
    case TokenKind::kLessEqual:
      return InfixOp{8, "less_equal"};
    case TokenKind::kGreater:
      return InfixOp{8, "greater"};
    case TokenKind::kGreaterEqual:
      return InfixOp{8, "greater_equal"};
    case TokenKind::kEqualEqual:
      return InfixOp{7, "equal"};
    case TokenKind::kNotEqual:
      return InfixOp{7, "not_equal"};
    default:
      return std::nullopt;
  }
}

bool IsReservedWord(std::string_view word) {
  for (const char* w : {"let", "fn", "def", "if", "else", "type", "match", "extern", "free_var",
                        "ref", "ref_read", "ref_write"}) {
    if (word == w) return true;
  }
  return false;
}

}  // namespace

bool Parser::AtBindingStatement() {
  const Token& token = Peek();
  if (token.kind == TokenKind::kGraph) return Peek(1).kind == TokenKind::kEqual;
  return token.IsIdent("let") || token.IsIdent("free_var");
}

// A block is a loop over statements; the lets it creates are chained from the back once the
// result is known, so neither a long block nor a long let chain recurses.
ir::Expr Parser::ParseBlock(TokenKind terminator, ir::Expr first,
                            std::optional<TokenKind> also_ends) {
  size_t scope = OpenScope();
  struct PendingLet {
    ir::Var var;
    ir::Expr value;
    Location loc;
  };
  std::vector<PendingLet> lets;
  ir::Expr result;
  while (true) {
    if (!first && AtBindingStatement()) {
      Token head = Consume();
      if (head.kind == TokenKind::kGraph) {  // %N = expr;
        Consume();                           // '='
        ir::Expr value = ParseExpr();
        Expect(TokenKind::kSemicolon);
        BindGraph(head, std::move(value));
        continue;
      }
      Token name = Expect(TokenKind::kLocal);
      ir::Type annotation = ParseOptionalAnnotation().value_or(nullptr);
      if (head.IsIdent("free_var")) {  // free_var %x: T;
        Expect(TokenKind::kSemicolon);
        DeclareLocal(name, std::move(annotation));
        continue;
      }
      Expect(TokenKind::kEqual);  // let %x: T = expr;
      // As in TVM's parser, the variable is in scope in its own value: a let-bound function
      // may call itself (`let %fact = fn (%n) { ... %fact(...) ... };`).
      ir::Var var = DeclareLocal(name, std::move(annotation));
      defining_.emplace(var.get(), Location{0, 0, 0});  // line 0: not used yet
      ir::Expr value = ParseExpr();
      const Location self_use = defining_.at(var.get());
      defining_.erase(var.get());
      // Only a function may refer to itself (TVM's type checker rejects any other value that
      // does): `let %a = add(%a, 1f)` is an error, not a use of an outer %a.
      if (self_use.line > 0 && value->kind != ir::ExprKind::kFunction) {
        Fail(self_use, "%" + std::string(name.name()) +
                           " is used in its own definition; only a function (let %" +
                           std::string(name.name()) + " = fn ...) may refer to itself");
      }
      Expect(TokenKind::kSemicolon);
      lets.push_back({std::move(var), std::move(value), head.loc});
      continue;
    }
    ir::Expr expr = first ? std::move(first) : ParseExpr();
    first = nullptr;
    if (Peek().kind == TokenKind::kSemicolon) {  // `e1; e2` is `let %"" = e1; e2`
      Location loc = Consume().loc;
      lets.push_back({WithSpan(ir::MakeVar(""), loc), std::move(expr), loc});
      continue;
    }
    // A standalone expression may be followed by the metadata section.
    bool at_end = Peek().kind == terminator || (also_ends && Peek().kind == *also_ends) ||
                  (terminator == TokenKind::kEnd && Peek().kind == TokenKind::kMetadata);
    if (!at_end) {
      Unexpected(Peek(), terminator == TokenKind::kEnd
                             ? std::string("';' or end of input")
                             : std::string("';' or ") + TokenKindSpelling(terminator));
    }
    result = std::move(expr);
    break;
  }
  CloseScope(scope);
  for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
    result =
        WithSpan(ir::MakeLet(std::move(it->var), std::move(it->value), std::move(result)), it->loc);
  }
  return result;
}

ir::Expr Parser::ParseExpr() {
  NestingGuard guard(*this, Peek().loc);
  return ParseBinary(0);
}

// Precedence climbing: the loop handles a chain of same-level operators and the recursion is
// bounded by the number of precedence levels.
ir::Expr Parser::ParseBinary(int min_precedence) {
  ir::Expr lhs = ParsePostfix();
  while (true) {
    auto infix = Infix(Peek().kind);
    if (!infix || infix->precedence < min_precedence) return lhs;
    Location loc = Consume().loc;
    ir::Op op = ops_.GetOp(infix->op_name);
    if (!op) Fail(loc, ir::UnknownOperatorMessage(infix->op_name));
    ir::Expr rhs = ParseBinary(infix->precedence + 1);
    lhs = MakeOpCall(op, {std::move(lhs), std::move(rhs)}, nullptr, loc, loc);
  }
}

ir::Expr Parser::ParsePostfix() {
  Location start = Peek().loc;
  ir::Expr expr = ParsePrimary();
  while (true) {
    if (Peek().kind == TokenKind::kLParen) {
      expr = ParseCall(std::move(expr), start);
    } else if (Peek().kind == TokenKind::kDot && Peek(1).kind == TokenKind::kInt) {
      Location dot = Consume().loc;
      Token index = Consume();
      if (index.int_value > INT32_MAX) Fail(index.loc, "tuple index is too large");
      expr =
          WithSpan(ir::MakeTupleGetItem(std::move(expr), static_cast<int>(index.int_value)), dot);
    } else {
      // As TVM's parser: a constructor without inputs stands for its application (`Nil`).
      auto* ctor = expr.as<ir::ConstructorNode>();
      if (ctor && ctor->inputs.empty()) return WithSpan(ir::MakeCall(expr, {}), start);
      return expr;
    }
  }
}

ir::Expr Parser::ParsePrimary() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kLocal:
      return LookupLocal(Consume());
    case TokenKind::kGraph:
      return LookupGraph(Consume());
    case TokenKind::kGlobal:
      return LookupGlobal(Consume());
    case TokenKind::kInt:
    case TokenKind::kFloat:
      return ScalarConstant(Consume());
    case TokenKind::kMeta:
      return ResolveMeta(Consume());
    case TokenKind::kLParen:
      return ParseParenthesized();
    case TokenKind::kIdent:
      if (token.IsIdent("fn")) return ParseFunction(Consume().loc);
      if (token.IsIdent("if")) return ParseIf();
      if (token.IsIdent("True") || token.IsIdent("False")) return ScalarConstant(Consume());
      if (token.IsIdent("let") || token.IsIdent("free_var")) {
        Fail(token.loc, "'" + std::string(token.text) +
                            "' starts a statement, not a value; wrap the block in parentheses");
      }
      if (token.IsIdent("ref") || token.IsIdent("ref_read") || token.IsIdent("ref_write")) {
        return ParseReference();
      }
      if (token.IsIdent("match")) return ParseMatch();
      if (IsReservedWord(token.text)) Unexpected(token, "an expression");
      if (auto it = constructors_.find(token.text); it != constructors_.end()) {
        Consume();
        return it->second;
      }
      return ParseOperator();
    default:
      Unexpected(token, "an expression");
  }
}

// `()`, `(e)`, `(e,)`, `(a, b)`, and `(let ...; e)` / `(e1; e2)` blocks.
ir::Expr Parser::ParseParenthesized() {
  Location open = Consume().loc;
  if (Accept(TokenKind::kRParen)) return WithSpan(ir::MakeTuple({}), open);
  ir::Expr first;
  if (!AtBindingStatement()) {
    first = ParseExpr();
    if (Accept(TokenKind::kRParen)) return first;  // grouping
    if (Peek().kind == TokenKind::kComma) {
      std::vector<ir::Expr> fields{std::move(first)};
      while (Accept(TokenKind::kComma)) {
        if (Peek().kind == TokenKind::kRParen) break;
        fields.push_back(ParseExpr());
      }
      Expect(TokenKind::kRParen);
      return WithSpan(ir::MakeTuple(std::move(fields)), open);
    }
    if (Peek().kind != TokenKind::kSemicolon) Unexpected(Peek(), "')', ',' or ';'");
  }
  ir::Expr block = ParseBlock(TokenKind::kRParen, std::move(first));
  Expect(TokenKind::kRParen);
  return block;
}

ir::Expr Parser::ParseIf() {
  Location start = Consume().loc;
  ir::Expr cond = ParseExpr();
  Expect(TokenKind::kLBrace);
  ir::Expr then_branch = ParseBlock(TokenKind::kRBrace);
  Expect(TokenKind::kRBrace);
  ExpectKeyword("else");
  Expect(TokenKind::kLBrace);
  ir::Expr else_branch = ParseBlock(TokenKind::kRBrace);
  Expect(TokenKind::kRBrace);
  return WithSpan(ir::MakeIf(std::move(cond), std::move(then_branch), std::move(else_branch)),
                  start);
}

// As TVM's parser: the keyword, then its operands in parentheses.
ir::Expr Parser::ParseReference() {
  const Token keyword = Consume();
  Expect(TokenKind::kLParen);
  ir::Expr first = ParseExpr();
  ir::Expr result;
  if (keyword.IsIdent("ref")) {
    result = ir::MakeRefCreate(std::move(first));
  } else if (keyword.IsIdent("ref_read")) {
    result = ir::MakeRefRead(std::move(first));
  } else {
    Expect(TokenKind::kComma);
    ir::Expr value = ParseExpr();
    result = ir::MakeRefWrite(std::move(first), std::move(value));
  }
  Expect(TokenKind::kRParen);
  return WithSpan(std::move(result), keyword.loc);
}

// `match (data) { pattern => { body }, ... }`; `match?` for a match that need not be complete.
ir::Expr Parser::ParseMatch() {
  Location start = Consume().loc;  // match
  bool complete = !Accept(TokenKind::kQuestion);
  ir::Expr data = ParsePostfix();
  Expect(TokenKind::kLBrace);
  std::vector<ir::Clause> clauses;
  while (Peek().kind != TokenKind::kRBrace) {
    size_t scope = OpenScope();
    ir::Pattern lhs = ParsePattern();
    Expect(TokenKind::kEqual);
    Expect(TokenKind::kGreater);
    ir::Expr rhs;
    if (Accept(TokenKind::kLBrace)) {
      rhs = ParseBlock(TokenKind::kRBrace);
      Expect(TokenKind::kRBrace);
    } else if (AtBindingStatement()) {
      // `Ctor(%x) => %0 = ...; body,`: TVM's ParseExpr takes bindings before a clause's body.
      rhs = ParseBlock(TokenKind::kComma, nullptr, TokenKind::kRBrace);
    } else {
      rhs = ParseExpr();
    }
    CloseScope(scope);
    clauses.push_back(ir::MakeClause(std::move(lhs), std::move(rhs)));
    if (!Accept(TokenKind::kComma)) break;
  }
  Expect(TokenKind::kRBrace);
  return WithSpan(ir::MakeMatch(std::move(data), std::move(clauses), complete), start);
}

// `_`, `%x` (optionally `%x: T`), `Ctor`, `Ctor(p, ...)` or `(p, ...)` (TVM's ParsePattern).
ir::Pattern Parser::ParsePattern() {
  const Token& token = Peek();
  NestingGuard guard(*this, token.loc);
  auto parse_list = [&] {
    Expect(TokenKind::kLParen);
    std::vector<ir::Pattern> patterns;
    while (Peek().kind != TokenKind::kRParen) {
      patterns.push_back(ParsePattern());
      if (!Accept(TokenKind::kComma)) break;
    }
    Expect(TokenKind::kRParen);
    return patterns;
  };
  if (token.IsIdent("_")) {
    Consume();
    return ir::MakePatternWildcard();
  }
  if (token.kind == TokenKind::kLocal) {
    Token name = Consume();
    ir::Type annotation = ParseOptionalAnnotation().value_or(nullptr);
    return ir::MakePatternVar(DeclareLocal(name, std::move(annotation)));
  }
  if (token.kind == TokenKind::kIdent) {
    Token name = Consume();
    auto it = constructors_.find(name.text);
    if (it == constructors_.end()) {
      Fail(name.loc, "undefined constructor name `" + std::string(name.text) +
                         "`, perhaps you intended to write a pattern variable, considering "
                         "changing this to `%" +
                         std::string(name.text) + "`");
    }
    std::vector<ir::Pattern> fields;
    if (Peek().kind == TokenKind::kLParen) fields = parse_list();
    return ir::MakePatternConstructor(it->second, std::move(fields));
  }
  if (token.kind != TokenKind::kLParen) Unexpected(token, "a pattern");
  return ir::MakePatternTuple(parse_list());
}

// An operator name: identifiers joined by dots (`nn.conv2d`), looked up in the registry.
ir::Expr Parser::ParseOperator() {
  Token first = Consume();
  std::string name(first.text);
  while (Peek().kind == TokenKind::kDot && Peek(1).kind == TokenKind::kIdent) {
    Consume();
    name += '.';
    name += Consume().text;
  }
  ir::Op op = ops_.GetOp(name);
  if (!op) Fail(first.loc, ir::UnknownOperatorMessage(name));
  return op;
}

// callee(args..., key=value...): positional arguments first, then attributes.
ir::Expr Parser::ParseCall(ir::Expr callee, const Location& start) {
  Consume();  // '('
  std::vector<ir::Expr> args;
  std::vector<NamedAttr> attrs;
  Location end = Peek().loc;
  if (!Accept(TokenKind::kRParen)) {
    while (true) {
      if (Peek().kind == TokenKind::kIdent && Peek(1).kind == TokenKind::kEqual) {
        attrs.push_back(ParseNamedAttr());
      } else {
        if (!attrs.empty()) Fail(Peek().loc, "positional argument after attributes");
        args.push_back(ParseExpr());
      }
      if (Accept(TokenKind::kComma)) continue;
      end = Peek().loc;
      Expect(TokenKind::kRParen);
      break;
    }
  }
  if (ir::Op op = callee.downcast<ir::OpNode>()) {
    ir::Attrs built = BuildOpAttrs(*op, attrs, start);
    return MakeOpCall(op, std::move(args), std::move(built), start, end);
  }
  if (!attrs.empty()) {
    Fail(attrs.front().name_loc, "attributes are only allowed in operator calls");
  }
  return WithSpan(ir::MakeCall(std::move(callee), std::move(args)), start);
}

// Checks the argument count where the text can point at it; `args_end` is the closing ')'.
ir::Expr Parser::MakeOpCall(const ir::Op& op, std::vector<ir::Expr> args, ir::Attrs attrs,
                            const Location& start, const Location& args_end) {
  int expected = op->def->num_inputs;
  if (expected >= 0 && static_cast<int>(args.size()) != expected) {
    Fail(args.size() < static_cast<size_t>(expected) ? args_end : start,
         op->name + " expects " + std::to_string(expected) + " argument" +
             (expected == 1 ? "" : "s") + ", got " + std::to_string(args.size()));
  }
  return WithSpan(ir::MakeCall(op, std::move(args), std::move(attrs)), start);
}

// Scalar literals become rank-0 constants of the literal's dtype (`2f` float32, `3i64` int64,
// `True` bool).
ir::Expr Parser::ScalarConstant(const Token& literal) {
  using ir::DataType;
  using ir::NDArray;
  NDArray data;
  if (literal.kind == TokenKind::kIdent) {
    data = NDArray::Scalar<uint8_t>(literal.text == "True" ? 1 : 0, DataType::Bool());
  } else if (literal.kind == TokenKind::kFloat) {
    switch (literal.dtype.bits()) {
      case 16:
        data = NDArray::Scalar<uint16_t>(
            support::FloatToHalf(static_cast<float>(literal.float_value)), literal.dtype);
        break;
      case 32:
        data = NDArray::Scalar<float>(static_cast<float>(literal.float_value), literal.dtype);
        break;
      default:
        data = NDArray::Scalar<double>(literal.float_value, literal.dtype);
    }
  } else {
    switch (literal.dtype.bits()) {
      case 8:
        data = NDArray::Scalar<int8_t>(static_cast<int8_t>(literal.int_value), literal.dtype);
        break;
      case 16:
        data = NDArray::Scalar<int16_t>(static_cast<int16_t>(literal.int_value), literal.dtype);
        break;
      case 32:
        data = NDArray::Scalar<int32_t>(static_cast<int32_t>(literal.int_value), literal.dtype);
        break;
      default:
        data = NDArray::Scalar<int64_t>(literal.int_value, literal.dtype);
    }
  }
  return WithSpan(ir::MakeConstant(std::move(data)), literal.loc);
}

}  // namespace relaypass::text
