// The random.* operators (TVM v0.13's src/relay/op/random/kernel.cc): threefry_generate,
// threefry_split, uniform and normal over a Threefry key, a uint64 tensor of shape (10).
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* ThreefryGenerateAttrs() {
  static const AttrsSchema schema("relay.attrs.ThreefryGenerateAttrs",
                                  {AttrsSchema::RequiredIntArray("out_shape")});
  return &schema;
}
const AttrsSchema* UniformAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.UniformAttrs",
      {AttrsSchema::RequiredIntArray("out_shape"), AttrsSchema::DType("out_dtype", "float32")});
  return &schema;
}
const AttrsSchema* NormalAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.NormalAttrs",
      {AttrsSchema::RequiredIntArray("out_shape"), AttrsSchema::DType("out_dtype", "float32")});
  return &schema;
}

const AttrsSchema* MultinomialAttrs() {
  static const AttrsSchema schema("relay.attrs.MultinomialAttrs",
                                  {AttrsSchema::Int("num_samples", 1)});
  return &schema;
}

ir::Type KeyType() {
  return ir::TensorType({10}, ir::DataType::UInt(64));
}

// The key argument must be Tensor[(10), uint64] (TVM assigns ThreefryKeyType() to it).
bool KeyIsKnown(TypeRelationCall& call) {
  TensorTypeRef key = TensorOf(call, 0);
  if (!key) return false;
  if (!ir::TypeEqual(ir::Type(key), KeyType())) {
    call.Fail(call.op_name() + ": the key must be " + ir::TypeToString(KeyType()) + ", got " +
              TypeString(key));
  }
  return true;
}

Shape OutShape(const TypeRelationCall& call) {
  Shape shape = IntsAttr(call, "out_shape");
  for (Dim d : shape) {
    if (d < 0) call.Fail(call.op_name() + ": out_shape has a negative extent");
  }
  return shape;
}

bool ThreefryGenerateRel(TypeRelationCall& call) {
  if (!KeyIsKnown(call)) return false;
  call.AssignResult(
      ir::TupleType({KeyType(), ir::TensorType(OutShape(call), ir::DataType::UInt(64))}));
  return true;
}

bool ThreefrySplitRel(TypeRelationCall& call) {
  if (!KeyIsKnown(call)) return false;
  call.AssignResult(ir::TupleType({KeyType(), KeyType()}));
  return true;
}

// uniform(key, low, high) / normal(key, mean, scale): the two parameters are scalars of out_dtype.
bool DrawRel(TypeRelationCall& call) {
  if (!KeyIsKnown(call)) return false;
  const ir::DataType dtype = DTypeOr(AttrsOf(call).get("out_dtype"), ir::DataType::Float32());
  if (dtype != ir::DataType::Float32() && dtype != ir::DataType::Float(64)) {
    call.Fail(call.op_name() + ": out_dtype must be float32 or float64, got " + dtype.ToString());
  }
  for (size_t i = 1; i <= 2; ++i) {
    TensorTypeRef t = TensorOf(call, i);
    if (!t) return false;
    if (!ir::TypeEqual(ir::Type(t), ir::ScalarType(dtype))) {
      call.Fail(call.op_name() + ": argument " + std::to_string(i) + " must be a " +
                dtype.ToString() + " scalar, got " + TypeString(t));
    }
  }
  call.AssignResult(ir::TupleType({KeyType(), ir::TensorType(OutShape(call), dtype)}));
  return true;
}

// multinomial(key, probs): int32 indices of shape probs.shape[:-1] + [num_samples].
bool MultinomialRel(TypeRelationCall& call) {
  if (!KeyIsKnown(call)) return false;
  TensorTypeRef probs = TensorOf(call, 1);
  if (!probs) return false;
  if (probs->ndim() < 1) call.Fail("random.multinomial: probs must have at least one axis");
  const int64_t samples = AttrsOf(call).get_int("num_samples");
  if (samples < 0) call.Fail("random.multinomial: num_samples must not be negative");
  Shape shape(probs->shape.begin(), probs->shape.end() - 1);
  shape.push_back(samples);
  call.AssignResult(ir::TupleType({KeyType(), ir::TensorType(shape, ir::DataType::Int32())}));
  return true;
}

}  // namespace

void RegisterRandomOps(OpRegistry& registry) {
  OpDef& generate =
      RegisterOp(registry, "random.threefry_generate", 1, OpPattern::kOpaque, ThreefryGenerateRel,
                 "Random uint64 words from a Threefry key, and the next key.");
  generate.attrs_schema = ThreefryGenerateAttrs();
  generate.kernel = kernels::ThreefryGenerate;
  OpDef& split = RegisterOp(registry, "random.threefry_split", 1, OpPattern::kOpaque,
                            ThreefrySplitRel, "Two independent Threefry keys from one.");
  split.kernel = kernels::ThreefrySplit;
  OpDef& uniform =
      RegisterOp(registry, "random.uniform", 3, OpPattern::kOpaque, DrawRel,
                 "Uniform draws in [low, high) from a Threefry key, and the next key.");
  uniform.attrs_schema = UniformAttrs();
  uniform.kernel = kernels::Uniform;
  OpDef& normal =
      RegisterOp(registry, "random.normal", 3, OpPattern::kOpaque, DrawRel,
                 "Normal draws of a mean and scale from a Threefry key, and the next key.");
  normal.attrs_schema = NormalAttrs();
  normal.kernel = kernels::Normal;
  OpDef& multinomial =
      RegisterOp(registry, "random.multinomial", 2, OpPattern::kOpaque, MultinomialRel,
                 "Indices drawn from each row's probabilities, and the next key.");
  multinomial.attrs_schema = MultinomialAttrs();
  multinomial.kernel = kernels::Multinomial;
}

}  // namespace relaypass::op
