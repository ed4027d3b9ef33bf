#include "phases.h"

#include "annotations.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"
#include "walk.h"

#include <optional>
#include <unordered_set>

namespace relaypass::passes::devices {

namespace {

bool IsPrimitive(const ir::ExprNode* expr) {
  auto* fn = As<ir::FunctionNode>(expr);
  return fn && fn->is_primitive();
}

// ---- Phase 0 ----

class OnDeviceRewriter : public ir::ExprMutator {
 protected:
  ir::Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const ir::Expr& post) override {
    OnDeviceProps props = GetOnDeviceProps(post.as<ir::TupleGetItemNode>()->tuple.get());
    if (props.body && props.is_normal()) {
      return OnDevice(post, props.virtual_device, props.constrain_result, props.constrain_body);
    }
    return post;
  }

  ir::Expr RewriteLet(const ir::LetNode*, const ir::Expr& post) override {
    auto* let = post.as<ir::LetNode>();
    OnDeviceProps props = GetOnDeviceProps(let->value.get());
    if (!props.body || !props.is_normal()) return post;
    ir::Expr copy = ir::CopyNode(post);
    const_cast<ir::LetNode*>(copy.as<ir::LetNode>())->value =
        MaybeOnDeviceFixed(props.body, props.virtual_device);
    return copy;
  }

  ir::Expr RewriteFunction(const ir::FunctionNode*, const ir::Expr& post) override {
    auto* fn = post.as<ir::FunctionNode>();
    OnDeviceProps props = GetOnDeviceProps(fn->body.get());
    if (!props.body || !props.is_normal()) return post;
    ir::Expr copy = ir::CopyNode(post);
    const_cast<ir::FunctionNode*>(copy.as<ir::FunctionNode>())->body =
        MaybeOnDeviceFixed(props.body, props.virtual_device);
    return copy;
  }
};

// ---- Conflicts ----

// The devices the calls' constraints flow down to their arguments (TVM's DeviceContext).
struct DeviceContext {
  const ir::VirtualDevice& DeviceFor(const ir::ExprNode* expr) {
    return devices.try_emplace(expr, ir::FullyUnconstrainedVirtualDevice()).first->second;
  }
  bool Update(const ir::ExprNode* expr, const ir::VirtualDevice& vd) {
    auto [it, inserted] = devices.try_emplace(expr, vd);
    if (inserted) return true;
    std::optional<ir::VirtualDevice> joined = ir::JoinVirtualDevices(it->second, vd);
    if (!joined) return false;
    it->second = *joined;
    return true;
  }
  std::unordered_map<const ir::ExprNode*, ir::VirtualDevice> devices;
  std::unordered_set<const ir::ExprNode*> conflicted;
};

void FindConflicts(DeviceContext& ctx, const ir::CallNode* call) {
  ir::VirtualDevice call_device = ctx.DeviceFor(call);
  ir::VirtualDevice body_device = call_device;
  OnDeviceProps on_device = GetOnDeviceProps(call);
  DeviceCopyProps device_copy = GetDeviceCopyProps(call);
  if (on_device.body) {
    if (on_device.constrain_body) body_device = on_device.virtual_device;
    if (on_device.constrain_result) call_device = on_device.virtual_device;
  } else if (device_copy.body) {
    body_device = device_copy.src_virtual_device;
    call_device = device_copy.dst_virtual_device;
  }
  if (!ctx.Update(call, call_device) && !on_device.body) {
    throw Error("Mismatched device type after iterating args. Implied device: " +
                ir::VirtualDeviceToString(call_device) +
                " and practical device: " + ir::VirtualDeviceToString(ctx.DeviceFor(call)));
  }
  for (const ir::Expr& arg : call->args) {
    if (!ctx.Update(arg.get(), body_device)) ctx.conflicted.insert(arg.get());
  }
}

class ConflictRewriter : public ir::ExprMutator {
 public:
  ConflictRewriter(DeviceContext& ctx, const DevicePlanningConfig& config)
      : ctx_(ctx), config_(config) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    std::vector<ir::Expr> args = call->args;
    bool changed = false;
    for (size_t i = 0; i < pre->args.size(); ++i) {
      if (!ctx_.conflicted.count(pre->args[i].get())) continue;
      ir::VirtualDevice src = config_.Canonical(ctx_.DeviceFor(pre->args[i].get()));
      ir::VirtualDevice dst = config_.Canonical(ctx_.DeviceFor(pre));
      if (ir::VirtualDeviceEqual(src, dst)) continue;  // TVM's MaybeDeviceCopy
      args[i] = DeviceCopy(args[i], src, dst);
      changed = true;
    }
    if (!changed) return post;
    ir::Expr copy = ir::CopyNode(post);
    const_cast<ir::CallNode*>(copy.as<ir::CallNode>())->args = std::move(args);
    return copy;
  }

 private:
  DeviceContext& ctx_;
  const DevicePlanningConfig& config_;
};

// ---- Phase 1 ----

void AnalyzeNode(DeviceDomains& d, const ir::ExprNode* node) {
  using Id = DeviceDomains::Id;
  switch (node->kind) {
    case ir::ExprKind::kCall: {
      auto* call = static_cast<const ir::CallNode*>(node);
      Id callee = d.DomainForCallee(call);
      if (d.Arity(callee) != call->args.size()) {
        throw InternalError("PlanDevices: the callee's arity differs from the call's");
      }
      std::vector<Id> args_and_result;
      for (const ir::Expr& arg : call->args) args_and_result.push_back(d.DomainFor(arg.get()));
      args_and_result.push_back(d.DomainFor(call));
      Id implied = d.MakeHigherOrderDomain(std::move(args_and_result));
      if (d.UnifyOrNull(callee, implied) == DeviceDomains::kNone) {
        throw Error(
            "Function parameters and result VirtualDevices do not match those of call. With "
            "function virtual devices: " +
            d.ToString(callee) + " and implied call virtual devices: " + d.ToString(implied));
      }
      break;
    }
    case ir::ExprKind::kLet: {
      auto* let = static_cast<const ir::LetNode*>(node);
      d.UnifyExprExact(let->var.get(), let->value.get());
      d.UnifyExprExact(let, let->body.get());
      break;
    }
    case ir::ExprKind::kFunction: {
      auto* fn = static_cast<const ir::FunctionNode*>(node);
      if (fn->is_primitive()) break;
      Id func = d.DomainFor(fn);
      if (!d.IsHigherOrder(func) || d.Arity(func) != fn->params.size()) {
        throw InternalError("PlanDevices: a function's domain does not match its parameters");
      }
      d.UnifyExprExact(fn->body.get(), d.Result(func));
      for (size_t i = 0; i < fn->params.size(); ++i) {
        d.UnifyExprExact(fn->params[i].get(), d.Param(func, i));
      }
      if (!ir::IsFullyUnconstrained(fn->virtual_device)) {
        // Annotations from an earlier run (or the text) constrain the function further.
        std::vector<Id> args_and_result;
        for (const ir::Var& p : fn->params) {
          args_and_result.push_back(ir::IsFullyUnconstrained(p->virtual_device)
                                        ? d.Free(p->checked_type)
                                        : d.ForVirtualDevice(p->checked_type, p->virtual_device));
        }
        args_and_result.push_back(d.ForVirtualDevice(fn->body->checked_type, fn->virtual_device));
        Id annotation = d.MakeHigherOrderDomain(std::move(args_and_result));
        if (d.UnifyOrNull(func, annotation) == DeviceDomains::kNone) {
          throw Error(
              "Function VirtualDevices are incompatible with its \"on_device\" annotation. With "
              "function virtual devices: " +
              d.ToString(func) + " and annotation virtual devices: " + d.ToString(annotation));
        }
      }
      break;
    }
    case ir::ExprKind::kTuple: {
      auto* tuple = static_cast<const ir::TupleNode*>(node);
      for (const ir::Expr& f : tuple->fields) d.UnifyExprCollapsed(tuple, d.DomainFor(f.get()));
      d.DomainFor(tuple);
      break;
    }
    case ir::ExprKind::kTupleGetItem: {
      auto* item = static_cast<const ir::TupleGetItemNode*>(node);
      d.UnifyExprCollapsed(item->tuple.get(), d.DomainFor(item));
      break;
    }
    case ir::ExprKind::kMatch: {
      auto* match = static_cast<const ir::MatchNode*>(node);
      Id domain = d.DomainFor(match);
      d.UnifyExprCollapsed(match->data.get(), domain);
      for (const ir::Clause& clause : match->clauses) {
        for (const ir::Var& v : ir::PatternVars(clause->lhs)) {
          d.UnifyExprCollapsed(match->data.get(), d.DomainFor(v.get()));
        }
        d.UnifyExprExact(clause->rhs.get(), domain);
      }
      break;
    }
    case ir::ExprKind::kIf: {
      auto* e = static_cast<const ir::IfNode*>(node);
      Id domain = d.DomainFor(e);
      d.UnifyExprCollapsed(e->cond.get(), domain);
      d.UnifyExprExact(e->true_branch.get(), domain);
      d.UnifyExprExact(e->false_branch.get(), domain);
      break;
    }
    case ir::ExprKind::kRefCreate: {
      auto* r = static_cast<const ir::RefCreateNode*>(node);
      d.UnifyExprCollapsed(r, d.DomainFor(r->value.get()));
      break;
    }
    case ir::ExprKind::kRefRead: {
      auto* r = static_cast<const ir::RefReadNode*>(node);
      d.UnifyExprCollapsed(r->ref.get(), d.DomainFor(r));
      break;
    }
    case ir::ExprKind::kRefWrite: {
      auto* r = static_cast<const ir::RefWriteNode*>(node);
      Id value = d.DomainFor(r->value.get());
      d.UnifyExprCollapsed(r->ref.get(), value);
      d.UnifyExprCollapsed(r, value);
      break;
    }
    case ir::ExprKind::kVar:
    case ir::ExprKind::kGlobalVar:
    case ir::ExprKind::kConstant:
      d.DomainFor(node);
      break;
    default:  // operators and constructors: handled at their calls
      break;
  }
}

// ---- Phase 2 ----

void DefaultNode(DeviceDomains& d, const ir::ExprNode* node) {
  const ir::VirtualDevice& fallback = d.config().default_primitive_virtual_device;
  if (auto* fn = As<ir::FunctionNode>(node)) {
    DeviceDomains::Id func = d.DomainFor(fn);
    if (!d.IsFullyConstrained(func)) d.SetResultDefaultThenParams(func, fallback);
  } else if (auto* call = As<ir::CallNode>(node)) {
    DeviceDomains::Id callee = d.DomainForCallee(call);
    if (!d.IsFullyConstrained(callee)) d.SetResultDefaultThenParams(callee, fallback);
  } else if (auto* let = As<ir::LetNode>(node)) {
    ir::VirtualDevice let_device = d.ResultVirtualDevice(d.DomainFor(let));
    if (ir::IsFullyUnconstrained(let_device)) {
      throw InternalError("PlanDevices: a let has no virtual device to give its variable");
    }
    DeviceDomains::Id var = d.DomainFor(let->var.get());
    if (!d.IsFullyConstrained(var)) d.SetDefault(var, let_device);
  }
}

// ---- Phase 3 ----

class DeviceCapturer : public ir::ExprMutator {
 public:
  explicit DeviceCapturer(DeviceDomains& domains) : d_(domains) {}

  // The parameters of `fn` with their virtual devices, to substitute for the originals.
  void AnnotateParams(const ir::FunctionNode* fn) {
    DeviceDomains::Id func = d_.DomainFor(fn);
    for (size_t i = 0; i < fn->params.size(); ++i) {
      const ir::Var& param = fn->params[i];
      ir::VirtualDevice vd = d_.ResultVirtualDevice(d_.Param(func, i));
      if (ir::IsFullyUnconstrained(vd)) {
        throw InternalError("PlanDevices: no virtual device for parameter " + param->name_hint);
      }
      ir::Expr copy = ir::CopyNode(param);
      const_cast<ir::VarNode*>(copy.as<ir::VarNode>())->virtual_device = std::move(vd);
      params_[param->vid] = ir::Var(copy.as<ir::VarNode>());
    }
  }

 protected:
  bool ShouldVisitChildren(const ir::Expr& expr) override { return !IsPrimitive(expr.get()); }

  ir::Expr RewriteVar(const ir::VarNode* pre, const ir::Expr& post) override {
    auto it = params_.find(pre->vid);
    return it != params_.end() ? ir::Expr(it->second) : post;
  }

  ir::Expr RewriteFunction(const ir::FunctionNode* pre, const ir::Expr& post) override {
    if (pre->is_primitive()) return post;
    ir::VirtualDevice result = d_.ResultVirtualDevice(d_.DomainFor(pre));
    if (ir::IsFullyUnconstrained(result)) {
      throw InternalError("PlanDevices: no virtual device for a function's result");
    }
    ir::Expr body = VisitChild(result, result, DeviceOf(pre->body), pre->body);
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* fn = const_cast<ir::FunctionNode*>(copy.as<ir::FunctionNode>());
    for (ir::Var& p : fn->params) {
      auto it = params_.find(p->vid);
      if (it != params_.end()) p = it->second;
    }
    fn->body = std::move(body);
    fn->virtual_device = std::move(result);
    return copy;
  }

  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    OnDeviceProps on_device = GetOnDeviceProps(pre);
    if (on_device.body) return Lookup(on_device.body);  // its job is done
    ir::VirtualDevice call_device = DeviceOf(ir::Expr(pre));
    DeviceCopyProps copy_props = GetDeviceCopyProps(pre);
    if (copy_props.body) {
      ir::VirtualDevice src = d_.config().Canonical(copy_props.src_virtual_device);
      ir::VirtualDevice dst = d_.config().Canonical(copy_props.dst_virtual_device);
      if (ir::VirtualDeviceEqual(src, dst)) return Lookup(copy_props.body);  // a no-op copy
      return VisitChild(dst, dst, src, copy_props.body);
    }
    DeviceDomains::Id callee = d_.DomainForCallee(pre);
    ir::VirtualDevice result = d_.ResultVirtualDevice(callee);
    ir::Expr op = VisitChild(call_device, call_device, result, pre->op);
    std::vector<ir::Expr> args;
    args.reserve(pre->args.size());
    for (size_t i = 0; i < pre->args.size(); ++i) {
      ir::VirtualDevice param = d_.ResultVirtualDevice(d_.Param(callee, i));
      if (ir::IsFullyUnconstrained(param)) {
        throw InternalError("PlanDevices: no virtual device for argument " + std::to_string(i));
      }
      args.push_back(VisitChild(call_device, param, DeviceOf(pre->args[i]), pre->args[i]));
    }
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* call = const_cast<ir::CallNode*>(copy.as<ir::CallNode>());
    call->op = std::move(op);
    call->args = std::move(args);
    return copy;
  }

  ir::Expr RewriteLet(const ir::LetNode* pre, const ir::Expr& post) override {
    ir::VirtualDevice let_device = DeviceOf(ir::Expr(pre));
    // An unconstrained lexical device: the value is always wrapped in an on_device, so that
    // passes inlining let-bound values carry its device along.
    ir::Expr value = VisitChild(nullptr, DeviceOf(pre->var), DeviceOf(pre->value), pre->value);
    ir::Expr body = VisitChild(let_device, let_device, DeviceOf(pre->body), pre->body);
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* let = const_cast<ir::LetNode*>(copy.as<ir::LetNode>());
    let->value = std::move(value);
    let->body = std::move(body);
    return copy;
  }

  ir::Expr RewriteIf(const ir::IfNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* e = const_cast<ir::IfNode*>(copy.as<ir::IfNode>());
    e->cond = VisitChild(pre, pre->cond);
    e->true_branch = VisitChild(pre, pre->true_branch);
    e->false_branch = VisitChild(pre, pre->false_branch);
    return copy;
  }

  ir::Expr RewriteTuple(const ir::TupleNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* t = const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>());
    for (size_t i = 0; i < pre->fields.size(); ++i) t->fields[i] = VisitChild(pre, pre->fields[i]);
    return copy;
  }

  ir::Expr RewriteTupleGetItem(const ir::TupleGetItemNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    const_cast<ir::TupleGetItemNode*>(copy.as<ir::TupleGetItemNode>())->tuple =
        VisitChild(pre, pre->tuple);
    return copy;
  }

  ir::Expr RewriteRefCreate(const ir::RefCreateNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    const_cast<ir::RefCreateNode*>(copy.as<ir::RefCreateNode>())->value =
        VisitChild(pre, pre->value);
    return copy;
  }

  ir::Expr RewriteRefRead(const ir::RefReadNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    const_cast<ir::RefReadNode*>(copy.as<ir::RefReadNode>())->ref = VisitChild(pre, pre->ref);
    return copy;
  }

  ir::Expr RewriteRefWrite(const ir::RefWriteNode* pre, const ir::Expr&) override {
    ir::Expr copy = ir::CopyNode(ir::Expr(pre));
    auto* w = const_cast<ir::RefWriteNode*>(copy.as<ir::RefWriteNode>());
    w->ref = VisitChild(pre, pre->ref);
    w->value = VisitChild(pre, pre->value);
    return copy;
  }

  ir::Expr RewriteMatch(const ir::MatchNode* pre, const ir::Expr& post) override {
    ir::Expr copy = ir::CopyNode(post);
    auto* m = const_cast<ir::MatchNode*>(copy.as<ir::MatchNode>());
    m->data = VisitChild(pre, pre->data);
    for (size_t i = 0; i < pre->clauses.size(); ++i) {
      m->clauses[i] = ir::MakeClause(m->clauses[i]->lhs, VisitChild(pre, pre->clauses[i]->rhs));
    }
    return copy;
  }

 private:
  // The device of `expr`, looking through on_device calls (they are pinched out).
  ir::VirtualDevice DeviceOf(const ir::Expr& expr) {
    OnDeviceProps props = GetOnDeviceProps(expr.get());
    const ir::ExprNode* target = props.body ? props.body.get() : expr.get();
    if (!d_.Contains(target)) {
      throw InternalError("PlanDevices: no device domain for a sub-expression");
    }
    ir::VirtualDevice vd = d_.ResultVirtualDevice(d_.DomainFor(target));
    if (ir::IsFullyUnconstrained(vd)) {
      throw InternalError("PlanDevices: no VirtualDevice was determined for a sub-expression");
    }
    return vd;
  }

  // TVM's VisitChild: a device_copy where the child's device differs from the one its context
  // expects, and an on_device where the expected device is not the lexical one.
  ir::Expr VisitChild(const ir::VirtualDevice& lexical, const ir::VirtualDevice& expected,
                      const ir::VirtualDevice& child_device, const ir::Expr& child) {
    if (child->kind == ir::ExprKind::kOp || child->kind == ir::ExprKind::kConstructor) {
      return child;
    }
    ir::Expr result = Lookup(child);
    if (!ir::VirtualDeviceEqual(child_device, expected)) {
      result = MaybeOnDeviceFixed(std::move(result), child_device);
      result = DeviceCopy(std::move(result), child_device, expected);
    }
    if (!ir::VirtualDeviceEqual(expected, lexical)) {
      result = MaybeOnDeviceFixed(std::move(result), expected);
    }
    return result;
  }

  ir::Expr VisitChild(const ir::ExprNode* parent, const ir::Expr& child) {
    ir::VirtualDevice expected = DeviceOf(ir::Expr(parent));
    return VisitChild(expected, expected, DeviceOf(child), child);
  }

  DeviceDomains& d_;
  std::unordered_map<uint64_t, ir::Var> params_;
};

}  // namespace

bool IsOptimizableFunction(const ir::FunctionNode* function) {
  return !function->is_primitive() && !function->attrs.find("Compiler") &&
         function->attrs.GetInt("Extern", 0) == 0;
}

ir::Function RewriteOnDevices(const ir::Function& function) {
  OnDeviceRewriter rewriter;
  ir::Expr out = rewriter.Mutate(function);
  return ir::Function(out.as<ir::FunctionNode>());
}

ir::IRModule CheckConflicts(const ir::IRModule& mod, const DevicePlanningConfig& config) {
  DeviceContext ctx;
  const auto functions = mod.functions();
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    // Calls before their arguments, first argument first (TVM's pre-order ExprVisitor).
    WalkExpr(
        fn.get(),
        [&](const ir::ExprNode* node) {
          if (auto* call = As<ir::CallNode>(node)) FindConflicts(ctx, call);
          return true;
        },
        [](const ir::ExprNode*) {});
  }
  // A conflicting on_device is left to the capture phase, which copies there anyway.
  for (auto it = ctx.conflicted.begin(); it != ctx.conflicted.end();) {
    it = GetOnDeviceProps(*it).body ? ctx.conflicted.erase(it) : std::next(it);
  }
  if (ctx.conflicted.empty()) return mod;
  ConflictRewriter rewriter(ctx, config);
  ir::IRModule result = mod;
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    ir::Expr out = rewriter.Mutate(fn);
    result.Add(gv, ir::Function(out.as<ir::FunctionNode>()));
  }
  return result;
}

std::unique_ptr<DeviceDomains> AnalyzeAndDefault(const ir::IRModule& mod,
                                                 const DevicePlanningConfig& config) {
  auto domains = std::make_unique<DeviceDomains>(config, mod);
  DeviceDomains& d = *domains;
  const auto functions = mod.functions();
  auto descend = [](const ir::ExprNode* node) { return !IsPrimitive(node); };
  auto nothing = [](const ir::ExprNode*) {};
  // Phase 1.
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    d.UnifyExprExact(gv.get(), fn.get());
    WalkExpr(fn.get(), descend, [&](const ir::ExprNode* node) { AnalyzeNode(d, node); });
  }
  // Phase 2: free on_device calls first (children before parents), then the defaults
  // (parents before children: a let's device is known before its variable's is defaulted).
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    WalkExpr(fn.get(), descend, [&](const ir::ExprNode* node) {
      OnDeviceProps props = GetOnDeviceProps(node);
      if (props.body && !props.constrain_body && !props.constrain_result) {
        d.OptionalUnifyExprExact(node, props.body.get());
      }
    });
  }
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    WalkExpr(
        fn.get(),
        [&](const ir::ExprNode* node) {
          if (IsPrimitive(node)) return false;
          DefaultNode(d, node);
          return true;
        },
        nothing);
  }
  return domains;
}

ir::IRModule CaptureDevices(const ir::IRModule& mod, DeviceDomains& domains) {
  DeviceCapturer capturer(domains);
  ir::IRModule result = mod;
  const auto functions = mod.functions();
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    WalkExpr(
        fn.get(), [](const ir::ExprNode* node) { return !IsPrimitive(node); },
        [&](const ir::ExprNode* node) {
          if (auto* f = As<ir::FunctionNode>(node); f && !f->is_primitive()) {
            capturer.AnnotateParams(f);
          }
        });
  }
  for (const auto& [gv, fn] : functions) {
    if (!IsOptimizableFunction(fn.get())) continue;
    ir::Expr out = capturer.Mutate(fn);
    result.Add(gv, ir::Function(out.as<ir::FunctionNode>()));
  }
  return result;
}

}  // namespace relaypass::passes::devices
