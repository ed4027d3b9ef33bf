// relay.transform.FakeQuantizationToInteger (TVM v0.13): each region `qnn.dequantize -> float
// ops -> qnn.quantize` whose every op has a rule is rewritten into integer ops on the quantized
// values (rules in fq2i_rules.cc). The region is found on the original (typed) graph, as TVM's
// SubgraphExtractor does, and rewritten on the current one.
#include <unordered_set>

#include "fq2i.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/qnn/qnn.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace fq2i {

const AffineType& AffineTypeMap::At(const ir::Expr& e, const std::string& op) const {
  auto it = map_.find(e.get());
  if (it == map_.end()) {
    throw ValueError("FakeQuantizationToInteger: " + op + " has an argument of unknown scale");
  }
  return it->second;
}

namespace {

ir::DataType DTypeOfExpr(const ir::Expr& e) {
  const auto* t = e->checked_type ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
  if (t == nullptr) throw ValueError("FakeQuantizationToInteger: an argument is not typed");
  return t->dtype;
}

AffineType QuantizeType(const ir::CallNode& call) {
  std::optional<ir::DataType> dtype = ir::DataType::Parse(call.attrs->get_string("out_dtype"));
  return {call.args[1], call.args[2], dtype.value_or(ir::DataType::Int(8)),
          static_cast<int>(call.attrs->get_int("axis"))};
}

}  // namespace

std::vector<ir::Expr> ExtractRegion(const ir::CallNode* quantize, AffineTypeMap& types) {
  std::vector<ir::Expr> region;
  std::unordered_set<const ir::ExprNode*> seen;
  std::vector<ir::Expr> stack = {quantize->args[0]};
  while (!stack.empty()) {
    ir::Expr e = stack.back();
    stack.pop_back();
    if (!seen.insert(e.get()).second) continue;
    if (const auto* call = e.as<ir::CallNode>()) {
      const ir::OpNode* op = call->op_node();
      if (op == nullptr) return {};
      if (op->name == "qnn.dequantize") {
        types.Set(e, {call->args[1], call->args[2], DTypeOfExpr(call->args[0]),
                      static_cast<int>(call->attrs->get_int("axis"))});
        region.push_back(e);
      } else if (op->name == "qnn.quantize") {
        // A quantize inside the region: only its data is part of it (TVM).
        types.Set(e, QuantizeType(*call));
        stack.push_back(call->args[0]);
      } else {
        region.push_back(e);
        for (const ir::Expr& arg : call->args) stack.push_back(arg);
      }
    } else if (const auto* tuple = e.as<ir::TupleNode>()) {
      region.push_back(e);
      for (const ir::Expr& field : tuple->fields) stack.push_back(field);
    } else if (const auto* item = e.as<ir::TupleGetItemNode>()) {
      region.push_back(e);
      stack.push_back(item->tuple);
    } else if (!e.as<ir::ConstantNode>()) {
      return {};  // a variable, a function, control flow: not a fake-quantized region
    }
  }
  return region;
}

}  // namespace fq2i

namespace {

using fq2i::AffineType;
using fq2i::AffineTypeMap;

// Rewrites one region, from its dequantize calls up to the quantize `root`.
class RegionRewriter : public ir::ExprMutator {
 public:
  RegionRewriter(const ir::ExprNode* root, std::unordered_set<const ir::ExprNode*> region,
                 AffineTypeMap& types, AffineType out_type,
                 const std::vector<std::string>& optional_ops)
      : root_(root),
        region_(std::move(region)),
        types_(types),
        out_type_(std::move(out_type)),
        optional_ops_(optional_ops) {}

 protected:
  bool ShouldVisitChildren(const ir::Expr& e) override {
    if (e.get() == root_) return true;
    if (!region_.count(e.get())) return false;
    const auto* call = e.as<ir::CallNode>();
    return !(call && call->op_node() && call->op_node()->name == "qnn.dequantize");
  }

  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    if (pre != root_ && !region_.count(pre)) return post;
    const std::string& name = pre->op_node()->name;
    if (name != "qnn.dequantize") types_.Set(post, out_type_);
    auto [out, type] = fq2i::FindRule(name, optional_ops_)(post, types_);
    types_.Set(out, std::move(type));
    return out;
  }

  ir::Expr RewriteTuple(const ir::TupleNode* pre, const ir::Expr& post) override {
    if (!region_.count(pre)) return post;
    AffineType tuple;
    tuple.is_tuple = true;
    for (const ir::Expr& field : post.as<ir::TupleNode>()->fields) {
      tuple.fields.push_back(types_.At(field, "a tuple"));
    }
    types_.Set(post, std::move(tuple));
    return post;
  }

  ir::Expr RewriteTupleGetItem(const ir::TupleGetItemNode* pre, const ir::Expr& post) override {
    if (!region_.count(pre)) return post;
    const auto* item = post.as<ir::TupleGetItemNode>();
    const AffineType& tuple = types_.At(item->tuple, "a tuple item");
    if (!tuple.is_tuple || item->index < 0 ||
        static_cast<size_t>(item->index) >= tuple.fields.size()) {
      throw ValueError("FakeQuantizationToInteger: a tuple item of a non-tuple affine type");
    }
    types_.Set(post, tuple.fields[item->index]);
    return post;
  }

 private:
  const ir::ExprNode* root_;
  std::unordered_set<const ir::ExprNode*> region_;
  AffineTypeMap& types_;
  AffineType out_type_;
  const std::vector<std::string>& optional_ops_;
};

class FakeQuantizationRewriter : public ir::ExprMutator {
 public:
  FakeQuantizationRewriter(bool hard_fail, std::vector<std::string> optional_ops)
      : hard_fail_(hard_fail), optional_ops_(std::move(optional_ops)) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr || op->name != "qnn.quantize") return post;
    AffineTypeMap pre_types;
    std::vector<ir::Expr> region = fq2i::ExtractRegion(pre, pre_types);
    if (region.empty()) return post;
    for (const ir::Expr& e : region) {
      const auto* call = e.as<ir::CallNode>();
      if (call == nullptr || fq2i::FindRule(call->op_node()->name, optional_ops_)) continue;
      if (hard_fail_) {
        throw PassError("FakeQuantizationToInteger: found no rewrite rule for " +
                        call->op_node()->name);
      }
      return post;
    }
    // The region's nodes as they are now (earlier regions below may have been rewritten).
    AffineTypeMap types;
    std::unordered_set<const ir::ExprNode*> current;
    for (const ir::Expr& e : region) {
      ir::Expr now = Lookup(e);
      current.insert(now.get());
      if (pre_types.Has(e)) types.Set(now, pre_types.At(e, "qnn.dequantize"));
    }
    const auto* quantize = post.as<ir::CallNode>();
    AffineType out_type{quantize->args[1], quantize->args[2],
                        ir::DataType::Parse(quantize->attrs->get_string("out_dtype"))
                            .value_or(ir::DataType::Int(8)),
                        static_cast<int>(quantize->attrs->get_int("axis"))};
    try {
      ir::Expr out = RegionRewriter(post.get(), std::move(current), types, out_type, optional_ops_)
                         .Mutate(post);
      // A rewrite the types reject is a failed rewrite (TVM finds out only afterwards).
      return ir::InferExprTypes(out);
    } catch (const InternalError&) {
      throw;
    } catch (const Error& e) {
      if (hard_fail_) throw;
      return post;
    }
  }

 private:
  bool hard_fail_;
  std::vector<std::string> optional_ops_;
};

// use_qat (TVM's QATRewriter): an op of the QAT list whose arguments are all dequantize calls or
// constants becomes its integer rewrite followed by a dequantize, even without a quantize after
// it; chains convert op by op, since a converted op ends in a dequantize.
bool EnabledForQat(const std::string& op) {
  static const std::unordered_set<std::string> ops = {"broadcast_to",
                                                      "clip",
                                                      "expand_dims",
                                                      "max",
                                                      "maximum",
                                                      "min",
                                                      "minimum",
                                                      "nn.avg_pool2d",
                                                      "nn.batch_flatten",
                                                      "nn.batch_matmul",
                                                      "nn.bias_add",
                                                      "nn.conv2d",
                                                      "nn.conv2d_transpose",
                                                      "nn.dense",
                                                      "nn.depth_to_space",
                                                      "nn.global_avg_pool2d",
                                                      "nn.max_pool2d",
                                                      "nn.pad",
                                                      "nn.relu",
                                                      "reshape",
                                                      "split",
                                                      "squeeze",
                                                      "strided_slice",
                                                      "transpose"};
  return ops.count(op) != 0 && fq2i::FindRule(op);
}

class QatRewriter : public ir::ExprMutator {
 public:
  explicit QatRewriter(bool hard_fail) : hard_fail_(hard_fail) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr || !EnabledForQat(op->name)) return post;
    const auto* call = post.as<ir::CallNode>();
    AffineTypeMap types;
    std::vector<ir::Expr> args;
    for (const ir::Expr& arg : call->args) {
      const auto* arg_call = arg.as<ir::CallNode>();
      const ir::OpNode* arg_op = arg_call ? arg_call->op_node() : nullptr;
      if (arg_op && arg_op->name == "qnn.dequantize") {
        ir::Expr data = arg_call->args[0];
        ir::Type type =
            data->checked_type ? data->checked_type : ir::InferExprTypes(data)->checked_type;
        const auto* tensor = type ? type.as<ir::TensorTypeNode>() : nullptr;
        if (tensor == nullptr) return post;
        types.Set(data, AffineType(arg_call->args[1], arg_call->args[2], tensor->dtype,
                                   static_cast<int>(arg_call->attrs->get_int("axis"))));
        args.push_back(data);
      } else if (arg.as<ir::ConstantNode>()) {
        args.push_back(arg);
      } else {
        if (hard_fail_ && arg_call) {
          throw PassError("FakeQuantizationToInteger: no dequantize among the arguments of " +
                          op->name);
        }
        return post;
      }
    }
    try {
      auto [out, t] = fq2i::FindRule(op->name)(ir::MakeCall(call->op, args, call->attrs), types);
      if (t.is_tuple) return post;
      ir::Expr result = relay::call("qnn.dequantize", {out, t.scale, t.zero_point},
                                    {{"axis", ir::AttrValue::Int(t.axis)}});
      return ir::InferExprTypes(result);
    } catch (const InternalError&) {
      throw;
    } catch (const Error&) {
      if (hard_fail_) throw;
      return post;
    }
  }

 private:
  bool hard_fail_;
};

}  // namespace

transform::Pass FakeQuantizationToInteger(bool hard_fail, bool use_qat,
                                          const std::vector<std::string>& optional_qnn_ops) {
  return transform::CreateFunctionPass(
      [hard_fail, use_qat, optional_qnn_ops](const ir::Function& func, const ir::IRModule& mod,
                                             const transform::PassContext&) {
        // Most functions have no dequantize: one scan, and no typing or rewriting.
        bool dequantizes = false;
        ir::post_order_visit(func, [&dequantizes](const ir::Expr& e) {
          const auto* call = e.as<ir::CallNode>();
          const ir::OpNode* op = call ? call->op_node() : nullptr;
          dequantizes = dequantizes || (op && op->name == "qnn.dequantize");
        });
        if (!dequantizes) return func;
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        ir::Expr rewritten = ir::InferExprTypes(
            FakeQuantizationRewriter(hard_fail, optional_qnn_ops).Mutate(typed), mod);
        if (use_qat) rewritten = ir::InferExprTypes(QatRewriter(hard_fail).Mutate(rewritten), mod);
        return rewritten.downcast<ir::FunctionNode>();
      },
      0, "FakeQuantizationToInteger", {"InferType"});
}

std::map<std::string, int64_t> ListFakeQuantizedOpFreqs(const ir::IRModule& mod) {
  std::map<std::string, int64_t> freqs;
  ir::IRModule typed = ir::InferTypes(mod);
  for (const auto& [name, func] : typed.functions()) {
    ir::post_order_visit(func, [&freqs](const ir::Expr& e) {
      const auto* call = e.as<ir::CallNode>();
      if (!call || !call->op_node() || call->op_node()->name != "qnn.quantize") return;
      AffineTypeMap types;
      for (const ir::Expr& node : fq2i::ExtractRegion(call, types)) {
        const auto* inner = node.as<ir::CallNode>();
        if (inner && inner->op_node() && inner->op_node()->name != "qnn.dequantize") {
          ++freqs[inner->op_node()->name];
        }
      }
    });
  }
  return freqs;
}

}  // namespace relaypass::qnn
