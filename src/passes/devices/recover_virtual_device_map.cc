// TVM's RecoverVirtualDeviceMap (device_planner.cc) over its DeviceAwareExprVisitor
// (device_aware_visitors.cc): the device of each sub-expression as later passes find it, from the
// lexically enclosing fixed on_device call or function and the devices of bound variables.
#include <unordered_map>

#include "annotations.h"
#include "relaypass/passes/plan_devices.h"
#include "walk.h"

namespace relaypass::passes {

std::vector<std::pair<ir::Expr, ir::VirtualDevice>> RecoverVirtualDeviceMap(const ir::IRModule& mod,
                                                                            const ir::Expr& expr) {
  std::unordered_map<std::string, ir::VirtualDevice> globals;
  for (const auto& [gv, fn] : mod.functions()) globals[gv->name_hint] = fn->virtual_device;
  std::unordered_map<uint64_t, ir::VirtualDevice> vars;  // bound variables, by vid

  // The device of `e` in the scope whose device is `scope` (TVM's GetVirtualDevice).
  auto device_of = [&](const ir::ExprNode* e, const ir::VirtualDevice& scope) -> ir::VirtualDevice {
    devices::OnDeviceProps props = devices::GetOnDeviceProps(e);
    if (props.body && props.is_fixed()) return props.virtual_device;
    if (auto* var = devices::As<ir::VarNode>(e)) {
      auto it = vars.find(var->vid);
      return it != vars.end() ? it->second : nullptr;
    }
    if (auto* global = devices::As<ir::GlobalVarNode>(e)) {
      auto it = globals.find(global->name_hint);
      return it != globals.end() ? it->second : nullptr;
    }
    if (auto* fn = devices::As<ir::FunctionNode>(e))
      return fn->is_primitive() ? scope : fn->virtual_device;
    return scope;
  };

  std::vector<std::pair<ir::Expr, ir::VirtualDevice>> out;
  std::unordered_map<const ir::ExprNode*, bool> seen;
  std::vector<std::pair<const ir::ExprNode*, ir::VirtualDevice>> stack = {{expr.get(), nullptr}};
  std::vector<const ir::ExprNode*> children;
  while (!stack.empty()) {
    auto [node, scope] = stack.back();
    stack.pop_back();
    if (!seen.emplace(node, true).second) continue;
    if (node->kind != ir::ExprKind::kOp && node->kind != ir::ExprKind::kConstructor) {
      ir::VirtualDevice vd = device_of(node, scope);
      if (!ir::IsFullyUnconstrained(vd)) out.emplace_back(ir::Expr(node), vd);
    }
    ir::VirtualDevice child_scope = scope;
    devices::OnDeviceProps props = devices::GetOnDeviceProps(node);
    if (props.body && props.is_fixed()) {
      child_scope = props.virtual_device;
    } else if (auto* fn = devices::As<ir::FunctionNode>(node); fn && !fn->is_primitive()) {
      for (const ir::Var& p : fn->params) vars[p->vid] = p->virtual_device;
      child_scope = fn->virtual_device;
    } else if (auto* let = devices::As<ir::LetNode>(node)) {
      vars[let->var->vid] = device_of(let->value.get(), scope);
    }
    children.clear();
    devices::ExprChildren(node, children);
    for (size_t i = children.size(); i-- > 0;) stack.emplace_back(children[i], child_scope);
  }
  return out;
}

}  // namespace relaypass::passes
