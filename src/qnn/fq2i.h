// FakeQuantizationToInteger's pieces (TVM's src/relay/transforms/fake_quantization_to_integer.cc
// and the rules of python/tvm/relay/transform/fake_quantization_to_integer.py): the affine type
// of a quantized value, the rewrite rules by op name, and the region extractor.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "relaypass/ir/dtype.h"
#include "relaypass/ir/expr.h"

namespace relaypass::qnn::fq2i {

// TVM's TensorAffineType (scale, zero point, dtype, axis) or TupleAffineType (fields).
struct AffineType {
  AffineType() = default;
  AffineType(ir::Expr s, ir::Expr z, ir::DataType d, int a)
      : scale(std::move(s)), zero_point(std::move(z)), dtype(d), axis(a) {}
  ir::Expr scale;
  ir::Expr zero_point;
  ir::DataType dtype;
  int axis = -1;
  bool is_tuple = false;
  std::vector<AffineType> fields;
};

// The affine types known so far, by expression node.
class AffineTypeMap {
 public:
  bool Has(const ir::Expr& e) const { return map_.count(e.get()) != 0; }
  const AffineType& At(const ir::Expr& e, const std::string& op) const;
  void Set(const ir::Expr& e, AffineType t) {
    keep_.push_back(e);
    map_[e.get()] = std::move(t);
  }

 private:
  std::unordered_map<const ir::ExprNode*, AffineType> map_;
  std::vector<ir::Expr> keep_;  // the keys stay alive while the map is used
};

// A rewrite rule: the call with its arguments already rewritten (its own entry in the map is the
// region's output type, as in TVM; it keeps the original call's checked type) -> the integer
// expression and its affine type.
using Rule = std::function<std::pair<ir::Expr, AffineType>(const ir::Expr& call,
                                                           const AffineTypeMap& types)>;
// The rule of `op_name` (qnn.quantize and qnn.dequantize included), or an empty function; an
// optional rule (TVM's, e.g. nn.softmax's) only when `optional_ops` names the op.
Rule FindRule(const std::string& op_name, const std::vector<std::string>& optional_ops = {});

// The fake-quantized region that ends in `quantize` (a qnn.quantize call): every call reached
// backwards from its data through calls, tuples and constants, stopping at qnn.dequantize calls
// (included). Empty if the walk meets anything else (a variable, a function, control flow). The
// dequantize calls and the quantize get their affine types in `types`.
std::vector<ir::Expr> ExtractRegion(const ir::CallNode* quantize, AffineTypeMap& types);

// Helpers the rules share (TVM's fold_constant, approx_equal, get_zeros).
ir::Expr Fold(const ir::Expr& e);
bool ApproxEqual(const ir::Expr& a, const ir::Expr& b);
ir::Expr ZerosLike(const ir::Expr& scale);

}  // namespace relaypass::qnn::fq2i
