#include "token.h"

namespace relaypass::text {

const char* TokenKindSpelling(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kIdent:
      return "identifier";
    case TokenKind::kLocal:
      return "local variable";
    case TokenKind::kGraph:
      return "graph variable";
    case TokenKind::kGlobal:
      return "global";
    case TokenKind::kInt:
      return "integer";
    case TokenKind::kFloat:
      return "float";
    case TokenKind::kString:
      return "string";
    case TokenKind::kMeta:
      return "meta reference";
    case TokenKind::kVersion:
      return "version header";
    case TokenKind::kMetadata:
      return "metadata section";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLBracket:
      return "'['";
    case TokenKind::kRBracket:
      return "']'";
    case TokenKind::kLBrace:
      return "'{'";
    case TokenKind::kRBrace:
      return "'}'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kSemicolon:
      return "';'";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kEqual:
      return "'='";
    case TokenKind::kDot:
      return "'.'";
    case TokenKind::kArrow:
      return "'->'";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kSlash:
      return "'/'";
    case TokenKind::kLess:
      return "'<'";
    case TokenKind::kLessEqual:
      return "'<='";
    case TokenKind::kGreater:
      return "'>'";
    case TokenKind::kGreaterEqual:
      return "'>='";
    case TokenKind::kEqualEqual:
      return "'=='";
    case TokenKind::kNotEqual:
      return "'!='";
  }
  return "token";
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kMetadata:
      return "the metadata section";
    case TokenKind::kVersion:
      return "a version header";
    default: {
      constexpr size_t kMaxShown = 32;
      std::string text(token.text.substr(0, kMaxShown));
      return "'" + text + (token.text.size() > kMaxShown ? "...'" : "'");
    }
  }
}

}  // namespace relaypass::text
