// Bad ONNX inputs: each is a relaypass::frontend::OnnxError naming the node, its op type and
// position (or the input / opset at fault), never a crash.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::OnnxGraph;

// The OnnxError of importing `bytes`; fails the test if there is none.
OnnxError ImportError(const std::string& bytes, const OnnxOptions& options = {}) {
  try {
    FromOnnxBytes(bytes, options, "m.onnx");
  } catch (const OnnxError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return OnnxError("none");
}

OnnxGraph Relu() {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Node("Relu", {"x"}, {"y"}, "act");
  g.Output("y");
  return g;
}

TEST(OnnxErrorTest, UnsupportedOpNamesNodeOpAndPosition) {
  OnnxGraph g(15);  // Bernoulli: opset 15, random, never supported
  g.Input("x", {1, 4});
  g.Node("Relu", {"x"}, {"a"}, "first");
  g.Node("Bernoulli", {"a"}, {"y"}, "uq");
  g.Output("y");
  OnnxError e = ImportError(g.Bytes());
  EXPECT_TRUE(e.unsupported());
  EXPECT_EQ(e.node_index(), 1);
  EXPECT_EQ(e.node_name(), "uq");
  EXPECT_EQ(e.op_type(), "Bernoulli");
  EXPECT_NE(std::string(e.what()).find("node #1 'uq' (Bernoulli)"), std::string::npos) << e.what();
}

// MaxPool's Indices output takes one slice per window element: a huge window is refused at
// import instead of building millions of nodes; a bad storage_order is an error.
TEST(OnnxErrorTest, MaxPoolIndicesOverAHugeWindowOrBadStorageOrder) {
  for (int64_t storage_order : {0, 7}) {
    OnnxGraph g;
    g.Input("x", {1, 1, 4000, 4000});
    onnx::NodeProto& mp = g.Node("MaxPool", {"x"}, {"y", "i"}, "pool");
    OnnxGraph::IntsAttr(mp, "kernel_shape", {storage_order ? 2 : 2000, 2});
    OnnxGraph::IntAttr(mp, "storage_order", storage_order);
    g.Output("y");
    g.Output("i");
    OnnxError e = ImportError(g.Bytes());
    EXPECT_EQ(e.unsupported(), storage_order == 0);
    EXPECT_EQ(e.node_name(), "pool");
    EXPECT_NE(std::string(e.what()).find(storage_order ? "storage_order" : "more than 1024"),
              std::string::npos)
        << e.what();
  }
}

TEST(OnnxErrorTest, TruncatedFile) {
  const std::string bytes = Relu().Bytes();
  for (size_t cut : {size_t{1}, bytes.size() / 2, bytes.size() - 1}) {
    try {
      FromOnnxBytes(bytes.substr(0, cut), {}, "m.onnx");
      ADD_FAILURE() << "no error at " << cut;  // a cut may still be a valid (smaller) message
    } catch (const OnnxError& e) {
      EXPECT_NE(std::string(e.what()).find("m.onnx"), std::string::npos);
    }
  }
  EXPECT_NE(std::string(ImportError("").what()).find("empty"), std::string::npos);
  EXPECT_NE(std::string(ImportError("\xff\xff\xff\xff garbage").what()).find("malformed"),
            std::string::npos);
}

TEST(OnnxErrorTest, UnsortedGraph) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Node("Relu", {"a"}, {"y"}, "second");
  g.Node("Relu", {"x"}, {"a"}, "first");
  g.Output("y");
  OnnxError e = ImportError(g.Bytes());
  EXPECT_EQ(e.node_index(), 0);
  EXPECT_NE(std::string(e.what()).find("not topologically sorted"), std::string::npos) << e.what();
}

TEST(OnnxErrorTest, MissingInitializer) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Node("Add", {"x", "bias"}, {"y"}, "add");
  g.Output("y");
  OnnxError e = ImportError(g.Bytes());
  EXPECT_EQ(e.op_type(), "Add");
  EXPECT_NE(std::string(e.what()).find("'bias'"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("missing initializer"), std::string::npos) << e.what();
}

TEST(OnnxErrorTest, UnknownOpset) {
  OnnxGraph g(99);
  g.Input("x", {1, 4});
  g.Node("Relu", {"x"}, {"y"});
  g.Output("y");
  EXPECT_NE(std::string(ImportError(g.Bytes()).what()).find("unknown opset 99"), std::string::npos);
  OnnxOptions options;
  options.opset = 0;
  EXPECT_NE(std::string(ImportError(Relu().Bytes(), options).what()).find("unknown opset 0"),
            std::string::npos);
}

// A dynamic input dimension is `?` (relay Any), as TVM's from_onnx leaves it; OnnxOptions::shape
// (--input-shape) fixes it.
TEST(OnnxErrorTest, DynamicInputIsAnyUnlessShapeGiven) {
  OnnxGraph g;
  g.DynamicInput("data", {1, 4}, 0);
  g.Node("Relu", {"data"}, {"y"});
  g.Output("y");
  OnnxModel dynamic = FromOnnxBytes(g.Bytes());
  const std::string printed = text::PrettyPrint(dynamic.mod);
  EXPECT_NE(printed.find("%data: Tensor[(?, 4), float32]"), std::string::npos) << printed;
  OnnxOptions options;
  options.shape["data"] = {2, 4};
  OnnxModel m = FromOnnxBytes(g.Bytes(), options);
  EXPECT_EQ(m.input_names, std::vector<std::string>{"data"});
  EXPECT_NE(text::PrettyPrint(m.mod).find("%data: Tensor[(2, 4), float32]"), std::string::npos);
}

TEST(OnnxErrorTest, CheckerRejectsBadAttribute) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  onnx::NodeProto& n = g.Node("Relu", {"x"}, {"y"}, "r");
  OnnxGraph::IntAttr(n, "no_such_attribute", 1);
  g.Output("y");
  std::string what = ImportError(g.Bytes()).what();
  EXPECT_NE(what.find("checker"), std::string::npos) << what;
}

TEST(OnnxErrorTest, ShapeMismatchIsATypedError) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Input("z", {1, 3});
  g.Node("Add", {"x", "z"}, {"y"}, "add");
  g.Output("y");
  OnnxError e = ImportError(g.Bytes());
  EXPECT_EQ(e.node_index(), 0);
  EXPECT_NE(std::string(e.what()).find("does not type-check"), std::string::npos) << e.what();
}

TEST(OnnxErrorTest, MissingFile) {
  EXPECT_THROW(FromOnnxFile("/nonexistent/model.onnx"), OnnxError);
  EXPECT_THROW(FromOnnxFile("/tmp"), OnnxError);
}

}  // namespace
}  // namespace relaypass::frontend
