// The Relay text printer proper: TVM v0.13's RelayTextPrinter, numbering and all
// (relay_semantics.md 1.2-1.7). printer.cc adds the header and the metadata footer.
//
// One printer object prints one module or one expression; its state (temp counter, name table,
// memo, meta table) is shared by all functions of the module, as in TVM.
//
// Dataflow nodes (calls, tuples, get-items) are visited with an explicit stack, so a graph of any
// depth prints in constant native stack. Functions, lets and ifs print their bodies when they are
// visited, which recurses only on their nesting depth; let chains are printed with a loop.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dependency_graph.h"
#include "meta_table.h"
#include "relaypass/ir/module.h"
#include "rope.h"

namespace relaypass::text {

class RelayPrinter {
 public:
  RelayPrinter() = default;
  RelayPrinter(const RelayPrinter&) = delete;
  RelayPrinter& operator=(const RelayPrinter&) = delete;

  // Appends every function as `def @name(...) {...}\n`, sorted by name, with a blank line between
  // functions.
  void PrintModule(const ir::IRModule& mod, std::string& out);
  // Appends a standalone expression, printed as the result of a top-level scope (its bindings on
  // lines above it, no trailing newline).
  void PrintRoot(const ir::Expr& expr, std::string& out);

  const MetaTable& meta() const { return meta_; }

 private:
  struct NodeState {
    // What a use of the node prints: its `%N` once bound, its name for a variable, else its text
    // (including its type comment once printed inline).
    Rope text;
    bool visited = false;       // `text` is set (TVM: the node is in memo_)
    bool bound = false;         // bound to `%N`, or declared if a variable (TVM: var_memo_)
    bool info_printed = false;  // its type comment was considered (TVM: opt_info_memo_)
  };

  // Nodes are referred to by their graph ids; `id` is always a node of the current graph
  // (except variables, which AllocVar may meet first as unused parameters).

  // TVM's PrintExpr: appends how the node prints at this use. Non-inline nodes are bound to a
  // new `%N` line in the current scope on first use. try_inline is set only for the result of a
  // scope and for let-bound values.
  void Print(uint32_t id, bool try_inline, Rope& out);
  // Makes sure the node and its dataflow inputs have their text (TVM's ExpandDataflow).
  void Visit(uint32_t id);
  // Computes the text of one node whose dataflow inputs are all visited.
  void VisitLeaf(uint32_t id);

  void PrintCall(uint32_t id, Rope& out);
  void PrintCallAttrs(const ir::CallNode* call, Rope& out);
  void PrintTuple(uint32_t id, Rope& out);
  void PrintFunction(std::string_view prefix, uint32_t id, Rope& out);
  void PrintLet(uint32_t id, Rope& out);
  void PrintIf(uint32_t id, Rope& out);
  void PrintMatch(uint32_t id, Rope& out);
  void PrintPattern(const ir::Pattern& pattern, Rope& out);
  // `type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}` (TVM's TypeData text).
  void PrintTypeData(const ir::TypeDataNode* data, std::string& out);
  // `meta[VirtualDevice][i]`, the device added to the meta table (TVM prints it so).
  std::string VirtualDeviceText(const ir::VirtualDevice& vd);
  void PrintConstant(const ir::ConstantNode* c, Rope& out);

  // `{` + the scope of `body` indented one level deeper + `}`.
  void PrintBody(uint32_t body, Rope& out);
  // Appends the bindings made while printing `body` as a scope result, then that result.
  void PrintScope(uint32_t body, Rope& out);
  // Appends `text;` as a line of the current scope.
  void AppendLine(std::string_view text);

  // Gives a variable its unique name; appends its declaration (`%x: T /* ty=T */`).
  void AllocVar(const ir::VarNode* var, Rope& out);
  std::string GetUniqueName(const std::string& prefix);
  // Appends ` /* ty=T */` the first time it is asked for a typed node of a kind that shows it.
  void PrintOptionalInfo(uint32_t id, Rope& out);

  // Builds the graph of a function or root expression; returns the root's id.
  uint32_t BuildGraph(const ir::Expr& root);
  uint32_t IdOf(const ir::ExprNode* node) {
    uint32_t id = graph_.IdOf(node);
    if (id >= states_.size()) states_.resize(graph_.num_ids());
    return id;
  }

  DependencyGraph graph_;
  std::vector<NodeState> states_;
  // Declarations of free variables (`%x: T`), printed as `free_var` lines at their first use.
  std::unordered_map<uint32_t, std::string> free_var_decls_;
  // A ref_write's reference, printed (TVM's order) before its value is visited; by node id.
  std::unordered_map<uint32_t, Rope> ref_write_targets_;
  std::unordered_map<std::string, int> names_;
  MetaTable meta_;
  int temp_counter_ = 0;
  // Open `{ }` scopes (function bodies, if branches). The printer recurses once per level and
  // copies each level's text into the one around it, so nesting is capped at what the parser
  // reads back (Parser::kMaxNesting): deeper is a relaypass::Error, not a stack overflow.
  int depth_ = 0;
  bool on_deep_stack_ = false;  // printing the rest of a deep nest on a large stack
  // Where each open scope's binding lines go, innermost last: the text being built around that
  // scope, which nothing else appends to until the scope closes. Each line ends with a newline
  // and the scope's indentation.
  std::vector<Rope*> scopes_;
  int indent_ = 0;
};

}  // namespace relaypass::text
