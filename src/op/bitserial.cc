// TVM's bitserial operators (src/relay/op/nn/bitserial.cc): nn.bitpack, nn.bitserial_conv2d and
// nn.bitserial_dense with TVM's attrs and relations. TVM runs them only through its bitserial
// schedules (TOPI), which relaypass does not have: they type, and have no kernel (the evaluator
// says so when it meets one).
#include <string>
#include <vector>

#include "kernels/layout_permutation.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/ir/dim_expr.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* BitPackAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.BitPackAttrs",
      {AttrsSchema::Int("bits", 1), AttrsSchema::Int("pack_axis", 1),
       AttrsSchema::Int("bit_axis", -1), AttrsSchema::DType("pack_type", "uint32"),
       AttrsSchema::String("name", "BitPack")});
  return &schema;
}

const AttrsSchema* BinaryConv2DAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.BinaryConv2DAttrs",
      {AttrsSchema::IntArray("strides", {1, 1}), AttrsSchema::IntArray("padding", {0, 0}),
       AttrsSchema::IndexExpr("channels"), AttrsSchema::IntArray("kernel_size", {3, 3}),
       AttrsSchema::Int("activation_bits", 1), AttrsSchema::Int("weight_bits", 1),
       AttrsSchema::String("data_layout", "NCHW"), AttrsSchema::String("kernel_layout", "OIHW"),
       AttrsSchema::DType("pack_dtype", ""), AttrsSchema::DType("out_dtype", ""),
       AttrsSchema::Bool("unipolar", true)});
  return &schema;
}

const AttrsSchema* BinaryDenseAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.BinaryDenseAttrs",
      {AttrsSchema::IndexExpr("units"), AttrsSchema::Int("data_bits", 1),
       AttrsSchema::Int("weight_bits", 1), AttrsSchema::DType("pack_dtype", ""),
       AttrsSchema::DType("out_dtype", ""), AttrsSchema::Bool("unipolar", true)});
  return &schema;
}

// TVM's indexdiv: floor division, an expression for a symbolic extent.
Dim IndexDiv(Dim d, int64_t by) {
  if (d == kAnyDim) return kAnyDim;
  return ir::MakeDimExpr(ir::DimOp::kFloorDiv, ir::DimOperand::Of(d), ir::DimOperand::Const(by));
}

// TVM's BitPackRel: the pack axis divided by the pack type's bits, a `bits` axis inserted before
// bit_axis (or appended when bit_axis is the rank).
bool BitPackRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t bits = attrs.get_int("bits");
  const int64_t pack_axis = attrs.get_int("pack_axis");
  const int64_t bit_axis = attrs.get_int("bit_axis");
  const ir::DataType pack_type = DTypeOr(attrs.get("pack_type"), ir::DataType::UInt(32));
  const int ndim = data->ndim();
  if (bits < 1) call.Fail("nn.bitpack: bits must be positive, got " + std::to_string(bits));
  const int64_t pack_bits = pack_type.bits();
  Shape out;
  for (int i = 0; i < ndim; ++i) {
    const Dim d = i == pack_axis ? IndexDiv(data->shape[i], pack_bits) : data->shape[i];
    if (i == bit_axis) out.push_back(bits);
    out.push_back(d);
  }
  if (bit_axis == ndim) out.push_back(bits);
  call.AssignResult(ir::TensorType(out, pack_type));
  return true;
}

// TVM's BinaryConv2DRel: NCHW (or another ordering of it) data, (H + 2 * pad - k) / stride + 1
// per spatial axis, `channels` output channels, out_dtype.
bool BinaryConv2DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& layout = attrs.get_string("data_layout");
  const std::vector<int> perm = LayoutPermutation(layout, "NCHW");
  if (perm.empty() || data->ndim() != 4) {
    call.Fail("nn.bitserial_conv2d: data " + TypeString(data) + " does not match data_layout " +
              layout + " (an ordering of NCHW)");
  }
  if (attrs.get("channels").is_null()) call.Fail("nn.bitserial_conv2d: channels must be set");
  const std::vector<int64_t> strides = PositiveIntsAttr(call, "strides", 2);
  const std::vector<int64_t> padding = IntsAttr(call, "padding");
  const std::vector<int64_t> kernel = PositiveIntsAttr(call, "kernel_size", 2);
  if (padding.size() < 2) call.Fail("nn.bitserial_conv2d: padding must have 2 values");
  const Shape nchw = Permuted(data->shape, perm);
  Shape out = {nchw[0], attrs.get_int("channels"), kAnyDim, kAnyDim};
  for (int i = 0; i < 2; ++i) {
    const Dim in = nchw[2 + i];
    if (IsAny(in)) continue;  // TVM's would be a TIR division of the symbolic extent
    const int64_t span = CheckedSub(CheckedAdd(in, CheckedMul(padding[i], 2)), kernel[i]);
    if (span < 0) call.Fail("nn.bitserial_conv2d: the kernel is larger than the padded input");
    out[2 + i] = span / strides[i] + 1;
  }
  const ir::DataType out_dtype = DTypeOr(attrs.get("out_dtype"), data->dtype);
  call.AssignResult(ir::TensorType(Permuted(out, InversePermutation(perm)), out_dtype));
  return true;
}

// TVM's BinaryDenseRel: the data's shape with its last axis `units`; out_dtype or the data's.
bool BinaryDenseRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (data->ndim() == 0) call.Fail("nn.bitserial_dense: data must not be a scalar");
  if (attrs.get("units").is_null()) call.Fail("nn.bitserial_dense: units must be set");
  Shape out = data->shape;
  out.back() = attrs.get_int("units");
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

}  // namespace

void RegisterBitserialOps(OpRegistry& registry) {
  OpDef& bitpack = RegisterOp(registry, "nn.bitpack", 1, OpPattern::kOpaque, BitPackRel,
                              "Packs the bits of a tensor for bitserial operations (no kernel).");
  bitpack.attrs_schema = BitPackAttrs();
  OpDef& conv = RegisterOp(registry, "nn.bitserial_conv2d", 2, OpPattern::kOpaque, BinaryConv2DRel,
                           "2-D convolution on packed bits (no kernel).");
  conv.attrs_schema = BinaryConv2DAttrs();
  OpDef& dense = RegisterOp(registry, "nn.bitserial_dense", 2, OpPattern::kOpaque, BinaryDenseRel,
                            "Dense layer on packed bits (no kernel).");
  dense.attrs_schema = BinaryDenseAttrs();
}

}  // namespace relaypass::op
