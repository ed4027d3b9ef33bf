// Hostile ONNX models (issue 19's class 8 for the importer; docs/reliability.md): oversized,
// cyclic, wrongly typed and inconsistent models are each one OnnxError (or a relaypass::Error)
// naming what is wrong, never a crash, an allocation of the claimed size, or another exception
// type. Expected messages are the importer's own wording; what makes each model bad is stated
// with the test.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "onnx_builder.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/ir/module.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::OnnxGraph;

// The message of the relaypass::Error that importing `bytes` raises ("" and a failure if none).
std::string ImportMessage(const std::string& bytes, const OnnxOptions& options = {}) {
  try {
    FromOnnxBytes(bytes, options, "m.onnx");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "imported without an error";
  return "";
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// An initializer whose dims claim 2^40 floats but carries four bytes: rejected by comparing the
// data with the claim, before any allocation (the process would otherwise need 4 TiB).
TEST(OnnxHostileTest, InitializerClaimingHugeShapeWithLittleData) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  onnx::TensorProto* t = g.model().mutable_graph()->add_initializer();
  t->set_name("w");
  t->set_data_type(onnx::TensorProto::FLOAT);
  t->add_dims(int64_t{1} << 20);
  t->add_dims(int64_t{1} << 20);
  t->set_raw_data(std::string(4, '\0'));
  g.Node("Add", {"x", "w"}, {"y"}, "add");
  g.Output("y");
  const std::string what = ImportMessage(g.Bytes());
  EXPECT_TRUE(Has(what, "'w'") || Has(what, "w:")) << what;
  EXPECT_TRUE(Has(what, "elements")) << what;
}

// The same claim through the typed field (float_data with one value for 2^30 elements).
TEST(OnnxHostileTest, TypedFieldWithTooFewValues) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Initializer("w", {int64_t{1} << 30}, {1.0f});
  g.Node("Add", {"x", "w"}, {"y"}, "add");
  g.Output("y");
  EXPECT_TRUE(Has(ImportMessage(g.Bytes()), "1 values for 1073741824 elements"));
}

// Dims whose product overflows int64 (and a negative dimension) are rejected as such.
TEST(OnnxHostileTest, InitializerDimsOverflowingInt64) {
  for (int64_t d : {int64_t{3037000500}, int64_t{-2}}) {
    OnnxGraph g;
    g.Input("x", {1, 4});
    onnx::TensorProto* t = g.model().mutable_graph()->add_initializer();
    t->set_name("w");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(d);
    t->add_dims(d);
    t->set_raw_data(std::string(4, '\0'));
    g.Node("Add", {"x", "w"}, {"y"}, "add");
    g.Output("y");
    OnnxOptions options;
    options.check_model = false;  // the importer's own check (ONNX's checker has its own)
    const std::string what = ImportMessage(g.Bytes(), options);
    EXPECT_TRUE(Has(what, d < 0 ? "negative dimension" : "more than 2147483648 elements")) << what;
  }
}

// ConstantOfShape asked for 2^62 elements: the node is named, nothing is allocated.
TEST(OnnxHostileTest, ConstantOfShapeTooLarge) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.IntInitializer("shape", {int64_t{1} << 31, int64_t{1} << 31});
  g.Node("ConstantOfShape", {"shape"}, {"c"}, "huge");
  g.Node("Add", {"x", "c"}, {"y"}, "add");
  g.Output("y");
  const std::string what = ImportMessage(g.Bytes());
  EXPECT_TRUE(Has(what, "node #0 'huge' (ConstantOfShape)")) << what;
  EXPECT_TRUE(Has(what, "more than")) << what;
}

// Expand of known inputs to 2^42 elements: folding it at import would allocate 16 TiB, so it
// stays in the graph as TVM's from_onnx leaves it (broadcast_to), and the import succeeds.
TEST(OnnxHostileTest, HugeFoldableValueIsLeftUnfolded) {
  OnnxGraph g;
  g.Input("x", {1});
  g.Initializer("c", {1}, {1.0f});
  g.IntInitializer("s", {int64_t{1} << 20, int64_t{1} << 20, 4});
  g.Node("Expand", {"c", "s"}, {"e"}, "expand");
  g.Node("Add", {"x", "e"}, {"y"}, "add");
  g.Output("y");
  OnnxModel m = FromOnnxBytes(g.Bytes(), {}, "m.onnx");
  EXPECT_TRUE(Has(text::AsText(m.mod), "broadcast_to"));
}

// A cycle: each node consumes the other's output. Not topologically sorted, named by position.
TEST(OnnxHostileTest, CyclicGraph) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Node("Add", {"x", "b"}, {"a"}, "first");
  g.Node("Relu", {"a"}, {"b"}, "second");
  g.Output("b");
  const std::string what = ImportMessage(g.Bytes());
  EXPECT_TRUE(Has(what, "not topologically sorted") || Has(what, "checker")) << what;
}

// A node that consumes its own output.
TEST(OnnxHostileTest, SelfLoop) {
  OnnxGraph g;
  g.Input("x", {1, 4});
  g.Node("Add", {"x", "y"}, {"y"}, "loop");
  g.Output("y");
  const std::string what = ImportMessage(g.Bytes());
  EXPECT_TRUE(Has(what, "not topologically sorted") || Has(what, "checker")) << what;
}

// Wrongly typed: an int64 input into Conv (ONNX's Conv takes floats only) and an Add of a
// float and an int64 tensor. A type error naming the node, not a kernel on the wrong bytes.
TEST(OnnxHostileTest, WronglyTypedInputs) {
  {
    OnnxGraph g;
    g.Input("x", {1, 1, 4, 4}, onnx::TensorProto::INT64);
    g.Initializer("w", {1, 1, 1, 1}, {1.0f});
    g.Node("Conv", {"x", "w"}, {"y"}, "conv");
    g.Output("y");
    const std::string what = ImportMessage(g.Bytes());
    // ONNX's schema for Conv-11 constrains T to float16, float and double.
    EXPECT_TRUE(Has(what,
                    "node #0 'conv' (Conv): input 0 ('x') is tensor(int64), which Conv-11 "
                    "does not accept for T"))
        << what;
  }
  {
    OnnxGraph g;
    g.Input("x", {1, 4});
    g.Input("i", {1, 4}, onnx::TensorProto::INT64);
    g.Node("Add", {"x", "i"}, {"y"}, "add");
    g.Output("y");
    const std::string what = ImportMessage(g.Bytes());
    EXPECT_TRUE(Has(what, "'add'") || Has(what, "checker")) << what;
  }
}

// A graph output no node produces, and a value produced twice (ONNX graphs are SSA).
TEST(OnnxHostileTest, DanglingOutputAndDuplicateDefinition) {
  {
    OnnxGraph g;
    g.Input("x", {1, 4});
    g.Node("Relu", {"x"}, {"y"}, "r");
    g.Output("nowhere");
    EXPECT_TRUE(Has(ImportMessage(g.Bytes()), "nowhere"));
  }
  {
    OnnxGraph g;
    g.Input("x", {1, 4});
    g.Node("Relu", {"x"}, {"y"}, "r1");
    g.Node("Relu", {"x"}, {"y"}, "r2");
    g.Output("y");
    const std::string what = ImportMessage(g.Bytes());
    EXPECT_TRUE(Has(what, "'y'")) << what;
  }
}

// An attribute value the node's integer type cannot hold (Shrink's bias on int8; the importer
// fuzzer's finding: converting it was undefined behaviour) is an error naming the node.
TEST(OnnxHostileTest, AttributeValueBeyondTheIntegerType) {
  OnnxGraph g;
  g.Input("x", {4}, onnx::TensorProto::INT8);
  onnx::NodeProto& n = g.Node("Shrink", {"x"}, {"y"}, "s");
  OnnxGraph::FloatAttr(n, "bias", 1e37f);
  g.Output("y");
  const std::string what = ImportMessage(g.Bytes());
  EXPECT_TRUE(Has(what, "node #0 's' (Shrink): the value 1e+37")) << what;
  EXPECT_TRUE(Has(what, "does not fit int8")) << what;
}

// External data that points outside the model's folder, or with offsets that are not numbers or
// run past the file: errors naming the initializer, and no file outside the folder is read.
TEST(OnnxHostileTest, ExternalDataOutsideTheFolderOrOutOfRange) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("onnx_hostile_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream data(dir / "w.bin", std::ios::binary);
    data << std::string(16, '\0');
  }
  auto model_with = [&](const std::string& location, const std::string& offset) {
    OnnxGraph g;
    g.Input("x", {1, 4});
    onnx::TensorProto* t = g.model().mutable_graph()->add_initializer();
    t->set_name("w");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(1);
    t->add_dims(4);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* loc = t->add_external_data();
    loc->set_key("location");
    loc->set_value(location);
    auto* off = t->add_external_data();
    off->set_key("offset");
    off->set_value(offset);
    g.Node("Add", {"x", "w"}, {"y"}, "add");
    g.Output("y");
    const std::string path = (dir / "m.onnx").string();
    std::ofstream(path, std::ios::binary) << g.Bytes();
    return path;
  };
  auto message = [](const std::string& path) -> std::string {
    try {
      OnnxOptions options;
      options.check_model = false;  // the importer's own checks, not only the checker's
      FromOnnxFile(path, options);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(model_with("w.bin", "0")), "");  // the good model imports
  EXPECT_TRUE(Has(message(model_with("../w.bin", "0")), "not inside the model's folder"));
  EXPECT_TRUE(Has(message(model_with("/etc/passwd", "0")), "not inside the model's folder"));
  EXPECT_TRUE(Has(message(model_with("w.bin", "zero")), "not a non-negative integer"));
  EXPECT_TRUE(Has(message(model_with("w.bin", "99999999999999999999")), "not a non-negative"));
  EXPECT_TRUE(Has(message(model_with("w.bin", "8")), "bytes of external data"));
  EXPECT_TRUE(Has(message(model_with("w.bin", "17")), "beyond the file's end"));
  // A symbolic link inside the folder that leads out of it (issue 36): refused, not followed.
  const std::filesystem::path outside = dir.string() + "_outside.bin";
  std::ofstream(outside, std::ios::binary) << std::string(16, '\1');
  std::filesystem::create_symlink(outside, dir / "link.bin");
  EXPECT_TRUE(Has(message(model_with("link.bin", "0")), "not inside the model's folder"));
  // A link that stays inside the folder is fine.
  std::filesystem::create_symlink(dir / "w.bin", dir / "inner.bin");
  EXPECT_EQ(message(model_with("inner.bin", "0")), "");
  std::filesystem::remove(outside);
  std::filesystem::remove_all(dir);
}

// Every prefix of a real model's bytes (the committed squeezenet, cut at 64 places) is either a
// typed error or, where protobuf's wire format happens to end cleanly, a model that imports.
TEST(OnnxHostileTest, TruncatedRealModel) {
  const std::string path =
      std::string(RELAYPASS_TEST_DATA) + "/onnx/models/squeezenet1_1/model.onnx";
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  int errors = 0;
  for (int k = 1; k < 64; ++k) {
    const size_t cut = bytes.size() * static_cast<size_t>(k) / 64;
    try {
      FromOnnxBytes(bytes.substr(0, cut), {}, "cut.onnx");
    } catch (const Error&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 60);
}

}  // namespace
}  // namespace relaypass::frontend
