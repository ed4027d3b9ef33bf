// RNN, GRU and LSTM unrolled over the (static) sequence, as TVM's converters do with their
// rnn/gru/lstm cells: the input projection for all steps at once (nn.dense), then per step the
// hidden projection, the gates (split), their activations and the state update; forward,
// reverse and bidirectional; clip, activation_alpha / beta, GRU's linear_before_reset, LSTM's
// peepholes, and layout 1 (batch first).
#include <algorithm>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;
using ir::Expr;

enum class Kind { kRnn, kGru, kLstm };

struct Activation {
  std::string name;
  double alpha = 0, beta = 0;
};

Expr Apply(const NodeContext& ctx, const Activation& a, Expr x) {
  const ir::DataType dt = ctx.dtype(0);
  auto c = [&](double v) { return ScalarConst(v, dt); };
  const std::string& n = a.name;
  if (n == "Sigmoid") return relay::sigmoid(x);
  if (n == "Tanh") return relay::tanh(x);
  if (n == "Relu") return relay::nn::relu(x);
  if (n == "LeakyRelu") return relay::nn::leaky_relu(x, a.alpha);
  if (n == "HardSigmoid") {
    return relay::clip(relay::add(relay::multiply(x, c(a.alpha)), c(a.beta)), 0, 1);
  }
  if (n == "Affine") return relay::add(relay::multiply(x, c(a.alpha)), c(a.beta));
  if (n == "ScaledTanh")
    return relay::multiply(relay::tanh(relay::multiply(x, c(a.beta))), c(a.alpha));
  if (n == "Softsign") return relay::divide(x, relay::add(c(1), relay::abs(x)));
  if (n == "Softplus") return relay::log(relay::add(relay::exp(x), c(1)));
  if (n == "Elu") {
    return relay::add(
        relay::multiply(c(-a.alpha), relay::nn::relu(relay::subtract(c(1), relay::exp(x)))),
        relay::nn::relu(x));
  }
  ctx.Unsupported("activation " + n);
}

// The activations of each direction (defaults, or the node's list with alpha / beta).
std::vector<std::vector<Activation>> Activations(const NodeContext& ctx, Kind kind, int dirs) {
  const std::vector<std::string> defaults =
      kind == Kind::kRnn   ? std::vector<std::string>{"Tanh"}
      : kind == Kind::kGru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                           : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  const size_t per = defaults.size();
  std::vector<std::string> names;
  if (const onnx::AttributeProto* a = ctx.attr("activations")) {
    for (const std::string& s : a->strings()) names.push_back(s);
  }
  if (names.empty()) {
    for (int d = 0; d < dirs; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  }
  if (names.size() != per * dirs)
    ctx.Fail("activations needs " + std::to_string(per * dirs) + " entries");
  std::vector<float> alphas = ctx.attr_floats("activation_alpha");
  std::vector<float> betas = ctx.attr_floats("activation_beta");
  size_t ai = 0, bi = 0;
  std::vector<std::vector<Activation>> out(dirs);
  for (size_t i = 0; i < names.size(); ++i) {
    Activation a{names[i]};
    // ONNX's defaults, as TVM's converters apply them.
    if (a.name == "LeakyRelu") a.alpha = 0.01;
    if (a.name == "HardSigmoid") a = {a.name, 0.2, 0.5};
    if (a.name == "Elu" || a.name == "ScaledTanh" || a.name == "Affine") a.alpha = 1.0;
    if (a.name == "ScaledTanh" || a.name == "Affine") a.beta = a.name == "ScaledTanh" ? 1.0 : 0.0;
    const bool takes_alpha = a.name == "LeakyRelu" || a.name == "HardSigmoid" || a.name == "Elu" ||
                             a.name == "ScaledTanh" || a.name == "Affine";
    const bool takes_beta = a.name == "HardSigmoid" || a.name == "ScaledTanh" || a.name == "Affine";
    if (takes_alpha && ai < alphas.size()) a.alpha = alphas[ai++];
    if (takes_beta && bi < betas.size()) a.beta = betas[bi++];
    out[i / per].push_back(a);
  }
  return out;
}

// Row `d` of a [num_directions, ...] tensor, without the leading axis.
Expr Direction(const Expr& x, int64_t d) {
  return relay::squeeze(relay::strided_slice(x, {d}, {d + 1}, relay::Ints{1}, relay::Ints{0}),
                        relay::Ints{0});
}

Converter Recurrent(Kind kind) {
  return [kind](const NodeContext& ctx) -> Outputs {
    ctx.CheckInputs(3, kind == Kind::kLstm ? 8 : 6);
    const int gates = kind == Kind::kRnn ? 1 : (kind == Kind::kGru ? 3 : 4);
    const bool batch_first = ctx.attr_int("layout", 0) != 0;
    const ir::Shape& xs = ctx.StaticShape(0, "the unrolled recurrence needs at import");
    if (xs.size() != 3 || ctx.ndim(1) != 3 || ctx.ndim(2) != 3) ctx.Fail("X, W and R must be 3-D");
    if (ctx.has_input(3) && ctx.ndim(3) != 2) ctx.Fail("B must be 2-D");
    if (ctx.shape(1)[1] != gates * ctx.shape(2)[2] || ctx.shape(1)[2] != xs[2]) {
      ctx.Fail("W does not match X and R");
    }
    const int64_t seq = batch_first ? xs[1] : xs[0];
    const int64_t batch = batch_first ? xs[0] : xs[1];
    const int64_t dirs = ctx.shape(1)[0];
    const int64_t hidden = ctx.shape(2)[2];
    const std::string direction = ctx.attr_string("direction", "forward");
    if ((direction == "bidirectional") != (dirs == 2)) ctx.Fail("direction and W disagree");
    if (ctx.has_input(4)) {
      for (int64_t len : ctx.IntsValue(4, "sequence_lens")) {
        if (len != seq) ctx.Unsupported("sequence_lens shorter than the sequence");
      }
    }
    const std::vector<std::vector<Activation>> acts =
        Activations(ctx, kind, static_cast<int>(dirs));
    const bool has_clip = ctx.has_attr("clip");
    const double clip = ctx.attr_float("clip", 0);
    const bool linear_before_reset = ctx.attr_int("linear_before_reset", 0) != 0;
    const ir::DataType dt = ctx.dtype(0);
    auto clipped = [&](Expr x) { return has_clip ? relay::clip(x, -clip, clip) : x; };

    Expr x = ctx.input(0);
    if (batch_first) x = relay::transpose(x, relay::Ints{1, 0, 2});
    const int64_t input_size = xs[2];
    Expr x2d = relay::reshape(x, relay::Ints{seq * batch, input_size});
    auto initial = [&](size_t i) -> Expr {
      if (!ctx.has_input(i)) return relay::zeros({dirs, batch, hidden}, dt.ToString());
      Expr v = ctx.input(i);
      return batch_first ? relay::transpose(v, relay::Ints{1, 0, 2}) : v;
    };
    const Expr h0 = initial(5);
    const Expr c0 = kind == Kind::kLstm ? initial(6) : Expr();

    std::vector<std::vector<Expr>> ys(seq, std::vector<Expr>(dirs));
    std::vector<Expr> last_h(dirs), last_c(dirs);
    for (int64_t d = 0; d < dirs; ++d) {
      const bool reverse = direction == "reverse" || d == 1;
      const Expr w = Direction(ctx.input(1), d);  // [gates * hidden, input]
      const Expr r = Direction(ctx.input(2), d);  // [gates * hidden, hidden]
      Expr xw = relay::nn::dense(x2d, w);         // [seq * batch, gates * hidden]
      Expr rb;
      if (ctx.has_input(3)) {
        const Expr b = Direction(ctx.input(3), d);  // [2 * gates * hidden]
        const Expr wb = relay::strided_slice(b, {0}, {gates * hidden});
        rb = relay::strided_slice(b, {gates * hidden}, {2 * gates * hidden});
        xw = relay::add(xw, wb);
      }
      xw = relay::reshape(xw, relay::Ints{seq, batch, gates * hidden});
      Expr p;
      if (kind == Kind::kLstm && ctx.has_input(7)) p = Direction(ctx.input(7), d);  // [3 * hidden]
      Expr h = Direction(h0, d);
      Expr c = kind == Kind::kLstm ? Direction(c0, d) : Expr();
      const std::vector<Activation>& act = acts[d];
      for (int64_t step = 0; step < seq; ++step) {
        const int64_t t = reverse ? seq - 1 - step : step;
        Expr xt = Direction(xw, t);  // [batch, gates * hidden]
        if (kind == Kind::kRnn) {
          Expr pre = relay::add(xt, relay::nn::dense(h, r));
          if (static_cast<bool>(rb)) pre = relay::add(pre, rb);
          h = Apply(ctx, act[0], clipped(pre));
        } else if (kind == Kind::kGru) {
          // W and R are stacked z, r, h.
          Expr xg = relay::split(xt, 3, 1);
          Expr rs = relay::split(r, 3, 0);
          Expr rbs = static_cast<bool>(rb) ? relay::split(rb, 3, 0) : Expr();
          auto hidden_part = [&](int g, Expr state) {
            Expr v = relay::nn::dense(state, relay::get_item(rs, g));
            return static_cast<bool>(rbs) ? relay::add(v, relay::get_item(rbs, g)) : v;
          };
          Expr z =
              Apply(ctx, act[0], clipped(relay::add(relay::get_item(xg, 0), hidden_part(0, h))));
          Expr rr =
              Apply(ctx, act[0], clipped(relay::add(relay::get_item(xg, 1), hidden_part(1, h))));
          Expr hh;
          if (linear_before_reset) {
            hh = relay::add(relay::get_item(xg, 2), relay::multiply(rr, hidden_part(2, h)));
          } else {
            hh = relay::add(relay::get_item(xg, 2), hidden_part(2, relay::multiply(rr, h)));
          }
          hh = Apply(ctx, act[1], clipped(hh));
          h = relay::add(relay::multiply(relay::subtract(ScalarConst(1, dt), z), hh),
                         relay::multiply(z, h));
        } else {
          Expr pre = relay::add(xt, relay::nn::dense(h, r));
          if (static_cast<bool>(rb)) pre = relay::add(pre, rb);
          Expr g = relay::split(pre, 4, 1);  // i, o, f, c
          Expr pi, po, pf;
          if (static_cast<bool>(p)) {
            Expr ps = relay::split(p, 3, 0);
            pi = relay::get_item(ps, 0);
            po = relay::get_item(ps, 1);
            pf = relay::get_item(ps, 2);
          }
          Expr i_pre = relay::get_item(g, 0), f_pre = relay::get_item(g, 2);
          if (static_cast<bool>(p)) {
            i_pre = relay::add(i_pre, relay::multiply(pi, c));
            f_pre = relay::add(f_pre, relay::multiply(pf, c));
          }
          Expr it = Apply(ctx, act[0], clipped(i_pre));
          Expr ft = Apply(ctx, act[0], clipped(f_pre));
          Expr ct = Apply(ctx, act[1], clipped(relay::get_item(g, 3)));
          c = relay::add(relay::multiply(ft, c), relay::multiply(it, ct));
          Expr o_pre = relay::get_item(g, 1);
          if (static_cast<bool>(p)) o_pre = relay::add(o_pre, relay::multiply(po, c));
          Expr ot = Apply(ctx, act[0], clipped(o_pre));
          h = relay::multiply(ot, Apply(ctx, act[2], c));
        }
        ys[t][d] = h;
      }
      last_h[d] = h;
      last_c[d] = c;
    }
    auto stack = [](const std::vector<Expr>& parts) {
      std::vector<Expr> expanded;
      for (const Expr& e : parts) expanded.push_back(relay::expand_dims(e, 0));
      return expanded.size() == 1 ? expanded[0] : relay::concatenate(expanded, 0);
    };
    std::vector<Expr> steps;
    for (int64_t t = 0; t < seq; ++t) steps.push_back(stack(ys[t]));
    Expr y = stack(steps);  // [seq, dirs, batch, hidden]
    Expr yh = stack(last_h);
    if (batch_first) {
      y = relay::transpose(y, relay::Ints{2, 0, 1, 3});
      yh = relay::transpose(yh, relay::Ints{1, 0, 2});
    }
    Outputs out{y, yh};
    if (kind == Kind::kLstm) {
      Expr yc = stack(last_c);
      if (batch_first) yc = relay::transpose(yc, relay::Ints{1, 0, 2});
      out.push_back(yc);
    }
    return out;
  };
}

}  // namespace

void RegisterRecurrent(ConverterTable& t) {
  t.Add("RNN", 7, Recurrent(Kind::kRnn));
  t.Add("GRU", 7, Recurrent(Kind::kGru));
  t.Add("LSTM", 7, Recurrent(Kind::kLstm));
}

}  // namespace relaypass::frontend::onnx_import
