// PartitionGraph (TVM v0.13, src/relay/transforms/partition_graph.cc): removes the "default"
// annotations, then turns each annotated region into a global function and calls it where the
// region was. A region's inputs (its compiler_begin calls) become parameters named
// `<target>_<region id>_i<input index>` (one per distinct producer), its outputs the function's
// result (a tuple when there are several; each compiler_end becomes a get-item of the call).
// The function gets global_symbol, Primitive=1, Compiler, Inline=1 and the name
// `tvmgen_<mod_name>_<target>_<function>_<region id>` (TVM's name, after its NameMangleExtFuncs).
// Constant inputs are bound into the function when bind_constants is set.
//
// The rewrite walks the graph with an explicit stack. An end depends on its argument and on the
// arguments of every other end of its region, so a region's function is built once all of its
// outputs are rewritten, in the order TVM's recursive visit reaches them.
#include <map>
#include <unordered_map>

#include "annotated_regions.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

using Id = ir::PostOrderIndex::Id;

class RemoveDefault : public ir::ExprMutator {
 protected:
  ir::Expr RewriteCall(const ir::CallNode*, const ir::Expr& post) override {
    const std::string* begin = CompilerBeginTarget(post);
    const std::string* end = CompilerEndTarget(post);
    if ((begin && *begin == "default") || (end && *end == "default")) {
      return post.as<ir::CallNode>()->args[0];
    }
    return post;
  }
};

class Partitioner {
 public:
  Partitioner(ir::IRModule& mod, std::string prefix, std::string func_name, bool bind_constants)
      : mod_(mod),
        prefix_(std::move(prefix)),
        func_name_(std::move(func_name)),
        bind_constants_(bind_constants) {}

  ir::Function Run(const ir::Function& func) {
    regions_ = byoc::AnnotatedRegionSet::Create(func);
    if (regions_.ids().empty()) return func;
    const Id root = index_.Add(func);
    results_.assign(index_.size(), nullptr);
    std::vector<uint8_t> state(index_.size(), 0);  // 0 new, 1 expanded, 2 done
    std::vector<Id> stack{root};
    while (!stack.empty()) {
      const Id id = stack.back();
      if (state[id] == 2) {
        stack.pop_back();
      } else if (state[id] == 0) {
        state[id] = 1;
        std::vector<Id> deps = Dependencies(id);
        for (auto it = deps.rbegin(); it != deps.rend(); ++it) {
          if (*it != ir::PostOrderIndex::kNone && state[*it] != 2) stack.push_back(*it);
        }
      } else {
        results_[id] = Compute(id);
        state[id] = 2;
        stack.pop_back();
      }
    }
    return results_[root].downcast<ir::FunctionNode>();
  }

 private:
  struct RegionState {
    std::vector<std::pair<ir::Var, ir::Expr>> args;               // param, what it stands for
    std::unordered_map<const ir::ExprNode*, ir::Var> input_of;    // producer -> param
    std::unordered_map<const ir::ExprNode*, ir::Expr> output_of;  // end argument -> result
    std::unordered_map<const ir::ExprNode*, size_t> input_index;  // begin -> its index
    bool created = false;
  };

  std::vector<Id> Dependencies(Id id) {
    auto children = index_.children(id);
    std::vector<Id> deps(children.begin(), children.end());
    const ir::Expr e(index_.node(id));
    if (CompilerEndTarget(e)) {
      const int region = regions_.RegionOf(e.get());
      if (region >= 0) {
        for (const ir::Expr& out : regions_.Outs(region)) {
          deps.push_back(index_.find(out.as<ir::CallNode>()->args[0].get()));
        }
      }
    }
    return deps;
  }

  ir::Expr Compute(Id id) {
    const ir::Expr e(index_.node(id));
    if (const std::string* target = CompilerBeginTarget(e)) return Begin(id, e, *target);
    if (CompilerEndTarget(e)) return End(e);
    return ir::RebuildOnChildren(e, index_.children(id), results_);
  }

  ir::Expr Begin(Id id, const ir::Expr& begin, const std::string& target) {
    const int region = regions_.RegionOf(begin.get());
    RegionState& rs = state_[region];
    // The first producer above the annotations.
    ir::Expr parent = begin.as<ir::CallNode>()->args[0];
    while (CompilerBeginTarget(parent) || CompilerEndTarget(parent)) {
      parent = parent.as<ir::CallNode>()->args[0];
    }
    auto found = rs.input_of.find(parent.get());
    if (found != rs.input_of.end()) return found->second;
    if (rs.input_index.empty()) {
      const std::vector<ir::Expr> ins = regions_.Ins(region);
      for (size_t i = 0; i < ins.size(); ++i) rs.input_index.emplace(ins[i].get(), i);
    }
    const size_t index = rs.input_index.at(begin.get());
    ir::Var var = ir::MakeVar(target + "_" + std::to_string(region) + "_i" + std::to_string(index),
                              begin->checked_type);
    rs.args.emplace_back(var, results_[index_.children(id)[1]]);
    rs.input_of.emplace(parent.get(), var);
    keep_.push_back(parent);
    return var;
  }

  ir::Expr End(const ir::Expr& end) {
    const int region = regions_.RegionOf(end.get());
    RegionState& rs = state_[region];
    if (!rs.created) Create(region, end);
    return rs.output_of.at(end.as<ir::CallNode>()->args[0].get());
  }

  void Create(int region_id, const ir::Expr& end) {
    const byoc::AnnotatedRegion& region = regions_.region(region_id);
    RegionState& rs = state_[region_id];
    std::vector<ir::Expr> fields;
    std::vector<const ir::ExprNode*> returned;
    for (const ir::Expr& out : regions_.Outs(region_id)) {
      const ir::Expr& ret = out.as<ir::CallNode>()->args[0];
      if (std::find(returned.begin(), returned.end(), ret.get()) != returned.end()) continue;
      returned.push_back(ret.get());
      fields.push_back(results_[index_.find(ret.get())]);
    }
    std::vector<ir::Var> params;
    std::vector<ir::Expr> call_args;
    std::unordered_map<const ir::VarNode*, ir::Expr> bound;
    for (const auto& [var, value] : rs.args) {
      if (bind_constants_ && value.as<ir::ConstantNode>()) {
        bound.emplace(var.get(), value);
      } else {
        params.push_back(var);
        call_args.push_back(value);
      }
    }
    ir::Expr body = fields.size() == 1 ? fields[0] : ir::Expr(ir::MakeTuple(fields));
    if (!bound.empty()) body = ir::Bind(body, bound);
    ir::Type ret_type =
        fields.size() == 1 ? end.as<ir::CallNode>()->args[0]->checked_type : ir::Type();
    const std::string name =
        prefix_ + region.target + "_" + func_name_ + "_" + std::to_string(region_id);
    ir::DictAttrs attrs;
    attrs.Set("global_symbol", ir::AttrValue::Str(name));
    attrs.Set("Primitive", ir::AttrValue::Int(1));
    attrs.Set("Compiler", ir::AttrValue::Str(region.target));
    attrs.Set("Inline", ir::AttrValue::Int(1));
    ir::GlobalVar gv = ir::MakeGlobalVar(name);
    mod_.Add(gv, ir::MakeFunction(params, body, ret_type, attrs));
    ir::Expr call = ir::MakeCall(mod_.GetGlobalVar(name), call_args);
    for (size_t i = 0; i < returned.size(); ++i) {
      rs.output_of[returned[i]] =
          returned.size() == 1 ? call : ir::Expr(ir::MakeTupleGetItem(call, static_cast<int>(i)));
    }
    rs.created = true;
  }

  ir::IRModule& mod_;
  std::string prefix_;
  std::string func_name_;
  bool bind_constants_;
  byoc::AnnotatedRegionSet regions_;
  ir::PostOrderIndex index_;
  std::vector<ir::Expr> results_;
  std::map<int, RegionState> state_;
  std::vector<ir::Expr> keep_;
};

// True if `func` and the functions partitioning added to `after` (those not in `before`) have no
// free variables. Annotations that other passes moved where regions cannot be lifted from (into
// fused functions, say) would leave a region's parameters dangling; such a function is left
// unpartitioned instead.
bool Closed(const ir::IRModule& after, const ir::IRModule& before, const ir::Function& func) {
  if (!ir::FreeVars(func).empty()) return false;
  for (const auto& [gv, f] : after.functions()) {
    if (!before.Contains(gv->name_hint) && !ir::FreeVars(f).empty()) return false;
  }
  return true;
}

// TVM's mangle_module_name: "tvmgen_<name>", "tvmgen" for an empty name.
std::string MangledPrefix(const std::string& mod_name) {
  return mod_name.empty() ? "tvmgen_" : "tvmgen_" + mod_name + "_";
}

}  // namespace

transform::Pass PartitionGraph(const std::string& mod_name, bool bind_constants) {
  transform::Pass remove_defaults = transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) {
        ir::IRModule out = mod;
        for (const auto& [gv, func] : mod.functions()) {
          RemoveDefault remover;
          ir::Expr f = remover.Mutate(func);
          if (!f.same_as(func)) out.Add(gv, f.downcast<ir::FunctionNode>());
        }
        return out;
      },
      0, "RemoveDefaultAnnotations", {});
  transform::Pass partition = transform::CreateModulePass(
      [mod_name, bind_constants](const ir::IRModule& in, const transform::PassContext&) {
        ir::IRModule mod = in.AllTypeInferred() ? in : ir::InferTypes(in);
        ir::IRModule out = mod;
        for (const auto& [gv, func] : mod.functions()) {
          ir::IRModule trial = out;
          Partitioner partitioner(trial, MangledPrefix(mod_name), gv->name_hint, bind_constants);
          ir::Function f = partitioner.Run(func);
          if (f.same_as(func) || !Closed(trial, out, f)) continue;
          trial.Add(gv, f);
          out = trial;
        }
        return out;
      },
      0, "PartitionGraph", {});
  return transform::Sequential({remove_defaults, partition, transform::InferType()},
                               "PartitionGraph");
}

}  // namespace relaypass::passes
