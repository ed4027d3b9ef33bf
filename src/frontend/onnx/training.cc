// The optimizer steps of ONNX's ai.onnx.preview.training domain as TVM v0.13's from_onnx converts
// them (Adagrad, Adam, Momentum): the update formulas of the operator specification composed
// elementwise, constants in the dtype of the node's fourth input, T cast like it (Adagrad, Adam),
// and Relay If on T > 0 for Adam's bias correction and Momentum's beta. TVM's defaults differ
// from ONNX's schema: Adagrad's epsilon is 0 and Adam's 1e-2 (ONNX: 1e-6; TVM takes Adam's
// from ONNX's own test, whose expected outputs use 1e-2 without setting the attribute).
// (Gradient, which differentiates the graph, stays unsupported, as in TVM.)
#include <cmath>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// The number n of tensors updated by a node with `groups` inputs per tensor after R and T.
size_t TensorCount(const NodeContext& ctx, size_t groups) {
  if (ctx.num_inputs() < 2 + groups || (ctx.num_inputs() - 2) % groups != 0) {
    ctx.Fail("expects R, T and " + std::to_string(groups) + " inputs per updated tensor, got " +
             std::to_string(ctx.num_inputs()) + " inputs");
  }
  const size_t n = (ctx.num_inputs() - 2) / groups;
  if (ctx.num_outputs() > n * (groups - 1)) ctx.Fail("too many outputs");
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) ctx.Fail("input " + std::to_string(i) + " is missing");
  }
  for (size_t i : {size_t{0}, size_t{1}}) {
    int64_t size = 1;
    for (ir::Dim d : ctx.shape(i)) size *= d;
    if (size != 1) {
      ctx.Fail(std::string(i == 0 ? "R" : "T") + " must be a scalar");
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (!ctx.dtype(2 + k).is_float()) ctx.Fail("the updated tensors must be float tensors");
    for (size_t g = 1; g < groups; ++g) {
      if (ctx.shape(2 + g * n + k) != ctx.shape(2 + k)) {
        ctx.Fail("input " + std::to_string(2 + g * n + k) + " differs in shape from X" +
                 std::to_string(k + 1));
      }
    }
  }
  return n;
}

// Outputs in the order X_new_1..n, then each accumulator's 1..n.
Outputs Interleave(const std::vector<std::vector<ir::Expr>>& per_tensor, size_t outputs) {
  Outputs out;
  for (size_t g = 0; g < per_tensor[0].size(); ++g) {
    for (const std::vector<ir::Expr>& t : per_tensor) out.push_back(t[g]);
  }
  out.resize(std::min(out.size(), outputs));
  return out;
}

double Attr(const NodeContext& ctx, const char* name, double fallback, bool required) {
  if (required && !ctx.has_attr(name)) ctx.Fail(std::string("missing attribute ") + name);
  const double v = ctx.attr_float(name, fallback);
  if (!std::isfinite(v)) ctx.Fail(std::string(name) + " must be finite");
  return v;
}

// r = R / (1 + T * decay_factor); G' = norm_coefficient * X + G; H' = H + G' * G';
// X' = X - r * G' / (sqrt(H') + epsilon).
Outputs Adagrad(const NodeContext& ctx) {
  const size_t n = TensorCount(ctx, 3);
  const ir::DataType dt = ctx.dtype(3);
  auto c = [&](double value) { return ScalarConst(value, dt); };
  const ir::Expr decay = c(Attr(ctx, "decay_factor", 0.0, false));
  const ir::Expr epsilon = c(Attr(ctx, "epsilon", 0.0, false));
  const ir::Expr norm = c(Attr(ctx, "norm_coefficient", 0.0, false));
  const ir::Expr r = ctx.input(0), t = relay::cast_like(ctx.input(1), ctx.input(3));
  std::vector<std::vector<ir::Expr>> updated;
  for (size_t k = 0; k < n; ++k) {
    const ir::Expr x = ctx.input(2 + k), g = ctx.input(2 + n + k), h = ctx.input(2 + 2 * n + k);
    ir::Expr rate = relay::divide(r, relay::add(c(1.0), relay::multiply(t, decay)));
    ir::Expr g_reg = relay::add(relay::multiply(norm, x), g);
    ir::Expr h_new = relay::add(h, relay::multiply(g_reg, g_reg));
    ir::Expr h_adaptive = relay::add(relay::sqrt(h_new), epsilon);
    ir::Expr x_new = relay::subtract(x, relay::divide(relay::multiply(rate, g_reg), h_adaptive));
    updated.push_back({x_new, h_new});
  }
  return Interleave(updated, ctx.num_outputs());
}

// G' = norm_coefficient * X + G; V' = alpha V + (1 - alpha) G'; H' = beta H + (1 - beta) G'^2;
// R' = R sqrt(1 - beta^T) / (1 - alpha^T) if T > 0 else R;
// X' = (1 - norm_coefficient_post) (X - R' (V' / (sqrt(H') + epsilon))).
Outputs Adam(const NodeContext& ctx) {
  const size_t n = TensorCount(ctx, 4);
  const ir::DataType dt = ctx.dtype(3);
  auto c = [&](double value) { return ScalarConst(value, dt); };
  const double alpha_value = Attr(ctx, "alpha", 0.9, false);
  const double beta_value = Attr(ctx, "beta", 0.999, false);
  const ir::Expr inverse_alpha = c(1 - alpha_value), alpha = c(alpha_value);
  const ir::Expr inverse_beta = c(1 - beta_value), beta = c(beta_value);
  const ir::Expr epsilon = c(Attr(ctx, "epsilon", 1e-2, false));
  const ir::Expr norm = c(Attr(ctx, "norm_coefficient", 0.0, false));
  const ir::Expr norm_post = c(Attr(ctx, "norm_coefficient_post", 0.0, false));
  const ir::Expr one = c(1);
  const ir::Expr r = ctx.input(0), t = relay::cast_like(ctx.input(1), ctx.input(3));
  std::vector<std::vector<ir::Expr>> updated;
  for (size_t k = 0; k < n; ++k) {
    const ir::Expr x = ctx.input(2 + k), g = ctx.input(2 + n + k);
    const ir::Expr v = ctx.input(2 + 2 * n + k), h = ctx.input(2 + 3 * n + k);
    ir::Expr g_reg = relay::add(relay::multiply(norm, x), g);
    ir::Expr v_new = relay::add(relay::multiply(alpha, v), relay::multiply(inverse_alpha, g_reg));
    ir::Expr h_new = relay::add(relay::multiply(beta, h),
                                relay::multiply(relay::multiply(inverse_beta, g_reg), g_reg));
    ir::Expr h_sqrt = relay::add(relay::sqrt(h_new), epsilon);
    ir::Expr corrected =
        relay::divide(relay::multiply(r, relay::sqrt(relay::subtract(one, relay::power(beta, t)))),
                      relay::subtract(one, relay::power(alpha, t)));
    ir::Expr r_adjusted = ir::MakeIf(relay::call("greater", {t, c(0)}), corrected, r);
    ir::Expr x_new = relay::subtract(x, relay::multiply(r_adjusted, relay::divide(v_new, h_sqrt)));
    updated.push_back({relay::multiply(relay::subtract(one, norm_post), x_new), v_new, h_new});
  }
  return Interleave(updated, ctx.num_outputs());
}

// G' = norm_coefficient * X + G; V' = alpha V + beta' G' with beta' = beta if T > 0 else 1;
// standard: X' = X - R V'; nesterov: X' = X - R (G' + alpha V').
Outputs Momentum(const NodeContext& ctx) {
  const size_t n = TensorCount(ctx, 3);
  const ir::DataType dt = ctx.dtype(3);
  auto c = [&](double value) { return ScalarConst(value, dt); };
  const ir::Expr alpha = c(Attr(ctx, "alpha", 0, true));
  const ir::Expr beta = c(Attr(ctx, "beta", 0, true));
  const ir::Expr norm = c(Attr(ctx, "norm_coefficient", 0, true));
  if (!ctx.has_attr("mode")) ctx.Fail("missing attribute mode");
  const std::string mode = ctx.attr_string("mode", "");
  if (mode != "standard" && mode != "nesterov") {
    ctx.Fail("mode must be standard or nesterov, got '" + mode + "'");
  }
  const ir::Expr r = ctx.input(0);
  std::vector<std::vector<ir::Expr>> updated;
  for (size_t k = 0; k < n; ++k) {
    const ir::Expr x = ctx.input(2 + k), g = ctx.input(2 + n + k), v = ctx.input(2 + 2 * n + k);
    ir::Expr g_reg = relay::add(relay::multiply(norm, x), g);
    ir::Expr beta_adjusted =
        ir::MakeIf(relay::call("greater", {ctx.input(1), ScalarConst(0, ir::DataType::Int64())}),
                   beta, c(1.0));
    ir::Expr v_new = relay::add(relay::multiply(alpha, v), relay::multiply(beta_adjusted, g_reg));
    ir::Expr step = mode == "standard" ? v_new : relay::add(g_reg, relay::multiply(alpha, v_new));
    updated.push_back({relay::subtract(x, relay::multiply(r, step)), v_new});
  }
  return Interleave(updated, ctx.num_outputs());
}

}  // namespace

void RegisterTraining(ConverterTable& t) {
  t.Add("Adagrad", 1, Adagrad);
  t.Add("Adam", 1, Adam);
  t.Add("Momentum", 1, Momentum);
}

}  // namespace relaypass::frontend::onnx_import
