// Attribute values (`strides=[2, 2]`, `epsilon=1e-05f`, `data_layout="NCHW"`, `units=None`) and
// the attrs objects of operator calls.
#include "parser_impl.h"
#include "relaypass/ir/op_registry.h"

namespace relaypass::text {

// The key is an identifier, dotted identifiers (`relay.reshape_only`, as TVM's parser reads
// function attributes) or a string literal (a key that is neither, as the printer quotes it).
Parser::NamedAttr Parser::ParseNamedAttr() {
  const Location name_loc = Peek().loc;
  std::string name;
  if (Peek().kind == TokenKind::kString) {
    name = Consume().str;
  } else {
    name = Expect(TokenKind::kIdent).text;
    while (Accept(TokenKind::kDot)) {
      name += '.';
      name += Expect(TokenKind::kIdent).text;
    }
  }
  Expect(TokenKind::kEqual);
  Location value_loc = Peek().loc;
  ir::AttrValue value = ParseAttrValue();
  return {std::move(name), std::move(value), name_loc, value_loc};
}

// Literals keep their literal type as TVM's parser gives it (IntImm: int32 unless suffixed or too
// large; FloatImm with its suffix's dtype; True/False as int32 IntImm 1/0; string): function
// attributes keep them so, and converting them to what an op's field holds is the schema's job
// (ir::ConvertAttrValue).
ir::AttrValue Parser::ParseAttrValue() {
  const Token& token = Peek();
  NestingGuard guard(*this, token.loc);
  switch (token.kind) {
    case TokenKind::kInt: {
      Token literal = Consume();
      return ir::AttrValue::Int(literal.int_value, literal.dtype);
    }
    case TokenKind::kFloat: {
      Token literal = Consume();
      return ir::AttrValue::Double(literal.float_value, literal.dtype);
    }
    case TokenKind::kString:
      return ir::AttrValue::Str(Consume().str);
    case TokenKind::kIdent:
      if (token.IsIdent("True") || token.IsIdent("False")) {
        return ir::AttrValue::Int(Consume().text == "True" ? 1 : 0);
      }
      if (token.IsIdent("None") || token.IsIdent("nullptr")) {
        Consume();
        return ir::AttrValue::Null();
      }
      break;
    case TokenKind::kLBracket: {
      Consume();
      std::vector<ir::AttrValue> items;
      while (Peek().kind != TokenKind::kRBracket) {
        items.push_back(ParseAttrValue());
        if (!Accept(TokenKind::kComma)) break;
      }
      Expect(TokenKind::kRBracket);
      return ir::AttrValue::Array(std::move(items));
    }
    case TokenKind::kLParen: {  // (v) is v; (a, b) and (a,) are arrays
      Consume();
      std::vector<ir::AttrValue> items;
      bool comma = false;
      while (Peek().kind != TokenKind::kRParen) {
        items.push_back(ParseAttrValue());
        comma = Accept(TokenKind::kComma);
        if (!comma) break;
      }
      Expect(TokenKind::kRParen);
      if (items.size() == 1 && !comma) return std::move(items.front());
      return ir::AttrValue::Array(std::move(items));
    }
    case TokenKind::kMeta: {
      Token meta = Consume();
      return ir::AttrValue::Device(ResolveMetaVirtualDevice(meta));
    }
    default:
      break;
  }
  Unexpected(token, "an attribute value");
}

ir::VirtualDevice Parser::ParseParamVirtualDevice() {
  Expect(TokenKind::kLBrace);
  NamedAttr attr = ParseNamedAttr();
  if (attr.name != "virtual_device") {
    Fail(attr.name_loc,
         "a parameter takes only the virtual_device attribute, not '" + attr.name + "'");
  }
  if (attr.value.kind() != ir::AttrValue::Kind::kVirtualDevice) {
    Fail(attr.value_loc, "virtual_device must be a meta[VirtualDevice][i] reference");
  }
  Expect(TokenKind::kRBrace);
  return attr.value.as_virtual_device();
}

// The attrs of an op call: every given attribute is checked where it is written, then the
// schema fills defaults (a missing required attribute is reported at the call).
ir::Attrs Parser::BuildOpAttrs(const ir::OpNode& op, const std::vector<NamedAttr>& attrs,
                               const Location& call_loc) {
  const ir::AttrsSchema* schema = op.def->attrs_schema;
  if (!schema) {
    if (!attrs.empty())
      Fail(attrs.front().name_loc, "operator " + op.name + " takes no attributes");
    return nullptr;
  }
  std::vector<std::pair<std::string, ir::AttrValue>> values;
  values.reserve(attrs.size());
  for (const NamedAttr& attr : attrs) {
    int index = schema->FieldIndex(attr.name);
    if (index < 0) {
      std::string valid;
      for (const ir::AttrField& f : schema->fields()) valid += (valid.empty() ? "" : ", ") + f.name;
      Fail(attr.name_loc, "unknown attribute '" + attr.name + "' for " + op.name +
                              " (valid: " + (valid.empty() ? "none" : valid) + ")");
    }
    for (const auto& [name, value] : values) {
      if (name == attr.name) Fail(attr.name_loc, "attribute '" + attr.name + "' given twice");
    }
    try {
      values.emplace_back(attr.name, ir::ConvertAttrValue(schema->fields()[index], attr.value));
    } catch (const TypeError& e) {
      Fail(attr.value_loc, op.name + ": " + e.message());
    }
  }
  try {
    return ir::MakeAttrs(*schema, values);
  } catch (const TypeError& e) {
    Fail(call_loc, op.name + ": " + e.message());
  }
}

}  // namespace relaypass::text
