// The library pieces behind relay-opt (include/relaypass/tools/), used from C++ directly.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>

#include "../depth_scale.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/tools/chrome_trace.h"
#include "relaypass/tools/dot.h"
#include "relaypass/tools/module_stats.h"
#include "relaypass/tools/npy.h"
#include "relaypass/tools/op_count.h"
#include "relaypass/tools/print_ir_instrument.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::tools {
namespace {

using ir::IRModule;
using transform::PassStatus;

IRModule Parse(const std::string& text) {
  return text::ParseModule(text);
}

IRModule SmallModule() {
  return Parse(
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = add(%x, 1f);\n"
      "  multiply(%0, %0)\n"
      "}\n");
}

// A module pass that replaces main's body by `wrap(body)`.
transform::Pass Rewrite(const std::string& name, ir::Expr (*wrap)(ir::Expr)) {
  return transform::CreateModulePass(
      [wrap](const IRModule& mod, const transform::PassContext&) {
        const ir::Function main = mod.Lookup("main");
        IRModule out = mod;
        out.Add("main", ir::MakeFunction(main->params, wrap(main->body)));
        return out;
      },
      0, name);
}

ir::Expr Double(ir::Expr body) {
  return relay::multiply(body, relay::const_(2.0f));
}
ir::Expr TimesOne(ir::Expr body) {
  return relay::multiply(body, relay::const_(1.0f));
}

// --- module stats --------------------------------------------------------------------------

TEST(ModuleStatsTest, CountAndChange) {
  const IRModule mod = SmallModule();
  // main, %x, add, Op add, 1f, multiply, Op multiply.
  EXPECT_EQ(CountModuleNodes(mod), 7u);
  EXPECT_FALSE(ModuleChanged(mod, mod));
  EXPECT_FALSE(ModuleChanged(mod, SmallModule())) << "structurally equal modules";
  EXPECT_TRUE(ModuleChanged(mod, Rewrite("Double", Double)(mod)));
  IRModule more = mod;
  more.Add("helper", mod.Lookup("main"));
  EXPECT_TRUE(ModuleChanged(mod, more));
}

TEST(ModuleStatsTest, SequentialNamesFindsNestedContainers) {
  const transform::Pass inner = transform::Sequential({transform::InferType()}, "Inner");
  const transform::Pass outer = transform::Sequential({inner, transform::PrintIR()});
  EXPECT_EQ(SequentialNames(outer), (std::set<std::string>{"Inner", "sequential"}));
  EXPECT_TRUE(SequentialNames(transform::InferType()).empty());
}

// --- npy ------------------------------------------------------------------------------------

TEST(NpyTest, RoundTripsEveryDtype) {
  for (const char* name : {"float32", "float64", "float16", "int8", "int16", "int32", "int64",
                           "uint8", "uint16", "uint32", "uint64", "bool"}) {
    const ir::DataType dtype = *ir::DataType::Parse(name);
    ir::NDArray a = ir::NDArray::Empty({2, 3}, dtype);
    auto* bytes = static_cast<uint8_t*>(a.mutable_raw_data());
    for (size_t i = 0; i < a.nbytes(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    if (dtype.is_bool()) {
      for (size_t i = 0; i < a.nbytes(); ++i) bytes[i] &= 1;
    }
    const std::string file = SerializeNpy(a);
    EXPECT_EQ(file.substr(0, 6), "\x93NUMPY");
    const size_t header = static_cast<uint8_t>(file[8]) | (static_cast<uint8_t>(file[9]) << 8);
    EXPECT_EQ((10 + header) % 64, 0u) << "data is 64-byte aligned as NumPy writes it";
    const ir::NDArray b = ParseNpy(file);
    EXPECT_EQ(b.dtype(), dtype) << name;
    EXPECT_EQ(b.shape(), a.shape()) << name;
    EXPECT_TRUE(b.BitwiseEqual(a)) << name;
  }
}

TEST(NpyTest, HeaderIsNumpys) {
  const std::string file = SerializeNpy(ir::NDArray::Empty({5}, ir::DataType::Float32()));
  EXPECT_NE(file.find("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"),
            std::string::npos);
  const std::string scalar = SerializeNpy(ir::NDArray::Scalar<int64_t>(7, ir::DataType::Int64()));
  EXPECT_NE(scalar.find("'shape': (), }"), std::string::npos);
  EXPECT_EQ(ParseNpy(scalar).data<int64_t>()[0], 7);
}

TEST(NpyTest, ReadsBigEndianAndVersion2) {
  std::string header = "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }";
  header.append(64 - (12 + header.size() + 1) % 64, ' ');
  header.push_back('\n');
  std::string file = std::string("\x93NUMPY\x02\x00", 8);
  const uint32_t len = static_cast<uint32_t>(header.size());
  for (int i = 0; i < 4; ++i) file.push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  file += header;
  file += std::string("\x00\x00\x01\x02\xff\xff\xff\xfe", 8);
  const ir::NDArray a = ParseNpy(file);
  ASSERT_EQ(a.shape(), (ir::Shape{2}));
  EXPECT_EQ(a.data<int32_t>()[0], 0x0102);
  EXPECT_EQ(a.data<int32_t>()[1], -2);
}

TEST(NpyTest, RejectsWhatItCannotRead) {
  EXPECT_THROW(ParseNpy("PK\x03\x04 zip"), Error);
  std::string fortran = SerializeNpy(ir::NDArray::Empty({2, 2}, ir::DataType::Float32()));
  fortran.replace(fortran.find("False"), 5, "True ");
  try {
    ParseNpy(fortran, "a.npy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("a.npy: not a valid .npy file: Fortran-ordered", 0), 0u)
        << e.what();
  }
  const std::string full = SerializeNpy(ir::NDArray::Empty({4}, ir::DataType::Float32()));
  EXPECT_THROW(ParseNpy(full.substr(0, full.size() - 1)), Error);  // truncated data
  EXPECT_THROW(SerializeNpy(ir::NDArray::Empty({1}, ir::DataType::BFloat16())), Error);
}

// --- op counts ------------------------------------------------------------------------------

TEST(OpCountTest, CountsOperatorsFusedFunctionsAndConstants) {
  const IRModule mod = Parse(
      "def @main(%x: Tensor[(4), float32]) {\n"
      "  %0 = fn (%p0: Tensor[(4), float32], Primitive=1) {\n"
      "    %1 = add(%p0, 1f);\n"
      "    nn.relu(%1)\n"
      "  };\n"
      "  %2 = %0(%x);\n"
      "  add(%2, 2f)\n"
      "}\n");
  const OpCounts counts = CountOps(mod);
  EXPECT_EQ(counts.ops, (std::map<std::string, int64_t>{{"add", 2}, {"nn.relu", 1}}));
  EXPECT_EQ(counts.total_ops(), 3);
  EXPECT_EQ(counts.fused_functions, 1);
  EXPECT_EQ(counts.constants, 2);
  const std::string table = RenderOpCountTable(counts, OpCounts{{{"add", 1}}, 0, 0});
  EXPECT_EQ(table,
            "operator           before     after\n"
            "add                     2         1\n"
            "nn.relu                 1         0\n"
            "-----------------------------------\n"
            "total                   3         1\n"
            "fused functions         1         0\n"
            "constants               2         0\n");
}

TEST(OpCountTest, InstrumentKeepsTheFirstInputAndTheLastOutput) {
  auto counter = std::make_shared<OpCountInstrument>();
  const IRModule mod = SmallModule();
  transform::PassContext ctx({.instruments = {counter}});
  transform::PassContextScope scope(ctx);
  EXPECT_FALSE(counter->has_result());
  IRModule out = Rewrite("Double", Double)(mod);
  out = transform::Sequential({Rewrite("Double", Double)})(out);
  ASSERT_TRUE(counter->has_result());
  EXPECT_EQ(counter->before().ops.at("multiply"), 1);
  EXPECT_EQ(counter->after().ops.at("multiply"), 3);
}

// --- print IR -------------------------------------------------------------------------------

TEST(PrintIRInstrumentTest, BeforeAfterAndChangedOnly) {
  std::ostringstream out;
  PrintIROptions options;
  options.before = {"Double"};
  options.after = {"all"};
  options.changed_only = true;
  options.containers = {"sequential"};
  options.printer = [](const IRModule& mod) { return "<" + std::to_string(mod.size()) + ">\n"; };
  options.out = &out;
  auto printer = std::make_shared<PrintIRInstrument>(options);
  transform::PassContext ctx({.instruments = {printer}});
  transform::PassContextScope scope(ctx);
  transform::Sequential({Rewrite("Double", Double), transform::PrintIR()})(SmallModule());
  EXPECT_EQ(out.str(),
            "// *** IR Dump Before Double ***\n<1>\n\n"
            "// *** IR Dump After Double ***\n<1>\n\n");
}

// --- chrome trace ---------------------------------------------------------------------------

TEST(ChromeTraceTest, RecordsNestedSkippedAndChangedInvocations) {
  // A fake clock that advances 1us per reading.
  auto now = std::make_shared<std::chrono::steady_clock::time_point>();
  ChromeTraceOptions options;
  options.clock = [now] { return *now += std::chrono::microseconds(1); };
  auto trace = std::make_shared<ChromeTraceInstrument>(options);
  transform::PassContext ctx({.opt_level = 1, .instruments = {trace}});
  transform::PassContextScope scope(ctx);
  const transform::Pass level3 = transform::CreateModulePass(
      [](const IRModule& m, const transform::PassContext&) { return m; }, 3, "Level3");
  transform::Sequential({Rewrite("Double", Double), level3})(SmallModule());

  const auto& events = trace->events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].name, "sequential");
  EXPECT_EQ(events[0].depth, 0);
  EXPECT_EQ(events[1].name, "Double");
  EXPECT_EQ(events[1].depth, 1);
  EXPECT_EQ(events[1].status, PassStatus::kOk);
  EXPECT_EQ(events[1].nodes_before, 7u);
  EXPECT_EQ(events[1].nodes_after, 9u);  // multiply(body, 2f): two nodes, the Op is shared
  EXPECT_EQ(events[1].changed, true);
  EXPECT_EQ(events[2].name, "Level3");
  EXPECT_EQ(events[2].status, PassStatus::kSkippedOptLevel);
  EXPECT_EQ(events[2].duration_ns, 0);
  EXPECT_FALSE(events[2].nodes_after.has_value());
  // Children lie within their parent.
  for (size_t i = 1; i < events.size(); ++i) {
    EXPECT_GE(events[i].start_ns, events[0].start_ns);
    EXPECT_LE(events[i].start_ns + events[i].duration_ns,
              events[0].start_ns + events[0].duration_ns);
  }
  const std::string json = trace->ToJson();
  EXPECT_NE(json.find("{\"name\": \"Level3\", \"cat\": \"pass\", \"ph\": \"X\", \"ts\": "),
            std::string::npos);
  EXPECT_NE(json.find("\"dur\": 0.000, \"pid\": 1, \"tid\": 1, \"args\": {\"status\": \"skipped "
                      "(opt_level)\", \"skip_reason\": \"opt_level\", \"opt_level\": 3, "
                      "\"depth\": 1, \"nodes_before\": 9}}"),
            std::string::npos)
      << json;
}

TEST(ChromeTraceTest, FailedPassKeepsTheStackBalanced) {
  auto trace = std::make_shared<ChromeTraceInstrument>();
  transform::PassContext ctx({.instruments = {trace}});
  transform::PassContextScope scope(ctx);
  const transform::Pass failing = transform::CreateModulePass(
      [](const IRModule&, const transform::PassContext&) -> IRModule { throw PassError("boom"); },
      0, "Failing");
  EXPECT_THROW(transform::Sequential({failing})(SmallModule()), PassError);
  transform::InferType()(SmallModule());
  const auto& events = trace->events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].status, PassStatus::kFailed);
  EXPECT_EQ(events[2].name, "InferType");
  EXPECT_EQ(events[2].depth, 0);
}

// --- verify ---------------------------------------------------------------------------------

TEST(VerifyInstrumentTest, NamesThePassThatChangedTheResults) {
  VerifyOptions options;
  options.containers = {"sequential"};
  auto verify = std::make_shared<VerifyInstrument>(options);
  transform::PassContext ctx({.instruments = {verify}});
  transform::PassContextScope scope(ctx);
  const transform::Pass pipeline = transform::Sequential(
      {transform::InferType(), Rewrite("TimesOne", TimesOne), Rewrite("Double", Double)});
  try {
    pipeline(SmallModule());
    FAIL() << "Double changes the results";
  } catch (const PassError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("pass \"Double\" changed the results of @main: ", 0), 0u)
        << e.what();
  }
  EXPECT_EQ(verify->passes_checked(), 2);  // TimesOne and Double; InferType changed nothing
  EXPECT_EQ(verify->evaluations(), 3);     // before TimesOne, after it, after Double
}

TEST(VerifyInstrumentTest, AcceptsPassesThatKeepTheResults) {
  auto verify = std::make_shared<VerifyInstrument>();
  transform::PassContext ctx({.instruments = {verify}});
  transform::PassContextScope scope(ctx);
  Rewrite("TimesOne", TimesOne)(SmallModule());
  EXPECT_EQ(verify->passes_checked(), 1);
}

// --- dot ------------------------------------------------------------------------------------

TEST(DotTest, FusedFunctionsAreClustersAndConstantsAreCounted) {
  const IRModule mod = Parse(
      "def @main(%x: Tensor[(1, 8), float32], %w: Tensor[(4, 8), float32]) {\n"
      "  %0 = fn (%p0: Tensor[(1, 8), float32], %p1: Tensor[(4, 8), float32], Primitive=1) {\n"
      "    %1 = nn.dense(%p0, %p1, units=4);\n"
      "    %2 = add(%1, 1f);\n"
      "    nn.relu(%2)\n"
      "  };\n"
      "  %3 = %0(%x, %w);\n"
      "  %4 = (%3, %3);\n"
      "  %5 = %4.1;\n"
      "  nn.softmax(%5)\n"
      "}\n");
  const std::string dot = ToDot(mod, {.graph_name = "g"});
  EXPECT_EQ(dot.rfind("digraph \"g\" {\n", 0), 0u);
  EXPECT_NE(dot.find("label=\"4 operators, 1 fused function, 1 constant (4 B)\";"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("subgraph cluster_0 {\n    label=\"fused_nn_dense_add_nn_relu\";"),
            std::string::npos)
      << dot;
  EXPECT_NE(dot.find("[label=\"add\\n(1, 4)\\n+1 const\""), std::string::npos) << dot;
  EXPECT_NE(dot.find("[label=\"%x\\n(1, 8)\""), std::string::npos) << dot;
  EXPECT_EQ(dot.find("%p0"), std::string::npos) << "fused parameters are drawn as edges";
  EXPECT_EQ(dot.find("fn ("), std::string::npos);
}

TEST(DotTest, DeepChainsDoNotRecurse) {
  const int64_t n = relaypass::testing::ScaledDepth(100000);
  IRModule mod = IRModule::FromExpr(workloads::Chain(n));
  const std::string dot = ToDot(mod);
  EXPECT_NE(dot.find("label=\"" + std::to_string(n) + " operators, 0 fused functions, " +
                     std::to_string(n / 2) + " constants"),
            std::string::npos);
}

}  // namespace
}  // namespace relaypass::tools
