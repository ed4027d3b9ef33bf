#include "relay_printer.h"

#include "deep_stack.h"

#include <span>

#include "lexer.h"
#include "relaypass/support/error.h"
#include "rope.h"
#include "scalar_text.h"

namespace relaypass::text {

namespace {

using ir::ExprKind;
using ir::ExprNode;

// Nodes that never get a `%N`.
bool AlwaysInline(ExprKind kind) {
  return kind == ExprKind::kVar || kind == ExprKind::kGlobalVar || kind == ExprKind::kConstant ||
         kind == ExprKind::kOp || kind == ExprKind::kConstructor;
}

// Nodes that carry a ` /* ty=... */` comment.
bool ShowsTypeInfo(ExprKind kind) {
  return kind == ExprKind::kConstant || kind == ExprKind::kCall || kind == ExprKind::kVar ||
         kind == ExprKind::kFunction || kind == ExprKind::kTuple || kind == ExprKind::kTupleGetItem;
}

// The deepest nesting of `{ }` printed: the parser's limit (Parser::kMaxNesting).
constexpr int kMaxPrintNesting = 10000;
// Nesting deeper than this is printed on a thread with kDeepPrintStack bytes of stack.
constexpr int kDeepStackNesting = 200;
constexpr size_t kDeepPrintStack = size_t{1} << 30;

// Output size per graph node, to reserve the output once instead of growing it by copies.
constexpr size_t kBytesPerNodeGuess = 48;

bool IsAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Nodes whose inputs Visit walks with its own stack. TVM's printer recurses into the references'
// children; walking them here instead gives the same text (see Visit) at any depth.
bool IsDataflow(ExprKind kind) {
  return kind == ExprKind::kCall || kind == ExprKind::kTuple || kind == ExprKind::kTupleGetItem ||
         kind == ExprKind::kRefCreate || kind == ExprKind::kRefRead || kind == ExprKind::kRefWrite;
}

// Text built at one indentation, moved two columns right (TVM's Doc::Indent(2, ...)).
std::string Indented(const std::string& text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (char c : text) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

}  // namespace

uint32_t RelayPrinter::BuildGraph(const ir::Expr& root) {
  graph_.Build(root);
  states_.resize(graph_.num_ids());
  return graph_.IdOf(root.get());
}

void RelayPrinter::PrintModule(const ir::IRModule& mod, std::string& out) {
  bool first = true;
  // TVM prints the type definitions first, each followed by a newline, blank lines between.
  for (const auto& [var, data] : mod.type_definitions()) {
    if (!first) out += '\n';
    first = false;
    PrintTypeData(data.get(), out);
    out += '\n';
  }
  for (const auto& [gv, fn] : mod.functions()) {
    uint32_t id = BuildGraph(fn);
    out.reserve(out.size() + kBytesPerNodeGuess * graph_.num_ids());
    Rope text(std::move(out));
    if (!first) text += '\n';
    first = false;
    PrintFunction("def @" + gv->name_hint, id, text);
    text += '\n';
    out = std::move(text).Take();
  }
}

void RelayPrinter::PrintRoot(const ir::Expr& expr, std::string& out) {
  if (!expr) {
    out += "(nullptr)";  // what TVM prints for an undefined node
    return;
  }
  uint32_t id = BuildGraph(expr);
  out.reserve(out.size() + kBytesPerNodeGuess * graph_.num_ids());
  Rope text(std::move(out));
  PrintScope(id, text);
  out = std::move(text).Take();
}

void RelayPrinter::Print(uint32_t id, bool try_inline, Rope& out) {
  Visit(id);
  ExprKind kind = graph_.node(id)->kind;
  if (kind == ExprKind::kVar) {
    // The first use of a variable no function or let declared declares it in this scope.
    NodeState& s = states_[id];
    if (!s.bound) {
      s.bound = true;
      auto it = free_var_decls_.find(id);
      if (it != free_var_decls_.end()) AppendLine("free_var " + it->second);
    }
    out.AppendCopy(states_[id].text);
    return;
  }
  NodeState& s = states_[id];
  if (AlwaysInline(kind)) {
    // From now on every use prints the text with its comment.
    PrintOptionalInfo(id, s.text);
    out.AppendCopy(s.text);
    return;
  }
  if (try_inline && graph_.IsUnique(id)) {
    // Its only use: the text (a whole closure, perhaps) moves instead of being copied.
    PrintOptionalInfo(id, s.text);
    out += std::move(s.text);
    return;
  }
  if (s.bound) {
    out.AppendCopy(s.text);
    return;
  }
  Rope text;
  if (kind == ExprKind::kLet) {
    text += "(\n";
    text.append(indent_ + 2, ' ');
    text += Indented(std::move(s.text).Take());
    text += '\n';
    text.append(indent_, ' ');
    text += ')';
  } else {
    text = std::move(s.text);
  }
  PrintOptionalInfo(id, text);
  std::string name = "%" + std::to_string(temp_counter_++);
  s.text = Rope(std::string(name));
  s.bound = true;
  Rope& scope = *scopes_.back();
  scope += name;
  scope += " = ";
  scope += std::move(text);
  scope += ";\n";
  scope.append(indent_, ' ');
  out += name;
}

void RelayPrinter::Visit(uint32_t root) {
  if (states_[root].visited) return;
  // Post-order over dataflow inputs; each frame remembers the next input to look at.
  struct Frame {
    uint32_t id;
    uint32_t next_input;
  };
  std::vector<Frame> stack;
  stack.push_back({root, 0});
  while (!stack.empty()) {
    Frame& top = stack.back();
    const ExprKind kind = graph_.node(top.id)->kind;
    if (IsDataflow(kind)) {
      std::span<const uint32_t> inputs = graph_.inputs(top.id);
      if (kind == ExprKind::kRefWrite && top.next_input == 1) {
        // TVM prints a ref_write's reference (binding its `%N`) before it visits the value.
        Print(inputs[0], false, ref_write_targets_[top.id]);
      }
      if (top.next_input < inputs.size()) {
        uint32_t input = inputs[top.next_input++];
        if (!states_[input].visited) stack.push_back({input, 0});
        continue;
      }
    }
    uint32_t done = top.id;
    stack.pop_back();
    if (!states_[done].visited) VisitLeaf(done);
  }
}

void RelayPrinter::VisitLeaf(uint32_t id) {
  const ExprNode* node = graph_.node(id);
  Rope text;
  switch (node->kind) {
    case ExprKind::kVar: {
      // Reached without a binder: a free variable. Its declaration waits for its first use.
      Rope decl;
      AllocVar(static_cast<const ir::VarNode*>(node), decl);
      free_var_decls_[id] = std::move(decl).Take();
      return;
    }
    case ExprKind::kGlobalVar:
      text += "@" + static_cast<const ir::GlobalVarNode*>(node)->name_hint;
      break;
    case ExprKind::kConstant:
      PrintConstant(static_cast<const ir::ConstantNode*>(node), text);
      break;
    case ExprKind::kOp:
      text += static_cast<const ir::OpNode*>(node)->name;
      break;
    case ExprKind::kCall:
      PrintCall(id, text);
      break;
    case ExprKind::kTuple:
      PrintTuple(id, text);
      break;
    case ExprKind::kTupleGetItem:
      Print(graph_.inputs(id)[0], false, text);
      text += '.';
      text += std::to_string(static_cast<const ir::TupleGetItemNode*>(node)->index);
      break;
    case ExprKind::kFunction:
      PrintFunction("fn ", id, text);
      break;
    case ExprKind::kLet:
      PrintLet(id, text);
      break;
    case ExprKind::kIf:
      PrintIf(id, text);
      break;
    case ExprKind::kRefCreate:
      text += "ref(";
      Print(graph_.inputs(id)[0], false, text);
      text += ')';
      break;
    case ExprKind::kRefRead:
      text += "ref_read(";
      Print(graph_.inputs(id)[0], false, text);
      text += ')';
      break;
    case ExprKind::kRefWrite: {
      auto target = ref_write_targets_.find(id);
      text += "ref_write(";
      text += std::move(target->second);
      ref_write_targets_.erase(target);
      text += ", ";
      Print(graph_.inputs(id)[1], false, text);
      text += ')';
      break;
    }
    case ExprKind::kConstructor:
      text += static_cast<const ir::ConstructorNode*>(node)->name_hint;
      break;
    case ExprKind::kMatch:
      PrintMatch(id, text);
      break;
  }
  NodeState& s = states_[id];
  if (!s.visited) {
    s.text = std::move(text);
    s.visited = true;
  }
}

void RelayPrinter::PrintCall(uint32_t id, Rope& out) {
  // inputs: the callee, then the arguments. Arguments print first, so their temps are bound
  // before a closure callee's.
  std::span<const uint32_t> inputs = graph_.inputs(id);
  Rope args;
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (i > 1) args += ", ";
    Print(inputs[i], false, args);
  }
  PrintCallAttrs(static_cast<const ir::CallNode*>(graph_.node(id)), args);
  Print(inputs[0], false, out);
  // A constructor without inputs is applied without parentheses (`Nil`), as TVM prints it.
  auto* cons = graph_.node(inputs[0])->kind == ExprKind::kConstructor
                   ? static_cast<const ir::ConstructorNode*>(graph_.node(inputs[0]))
                   : nullptr;
  if (cons && cons->inputs.empty()) return;
  out += '(';
  out += std::move(args);
  out += ')';
}

void RelayPrinter::PrintCallAttrs(const ir::CallNode* call, Rope& out) {
  if (!call->attrs) return;
  const ir::AttrsSchema& schema = *call->attrs->schema;
  const std::vector<ir::AttrField>& fields = schema.fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    const ir::AttrValue& value = call->attrs->values[i];
    if (fields[i].has_default && !fields[i].printed_when_default &&
        value == fields[i].default_value) {
      continue;
    }
    if (!out.empty()) out += ", ";
    out += fields[i].name;
    out += '=';
    if (value.kind() == ir::AttrValue::Kind::kVirtualDevice) {
      out += VirtualDeviceText(value.as_virtual_device());
    } else {
      out += value.ToString();
    }
  }
  if (!call->op_node()) {
    // A closure or global call carrying attrs names their type.
    if (!out.empty()) out += ", ";
    out += "attrs_type_key=";
    out += ir::AttrValue::Str(schema.type_key()).ToString();
  }
}

void RelayPrinter::PrintTuple(uint32_t id, Rope& out) {
  std::span<const uint32_t> fields = graph_.inputs(id);
  out += '(';
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ", ";
    Print(fields[i], false, out);
  }
  if (fields.size() == 1) out += ',';
  out += ')';
}

void RelayPrinter::PrintFunction(std::string_view prefix, uint32_t id, Rope& out) {
  auto* fn = static_cast<const ir::FunctionNode*>(graph_.node(id));
  out += prefix;
  if (!fn->type_params.empty()) {
    // TVM prints the type parameters' names only (no kinds): `fn [A, B](...)`.
    out += '[';
    for (size_t i = 0; i < fn->type_params.size(); ++i) {
      if (i) out += ", ";
      out += ir::TypeToString(fn->type_params[i]);
    }
    out += ']';
  }
  out += '(';
  bool first = true;
  for (const ir::Var& param : fn->params) {
    if (!first) out += ", ";
    first = false;
    AllocVar(param.get(), out);
  }
  for (const auto& [key, value] : fn->attrs.entries()) {
    if (!first) out += ", ";
    first = false;
    // TVM prints keys bare; one that would not read back as a key is quoted.
    out += IsBareAttrKey(key) ? key : ir::AttrValue::Str(key).ToString();
    out += '=';
    out += value.ToString();
  }
  if (!ir::IsFullyUnconstrained(fn->virtual_device)) {
    if (!first) out += ", ";
    out += "virtual_device=";
    out += VirtualDeviceText(fn->virtual_device);
  }
  out += ") ";
  if (fn->ret_type) {
    out += "-> ";
    out += ir::TypeToString(fn->ret_type);
    out += ' ';
  }
  PrintBody(graph_.inputs(id)[0], out);
}

void RelayPrinter::PrintLet(uint32_t id, Rope& out) {
  // The first value's bindings go to the enclosing scope; each later value's go right after the
  // previous let line, i.e. just above the let that uses them (as TVM's doc stack does).
  bool pushed = false;
  while (graph_.node(id)->kind == ExprKind::kLet) {
    auto* let = static_cast<const ir::LetNode*>(graph_.node(id));
    std::span<const uint32_t> inputs = graph_.inputs(id);  // value, body
    Rope line;
    line += "let ";
    AllocVar(let->var.get(), line);
    line += " = ";
    Print(inputs[0], true, line);
    line += ";\n";
    line.append(indent_, ' ');
    out += std::move(line);
    if (!pushed) {
      scopes_.push_back(&out);
      pushed = true;
    }
    id = inputs[1];
  }
  PrintScope(id, out);
  scopes_.pop_back();
}

void RelayPrinter::PrintIf(uint32_t id, Rope& out) {
  std::span<const uint32_t> inputs = graph_.inputs(id);  // condition, then, else
  out += "if (";
  Print(inputs[0], false, out);
  out += ") ";
  PrintBody(inputs[1], out);
  out += " else ";
  PrintBody(inputs[2], out);
}

void RelayPrinter::PrintMatch(uint32_t id, Rope& out) {
  auto* match = static_cast<const ir::MatchNode*>(graph_.node(id));
  std::span<const uint32_t> inputs = graph_.inputs(id);  // data, then each clause's rhs
  out += match->complete ? "match (" : "match? (";
  Print(inputs[0], false, out);
  out += ") {";
  indent_ += 2;
  for (size_t i = 0; i < match->clauses.size(); ++i) {
    out += '\n';
    out.append(indent_, ' ');
    PrintPattern(match->clauses[i]->lhs, out);
    out += " => ";
    PrintBody(inputs[1 + i], out);
    out += ',';
  }
  indent_ -= 2;
  out += '\n';
  out.append(indent_, ' ');
  out += '}';
}

// Iterative: patterns can nest as deep as the data they take apart.
void RelayPrinter::PrintPattern(const ir::Pattern& pattern, Rope& out) {
  struct Item {
    const ir::PatternNode* pattern;  // null: append `text`
    const char* text;
  };
  std::vector<Item> stack = {{pattern.get(), nullptr}};
  auto push_list = [&](const std::vector<ir::Pattern>& items) {
    for (size_t i = items.size(); i-- > 0;) {
      stack.push_back({items[i].get(), nullptr});
      if (i) stack.push_back({nullptr, ", "});
    }
  };
  while (!stack.empty()) {
    Item item = stack.back();
    stack.pop_back();
    if (item.text) {
      out += item.text;
      continue;
    }
    const ir::PatternNode* p = item.pattern;
    if (!p) continue;
    switch (p->kind) {
      case ir::PatternKind::kWildcard:
        out += '_';
        break;
      case ir::PatternKind::kVar:
        AllocVar(static_cast<const ir::PatternVarNode*>(p)->var.get(), out);
        break;
      case ir::PatternKind::kConstructor: {
        auto* pc = static_cast<const ir::PatternConstructorNode*>(p);
        out += pc->constructor->name_hint;
        if (!pc->patterns.empty()) {
          out += '(';
          stack.push_back({nullptr, ")"});
          push_list(pc->patterns);
        }
        break;
      }
      case ir::PatternKind::kTuple:
        out += '(';
        stack.push_back({nullptr, ")"});
        push_list(static_cast<const ir::PatternTupleNode*>(p)->patterns);
        break;
    }
  }
}

void RelayPrinter::PrintTypeData(const ir::TypeDataNode* data, std::string& out) {
  out += "type ";
  ir::AppendTypeText(data->header, out);
  if (!data->type_vars.empty()) {
    out += '[';
    for (size_t i = 0; i < data->type_vars.size(); ++i) {
      if (i) out += ", ";
      ir::AppendTypeText(data->type_vars[i], out);
    }
    out += ']';
  }
  // TVM's Doc::Brace: each constructor on its own line, indented two, a trailing comma.
  out += " {";
  for (const ir::Constructor& c : data->constructors) {
    out += "\n  ";
    out += c->name_hint;
    if (!c->inputs.empty()) {
      out += '(';
      for (size_t i = 0; i < c->inputs.size(); ++i) {
        if (i) out += ", ";
        ir::AppendTypeText(c->inputs[i], out);
      }
      out += ')';
    }
    out += ',';
  }
  if (data->constructors.empty()) out += "\n  ";  // the brace's empty indented line
  out += "\n}";
}

std::string RelayPrinter::VirtualDeviceText(const ir::VirtualDevice& vd) {
  return "meta[VirtualDevice][" + std::to_string(meta_.VirtualDeviceIndex(vd)) + "]";
}

void RelayPrinter::PrintConstant(const ir::ConstantNode* c, Rope& out) {
  if (IsSimpleScalar(c->data)) {
    std::string scalar;
    AppendScalarText(c->data, scalar);
    out += scalar;
    return;
  }
  out += "meta[relay.Constant][";
  out += std::to_string(meta_.ConstantIndex(c));
  out += ']';
}

void RelayPrinter::PrintBody(uint32_t body, Rope& out) {
  if (++depth_ > kMaxPrintNesting) {
    throw Error("cannot print the module: its functions and if branches nest more than " +
                std::to_string(kMaxPrintNesting) +
                " levels deep, more than the text parser reads back");
  }
  indent_ += 2;
  out += "{\n";
  out.append(indent_, ' ');
  if (depth_ == kDeepStackNesting && !on_deep_stack_) {
    // The printer recurses once per nesting level: past this depth it continues on a thread
    // with a stack large enough for kMaxPrintNesting levels (as the parser does), whatever the
    // caller's stack and the build's frame sizes (sanitizers make them several times larger).
    on_deep_stack_ = true;
    try {
      RunWithStack(kDeepPrintStack, [&] { PrintScope(body, out); });
    } catch (...) {
      on_deep_stack_ = false;
      throw;
    }
    on_deep_stack_ = false;
  } else {
    PrintScope(body, out);
  }
  indent_ -= 2;
  --depth_;
  out += '\n';
  out.append(indent_, ' ');
  out += '}';
}

void RelayPrinter::PrintScope(uint32_t body, Rope& out) {
  scopes_.push_back(&out);
  Rope result;
  Print(body, true, result);
  scopes_.pop_back();
  out += std::move(result);
}

void RelayPrinter::AppendLine(std::string_view text) {
  Rope& scope = *scopes_.back();
  scope += text;
  scope += ";\n";
  scope.append(indent_, ' ');
}

void RelayPrinter::AllocVar(const ir::VarNode* var, Rope& out) {
  uint32_t id = IdOf(var);
  if (states_[id].visited) {
    // Declared twice: still print, but show the error.
    out.AppendCopy(states_[id].text);
    out += "-malformed-ir";
    return;
  }
  std::string name = var->name_hint;
  if (name.empty() || !IsAsciiAlpha(name[0])) name.insert(0, "v");
  NodeState& s = states_[id];
  std::string unique = GetUniqueName("%" + name);
  out += unique;
  s.text = Rope(std::move(unique));
  s.visited = true;
  if (!ir::IsFullyUnconstrained(var->virtual_device)) {
    out += " {virtual_device=";
    out += VirtualDeviceText(var->virtual_device);
    out += '}';
  }
  if (var->type_annotation) {
    out += ": ";
    out += ir::TypeToString(var->type_annotation);
  }
  PrintOptionalInfo(id, out);
}

std::string RelayPrinter::GetUniqueName(const std::string& prefix) {
  std::string unique = prefix;
  auto it = names_.find(prefix);
  if (it != names_.end()) {
    while (true) {
      std::string candidate = prefix + std::to_string(++it->second);
      if (names_.count(candidate) == 0) {
        unique = std::move(candidate);
        break;
      }
    }
  }
  names_[unique] = 0;
  return unique;
}

void RelayPrinter::PrintOptionalInfo(uint32_t id, Rope& out) {
  const ExprNode* node = graph_.node(id);
  NodeState& s = states_[id];
  if (s.info_printed) return;
  s.info_printed = true;
  if (!ShowsTypeInfo(node->kind)) return;
  // Source spans are kept for diagnostics but not printed (TVM prints `span=FILE:L:C` for
  // parsed modules); this keeps print -> parse -> print byte-stable.
  if (!node->checked_type.defined()) return;
  out += " /* ty=";
  ir::AppendTypeText(node->checked_type, out.tail());
  out += " */";
}

}  // namespace relaypass::text
