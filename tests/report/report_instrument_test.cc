// The pass explorer's records and page. Expected values are hand derived from the passes run:
// the example module (workloads::Example, the tutorial's) through FoldConstant, FuseOps and a
// skipped EliminateCommonSubexpr; a pass built here that moves one output element by 1e-3.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "relaypass/passes/eliminate_common_subexpr.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/tools/report_instrument.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::tools {
namespace {

using ir::IRModule;

std::vector<PassRecord> RunWithReport(const IRModule& mod, const transform::Pass& pass,
                                      int opt_level, std::string* html = nullptr,
                                      std::shared_ptr<VerifyInstrument> verify = nullptr) {
  ReportOptions options;
  options.input = "example";
  options.containers = {"sequential"};
  auto report = std::make_shared<ReportInstrument>(options);
  transform::PassInstruments instruments = {report};
  if (verify) {
    report->SetVerify(verify);
    instruments.push_back(verify);
  }
  transform::PassContext ctx({.opt_level = opt_level, .instruments = instruments});
  try {
    transform::PassContextScope scope(ctx);
    pass(mod);
  } catch (const PassError&) {
    // recorded as a failure; the report is still rendered below
  }
  if (html) *html = report->RenderHtml();
  return report->records();
}

const PassRecord* Find(const std::vector<PassRecord>& records, const std::string& name, int depth) {
  for (const PassRecord& r : records) {
    if (r.name == name && r.depth == depth) return &r;
  }
  return nullptr;
}

nlohmann::json PageData(const std::string& html) {
  const std::string open = "<script id=\"report-data\" type=\"application/json\">";
  const size_t start = html.find(open) + open.size();
  const size_t end = html.find("</script>", start);
  return nlohmann::json::parse(html.substr(start, end - start));
}

TEST(ReportInstrumentTest, RecordsNestingTimesChangesAndSkips) {
  IRModule mod = IRModule::FromExpr(workloads::Example());
  transform::Pass seq = transform::Sequential(
      {passes::FoldConstant(), passes::EliminateCommonSubexpr(), passes::FuseOps()});
  std::string html;
  std::vector<PassRecord> records = RunWithReport(mod, seq, /*opt_level=*/2, &html);

  const PassRecord* sequential = Find(records, "sequential", 0);
  ASSERT_NE(sequential, nullptr);
  EXPECT_TRUE(sequential->container);
  EXPECT_TRUE(sequential->diff.empty());  // containers are listed, not diffed

  const PassRecord* fold = Find(records, "FoldConstant", 1);
  ASSERT_NE(fold, nullptr);
  EXPECT_EQ(fold->status, "ok");
  EXPECT_TRUE(fold->changed);
  EXPECT_GT(fold->duration_us, 0);
  // add(c, c) and multiply(.., 2f) fold away: two calls fewer.
  EXPECT_EQ(fold->op_delta.at("add"), -1);
  EXPECT_EQ(fold->op_delta.at("multiply"), -1);
  EXPECT_NE(fold->diff.find("+++ after FoldConstant"), std::string::npos);
  EXPECT_GT(fold->lines_removed, 0);
  ASSERT_NE(Find(records, "InferType", 2), nullptr);  // the function pass's nested InferType

  // EliminateCommonSubexpr has opt_level 3: skipped at 2, with the reason.
  const PassRecord* cse = Find(records, "EliminateCommonSubexpr", 1);
  ASSERT_NE(cse, nullptr);
  EXPECT_EQ(cse->status, "skipped (opt_level)");

  const PassRecord* fuse = Find(records, "FuseOps", 1);
  ASSERT_NE(fuse, nullptr);
  EXPECT_TRUE(fuse->changed);
  EXPECT_GT(fuse->nodes_after, fuse->nodes_before);  // fused functions add params and calls

  // The page: every record in its data, the graph with node details.
  nlohmann::json data = PageData(html);
  ASSERT_EQ(data["passes"].size(), records.size());
  EXPECT_EQ(data["passes"][1]["name"], "FoldConstant");
  EXPECT_NE(data["graph"]["svg"].get<std::string>().find("<svg"), std::string::npos);
  bool conv_by_fuse = false;
  for (const auto& [id, node] : data["graph"]["nodes"].items()) {
    if (node.value("op", "") == "nn.conv2d") conv_by_fuse = node["created_by"] == "FuseOps";
  }
  EXPECT_TRUE(conv_by_fuse) << "the conv2d inside the fused function was made by FuseOps";
  EXPECT_EQ(data["totals"]["skipped"], 1);
}

TEST(ReportInstrumentTest, VerifyGivesTheLargestDifferenceAndTheFailure) {
  IRModule mod = text::ParseModule(
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = add(%x, 1f);\n"
      "  multiply(%0, %0)\n"
      "}\n");
  ir::NDArray nudge = ir::NDArray::Empty({2, 3}, ir::DataType::Float32());
  nudge.mutable_data<float>()[5] = 1e-3f;
  transform::Pass nudge_pass = transform::CreateModulePass(
      [nudge](const IRModule& m, const transform::PassContext&) {
        const ir::Function main = m.Lookup("main");
        IRModule out = m;
        out.Add("main",
                ir::MakeFunction(main->params, relay::add(main->body, relay::const_(nudge))));
        return out;
      },
      0, "Nudge");
  VerifyOptions verify_options;
  verify_options.containers = {"sequential"};  // check the members, as relay-opt does
  auto verify = std::make_shared<VerifyInstrument>(verify_options);
  std::string html;
  std::vector<PassRecord> records = RunWithReport(
      mod, transform::Sequential({passes::FoldConstant(), nudge_pass}), 2, &html, verify);
  const PassRecord* nudged = Find(records, "Nudge", 1);
  ASSERT_NE(nudged, nullptr);
  EXPECT_EQ(nudged->status, "failed (verify-each)");
  ASSERT_TRUE(nudged->max_abs_diff.has_value());
  EXPECT_NEAR(*nudged->max_abs_diff, 1e-3, 1e-6);
  EXPECT_EQ(PageData(html)["totals"]["failed"], 2);  // the pass and its Sequential
}

TEST(ReportInstrumentTest, AFailingPassIsRecordedAndThePageStillRenders) {
  transform::Pass failing = transform::CreateModulePass(
      [](const IRModule&, const transform::PassContext&) -> IRModule {
        throw PassError("deliberate failure");
      },
      0, "Failing");
  std::string html;
  std::vector<PassRecord> records =
      RunWithReport(IRModule::FromExpr(workloads::Example()),
                    transform::Sequential({passes::FoldConstant(), failing}), 2, &html);
  const PassRecord* failed = Find(records, "Failing", 1);
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->status, "failed");
  // The graph is the last module a pass returned (FoldConstant's).
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_EQ(Find(records, "sequential", 0)->status, "failed");  // it failed with its member
  EXPECT_EQ(PageData(html)["totals"]["failed"], 2);
}

TEST(ReportInstrumentTest, ScriptTextInTheModuleCannotEndTheDataElement) {
  // A variable name with "</script>" would close the JSON element if not escaped.
  IRModule mod = text::ParseModule("def @main(%x: Tensor[(1), float32]) { add(%x, 1f) }\n");
  std::string html;
  RunWithReport(mod, passes::FoldConstant(), 2, &html);
  ReportOptions options;
  options.input = "</script><b>";
  ReportInstrument report(options);
  const std::string page = report.RenderHtml();
  size_t count = 0;
  for (size_t p = page.find("</script>"); p != std::string::npos; p = page.find("</script>", p + 1))
    ++count;
  EXPECT_EQ(count, 2u);  // the data element's and the script's
}

}  // namespace
}  // namespace relaypass::tools
