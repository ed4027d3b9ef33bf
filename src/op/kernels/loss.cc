// nn.nll_loss as TVM's topi: loss[n, d...] = -predictions[n, t, d...] * weights[t] for the target
// t = targets[n, d...] (0 where t is ignore_index); "mean" divides the summed loss by the summed
// weights of the targets not ignored, "sum" sums, "none" keeps each. nn.cross_entropy and
// nn.cross_entropy_with_logits as TVM's computes: -sum(log(x) * y) / N and -sum(x * y) / N.
#include <cmath>
#include <string>

#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

Arrays NLLLoss(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const char* op = "nn.nll_loss";
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const std::string& reduction = a.get_string("reduction");
  const int64_t ignore = a.get_int("ignore_index");
  const NDArray targets = CastArray(in[1], DataType::Int(64));
  return PromoteHalf({in[0], in[2]}, out_type, [&](const Arrays& v) -> Arrays {
    const NDArray& pred = v[0];
    const NDArray& weights = v[1];
    if (pred.ndim() != targets.ndim() + 1 || pred.ndim() < 2 || weights.ndim() != 1 ||
        weights.size() != pred.shape()[1] || pred.dtype() != weights.dtype()) {
      Fail(std::string(op) + ": predictions " + ShapeString(pred.shape()) + ", targets " +
           ShapeString(targets.shape()) + " and weights " + ShapeString(weights.shape()) +
           " do not fit");
    }
    const int64_t classes = pred.shape()[1];
    int64_t inner = 1;
    for (int d = 2; d < pred.ndim(); ++d) inner *= pred.shape()[d];
    if (targets.shape()[0] != pred.shape()[0] || targets.size() != pred.shape()[0] * inner) {
      Fail(std::string(op) + ": targets " + ShapeString(targets.shape()) +
           " do not match predictions " + ShapeString(pred.shape()));
    }
    return {DispatchFloat(pred.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* pp = pred.data<T>();
      const T* pw = weights.data<T>();
      const int64_t* pt = targets.data<int64_t>();
      NDArray each = NDArray::Uninitialized(targets.shape(), pred.dtype());
      T* pe = each.mutable_data<T>();
      double loss_sum = 0, weight_sum = 0;
      for (int64_t i = 0; i < targets.size(); ++i) {
        const int64_t t = pt[i];
        if (t == ignore) {
          pe[i] = T(0);
          continue;
        }
        if (t < 0 || t >= classes) {
          Fail(std::string(op) + ": target " + std::to_string(t) + " is not a class in [0, " +
               std::to_string(classes) + ")");
        }
        const int64_t n = i / inner, d = i % inner;
        const T w = pw[t];
        pe[i] = static_cast<T>(-pp[(n * classes + t) * inner + d] * w);
        loss_sum += static_cast<double>(pe[i]);
        weight_sum += static_cast<double>(w);
      }
      if (reduction == "none") return each;
      if (reduction != "mean" && reduction != "sum") {
        Fail(std::string(op) + ": unknown reduction \"" + reduction + "\"");
      }
      const double value = reduction == "sum" ? loss_sum : loss_sum / weight_sum;
      return NDArray::Scalar<T>(static_cast<T>(value), pred.dtype());
    })};
  });
}

namespace {

Arrays CrossEntropyOf(const Arrays& in, const ir::Type& out_type, const char* op, bool logits) {
  CheckInputs(in, 2, op);
  return PromoteHalf(in, out_type, [&](const Arrays& v) -> Arrays {
    const NDArray& x = v[0];
    const NDArray& y = v[1];
    if (x.ndim() != 2 || x.shape() != y.shape() || x.dtype() != y.dtype()) {
      Fail(std::string(op) + ": x " + ShapeString(x.shape()) + " and y " + ShapeString(y.shape()) +
           " must be 2-D of one shape and dtype");
    }
    return {DispatchFloat(x.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* px = x.data<T>();
      const T* py = y.data<T>();
      T sum = 0;
      for (int64_t i = 0; i < x.size(); ++i) sum += (logits ? px[i] : std::log(px[i])) * py[i];
      // 0 / 0 for an empty batch: NaN, as TVM's division.
      return NDArray::Scalar<T>(-sum / static_cast<T>(x.shape()[0]), x.dtype());
    })};
  });
}

}  // namespace

Arrays CrossEntropy(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  return CrossEntropyOf(in, out_type, "nn.cross_entropy", false);
}

Arrays CrossEntropyWithLogits(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  return CrossEntropyOf(in, out_type, "nn.cross_entropy_with_logits", true);
}

}  // namespace relaypass::op::kernels
