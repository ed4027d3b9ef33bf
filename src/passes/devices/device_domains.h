// The unification domains of PlanDevices (TVM's src/relay/transforms/device_domains.h):
//
//   D ::= <virtual device>     first-order: where a value lives (possibly still open)
//       | fn(D, ..., D):D      higher-order: a function's parameters and result
//
// Domains are numbered; unification is union-find over the numbers. Every sub-expression gets a
// domain (variables by their identity, global variables by name); a call's callee gets the
// domain its kind implies (an operator: all arguments and the result together; on_device and
// device_copy: their devices; shape_of: the result on the host).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/passes/plan_devices.h"

namespace relaypass::passes::devices {

class DeviceDomains {
 public:
  using Id = int;
  static constexpr Id kNone = -1;

  DeviceDomains(const DevicePlanningConfig& config, const ir::IRModule& mod);
  const DevicePlanningConfig& config() const { return config_; }

  Id MakeFirstOrderDomain(const ir::VirtualDevice& vd);
  Id MakeHigherOrderDomain(std::vector<Id> args_and_result);
  /// A domain of `type`'s shape (higher-order for function types) whose result is `vd`.
  Id MakeDomain(const ir::Type& type, const ir::VirtualDevice& vd);
  Id Free(const ir::Type& type) { return MakeDomain(type, nullptr); }
  /// MakeDomain with `vd` made canonical (TVM's ForVirtualDevice).
  Id ForVirtualDevice(const ir::Type& type, const ir::VirtualDevice& vd);

  Id Lookup(Id domain);
  /// The unified domain, or kNone if the two cannot be unified.
  Id UnifyOrNull(Id lhs, Id rhs);
  /// Unifies a first-order domain with a possibly higher-order one, all of whose parameters and
  /// result then have that device.
  bool UnifyCollapsedOrFalse(Id lhs_first_order, Id rhs_maybe_higher_order);

  Id DomainFor(const ir::ExprNode* expr);
  bool Contains(const ir::ExprNode* expr) const;
  Id DomainForCallee(const ir::CallNode* call);

  /// Unification errors are TVM's fatal errors ("Incompatible virtual devices ...").
  void UnifyExprExact(const ir::ExprNode* lhs, const ir::ExprNode* rhs);
  void UnifyExprExact(const ir::ExprNode* expr, Id expected);
  /// As UnifyExprExact, but a failure leaves the domains as they were.
  void OptionalUnifyExprExact(const ir::ExprNode* lhs, const ir::ExprNode* rhs);
  void UnifyExprCollapsed(const ir::ExprNode* expr_first_order, Id expected_maybe_higher_order);

  bool IsHigherOrder(Id domain) { return !nodes_[Lookup(domain)].args_and_result.empty(); }
  size_t Arity(Id domain) { return nodes_[Lookup(domain)].args_and_result.size() - 1; }
  Id Param(Id domain, size_t i) { return nodes_[Lookup(domain)].args_and_result[i]; }
  Id Result(Id domain) { return nodes_[Lookup(domain)].args_and_result.back(); }

  bool IsFullyConstrained(Id domain);
  void SetDefault(Id domain, const ir::VirtualDevice& default_vd);
  void SetResultDefaultThenParams(Id domain, const ir::VirtualDevice& default_vd);
  Id ResultDomain(Id domain);
  ir::VirtualDevice ResultVirtualDevice(Id domain) { return nodes_[ResultDomain(domain)].vd; }
  std::string ToString(Id domain);

 private:
  struct Node {
    ir::VirtualDevice vd;             // first-order: never null (the unconstrained node)
    std::vector<Id> args_and_result;  // higher-order: parameters then result
  };
  Id JoinOrNull(Id lhs, Id rhs);
  bool CollapseOrFalse(Id first_order, Id higher_order);
  ir::Type TypeOf(const ir::ExprNode* expr) const;
  Id* Slot(const ir::ExprNode* expr);

  const DevicePlanningConfig& config_;
  const ir::IRModule& mod_;
  std::vector<Node> nodes_;
  std::vector<Id> parent_;  // union-find; a root is its own parent
  std::vector<std::pair<ir::VirtualDevice, Id>> fully_constrained_;  // one domain per device
  std::unordered_map<const ir::ExprNode*, Id> expr_domains_;
  std::unordered_map<uint64_t, Id> var_domains_;  // by vid: typed copies share a domain
  std::unordered_map<std::string, Id> global_domains_;
  std::unordered_map<const ir::CallNode*, Id> callee_domains_;
  Id host_domain_;
};

}  // namespace relaypass::passes::devices
