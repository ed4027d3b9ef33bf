// TfIdfVectorizer (opset 9; TVM v0.13 has no converter) on integer tokens, from ONNX's
// definition: for each n-gram length n in [min_gram_length, max_gram_length] and each skip s in
// [0, max_skip_count] (only 0 for n = 1), the n-grams x[i], x[i + s + 1], ..., compared with the
// pool's n-grams (equal + logical_and over [batch, positions, pool]), counted over the positions
// and moved to their output columns (ngram_indexes) by nn.dense with a constant 0/1 matrix; then
// TF (the counts), IDF (weight where the count is positive) or TFIDF (count * weight), the
// weights indexed by output column as ONNX's reference implementation reads them.
#include <limits>

#include "context.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

Outputs TfIdfVectorizer(const NodeContext& ctx) {
  ctx.CheckInputs(1, 1);
  const int rank = ctx.ndim(0);
  if (rank != 1 && rank != 2) ctx.Fail("input must be [C] or [N, C]");
  const ir::DataType dt = ctx.dtype(0);
  if (dt != ir::DataType::Int32() && dt != ir::DataType::Int64()) {
    ctx.Fail("input must be int32 or int64 tokens");
  }
  if (ctx.has_attr("pool_strings")) ctx.Unsupported("pool_strings (string tokens)");
  for (const char* required : {"max_gram_length", "min_gram_length", "max_skip_count", "mode",
                               "ngram_counts", "ngram_indexes"}) {
    if (!ctx.has_attr(required)) ctx.Fail(std::string("missing attribute ") + required);
  }
  const int64_t min_n = ctx.attr_int("min_gram_length", 1);
  const int64_t max_n = ctx.attr_int("max_gram_length", 1);
  const int64_t max_skip = ctx.attr_int("max_skip_count", 0);
  const std::string mode = ctx.attr_string("mode", "TF");
  const Ints counts = ctx.attr_ints("ngram_counts");
  const Ints indexes = ctx.attr_ints("ngram_indexes");
  const Ints pool = ctx.attr_ints("pool_int64s");
  const std::vector<float> weights = ctx.attr_floats("weights");
  if (min_n < 1 || max_n < min_n || max_n > 64) {
    ctx.Fail("needs 1 <= min_gram_length <= max_gram_length <= 64");
  }
  if (max_skip < 0) ctx.Fail("max_skip_count must not be negative");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") {
    ctx.Fail("mode must be TF, IDF or TFIDF, got '" + mode + "'");
  }
  if (static_cast<int64_t>(counts.size()) < max_n) {
    ctx.Fail("ngram_counts needs an entry per n-gram length up to max_gram_length");
  }
  // The pool's n-grams of each length: [start, end) in pool_int64s.
  int64_t grams = 0;
  for (size_t k = 0; k < counts.size(); ++k) {
    const int64_t start = counts[k];
    const int64_t end = k + 1 < counts.size() ? counts[k + 1] : static_cast<int64_t>(pool.size());
    if (start < 0 || end < start || end > static_cast<int64_t>(pool.size()) ||
        (end - start) % static_cast<int64_t>(k + 1) != 0) {
      ctx.Fail("ngram_counts do not split pool_int64s into whole n-grams");
    }
    grams += (end - start) / static_cast<int64_t>(k + 1);
  }
  if (grams != static_cast<int64_t>(indexes.size())) {
    ctx.Fail("ngram_indexes needs one entry per pool n-gram");
  }
  int64_t out_size = 0;
  for (int64_t i : indexes) {
    if (i < 0 || i >= (int64_t{1} << 24)) ctx.Fail("ngram_indexes must be in [0, 2^24)");
    out_size = std::max(out_size, i + 1);
  }
  if (!weights.empty() && static_cast<int64_t>(weights.size()) < out_size) {
    ctx.Fail("weights needs a weight per output column");
  }
  const bool int32 = dt == ir::DataType::Int32();
  for (int64_t v : pool) {
    if (int32 &&
        (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()))
      ctx.Fail("pool value " + std::to_string(v) + " does not fit the int32 tokens");
  }

  const ir::Expr x = rank == 1 ? relay::expand_dims(ctx.input(0), 0) : ctx.input(0);
  const int64_t batch = rank == 1 ? 1 : ctx.shape(0)[0];
  const int64_t length = ctx.shape(0).back();
  ir::Expr total;
  int64_t gram_no = 0;
  for (int64_t n = 1; n <= max_n; ++n) {
    const int64_t start = counts[n - 1];
    const int64_t end =
        n < static_cast<int64_t>(counts.size()) ? counts[n] : static_cast<int64_t>(pool.size());
    const int64_t size = (end - start) / n;
    const int64_t first = gram_no;
    gram_no += size;
    if (n < min_n || size == 0) continue;
    // pool_k[j]: the k-th token of the length-n pool n-gram j.
    std::vector<ir::Expr> pool_k;
    for (int64_t k = 0; k < n; ++k) {
      ir::NDArray p = ir::NDArray::Empty({size}, dt);
      for (int64_t j = 0; j < size; ++j) {
        const int64_t v = pool[start + j * n + k];
        if (int32)
          p.mutable_data<int32_t>()[j] = static_cast<int32_t>(v);
        else
          p.mutable_data<int64_t>()[j] = v;
      }
      pool_k.push_back(ir::MakeConstant(p));
    }
    ir::Expr count;  // [batch, size] float32
    for (int64_t s = 0; s <= (n == 1 ? 0 : max_skip); ++s) {
      const int64_t positions = length - (n - 1) * (s + 1);
      if (positions <= 0) break;
      ir::Expr match;  // [batch, positions, size]
      for (int64_t k = 0; k < n; ++k) {
        const int64_t at = k * (s + 1);
        ir::Expr token =
            relay::strided_slice(x, {at}, {at + positions}, relay::Ints{1}, relay::Ints{1});
        ir::Expr eq = relay::call("equal", {relay::expand_dims(token, 2), pool_k[k]});
        match = match ? relay::call("logical_and", {match, eq}) : eq;
      }
      ir::Expr c = relay::sum(relay::cast(match, "float32"), relay::Ints{1});
      count = count ? relay::add(count, c) : c;
    }
    if (!count) continue;
    ir::NDArray to_column = ir::NDArray::Empty({out_size, size}, ir::DataType::Float32());
    float* m = to_column.mutable_data<float>();
    std::fill(m, m + out_size * size, 0.0f);
    for (int64_t j = 0; j < size; ++j) m[indexes[first + j] * size + j] = 1;
    ir::Expr columns = relay::nn::dense(count, ir::MakeConstant(to_column), out_size);
    total = total ? relay::add(total, columns) : columns;
  }
  if (!total) total = relay::zeros({batch, out_size}, "float32");
  if (mode != "TF") {
    ir::NDArray w = ir::NDArray::Empty({out_size}, ir::DataType::Float32());
    for (int64_t i = 0; i < out_size; ++i) {
      w.mutable_data<float>()[i] = weights.empty() ? 1.0f : weights[i];
    }
    const ir::Expr wc = ir::MakeConstant(w);
    total = mode == "IDF" ? relay::where(relay::call("greater", {total, relay::const_(0.0f)}), wc,
                                         relay::zeros_like(total))
                          : relay::multiply(total, wc);
  }
  return {rank == 1 ? relay::squeeze(total, relay::Ints{0}) : total};
}

}  // namespace

void RegisterTfIdf(ConverterTable& t) {
  t.Add("TfIdfVectorizer", 9, TfIdfVectorizer);
}

}  // namespace relaypass::frontend::onnx_import
