#include "device_domains.h"

#include "annotations.h"
#include "relaypass/support/error.h"
#include "walk.h"

namespace relaypass::passes::devices {

DeviceDomains::DeviceDomains(const DevicePlanningConfig& config, const ir::IRModule& mod)
    : config_(config), mod_(mod) {
  host_domain_ = MakeFirstOrderDomain(config_.host_virtual_device);
}

DeviceDomains::Id DeviceDomains::MakeFirstOrderDomain(const ir::VirtualDevice& vd) {
  const ir::VirtualDevice& device = vd ? vd : ir::FullyUnconstrainedVirtualDevice();
  if (device->IsFullyConstrained()) {
    for (const auto& [known, id] : fully_constrained_) {
      if (ir::VirtualDeviceEqual(known, device)) return id;
    }
  }
  Id id = static_cast<Id>(nodes_.size());
  nodes_.push_back({device, {}});
  parent_.push_back(id);
  if (device->IsFullyConstrained()) fully_constrained_.emplace_back(device, id);
  return id;
}

DeviceDomains::Id DeviceDomains::MakeHigherOrderDomain(std::vector<Id> args_and_result) {
  Id id = static_cast<Id>(nodes_.size());
  nodes_.push_back({nullptr, std::move(args_and_result)});
  parent_.push_back(id);
  return id;
}

// Recursion here follows the nesting of function types, not the size of the program.
DeviceDomains::Id DeviceDomains::MakeDomain(const ir::Type& type, const ir::VirtualDevice& vd) {
  if (auto* func_type = type ? type.as<ir::FuncTypeNode>() : nullptr) {
    std::vector<Id> args_and_result;
    args_and_result.reserve(func_type->arg_types.size() + 1);
    for (const ir::Type& arg : func_type->arg_types) args_and_result.push_back(Free(arg));
    args_and_result.push_back(MakeDomain(func_type->ret_type, vd));
    return MakeHigherOrderDomain(std::move(args_and_result));
  }
  return MakeFirstOrderDomain(vd);
}

DeviceDomains::Id DeviceDomains::ForVirtualDevice(const ir::Type& type,
                                                  const ir::VirtualDevice& vd) {
  ir::VirtualDevice canonical = config_.Canonical(vd);
  if (ir::IsFullyUnconstrained(canonical)) {
    throw InternalError("PlanDevices: an annotation needs a constrained virtual device");
  }
  return MakeDomain(type, canonical);
}

DeviceDomains::Id DeviceDomains::Lookup(Id domain) {
  Id root = domain;
  while (parent_[root] != root) root = parent_[root];
  while (parent_[domain] != root) domain = std::exchange(parent_[domain], root);
  return root;
}

DeviceDomains::Id DeviceDomains::JoinOrNull(Id lhs, Id rhs) {
  if (lhs == rhs) return lhs;
  const size_t lhs_size = nodes_[lhs].args_and_result.size();
  if (lhs_size != nodes_[rhs].args_and_result.size()) {
    throw InternalError("Device domains " + ToString(lhs) + " and " + ToString(rhs) +
                        " do not have the same kind and can't be unified.");
  }
  if (lhs_size == 0) {
    if (nodes_[rhs].vd->IsFullyUnconstrained()) return lhs;
    if (nodes_[lhs].vd->IsFullyUnconstrained()) return rhs;
    std::optional<ir::VirtualDevice> joined =
        ir::JoinVirtualDevices(nodes_[lhs].vd, nodes_[rhs].vd);
    if (!joined) return kNone;
    return MakeFirstOrderDomain(config_.Canonical(*joined));
  }
  std::vector<Id> args_and_result;
  args_and_result.reserve(lhs_size);
  for (size_t i = 0; i < lhs_size; ++i) {
    Id joined = UnifyOrNull(nodes_[lhs].args_and_result[i], nodes_[rhs].args_and_result[i]);
    if (joined == kNone) return kNone;
    args_and_result.push_back(joined);
  }
  return MakeHigherOrderDomain(std::move(args_and_result));
}

DeviceDomains::Id DeviceDomains::UnifyOrNull(Id lhs, Id rhs) {
  lhs = Lookup(lhs);
  rhs = Lookup(rhs);
  Id joined = JoinOrNull(lhs, rhs);
  if (joined == kNone) return kNone;
  if (lhs != joined) parent_[lhs] = joined;
  if (rhs != joined) parent_[rhs] = joined;
  return joined;
}

bool DeviceDomains::CollapseOrFalse(Id first_order, Id higher_order) {
  const std::vector<Id> args_and_result = nodes_[Lookup(higher_order)].args_and_result;
  for (Id sub : args_and_result) {
    if (IsHigherOrder(sub)) {
      if (!CollapseOrFalse(first_order, sub)) return false;
    } else if (UnifyOrNull(sub, first_order) == kNone) {
      return false;
    }
  }
  return true;
}

bool DeviceDomains::UnifyCollapsedOrFalse(Id lhs_first_order, Id rhs_maybe_higher_order) {
  if (IsHigherOrder(rhs_maybe_higher_order)) {
    return CollapseOrFalse(lhs_first_order, rhs_maybe_higher_order);
  }
  return UnifyOrNull(lhs_first_order, rhs_maybe_higher_order) != kNone;
}

ir::Type DeviceDomains::TypeOf(const ir::ExprNode* expr) const {
  if (auto* global = As<ir::GlobalVarNode>(expr)) {
    if (!expr->checked_type && mod_.Contains(global->name_hint)) {
      return mod_.Lookup(global->name_hint)->checked_type;
    }
  }
  return expr->checked_type;
}

DeviceDomains::Id* DeviceDomains::Slot(const ir::ExprNode* expr) {
  if (auto* var = As<ir::VarNode>(expr))
    return &var_domains_.try_emplace(var->vid, kNone).first->second;
  if (auto* global = As<ir::GlobalVarNode>(expr)) {
    return &global_domains_.try_emplace(global->name_hint, kNone).first->second;
  }
  return &expr_domains_.try_emplace(expr, kNone).first->second;
}

bool DeviceDomains::Contains(const ir::ExprNode* expr) const {
  if (auto* var = As<ir::VarNode>(expr)) return var_domains_.count(var->vid) != 0;
  if (auto* global = As<ir::GlobalVarNode>(expr)) {
    return global_domains_.count(global->name_hint) != 0;
  }
  return expr_domains_.count(expr) != 0;
}

DeviceDomains::Id DeviceDomains::DomainFor(const ir::ExprNode* expr) {
  Id* slot = Slot(expr);
  if (*slot == kNone) *slot = Free(TypeOf(expr));
  return Lookup(*slot);
}

DeviceDomains::Id DeviceDomains::DomainForCallee(const ir::CallNode* call) {
  auto it = callee_domains_.find(call);
  if (it != callee_domains_.end()) return Lookup(it->second);
  std::vector<Id> args_and_result;
  const ir::Type result_type = call->checked_type;
  auto arg_type = [&](size_t i) { return call->args[i]->checked_type; };
  auto expect_args = [&](size_t n) {
    if (call->args.size() != n) {
      throw InternalError(call->op_node()->name + " expects " + std::to_string(n) + " arguments");
    }
  };
  OnDeviceProps on_device = GetOnDeviceProps(call);
  DeviceCopyProps device_copy = GetDeviceCopyProps(call);
  const ir::OpNode* op = call->op_node();
  const std::string op_name = op ? op->name : "";
  if (on_device.body) {
    // on_device: fn(<t> if constrain_body else ?x?):<t> if constrain_result else ?y?
    const ir::Type type = on_device.body->checked_type;
    args_and_result.push_back(
        on_device.constrain_body ? ForVirtualDevice(type, on_device.virtual_device) : Free(type));
    args_and_result.push_back(
        on_device.constrain_result ? ForVirtualDevice(type, on_device.virtual_device) : Free(type));
  } else if (device_copy.body) {
    // device_copy: fn(<src>):<dst>
    const ir::Type type = device_copy.body->checked_type;
    args_and_result.push_back(ForVirtualDevice(type, device_copy.src_virtual_device));
    args_and_result.push_back(ForVirtualDevice(type, device_copy.dst_virtual_device));
  } else if (op_name == "memory.alloc_storage") {
    // alloc_storage(size, alignment): fn(<host>, <host>):<its virtual_device>
    expect_args(2);
    args_and_result = {
        host_domain_, host_domain_,
        ForVirtualDevice(result_type, call->attrs->get("virtual_device").as_virtual_device())};
  } else if (op_name == "memory.alloc_tensor") {
    // alloc_tensor(storage, offset, shape): fn(?x?, <host>, <host>):?x?
    expect_args(3);
    Id free = Free(result_type);
    args_and_result = {free, host_domain_, host_domain_, free};
  } else if (op_name == "vm.shape_func") {
    // shape_func(func, inputs, outputs): fn(..., <host>, <host>):<host>
    expect_args(3);
    args_and_result = {Free(arg_type(0)), host_domain_, host_domain_, host_domain_};
  } else if (op_name == "vm.shape_of") {
    // shape_of(tensor): fn(?x?):<host>
    expect_args(1);
    args_and_result = {Free(arg_type(0)), host_domain_};
  } else if (op_name == "vm.invoke_tvm_op") {
    // invoke_tvm_op(op, inputs, outputs): fn(..., ?x?, ?x?):?x?
    expect_args(3);
    Id free = Free(result_type);
    args_and_result = {Free(arg_type(0)), free, free, free};
  } else if (op_name == "vm.reshape_tensor") {
    // reshape_tensor(data, shape): fn(?x?, <host>):?x?
    expect_args(2);
    Id free = Free(result_type);
    args_and_result = {free, host_domain_, free};
  } else if (op) {
    // A primitive: all arguments and the result on one (first-order) device.
    Id free = MakeFirstOrderDomain(nullptr);
    args_and_result.assign(call->args.size() + 1, free);
  } else if (auto* ctor = call->op.as<ir::ConstructorNode>()) {
    // A constructor: every argument collapsed to the result's device.
    auto* func_type = ctor->checked_type ? ctor->checked_type.as<ir::FuncTypeNode>() : nullptr;
    Id result = MakeFirstOrderDomain(nullptr);
    for (size_t i = 0; i < call->args.size(); ++i) {
      Id param = func_type && i < func_type->arg_types.size() ? Free(func_type->arg_types[i])
                                                              : Free(arg_type(i));
      if (!UnifyCollapsedOrFalse(result, param)) {
        throw InternalError("PlanDevices: cannot collapse a constructor argument's devices");
      }
      args_and_result.push_back(param);
    }
    args_and_result.push_back(result);
  } else {
    return DomainFor(call->op.get());
  }
  Id domain = MakeHigherOrderDomain(std::move(args_and_result));
  callee_domains_.emplace(call, domain);
  return domain;
}

void DeviceDomains::UnifyExprExact(const ir::ExprNode* lhs, const ir::ExprNode* rhs) {
  Id lhs_domain = DomainFor(lhs);
  Id rhs_domain = DomainFor(rhs);
  if (UnifyOrNull(lhs_domain, rhs_domain) == kNone) {
    throw Error("Incompatible virtual devices for expressions: " + ToString(lhs_domain) + " and " +
                ToString(rhs_domain));
  }
}

void DeviceDomains::UnifyExprExact(const ir::ExprNode* expr, Id expected) {
  Id actual = DomainFor(expr);
  if (UnifyOrNull(actual, expected) == kNone) {
    throw Error("Incompatible virtual devices for expression: actual " + ToString(actual) +
                ", expected " + ToString(expected));
  }
}

void DeviceDomains::OptionalUnifyExprExact(const ir::ExprNode* lhs, const ir::ExprNode* rhs) {
  Id lhs_domain = DomainFor(lhs);
  Id rhs_domain = DomainFor(rhs);
  const std::vector<Id> snapshot = parent_;
  if (UnifyOrNull(lhs_domain, rhs_domain) == kNone) {
    // Roll back; domains made during the attempt stay their own roots.
    for (size_t i = 0; i < parent_.size(); ++i) {
      parent_[i] = i < snapshot.size() ? snapshot[i] : static_cast<Id>(i);
    }
  }
}

void DeviceDomains::UnifyExprCollapsed(const ir::ExprNode* expr_first_order,
                                       Id expected_maybe_higher_order) {
  Id actual = DomainFor(expr_first_order);
  if (!UnifyCollapsedOrFalse(actual, expected_maybe_higher_order)) {
    throw Error("Incompatible virtual devices for expression: actual " + ToString(actual) +
                ", expected " + ToString(expected_maybe_higher_order));
  }
}

bool DeviceDomains::IsFullyConstrained(Id domain) {
  domain = Lookup(domain);
  if (nodes_[domain].args_and_result.empty()) return nodes_[domain].vd->IsFullyConstrained();
  const std::vector<Id> subs = nodes_[domain].args_and_result;
  for (Id sub : subs) {
    if (!IsFullyConstrained(sub)) return false;
  }
  return true;
}

void DeviceDomains::SetDefault(Id domain, const ir::VirtualDevice& default_vd) {
  domain = Lookup(domain);
  if (nodes_[domain].args_and_result.empty()) {
    ir::VirtualDevice defaulted =
        config_.Canonical(ir::DefaultVirtualDevice(nodes_[domain].vd, default_vd));
    if (UnifyOrNull(domain, MakeFirstOrderDomain(defaulted)) == kNone) {
      throw InternalError("PlanDevices: defaulting a device domain failed");
    }
    return;
  }
  const std::vector<Id> subs = nodes_[domain].args_and_result;
  for (Id sub : subs) SetDefault(sub, default_vd);
}

void DeviceDomains::SetResultDefaultThenParams(Id domain, const ir::VirtualDevice& default_vd) {
  if (!IsHigherOrder(domain)) {
    SetDefault(domain, default_vd);
    return;
  }
  SetDefault(ResultDomain(domain), default_vd);
  SetDefault(domain, ResultVirtualDevice(domain));
}

DeviceDomains::Id DeviceDomains::ResultDomain(Id domain) {
  domain = Lookup(domain);
  while (!nodes_[domain].args_and_result.empty()) {
    domain = Lookup(nodes_[domain].args_and_result.back());
  }
  return domain;
}

std::string DeviceDomains::ToString(Id domain) {
  domain = Lookup(domain);
  const Node& node = nodes_[domain];
  if (node.args_and_result.empty()) {
    std::string out;
    if (!node.vd->IsFullyConstrained()) out += "?" + std::to_string(domain) + "?";
    if (!node.vd->IsFullyUnconstrained()) out += ir::VirtualDeviceToString(node.vd);
    return out;
  }
  const std::vector<Id> subs = node.args_and_result;
  std::string out = "fn(";
  for (size_t i = 0; i + 1 < subs.size(); ++i) {
    if (i) out += ",";
    out += ToString(subs[i]);
  }
  return out + "):" + ToString(subs.back());
}

}  // namespace relaypass::passes::devices
