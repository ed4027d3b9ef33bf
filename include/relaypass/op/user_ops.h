// Operators registered while the program runs (TVM's relay.op.op.register and the OpRegEntry
// setters TVM's Python calls on them), and every operator's support level (TVM's
// Op.support_level). Built-in operators are fixed: only an operator registered here can be
// changed afterwards.
#pragma once

#include <string>

namespace relaypass::op {

/// TVM's Op.support_level: the level TVM v0.13's registration of `op_name` sets (1 for the basic
/// elementwise and arithmetic ops, 3, 4, ...); 10, TVM's default, for the operators whose level
/// this library does not record (docs/python.md) and for a registered one until it sets its own.
int SupportLevel(const std::string& op_name);

/// TVM's ir.RegisterOp: a new operator `op_name` with `description`, variadic, without a type
/// relation (a call of it fails type inference until it has one) or kernel. Throws
/// relaypass::Error if the name is taken ("Operator NAME is registered before", as TVM).
void RegisterUserOp(const std::string& op_name, const std::string& description);

/// The setters of an operator registered with RegisterUserOp (each throws relaypass::Error for
/// any other operator: a built-in operator cannot be changed).
void SetUserOpNumInputs(const std::string& op_name, int num_inputs);
/// TVM's add_type_rel(rel_name) without a function: one of TVM's named relations, "Identity",
/// "Broadcast" or "BroadcastComp" (any other name throws).
void SetUserOpTypeRelation(const std::string& op_name, const std::string& rel_name);
void SetUserOpSupportLevel(const std::string& op_name, int level);
/// TOpPattern (one of ir::OpPattern's values) and TOpIsStateful.
void SetUserOpPattern(const std::string& op_name, int pattern);
void SetUserOpStateful(const std::string& op_name, bool stateful);
/// Whether `op_name` was registered with RegisterUserOp.
bool IsUserOp(const std::string& op_name);

}  // namespace relaypass::op
