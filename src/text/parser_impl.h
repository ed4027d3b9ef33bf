// The recursive-descent parser behind text::ParseModule / text::ParseExpr. It is split by topic:
// parser_impl.cc (token stream, scopes, errors), parse_module.cc (headers, `def`, functions),
// parse_expr.cc (blocks, expressions, calls), parse_type.cc, parse_attrs.cc (attribute values,
// op attrs), parse_meta.cc (`meta[relay.Constant][i]`).
//
// Recursion happens only on nesting written in the text (parentheses, calls in calls, closures,
// types); it is capped at kMaxNesting. Sequences (bindings, lets, call chains, infix chains) are
// loops, so a flat million-binding function parses in linear time with constant stack.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lexer.h"
#include "relaypass/ir/module.h"
#include "relaypass/text/parser.h"
#include "source.h"

namespace relaypass::ir {
class OpRegistry;
}

namespace relaypass::text {

// Identifiers TVM's parser reads as dtypes in a type (`int32`, `float16`, `uint8`, `bool`, ...);
// any other identifier there is a type variable or an ADT.
inline bool IsDtypeName(std::string_view word) {
  return word.starts_with("int") || word.starts_with("uint") || word.starts_with("float") ||
         word.starts_with("bfloat") || word.starts_with("bool");
}

class Parser {
 public:
  // Levels of nesting allowed inside the outermost expression or type (parentheses, brackets,
  // calls, closures); deeper is a ParseError ("nesting too deep") instead of a stack overflow.
  static constexpr int kMaxNesting = 10000;

  Parser(std::string_view text, const ParseOptions& options);

  // A whole file: optional header, `def`s, optional metadata.
  ir::IRModule ParseModule();
  // One expression, possibly preceded by bindings (`free_var`, `%N = ...;`), as printed for a
  // standalone expression.
  ir::Expr ParseStandaloneExpr();

  const Source& source() const { return source_; }

 private:
  // ---- token stream (parser_impl.cc) ----
  const Token& Peek(size_t ahead = 0);
  Token Consume();
  bool Accept(TokenKind kind);
  Token Expect(TokenKind kind);
  void ExpectKeyword(std::string_view word);
  bool PeekKeyword(std::string_view word, size_t ahead = 0) { return Peek(ahead).IsIdent(word); }
  [[noreturn]] void Fail(const Location& loc, const std::string& message) const;
  // "expected WHAT but found TOKEN" at the token.
  [[noreturn]] void Unexpected(const Token& found, const std::string& what) const;

  // Counts nesting levels for the lifetime of one recursive parse function.
  class NestingGuard {
   public:
    NestingGuard(Parser& parser, const Location& loc);
    ~NestingGuard() { --parser_.depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    Parser& parser_;
  };

  template <typename T>
  T WithSpan(T node, const Location& loc) const {
    // Only fresh nodes, not yet shared, are given a span.
    const_cast<ir::ExprNode*>(static_cast<const ir::ExprNode*>(node.get()))->span =
        source_.SpanAt(loc);
    return node;
  }

  // ---- scopes (parser_impl.cc) ----
  // Local variables live in one table of shadowing stacks plus an undo log, so opening and
  // closing a scope costs only the names it declared.
  size_t OpenScope() const { return scope_log_.size(); }
  void CloseScope(size_t mark);
  ir::Var DeclareLocal(const Token& name, ir::Type annotation);
  ir::Expr LookupLocal(const Token& name);
  ir::Expr LookupGraph(const Token& name);
  void BindGraph(const Token& name, ir::Expr value);
  ir::GlobalVar LookupGlobal(const Token& name);
  void CheckGlobalsDefined() const;
  // Fails at the first mention of an ADT name that no `type` definition of the text or of the
  // init module defines (module parses only: an expression may name a type of a module it is
  // later used with).
  void CheckTypeNamesDefined() const;

  // ---- module, functions (parse_module.cc) ----
  void ParseHeader();
  void ParseDefinition(ir::IRModule& mod);
  // `type Name[A, ...] { Ctor(T, ...), ... }` (TVM's ParseTypeDef).
  ir::TypeData ParseTypeDefinition();
  // `[A, B]` after `fn` / `def @f`: type variables of kind Type, bound in the current type scope.
  std::vector<ir::Type> ParseTypeParams();
  // After `fn` or `def @name`: `(params, attrs) -> T { body }`.
  ir::Function ParseFunction(const Location& start);
  void ParseMetadataSection(const Token& section);

  // ---- expressions (parse_expr.cc) ----
  // Statements then a result expression, up to (not including) `terminator`. `first`, if
  // given, is an expression statement already parsed (as in `(e1; e2)`).
  /// Bindings then an expression, ending before `terminator` (or `also_ends`, when given: a
  /// match clause's body ends before `,` or `}`).
  ir::Expr ParseBlock(TokenKind terminator, ir::Expr first = nullptr,
                      std::optional<TokenKind> also_ends = std::nullopt);
  bool AtBindingStatement();
  ir::Expr ParseExpr();
  ir::Expr ParseBinary(int min_precedence);
  ir::Expr ParsePostfix();
  ir::Expr ParsePrimary();
  ir::Expr ParseParenthesized();
  ir::Expr ParseIf();
  ir::Expr ParseReference();  // ref(e), ref_read(e), ref_write(e, e)
  ir::Expr ParseMatch();      // match (e) { pattern => e, ... } and match? (...)
  ir::Pattern ParsePattern();
  ir::Expr ParseOperator();
  ir::Expr ParseCall(ir::Expr callee, const Location& start);
  ir::Expr MakeOpCall(const ir::Op& op, std::vector<ir::Expr> args, ir::Attrs attrs,
                      const Location& start, const Location& args_end);
  ir::Expr ScalarConstant(const Token& literal);

  // ---- types (parse_type.cc) ----
  ir::Type ParseType();
  ir::Type ParseTensorType();
  ir::Type ParseTupleType();
  ir::Type ParseFuncType();
  ir::Type ParseRefType();
  // A type variable in scope, or an ADT's name (`List[A]`, `nat`: a TypeCall, as TVM's).
  ir::Type ParseNamedType();
  ir::Type GlobalTypeVarNamed(std::string_view name);
  std::optional<ir::Type> ParseOptionalAnnotation();  // `: T`

  // ---- attributes (parse_attrs.cc) ----
  struct NamedAttr {
    std::string name;
    ir::AttrValue value;
    Location name_loc;
    Location value_loc;
  };
  NamedAttr ParseNamedAttr();  // key=value
  ir::AttrValue ParseAttrValue();
  ir::Attrs BuildOpAttrs(const ir::OpNode& op, const std::vector<NamedAttr>& attrs,
                         const Location& call_loc);

  // ---- meta references (parse_meta.cc) ----
  ir::Expr ResolveMeta(const Token& meta);
  // `meta[VirtualDevice][i]`: from the #[metadata] section, else ParseOptions::virtual_devices.
  ir::VirtualDevice ResolveMetaVirtualDevice(const Token& meta);
  // `{virtual_device=meta[VirtualDevice][i]}` after a parameter's name (TVM's parser).
  ir::VirtualDevice ParseParamVirtualDevice();
  // Finds and reads the #[metadata] section ahead of the current position, once.
  void LoadMetadataAhead();
  ir::Constant ZeroConstantFromComment(const Token& meta);
  ir::Type ParseTypeComment(std::string_view text, const Location& at);

  const ParseOptions& options_;
  Source source_;
  Lexer main_lexer_;
  Lexer* lexer_;  // main_lexer_, or a fragment lexer while reading a `/* ty=... */` type
  // Lookahead window: tokens [head_, head_ + count_) of a small ring.
  std::array<Token, 4> ring_;
  size_t head_ = 0;
  size_t count_ = 0;
  int depth_ = 0;
  const ir::OpRegistry& ops_;

  std::unordered_map<std::string_view, std::vector<ir::Var>> locals_;
  std::vector<std::string_view> scope_log_;
  // Every local declared so far, numbered in declaration order (so the locals in scope at any
  // point have increasing numbers from the outermost in), and whether it is still in scope.
  std::vector<int64_t> scope_numbers_;  // parallel to scope_log_
  std::vector<ir::Var> declared_;       // held: a local nothing uses must not be freed mid-parse
  std::unordered_map<const ir::VarNode*, int64_t> local_number_;  // declared_ inverted, lazily
  std::vector<bool> in_scope_;
  // Let variables whose value is being parsed, with their first use in it (line 0: none yet).
  std::unordered_map<const ir::VarNode*, Location> defining_;

  // %N bindings, global to the parse. Printed numbers are dense (0, 1, 2, ...), so they live in
  // a vector indexed by N; an N far beyond the count of bindings goes to a map instead, so that
  // `%99999999 = ...` cannot make the vector huge.
  //
  // A binding is visible after it in the whole parse, as in TVM's parser, but its value may be
  // used only where the variables it uses are in scope: a `%N` made inside a closure, a let body
  // or an if branch may be used after it only if it does not depend on what that scope declared
  // (TVM rejects the module such a use makes: a function with free variables).
  struct GraphBinding {
    ir::Expr value;  // null: unbound
    Location loc;
    int64_t scope_top = -1;  // the innermost local in scope at the binding (-1: none)
    int64_t needs = -2;      // the innermost local value uses (-1: none; -2: not computed yet)
  };
  // Fails if `binding`, used at `use`, depends on a local that is no longer in scope.
  void CheckGraphScope(GraphBinding& binding, const Token& use);
  GraphBinding* FindGraph(int64_t n);
  std::vector<GraphBinding> graph_dense_;
  std::unordered_map<int64_t, GraphBinding> graph_sparse_;
  size_t graph_count_ = 0;

  struct GlobalEntry {
    ir::GlobalVar var;
    Location first_use;
    bool defined = false;
    bool from_init = false;  // a function of ParseOptions::init_module (the text may replace it)
  };
  std::map<std::string, GlobalEntry, std::less<>> globals_;

  // ADTs: their names (GlobalTypeVars, made at first mention as TVM's), their constructors, and
  // the type variables in scope (innermost last).
  std::map<std::string, ir::Type, std::less<>> type_names_;
  std::map<std::string, Location, std::less<>> type_first_use_;  // ADT names used in types
  std::set<std::string, std::less<>> types_defined_;             // ... and those defined
  std::map<std::string, ir::Constructor, std::less<>> constructors_;
  std::vector<std::pair<std::string, ir::Type>> type_scope_;

  // Metadata: searched for once, on the first meta reference (the section ends the file).
  bool metadata_searched_ = false;
  bool has_metadata_ = false;
  std::vector<ir::Constant> metadata_;
  std::vector<ir::VirtualDevice> metadata_virtual_devices_;
  std::unordered_map<int64_t, ir::Constant> meta_constants_;  // index -> the one node
};

}  // namespace relaypass::text
