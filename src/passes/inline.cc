#include "relaypass/passes/inline.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

// TVM's CallGraph: for each global function, the globals it references (each distinct one once,
// in order of first use) and how many functions reference it.
struct CallGraph {
  std::map<std::string, std::vector<std::string>> callees;
  std::map<std::string, int> ref_count;

  explicit CallGraph(const ir::IRModule& mod) {
    for (const auto& [gv, func] : mod.functions()) {
      std::vector<std::string>& list = callees[gv->name_hint];
      ref_count.emplace(gv->name_hint, 0);
      std::set<std::string> seen;
      ir::post_order_visit(func, [&](const Expr& e) {
        if (auto* g = e.as<ir::GlobalVarNode>()) {
          if (mod.Contains(g->name_hint) && seen.insert(g->name_hint).second) {
            list.push_back(g->name_hint);
          }
        }
      });
    }
    for (const auto& [name, list] : callees) {
      for (const std::string& callee : list) ++ref_count[callee];
    }
  }

  bool IsRecursive(const std::string& name) const {
    const auto& list = callees.at(name);
    return std::find(list.begin(), list.end(), name) != list.end();
  }

  // One reference from `caller` to `callee` is gone.
  void RemoveCallTo(const std::string& caller, const std::string& callee) {
    auto& list = callees[caller];
    auto it = std::find(list.begin(), list.end(), callee);
    if (it == list.end()) return;
    list.erase(it);
    --ref_count[callee];
  }

  // Breadth-first from each entry (ref count 0), callers before callees; then the rest.
  std::vector<std::string> TopologicalOrder() const {
    std::vector<std::string> order;
    std::set<std::string> visited;
    auto bfs = [&](const std::string& start) {
      if (!visited.insert(start).second) return;
      std::vector<std::string> current{start};
      while (!current.empty()) {
        std::vector<std::string> next;
        for (const std::string& node : current) {
          order.push_back(node);
          for (const std::string& callee : callees.at(node)) {
            if (visited.insert(callee).second) next.push_back(callee);
          }
        }
        current = std::move(next);
      }
    };
    for (const auto& [name, count] : ref_count) {
      if (count == 0) bfs(name);
    }
    for (const auto& [name, list] : callees) bfs(name);
    return order;
  }
};

bool HasAttr(const ir::Function& f, const char* key) {
  const ir::AttrValue* v = f->attrs.find(key);
  return v != nullptr && !v->is_null();
}

class Inliner : public ir::ExprMutator {
 public:
  Inliner(std::string caller, CallGraph& graph, const ir::IRModule& mod)
      : caller_(std::move(caller)), graph_(graph), mod_(mod) {}

 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* g = pre->op.as<ir::GlobalVarNode>();
    if (g == nullptr || !CanInline(g->name_hint)) return post;
    graph_.RemoveCallTo(caller_, g->name_hint);
    ir::Function fn = mod_.Lookup(g->name_hint);
    auto* call = post.as<ir::CallNode>();
    if (HasAttr(fn, "Compiler") || HasAttr(fn, "Extern")) {
      return ir::MakeCall(Copy(fn), call->args, call->attrs);
    }
    std::unordered_map<const ir::VarNode*, Expr> bindings;
    for (size_t i = 0; i < fn->params.size() && i < call->args.size(); ++i) {
      bindings.emplace(fn->params[i].get(), call->args[i]);
    }
    return ir::Bind(fn->body, bindings);
  }

  Expr RewriteGlobalVar(const ir::GlobalVarNode* pre, const Expr& post) override {
    if (!CanInline(pre->name_hint)) return post;
    // Outside call position a global function is replaced by (a copy of) the function; in call
    // position RewriteCall ignores this rewritten callee.
    graph_.RemoveCallTo(caller_, pre->name_hint);
    return Copy(mod_.Lookup(pre->name_hint));
  }

 private:
  // TVM: the function itself is shared but its body is not; a new function node.
  static Expr Copy(const ir::Function& fn) {
    return ir::MakeFunction(fn->params, fn->body, fn->ret_type, fn->attrs, fn->type_params);
  }

  bool CanInline(const std::string& name) const {
    if (!mod_.Contains(name)) return false;
    if (!graph_.callees.at(name).empty() || graph_.IsRecursive(name)) return false;
    ir::Function fn = mod_.Lookup(name);
    if (!fn->body) return false;
    return fn->attrs.GetInt("Inline", 0) != 0 || HasAttr(fn, "Extern");
  }

  std::string caller_;
  CallGraph& graph_;
  const ir::IRModule& mod_;
};

ir::IRModule InlineModule(const ir::IRModule& mod) {
  CallGraph graph(mod);
  std::vector<std::string> order = graph.TopologicalOrder();
  std::reverse(order.begin(), order.end());
  std::set<std::string> entries;
  ir::IRModule out = mod;
  for (const std::string& name : order) {
    if (graph.ref_count[name] == 0) entries.insert(name);
    const auto& list = graph.callees[name];
    if (list.empty() || (graph.IsRecursive(name) && list.size() == 1)) continue;
    ir::Function func = out.Lookup(name);
    Expr body = Inliner(name, graph, out).Mutate(func->body);
    if (body.same_as(func->body)) continue;
    ir::Function updated =
        ir::MakeFunction(func->params, body, func->ret_type, func->attrs, func->type_params);
    const_cast<ir::FunctionNode*>(updated.get())->checked_type = func->checked_type;  // fresh
    out.Add(name, updated);
  }
  for (const std::string& name : order) {
    if (graph.IsRecursive(name) || entries.count(name)) continue;
    ir::Function fn = out.Lookup(name);
    if (fn->attrs.GetInt("Inline", 0) != 0 && graph.ref_count[name] == 0) out.Remove(name);
  }
  return out;
}

}  // namespace

transform::Pass Inline() {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) { return InlineModule(mod); }, 1,
      "Inline");
}

void RegisterInline(transform::PassRegistry& registry) {
  registry.Register({"Inline",
                     {},
                     [](const transform::PassOptions&) { return Inline(); },
                     "inlines global functions marked Inline=1 into their callers"});
}

}  // namespace relaypass::passes
