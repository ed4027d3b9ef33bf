// Shorthands shared by the op family files: registering an op in one statement and building a
// call to a registered op from named attribute values.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/registry.h"

namespace relaypass::op {

using AttrValues = std::vector<std::pair<std::string, ir::AttrValue>>;

// Registers `name` with the fields every op has; the caller sets the rest (attrs schema,
// reshape/stateful flags) on the returned def.
OpDef& RegisterOp(OpRegistry& registry, const std::string& name, int num_inputs, OpPattern pattern,
                  TypeRelation relation, std::string description);

// A call to the registered op `name`. Ops with an attrs schema always get an attrs object
// (unnamed fields take their defaults), as TVM's Python wrappers always create one.
ir::Call CallOp(const std::string& name, std::vector<ir::Expr> args, const AttrValues& attrs = {});

// An IndexExpr attribute: the int32 value, or None.
ir::AttrValue OptionalInt(const std::optional<int64_t>& v);
// An Array<Integer> attribute: int32 values, or None.
ir::AttrValue OptionalInts(const std::optional<std::vector<int64_t>>& v);

// The normalisation TVM's Python wrappers apply to 2D conv/pool arguments: `int -> (int, int)`
// for strides, dilation, kernel and pool sizes. Padding (get_pad_tuple2d) is kernels::Padding4,
// which the kernels use too.
std::vector<int64_t> NormalizePair(const std::vector<int64_t>& v);

}  // namespace relaypass::op
