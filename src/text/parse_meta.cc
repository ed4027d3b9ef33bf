// `meta[relay.Constant][i]`: constants from the #[metadata] section, else from
// ParseOptions::constants, else zeros of the type in a following `/* ty=... */` comment.
#include <iostream>
#include <limits>

#include "meta_table.h"
#include "parser_impl.h"

namespace relaypass::text {

namespace {

constexpr const char* kConstantKey = "relay.Constant";
constexpr const char* kVirtualDeviceKey = "VirtualDevice";
// Zero constants larger than this are refused rather than allocated.
constexpr int64_t kMaxZeroBytes = int64_t{1} << 30;

std::string MetaName(const Token& meta) {
  return "meta[" + meta.str + "][" + std::to_string(meta.int_value) + "]";
}

}  // namespace

ir::VirtualDevice Parser::ResolveMetaVirtualDevice(const Token& meta) {
  if (meta.str != kVirtualDeviceKey) {
    Fail(meta.loc, "unsupported meta reference " + MetaName(meta) +
                       " as an attribute value (only " + kVirtualDeviceKey + " is supported)");
  }
  LoadMetadataAhead();
  const bool from_section = has_metadata_ && !metadata_virtual_devices_.empty();
  const std::vector<ir::VirtualDevice>& table =
      from_section ? metadata_virtual_devices_ : options_.virtual_devices;
  if (meta.int_value < 0 || meta.int_value >= static_cast<int64_t>(table.size())) {
    Fail(meta.loc, MetaName(meta) + " is out of range: " +
                       (from_section ? "the metadata section" : "the meta table") + " has " +
                       std::to_string(table.size()) + " VirtualDevice" +
                       (table.size() == 1 ? "" : "s"));
  }
  return table[meta.int_value];
}

ir::Expr Parser::ResolveMeta(const Token& meta) {
  if (meta.str != kConstantKey) {
    Fail(meta.loc, "unsupported meta reference " + MetaName(meta) + " (only " + kConstantKey +
                       " is supported)");
  }
  // The same index is the same node, so sharing survives a print/parse round trip.
  auto it = meta_constants_.find(meta.int_value);
  if (it != meta_constants_.end()) return it->second;

  LoadMetadataAhead();
  const std::vector<ir::Constant>* table = nullptr;
  std::string table_name;
  if (has_metadata_) {
    table = &metadata_;
    table_name = "the metadata section";
  } else if (!options_.constants.empty()) {
    table = &options_.constants;
    table_name = "ParseOptions::constants";
  }
  ir::Constant constant;
  if (table) {
    if (meta.int_value >= static_cast<int64_t>(table->size())) {
      Fail(meta.loc, MetaName(meta) + " is out of range: " + table_name + " has " +
                         std::to_string(table->size()) + " constant" +
                         (table->size() == 1 ? "" : "s"));
    }
    constant = (*table)[meta.int_value];
    // Constants read from this file's metadata are fresh nodes and get the place of their first
    // use; constants given by the caller are not ours to modify.
    if (has_metadata_ && !constant->span.defined()) constant = WithSpan(constant, meta.loc);
  } else {
    constant = ZeroConstantFromComment(meta);
  }
  meta_constants_.emplace(meta.int_value, constant);
  return constant;
}

// The section ends the file but references come first, so it is looked up ahead once, with a
// second lexer. Lexical errors on the way are left for the main parse to report in order.
void Parser::LoadMetadataAhead() {
  if (metadata_searched_) return;
  metadata_searched_ = true;
  std::optional<Token> section;
  try {
    Lexer scan(source_, Peek().loc, source_.text().size());
    for (Token token = scan.Next(); token.kind != TokenKind::kEnd; token = scan.Next()) {
      if (token.kind == TokenKind::kMetadata) {
        section = std::move(token);
        break;
      }
    }
  } catch (const ParseError&) {
    return;
  }
  if (section) ParseMetadataSection(*section);
}

// The type text of a comment is read with a lexer over just that text, so that errors point into
// it; the main token stream is set aside meanwhile.
ir::Type Parser::ParseTypeComment(std::string_view text, const Location& at) {
  Lexer fragment(source_, at, at.offset + text.size());
  Lexer* saved_lexer = std::exchange(lexer_, &fragment);
  std::array<Token, 4> saved_ring = std::move(ring_);
  size_t saved_head = std::exchange(head_, 0);
  size_t saved_count = std::exchange(count_, 0);
  // On an error the parse is over, so the stream need not be restored.
  ir::Type type = ParseType();
  if (Peek().kind != TokenKind::kEnd) Unexpected(Peek(), "the end of the type");
  lexer_ = saved_lexer;
  ring_ = std::move(saved_ring);
  head_ = saved_head;
  count_ = saved_count;
  return type;
}

ir::Constant Parser::ZeroConstantFromComment(const Token& meta) {
  if (meta.type_comment.empty()) {
    Fail(meta.loc, "no metadata for " + MetaName(meta) +
                       ": the text has no #[metadata] section, no constants were given in "
                       "ParseOptions, and no /* ty=... */ comment gives its type");
  }
  ir::Type type = ParseTypeComment(meta.type_comment, meta.type_comment_loc);
  auto* tensor = type.as<ir::TensorTypeNode>();
  if (!tensor || !tensor->is_static()) {
    Fail(meta.type_comment_loc, "no metadata for " + MetaName(meta) + ", and its type " +
                                    ir::TypeToString(type) +
                                    " is not a static tensor type to fill with zeros");
  }
  int64_t bytes = tensor->dtype.bytes();
  for (ir::Dim d : tensor->shape) {
    if (d != 0 && bytes > kMaxZeroBytes / d) {
      Fail(meta.type_comment_loc, "no metadata for " + MetaName(meta) + ", and " +
                                      ir::TypeToString(type) + " is too large to fill with zeros");
    }
    bytes *= d;
  }
  std::cerr << "warning: " << source_.SpanAt(meta.loc).ToString() << ": no metadata for "
            << MetaName(meta) << "; using zeros of type " << ir::TypeToString(type) << "\n";
  return WithSpan(ir::MakeConstant(ir::NDArray::Empty(tensor->shape, tensor->dtype)), meta.loc);
}

}  // namespace relaypass::text
