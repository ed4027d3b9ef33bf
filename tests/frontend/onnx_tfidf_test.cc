// TfIdfVectorizer through the importer and the evaluator. Expected values: ONNX's examples
// (Operators.md and its tfidfvectorizer.py test generator: tokens [1, 1, 3, 3, 3, 7, 8, 6, 7, 5,
// 6, 8], pool unigrams 2, 3, 5, 4 and bigrams (5, 6), (7, 8), (6, 7)), counted again by hand
// for the weighted modes and the permuted output columns.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"

namespace relaypass::frontend {
namespace {

using test::OnnxGraph;

struct Options {
  int64_t min_n = 1, max_n = 2, skip = 5;
  std::string mode = "TF";
  std::vector<int64_t> indexes = {0, 1, 2, 3, 4, 5, 6};
  std::vector<float> weights;
  std::vector<int64_t> shape = {12};
};

OnnxGraph TfIdf(const Options& o) {
  OnnxGraph g(9);
  g.Input("x", o.shape, onnx::TensorProto::INT32);
  onnx::NodeProto& n = g.Node("TfIdfVectorizer", {"x"}, {"y"}, "tfidf");
  OnnxGraph::IntAttr(n, "min_gram_length", o.min_n);
  OnnxGraph::IntAttr(n, "max_gram_length", o.max_n);
  OnnxGraph::IntAttr(n, "max_skip_count", o.skip);
  OnnxGraph::StringAttr(n, "mode", o.mode);
  OnnxGraph::IntsAttr(n, "ngram_counts", {0, 4});
  OnnxGraph::IntsAttr(n, "ngram_indexes", o.indexes);
  OnnxGraph::IntsAttr(n, "pool_int64s", {2, 3, 5, 4, 5, 6, 7, 8, 6, 7});
  if (!o.weights.empty()) {
    auto* a = n.add_attribute();
    a->set_name("weights");
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float w : o.weights) a->add_floats(w);
  }
  g.Output("y");
  return g;
}

std::vector<float> RunTfIdf(const Options& o) {
  OnnxModel m = FromOnnxBytes(TfIdf(o).Bytes());
  ir::NDArray x = ir::NDArray::Empty(o.shape, ir::DataType::Int32());
  const int32_t tokens[12] = {1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8};
  std::copy(tokens, tokens + 12, x.mutable_data<int32_t>());
  std::vector<ir::NDArray> out = eval::RunMain(m.mod, {x});
  EXPECT_EQ(out.size(), 1u);
  return std::vector<float>(out[0].data<float>(), out[0].data<float>() + out[0].size());
}

TEST(OnnxTfIdfTest, CountsUnigramsAndSkippedBigrams) {
  EXPECT_EQ(RunTfIdf({}), (std::vector<float>{0, 3, 1, 0, 1, 3, 1}));  // uniandbigrams_skip5
  Options bigrams;
  bigrams.min_n = 2;
  bigrams.skip = 0;
  EXPECT_EQ(RunTfIdf(bigrams), (std::vector<float>{0, 0, 0, 0, 1, 1, 1}));  // only_bigrams_skip0
  // A batch of two rows of 6 tokens: no bigram spans the rows (batch_onlybigrams_skip5).
  Options batch = bigrams;
  batch.skip = 5;
  batch.shape = {2, 6};
  EXPECT_EQ(RunTfIdf(batch), (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1}));
}

TEST(OnnxTfIdfTest, WeightedModesAndPermutedColumns) {
  Options o;
  o.weights = {0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f};
  o.mode = "TFIDF";
  EXPECT_EQ(RunTfIdf(o), (std::vector<float>{0, 3, 1.5f, 0, 2.5f, 9, 3.5f}));
  o.mode = "IDF";
  EXPECT_EQ(RunTfIdf(o), (std::vector<float>{0, 1, 1.5f, 0, 2.5f, 3, 3.5f}));
  Options reversed;
  reversed.indexes = {6, 5, 4, 3, 2, 1, 0};
  EXPECT_EQ(RunTfIdf(reversed), (std::vector<float>{1, 3, 1, 0, 1, 3, 0}));
}

TEST(OnnxTfIdfTest, BadAttributesAreNodeErrors) {
  Options mode;
  mode.mode = "BM25";
  Options indexes;
  indexes.indexes = {0, 1, 2};  // 7 pool n-grams
  Options lengths;
  lengths.min_n = 3;
  for (const Options& o : {mode, indexes, lengths}) {
    try {
      FromOnnxBytes(TfIdf(o).Bytes());
      ADD_FAILURE() << "no error";
    } catch (const OnnxError& e) {
      EXPECT_EQ(e.node_name(), "tfidf");
      EXPECT_FALSE(e.unsupported()) << e.what();
    }
  }
}

}  // namespace
}  // namespace relaypass::frontend
