// The builder API's non-operator helpers: variables, constants, functions, tuples.
#include <cstdint>

#include "op_common.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/support/float16.h"

namespace relaypass::relay {

namespace {

ir::DataType ParseDType(const std::string& dtype) {
  std::optional<ir::DataType> parsed = ir::DataType::Parse(dtype);
  if (!parsed || parsed->is_void()) throw InternalError("invalid dtype \"" + dtype + "\"");
  return *parsed;
}

template <typename T>
ir::NDArray Scalar(double value, ir::DataType dtype) {
  return ir::NDArray::Scalar<T>(static_cast<T>(value), dtype);
}

}  // namespace

Var var(const std::string& name, Type type) {
  return ir::MakeVar(name, std::move(type));
}

Var var(const std::string& name, const Ints& shape, const std::string& dtype) {
  return ir::MakeVar(name, ir::TensorType(shape, ParseDType(dtype)));
}

Constant const_(float value) {
  return ir::MakeConstant(ir::NDArray::Scalar<float>(value, ir::DataType::Float32()));
}

Constant const_(int32_t value) {
  return ir::MakeConstant(ir::NDArray::Scalar<int32_t>(value, ir::DataType::Int32()));
}

Constant const_(double value, const std::string& dtype) {
  ir::DataType t = ParseDType(dtype);
  using Code = ir::DataType::Code;
  ir::NDArray data;
  if (t.lanes() == 1) {
    switch (t.code()) {
      case Code::kFloat:
        // TVM's MakeConstantScalar rounds through float32 for half precision.
        if (t.bits() == 16) {
          data = ir::NDArray::Scalar<uint16_t>(support::FloatToHalf(static_cast<float>(value)), t);
        }
        if (t.bits() == 32) data = Scalar<float>(value, t);
        if (t.bits() == 64) data = Scalar<double>(value, t);
        break;
      case Code::kInt:
        if (t.bits() == 8) data = Scalar<int8_t>(value, t);
        if (t.bits() == 16) data = Scalar<int16_t>(value, t);
        if (t.bits() == 32) data = Scalar<int32_t>(value, t);
        if (t.bits() == 64) data = Scalar<int64_t>(value, t);
        break;
      case Code::kUInt:
        if (t.bits() == 8) data = Scalar<uint8_t>(value, t);
        if (t.bits() == 16) data = Scalar<uint16_t>(value, t);
        if (t.bits() == 32) data = Scalar<uint32_t>(value, t);
        if (t.bits() == 64) data = Scalar<uint64_t>(value, t);
        break;
      case Code::kBFloat:
        if (t.bits() == 16) {
          data =
              ir::NDArray::Scalar<uint16_t>(support::FloatToBFloat16(static_cast<float>(value)), t);
        }
        break;
      case Code::kBool:
        data = ir::NDArray::Scalar<uint8_t>(value != 0, t);
        break;
      default:
        break;
    }
  }
  if (!data.defined()) throw InternalError("const_: unsupported scalar dtype " + dtype);
  return ir::MakeConstant(std::move(data));
}

Constant const_(ir::NDArray data) {
  return ir::MakeConstant(std::move(data));
}

Function function(std::vector<Var> params, Expr body) {
  return ir::MakeFunction(std::move(params), std::move(body));
}

Expr tuple(std::vector<Expr> fields) {
  return ir::MakeTuple(std::move(fields));
}

Expr call(const std::string& op_name, std::vector<Expr> args, const AttrValues& attrs) {
  return op::CallOp(op_name, std::move(args), attrs);
}

Expr get_item(Expr tuple, int index) {
  return ir::MakeTupleGetItem(std::move(tuple), index);
}

}  // namespace relaypass::relay
