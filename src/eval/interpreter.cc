// The interpreter: a machine with an explicit stack of frames (one per function application),
// each with an explicit stack of pending nodes. See interpreter.h.
#include "relaypass/eval/interpreter.h"

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "fused_conv.h"
#include "fused_dense.h"
#include "fused_elementwise.h"
#include "plan.h"
#include "relaypass/support/error.h"
#include "relaypass/support/pointer_map.h"
#include "relaypass/support/resource_error.h"

namespace relaypass::eval {

namespace {

struct Frame {
  const Plan* plan = nullptr;
  uint64_t* live = nullptr;  // the interpreter's count of values held by all frames
  uint64_t* peak = nullptr;
  uint64_t own_live = 0;  // values held by this frame
  std::vector<Value> values;
  std::vector<uint8_t> done;
  std::vector<int32_t> remaining;  // reads left before the value can be released
  struct Work {
    int32_t node;
    uint8_t state;  // 0: new; 1: dependencies requested; 2: waiting for a branch, body or callee
  };
  std::vector<Work> work;

  // The value of node i for one read; the last read moves it out (releasing it).
  Value Take(int32_t i) {
    if (--remaining[i] > 0) return values[i];
    --own_live;
    --*live;
    return std::move(values[i]);
  }
  void Set(int32_t i, Value v) {
    values[i] = std::move(v);
    done[i] = 1;
    ++own_live;
    if (++*live > *peak) *peak = *live;
  }
  ~Frame() {
    if (live) *live -= own_live;
  }
  // Binds a variable of the plan (ignored if the body never reads it).
  void Bind(const ir::VarNode* var, Value v) {
    const int32_t i = plan->IndexOf(var);
    if (i >= 0) Set(i, std::move(v));
  }
};

std::string VarName(const ir::ExprNode* e) {
  return "%" + static_cast<const ir::VarNode*>(e)->name_hint;
}

// How a call names its callee in the call-depth error.
std::string CalleeName(const ir::ExprNode* callee) {
  if (callee->kind == ir::ExprKind::kGlobalVar) {
    return "@" + static_cast<const ir::GlobalVarNode*>(callee)->name_hint;
  }
  if (callee->kind == ir::ExprKind::kVar) return VarName(callee);
  return "a function";
}

}  // namespace

struct Interpreter::Impl {
  explicit Impl(ir::IRModule m) : mod(std::move(m)) {}

  ir::IRModule mod;
  support::PointerMap<std::unique_ptr<Plan>> plans;
  support::PointerMap<std::unique_ptr<FusedConv>> fused;  // null: not a fused convolution
  // Per call site of a fused convolution whose weight argument is a constant: the weight laid
  // out for the kernel, once (null: no layout).
  support::PointerMap<std::shared_ptr<const op::PrepackedConvWeight>> prepacked;
  support::PointerMap<std::unique_ptr<FusedDense>> fused_dense;  // null: not a dense function
  // null: not an elementwise function (fused_elementwise.h)
  support::PointerMap<std::unique_ptr<FusedElementwise>> fused_elementwise;
  // Per call site of a dense function whose weight argument is a constant: the weight prepacked.
  support::PointerMap<std::shared_ptr<const op::PrepackedDenseWeight>> prepacked_dense;
  FreeVarCache free_vars;                // of the function literals the plans met
  std::vector<ir::Function> keep_alive;  // the functions whose plans are cached
  std::vector<std::unique_ptr<Frame>> frames;
  uint64_t frame_slots = 0;  // the node slots of all frames (see kMaxFrameSlots)
  Interpreter::Stats stats;
  uint64_t live_values = 0;

  void PopFrame() {
    frame_slots -= frames.back()->values.size();
    frames.pop_back();
  }
  void PopFramesTo(size_t base) {
    while (frames.size() > base) PopFrame();
  }

  // A call nested too deeply (a recursion that never stops) is an error, not a process that
  // grows until the machine gives out.
  void CheckDepth(size_t slots, const std::string& callee, const Span& span) const {
    if (frames.size() >= kMaxCallDepth) {
      throw ResourceError("evaluator: calling " + callee + " nests calls deeper than " +
                              std::to_string(kMaxCallDepth) + " (a recursion that does not stop?)",
                          span);
    }
    if (frame_slots + slots > kMaxFrameSlots) {
      throw ResourceError("evaluator: calling " + callee + " at call depth " +
                              std::to_string(frames.size()) + " makes the nested calls hold " +
                              "more than " + std::to_string(kMaxFrameSlots) +
                              " pending values (a recursion that does not stop?)",
                          span);
    }
  }

  const Plan& PlanOf(const ir::Function& func) {
    std::unique_ptr<Plan>* cached = plans.find(func.get());
    if (cached) return **cached;
    auto plan = std::make_unique<Plan>(BuildPlan(func.get(), free_vars));
    const Plan& ref = *plan;
    plans.emplace(func.get(), std::move(plan));
    keep_alive.push_back(func);
    return ref;
  }

  // The fused form of a primitive function that convolves and then applies elementwise ops
  // (fused_conv.h), null for any other closure or a call with the wrong number of arguments.
  const FusedConv* FusedOf(const Closure& closure, size_t num_args) {
    const ir::FunctionNode* fn = closure.func.get();
    if (!fn->is_primitive() || !closure.captured.empty() || num_args != fn->params.size()) {
      return nullptr;
    }
    if (std::unique_ptr<FusedConv>* cached = fused.find(fn)) return cached->get();
    std::unique_ptr<FusedConv> match = MatchFusedConv(fn);
    const FusedConv* result = match.get();
    fused.emplace(fn, std::move(match));
    keep_alive.push_back(closure.func);
    return result;
  }

  // The program form of a primitive function of elementwise ops (fused_elementwise.h), null for
  // any other closure or a call with the wrong number of arguments.
  const FusedElementwise* ElementwiseOf(const Closure& closure, size_t num_args) {
    const ir::FunctionNode* fn = closure.func.get();
    if (!fn->is_primitive() || !closure.captured.empty() || num_args != fn->params.size()) {
      return nullptr;
    }
    if (auto* cached = fused_elementwise.find(fn)) return cached->get();
    std::unique_ptr<FusedElementwise> match = MatchFusedElementwise(fn);
    const FusedElementwise* result = match.get();
    fused_elementwise.emplace(fn, std::move(match));
    keep_alive.push_back(closure.func);
    return result;
  }

  // The prepacked weight for `fused` called at `call`, where that argument is a constant.
  const op::PrepackedConvWeight* PrepackedAt(const ir::CallNode* call, const FusedConv& fused) {
    if (fused.weight.param < 0 || static_cast<size_t>(fused.weight.param) >= call->args.size()) {
      return nullptr;
    }
    const auto* constant =
        call->args[static_cast<size_t>(fused.weight.param)].as<ir::ConstantNode>();
    if (!constant) return nullptr;
    if (auto* cached = prepacked.find(call)) return cached->get();
    auto packed = PrepackFusedConvWeight(fused, constant->data);
    const op::PrepackedConvWeight* result = packed.get();
    prepacked.emplace(call, std::move(packed));
    return result;
  }

  // The prepacked weight of a dense function (fused_dense.h) called at `call`, or null: not a
  // dense function, or its weight is not a constant.
  const op::PrepackedDenseWeight* PrepackedDenseAt(const ir::CallNode* call, const Closure& closure,
                                                   size_t num_args, const FusedDense** out) {
    const ir::FunctionNode* fn = closure.func.get();
    if (!fn->is_primitive() || !closure.captured.empty() || num_args != fn->params.size()) {
      return nullptr;
    }
    std::unique_ptr<FusedDense>* cached = fused_dense.find(fn);
    if (!cached) {
      fused_dense.emplace(fn, MatchFusedDense(fn));
      keep_alive.push_back(closure.func);
      cached = fused_dense.find(fn);
    }
    const FusedDense* fused = cached->get();
    if (!fused) return nullptr;
    *out = fused;
    if (fused->weight_param < 0) return fused->prepacked.get();
    const auto* constant =
        call->args[static_cast<size_t>(fused->weight_param)].as<ir::ConstantNode>();
    if (!constant) return nullptr;
    if (auto* packed = prepacked_dense.find(call)) return packed->get();
    auto packed = op::PrepackDenseWeight(constant->data);
    const op::PrepackedDenseWeight* result = packed.get();
    prepacked_dense.emplace(call, std::move(packed));
    return result;
  }

  // Starts applying `closure` to `args`, with `plan` if given, else the function's cached plan.
  void PushFrame(const Closure& closure, std::vector<Value> args, const Plan* given = nullptr,
                 const ir::CallNode* call = nullptr, const ir::ExprNode* callee = nullptr) {
    const ir::FunctionNode* fn = closure.func.get();
    if (args.size() != fn->params.size()) {
      throw Error("evaluator: function expects " + std::to_string(fn->params.size()) +
                  " arguments, got " + std::to_string(args.size()));
    }
    const Plan& plan = given ? *given : PlanOf(closure.func);
    const size_t n = plan.nodes.size();
    if (call) CheckDepth(n, CalleeName(callee), call->span);
    auto frame = std::make_unique<Frame>();
    frame->plan = &plan;
    frame->live = &live_values;
    frame->peak = &stats.peak_live_values;
    ++stats.function_calls;
    frame->values.resize(n);
    frame->done.assign(n, 0);
    frame->remaining = plan.uses;
    for (const auto& [var, value] : closure.captured) {
      // No value: the let variable of a recursive closure, which is the closure itself.
      frame->Bind(var, value.defined() ? value : Value::MakeClosure(closure));
    }
    for (size_t i = 0; i < args.size(); ++i) frame->Bind(fn->params[i].get(), std::move(args[i]));
    frame->work.push_back({plan.root, 0});
    frames.push_back(std::move(frame));
    frame_slots += n;
  }

  // Runs frames until the one pushed last before this call returns.
  Value Run(const Closure& closure, std::vector<Value> args, const Plan* plan = nullptr) {
    const size_t base = frames.size();
    PushFrame(closure, std::move(args), plan);
    try {
      while (true) {
        Frame& f = *frames.back();
        if (!f.work.empty()) {
          Step(f);
          continue;
        }
        Value result = f.Take(f.plan->root);
        PopFrame();
        if (frames.size() == base) return result;
        Frame& caller = *frames.back();
        caller.Set(caller.work.back().node, std::move(result));
        caller.work.pop_back();
      }
    } catch (...) {
      PopFramesTo(base);
      throw;
    }
  }

  // Requests the dependencies of node i that are not computed yet (evaluated left to right).
  static void PushDeps(Frame& f, int32_t i) {
    const int32_t* deps = f.plan->DepsBegin(i);
    for (int32_t k = f.plan->NumDeps(i); k-- > 0;) {
      if (!f.done[deps[k]]) f.work.push_back({deps[k], 0});
    }
  }

  void Step(Frame& f) {
    Frame::Work& w = f.work.back();
    const int32_t i = w.node;
    if (w.state == 0 && f.done[i]) {
      f.work.pop_back();
      return;
    }
    const Plan& plan = *f.plan;
    const ir::ExprNode* e = plan.nodes[i];
    const int32_t* deps = plan.DepsBegin(i);
    switch (e->kind) {
      case ir::ExprKind::kVar:
        throw Error("evaluator: unbound variable " + VarName(e));
      case ir::ExprKind::kConstant:
        f.Set(i, Value(static_cast<const ir::ConstantNode*>(e)->data));
        f.work.pop_back();
        return;
      case ir::ExprKind::kGlobalVar: {
        const auto* gv = static_cast<const ir::GlobalVarNode*>(e);
        if (!mod.Contains(gv->name_hint)) {
          throw Error("evaluator: unknown global function @" + gv->name_hint);
        }
        f.Set(i, Value::MakeClosure(Closure{mod.Lookup(gv->name_hint), {}}));
        f.work.pop_back();
        return;
      }
      case ir::ExprKind::kOp:
        throw Error("evaluator: operator " + static_cast<const ir::OpNode*>(e)->name +
                    " used as a value");
      case ir::ExprKind::kFunction: {
        if (w.state == 0) {
          w.state = 1;
          PushDeps(f, i);  // its free variables: bound already, or an unbound-variable error
          return;
        }
        Closure closure{ir::Function(static_cast<const ir::FunctionNode*>(e)), {}};
        if (const ir::VarNode* const* self = plan.self.find(e)) {
          closure.captured.emplace_back(*self, Value());  // bound to the closure in each call
        }
        for (int32_t k = 0; k < plan.NumDeps(i); ++k) {
          closure.captured.emplace_back(static_cast<const ir::VarNode*>(plan.nodes[deps[k]]),
                                        f.Take(deps[k]));
        }
        f.Set(i, Value::MakeClosure(std::move(closure)));
        f.work.pop_back();
        return;
      }
      case ir::ExprKind::kTuple: {
        if (w.state == 0) {
          w.state = 1;
          PushDeps(f, i);
          return;
        }
        std::vector<Value> fields;
        fields.reserve(plan.NumDeps(i));
        for (int32_t k = 0; k < plan.NumDeps(i); ++k) fields.push_back(f.Take(deps[k]));
        f.Set(i, Value::Tuple(std::move(fields)));
        f.work.pop_back();
        return;
      }
      case ir::ExprKind::kTupleGetItem: {
        if (w.state == 0) {
          w.state = 1;
          PushDeps(f, i);
          return;
        }
        const int index = static_cast<const ir::TupleGetItemNode*>(e)->index;
        Value tuple = f.Take(deps[0]);
        const std::vector<Value>& fields = tuple.fields();
        if (index < 0 || static_cast<size_t>(index) >= fields.size()) {
          throw Error("evaluator: tuple index " + std::to_string(index) + " out of range for " +
                      std::to_string(fields.size()) + " fields");
        }
        f.Set(i, fields[index]);
        f.work.pop_back();
        return;
      }
      case ir::ExprKind::kCall:
        return StepCall(f, i);
      case ir::ExprKind::kRefCreate:
      case ir::ExprKind::kRefRead:
      case ir::ExprKind::kRefWrite:
        return StepReference(f, i);
      case ir::ExprKind::kConstructor:
        // A constructor as a value (`@foldr(Cons, ...)`): a function calling it.
        f.Set(i, Value::MakeClosure(Closure{ConstructorFunction(e), {}}));
        f.work.pop_back();
        return;
      case ir::ExprKind::kMatch: {
        const auto* match = static_cast<const ir::MatchNode*>(e);
        if (w.state == 0) {
          w.state = 1;
          if (!f.done[deps[0]]) f.work.push_back({deps[0], 0});
        } else if (w.state == 1) {
          // The first clause whose pattern matches binds its variables and is evaluated.
          Value data = f.Take(deps[0]);
          size_t k = 0;
          while (k < match->clauses.size() && !MatchPattern(f, match->clauses[k]->lhs, data)) ++k;
          if (k == match->clauses.size()) {
            throw Error("evaluator: no clause of the match matches the value", e->span);
          }
          // The state remembers the clause taken (a frame per call: recursion is fine).
          if (k > 253) throw Error("evaluator: a match takes at most 254 clauses", e->span);
          w.state = static_cast<uint8_t>(2 + k);
          f.work.push_back({deps[1 + k], 0});
        } else {
          const size_t k = w.state - 2;
          f.Set(i, f.Take(deps[1 + k]));
          f.work.pop_back();
        }
        return;
      }
      case ir::ExprKind::kLet: {
        const auto* let = static_cast<const ir::LetNode*>(e);
        if (w.state == 0) {
          w.state = 1;
          if (!f.done[deps[0]]) f.work.push_back({deps[0], 0});
        } else if (w.state == 1) {
          w.state = 2;
          f.Bind(let->var.get(), f.Take(deps[0]));
          f.work.push_back({deps[1], 0});
        } else {
          f.Set(i, f.Take(deps[1]));
          f.work.pop_back();
        }
        return;
      }
      case ir::ExprKind::kIf: {
        if (w.state == 0) {
          w.state = 1;
          if (!f.done[deps[0]]) f.work.push_back({deps[0], 0});
        } else if (w.state == 1) {
          Value cond = f.Take(deps[0]);
          const ir::NDArray& c = cond.tensor();
          if (c.size() < 1) throw Error("evaluator: the condition of an If is empty");
          // As TVM: the first byte of the condition's data decides.
          const bool taken = *static_cast<const uint8_t*>(c.raw_data()) != 0;
          w.state = taken ? 2 : 3;
          f.work.push_back({taken ? deps[1] : deps[2], 0});
        } else {
          f.Set(i, f.Take(w.state == 2 ? deps[1] : deps[2]));
          f.work.pop_back();
        }
        return;
      }
    }
  }

  // `fn (%c0, ..., %cn) { C(%c0, ..., %cn) }` for constructor `e`, made once.
  ir::Function ConstructorFunction(const ir::ExprNode* e) {
    auto it = constructor_functions_.find(e);
    if (it != constructor_functions_.end()) return it->second;
    const auto* ctor = static_cast<const ir::ConstructorNode*>(e);
    std::vector<ir::Var> params;
    std::vector<ir::Expr> args;
    for (size_t k = 0; k < ctor->inputs.size(); ++k) {
      params.push_back(ir::MakeVar("c" + std::to_string(k), ctor->inputs[k]));
      args.push_back(params.back());
    }
    ir::Function fn = ir::MakeFunction(params, ir::MakeCall(ir::Expr(e), std::move(args)));
    constructor_functions_.emplace(e, fn);
    return fn;
  }
  std::unordered_map<const ir::ExprNode*, ir::Function> constructor_functions_;

  // Whether `value` matches `pattern`; binds the pattern's variables in `f` when it does
  // (iterative: patterns and values nest deeply).
  static bool MatchPattern(Frame& f, const ir::Pattern& pattern, const Value& value) {
    std::vector<std::pair<const ir::PatternNode*, const Value*>> stack = {{pattern.get(), &value}};
    std::vector<std::pair<const ir::VarNode*, Value>> binds;
    while (!stack.empty()) {
      auto [p, v] = stack.back();
      stack.pop_back();
      switch (p->kind) {
        case ir::PatternKind::kWildcard:
          break;
        case ir::PatternKind::kVar:
          binds.emplace_back(static_cast<const ir::PatternVarNode*>(p)->var.get(), *v);
          break;
        case ir::PatternKind::kConstructor: {
          const auto* pc = static_cast<const ir::PatternConstructorNode*>(p);
          if (!v->is_adt()) return false;
          const AdtValue& adt = v->adt();
          const ir::ConstructorNode* want = pc->constructor.get();
          // As TVM's interpreter: the tags decide (the same constructor if untagged).
          if (want->tag >= 0 ? adt.tag != want->tag : adt.constructor.get() != want) return false;
          if (adt.fields.size() != pc->patterns.size()) return false;
          for (size_t k = pc->patterns.size(); k-- > 0;) {
            stack.emplace_back(pc->patterns[k].get(), &adt.fields[k]);
          }
          break;
        }
        case ir::PatternKind::kTuple: {
          const auto* pt = static_cast<const ir::PatternTupleNode*>(p);
          if (!v->is_tuple() || v->fields().size() != pt->patterns.size()) return false;
          for (size_t k = pt->patterns.size(); k-- > 0;) {
            stack.emplace_back(pt->patterns[k].get(), &v->fields()[k]);
          }
          break;
        }
      }
    }
    for (auto& [var, bound] : binds) f.Bind(var, std::move(bound));
    return true;
  }

  // A reference operation, once its operands (evaluated left to right) are known. Each
  // evaluation of a ref_create makes a new cell: a function that creates one and is called
  // twice gives two cells (its frames are distinct).
  static void StepReference(Frame& f, int32_t i) {
    Frame::Work& w = f.work.back();
    if (w.state == 0) {
      w.state = 1;
      PushDeps(f, i);
      return;
    }
    const int32_t* deps = f.plan->DepsBegin(i);
    switch (f.plan->nodes[i]->kind) {
      case ir::ExprKind::kRefCreate:
        f.Set(i, Value::MakeRef(f.Take(deps[0])));
        break;
      case ir::ExprKind::kRefRead:
        f.Set(i, f.Take(deps[0]).ref_content());
        break;
      default: {  // kRefWrite
        Value ref = f.Take(deps[0]);
        ref.set_ref_content(f.Take(deps[1]));
        f.Set(i, Value::Tuple({}));
        break;
      }
    }
    f.work.pop_back();
  }

  void StepCall(Frame& f, int32_t i) {
    Frame::Work& w = f.work.back();
    const Plan& plan = *f.plan;
    const auto* call = static_cast<const ir::CallNode*>(plan.nodes[i]);
    if (w.state == 0) {
      w.state = 1;
      PushDeps(f, i);
      return;
    }
    const int32_t* deps = plan.DepsBegin(i);
    const int32_t num_deps = plan.NumDeps(i);
    const bool is_op = call->op->kind == ir::ExprKind::kOp;
    const bool is_constructor = call->op->kind == ir::ExprKind::kConstructor;
    std::vector<Value> args;
    args.reserve(call->args.size());
    for (int32_t k = is_op || is_constructor ? 0 : 1; k < num_deps; ++k) {
      args.push_back(f.Take(deps[k]));
    }
    if (is_constructor) {
      f.Set(i,
            Value::MakeAdt(ir::Constructor(call->op.as<ir::ConstructorNode>()), std::move(args)));
      f.work.pop_back();
      return;
    }
    if (is_op) {
      ++stats.op_calls;
      f.Set(i, EvaluateOpCall(call, args));
      f.work.pop_back();
      return;
    }
    Value callee = f.Take(deps[0]);
    if (const FusedConv* fused = FusedOf(callee.closure(), args.size())) {
      ++stats.function_calls;
      ++stats.fused_conv_calls;
      stats.op_calls += fused->steps.size() + 1;  // as if evaluated op by op
      f.Set(i, RunFusedConv(*fused, args, PrepackedAt(call, *fused)));
      f.work.pop_back();
      return;
    }
    const FusedDense* dense = nullptr;
    if (const op::PrepackedDenseWeight* packed =
            PrepackedDenseAt(call, callee.closure(), args.size(), &dense)) {
      ++stats.function_calls;
      ++stats.op_calls;
      ++stats.prepacked_dense_calls;
      f.Set(i, RunFusedDense(*dense, args, *packed));
      f.work.pop_back();
      return;
    }
    if (const FusedElementwise* program = ElementwiseOf(callee.closure(), args.size())) {
      // A failing op (an integer division by zero) is run again op by op below, so that its
      // error names that op and its place as when the function is not a program.
      std::optional<Value> result;
      try {
        result = RunFusedElementwise(*program, args);
      } catch (const Error&) {
      }
      if (result) {
        ++stats.function_calls;
        stats.op_calls += program->program.instructions.size() + (program->anchor ? 1 : 0);
        f.Set(i, std::move(*result));
        f.work.pop_back();
        return;
      }
    }
    w.state = 2;  // resumed when the callee's frame returns (see Run)
    PushFrame(callee.closure(), std::move(args), nullptr, call, plan.nodes[deps[0]]);
  }
};

Interpreter::Interpreter(ir::IRModule mod) : impl_(std::make_unique<Impl>(std::move(mod))) {}
Interpreter::~Interpreter() = default;

Value Interpreter::RunMain(const std::vector<Value>& args) {
  if (!impl_->mod.Contains("main")) throw Error("evaluator: the module has no main function");
  return Call(impl_->mod.Lookup("main"), args);
}

Value Interpreter::Call(const ir::Function& func, const std::vector<Value>& args) {
  return impl_->Run(Closure{func, {}}, args);
}

Value Interpreter::Call(const Value& closure, const std::vector<Value>& args) {
  return impl_->Run(closure.closure(), args);
}

Value Interpreter::Eval(const ir::Expr& expr) {
  // A throwaway function around the expression; its plan is not cached.
  ir::Function wrapper = ir::MakeFunction({}, expr);
  const Plan plan = BuildPlan(wrapper.get(), impl_->free_vars);
  return impl_->Run(Closure{wrapper, {}}, {}, &plan);
}

const Interpreter::Stats& Interpreter::stats() const {
  return impl_->stats;
}

std::vector<ir::NDArray> RunMain(const ir::IRModule& mod, const std::vector<ir::NDArray>& inputs) {
  Interpreter interp(mod);
  std::vector<Value> args(inputs.begin(), inputs.end());
  return FlattenTensors(interp.RunMain(args));
}

Value Evaluate(const ir::Expr& expr, const ir::IRModule& mod) {
  Interpreter interp(mod);
  return interp.Eval(expr);
}

}  // namespace relaypass::eval
