// Reductions: sum, mean, prod, max, min, all and any over some axes (ReduceAttrs), argmax and
// argmin (ArgReduceAttrs), variance (VarianceAttrs: data and its mean), pattern CommReduce.
#include <algorithm>
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* ReduceAttrs() {
  static const AttrsSchema schema("relay.attrs.ReduceAttrs", {AttrsSchema::NullableIntArray("axis"),
                                                              AttrsSchema::Bool("keepdims", false),
                                                              AttrsSchema::Bool("exclude", false)});
  return &schema;
}

const AttrsSchema* ArgReduceAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ArgReduceAttrs",
      {AttrsSchema::NullableIntArray("axis"), AttrsSchema::Bool("keepdims", false),
       AttrsSchema::Bool("select_last_index", false), AttrsSchema::Bool("exclude", false)});
  return &schema;
}

const AttrsSchema* VarianceAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.VarianceAttrs",
      {AttrsSchema::NullableIntArray("axis"), AttrsSchema::Bool("keepdims", false),
       AttrsSchema::Bool("exclude", false), AttrsSchema::Bool("unbiased", false)});
  return &schema;
}

// TVM's GetReduceAxes + ReduceShapeImpl: axis None (or []) reduces everything; `exclude` reduces
// the axes not listed; reduced axes are dropped, or kept as 1 with keepdims.
bool ReduceRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int ndim = data->ndim();
  const ir::AttrValue& axis = attrs.get("axis");
  // As TVM's GetReduceAxes: None and [] both reduce every axis (exclude is then ignored).
  const bool all = axis.is_null() || axis.as_array().empty();
  std::vector<bool> reduced(ndim, all);
  if (!all) {
    for (int64_t a : axis.as_ints()) {
      reduced[NormalizeAxis(call, a, ndim, call.op_name() + ": axis")] = true;
    }
    if (attrs.get_bool("exclude")) reduced.flip();
  }
  const bool keepdims = attrs.get_bool("keepdims");
  Shape out;
  for (int i = 0; i < ndim; ++i) {
    if (!reduced[i]) {
      out.push_back(data->shape[i]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  // argmax / argmin (TVM's ArgReduceRel) give int32 indices.
  const bool arg = attrs.schema == ArgReduceAttrs();
  call.AssignResult(ir::TensorType(out, arg ? ir::DataType::Int32() : data->dtype));
  return true;
}

// TVM's VarianceRel: the data's reduction, once the mean is known to have the data's rank.
bool VarianceRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef mean = TensorOf(call, 1);
  if (!data || !mean) return false;
  if (data->ndim() != mean->ndim()) {
    call.Fail("variance: the mean " + TypeString(mean) + " must have the rank of the data " +
              TypeString(data));
  }
  return ReduceRel(call);
}

}  // namespace

void RegisterReduceOps(OpRegistry& registry) {
  struct Reduction {
    const char* name;
    const char* description;
    kernels::KernelFn* kernel;
  };
  const Reduction reductions[] = {
      {"sum", "Sum over the given axes (all axes when axis is None).", kernels::Sum},
      {"mean", "Mean over the given axes (all axes when axis is None).", kernels::Mean},
      {"prod", "Product over the given axes (all axes when axis is None).", kernels::Prod},
      {"max", "Maximum over the given axes (all axes when axis is None).", kernels::Max},
      {"min", "Minimum over the given axes (all axes when axis is None).", kernels::Min},
      {"all", "Logical and over the given axes (all axes when axis is None).", kernels::All},
      {"any", "Logical or over the given axes (all axes when axis is None).", kernels::Any},
  };
  for (const Reduction& r : reductions) {
    OpDef& def = RegisterOp(registry, r.name, 1, OpPattern::kCommReduce, ReduceRel, r.description);
    def.attrs_schema = ReduceAttrs();
    def.kernel = r.kernel;
    def.infer_layout = layout_rules::Reduce;
  }
  OpDef& variance =
      RegisterOp(registry, "variance", 2, OpPattern::kCommReduce, VarianceRel,
                 "Mean of the squared differences from `mean` over the given axes (count - 1 "
                 "when unbiased).");
  variance.attrs_schema = VarianceAttrs();
  variance.kernel = kernels::Variance;
  const Reduction arg_reductions[] = {
      {"argmax",
       "Index (int32) of the maximum over the given axes (first, or last with "
       "select_last_index).",
       kernels::ArgMax},
      {"argmin",
       "Index (int32) of the minimum over the given axes (first, or last with "
       "select_last_index).",
       kernels::ArgMin},
  };
  for (const Reduction& r : arg_reductions) {
    OpDef& def = RegisterOp(registry, r.name, 1, OpPattern::kCommReduce, ReduceRel, r.description);
    def.attrs_schema = ArgReduceAttrs();
    def.kernel = r.kernel;
    def.infer_layout = layout_rules::Reduce;
  }
}

}  // namespace relaypass::op

namespace relaypass::relay {

namespace {

Expr Reduce(const std::string& name, Expr x, const std::optional<Ints>& axis, bool keepdims,
            bool exclude) {
  return op::CallOp(name, {std::move(x)},
                    {{"axis", op::OptionalInts(axis)},
                     {"keepdims", ir::AttrValue::Bool(keepdims)},
                     {"exclude", ir::AttrValue::Bool(exclude)}});
}

}  // namespace

Expr sum(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("sum", std::move(x), axis, keepdims, exclude);
}

Expr mean(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("mean", std::move(x), axis, keepdims, exclude);
}

Expr max(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("max", std::move(x), axis, keepdims, exclude);
}

Expr min(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("min", std::move(x), axis, keepdims, exclude);
}

Expr prod(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("prod", std::move(x), axis, keepdims, exclude);
}

Expr all(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("all", std::move(x), axis, keepdims, exclude);
}

Expr any(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude) {
  return Reduce("any", std::move(x), axis, keepdims, exclude);
}

Expr variance(Expr x, Expr mean, std::optional<Ints> axis, bool keepdims, bool exclude,
              bool unbiased) {
  return op::CallOp("variance", {std::move(x), std::move(mean)},
                    {{"axis", op::OptionalInts(axis)},
                     {"keepdims", ir::AttrValue::Bool(keepdims)},
                     {"exclude", ir::AttrValue::Bool(exclude)},
                     {"unbiased", ir::AttrValue::Bool(unbiased)}});
}

Expr argmax(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude, bool select_last_index) {
  return op::CallOp("argmax", {std::move(x)},
                    {{"axis", op::OptionalInts(axis)},
                     {"keepdims", ir::AttrValue::Bool(keepdims)},
                     {"select_last_index", ir::AttrValue::Bool(select_last_index)},
                     {"exclude", ir::AttrValue::Bool(exclude)}});
}

Expr argmin(Expr x, std::optional<Ints> axis, bool keepdims, bool exclude, bool select_last_index) {
  return op::CallOp("argmin", {std::move(x)},
                    {{"axis", op::OptionalInts(axis)},
                     {"keepdims", ir::AttrValue::Bool(keepdims)},
                     {"select_last_index", ir::AttrValue::Bool(select_last_index)},
                     {"exclude", ir::AttrValue::Bool(exclude)}});
}

}  // namespace relaypass::relay
