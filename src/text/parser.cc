// Entry points of the Relay text parser: parse (on a large stack), then type inference.
#include "relaypass/text/parser.h"

#include "deep_stack.h"
#include "parser_impl.h"
#include "relaypass/ir/type_infer.h"

namespace relaypass::text {

namespace {

// Enough for Parser::kMaxNesting levels with room to spare even in unoptimised builds; only the
// pages actually touched are committed.
constexpr size_t kParserStack = size_t{256} << 20;

// Type errors from inference point into the text; show the line they point at, as parse errors do.
template <typename F>
auto InferWithSnippets(const Parser& parser, F&& infer) {
  try {
    return infer();
  } catch (const TypeError& e) {
    std::string message = parser.source().WithSnippet(e.message(), e.span());
    if (message == e.message()) throw;
    throw TypeError(message, e.span());
  }
}

}  // namespace

ir::IRModule ParseModule(const std::string& text, const ParseOptions& options) {
  Parser parser(text, options);
  ir::IRModule mod;
  RunWithStack(kParserStack, [&] { mod = parser.ParseModule(); });
  // Inference runs on the caller's thread, which may carry thread-local context.
  if (!options.infer_types) return mod;
  return InferWithSnippets(parser, [&] { return ir::InferTypes(mod); });
}

ir::Expr ParseExpr(const std::string& text, const ParseOptions& options) {
  Parser parser(text, options);
  ir::Expr expr;
  RunWithStack(kParserStack, [&] { expr = parser.ParseStandaloneExpr(); });
  if (!options.infer_types) return expr;
  return InferWithSnippets(parser, [&] { return ir::InferExprTypes(expr); });
}

}  // namespace relaypass::text
