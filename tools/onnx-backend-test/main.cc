// onnx-backend-test: ONNX's own backend test suite (Debian's libonnx-testdata) on the importer
// and the evaluator. Each test folder has model.onnx and test_data_set_*/ with input_*.pb and
// output_*.pb; a test passes when every data set's outputs match within rtol 1e-3 / atol 1e-7
// (ONNX's backend runner's tolerances). A test is unsupported when the importer or a kernel
// reports an operator, attribute or data type it does not handle; any other error or mismatch
// fails it. Writes the table to the Markdown file given by --doc (after its marker line) and
// exits 1 if a test listed in --expected does not pass. See docs/onnx.md.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "corrected_data.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/support/error.h"
#include "relaypass/support/float16.h"

namespace fs = std::filesystem;
namespace ir = relaypass::ir;
namespace fe = relaypass::frontend;

namespace {

enum class Status { kPassed, kFailed, kUnsupported };

struct Result {
  std::string suite, name;
  Status status = Status::kPassed;
  std::string reason;
  std::string op;                  // the unsupported op type, if any
  std::vector<std::string> bound;  // graph inputs bound at import (values the importer needed)
  std::string corrected;           // why the data ONNX corrected later were used, if they were
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// input_0.pb, input_1.pb, ... in numeric order.
std::vector<fs::path> Numbered(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (int i = 0;; ++i) {
    fs::path p = dir / (prefix + std::to_string(i) + ".pb");
    if (!fs::exists(p)) break;
    out.push_back(p);
  }
  return out;
}

std::string Shape(const ir::NDArray& a) {
  std::string s = "(";
  for (size_t i = 0; i < a.shape().size(); ++i) s += (i ? ", " : "") + std::to_string(a.shape()[i]);
  return s + ")";
}

// ONNX's test data stores bfloat16 tensors as uint16: the same bits as bfloat16.
ir::NDArray AsBFloat16(const ir::NDArray& a) {
  if (a.dtype() != ir::DataType::UInt(16)) return a;
  ir::NDArray out = ir::NDArray::Empty(a.shape(), ir::DataType::BFloat16());
  std::memcpy(out.mutable_raw_data(), a.raw_data(), a.nbytes());
  return out;
}

// Element i as double, half precision included.
double At(const ir::NDArray& a, int64_t i) {
  if (a.dtype() == ir::DataType::Float(16)) {
    return relaypass::support::HalfToFloat(a.data<uint16_t>()[i]);
  }
  if (a.dtype() == ir::DataType::BFloat16()) {
    return relaypass::support::BFloat16ToFloat(a.data<uint16_t>()[i]);
  }
  return a.GetAsDouble(i);
}

// "" when `got` matches `want`, else why not.
std::string Compare(const ir::NDArray& got, const ir::NDArray& want, double rtol, double atol) {
  if (got.dtype() != want.dtype()) {
    return "dtype " + got.dtype().ToString() + ", expected " + want.dtype().ToString();
  }
  if (got.shape() != want.shape()) return "shape " + Shape(got) + ", expected " + Shape(want);
  double worst = 0;
  int64_t bad = 0;
  for (int64_t i = 0; i < got.size(); ++i) {
    const double g = At(got, i), w = At(want, i);
    if (std::isnan(g) && std::isnan(w)) continue;
    if (g == w) continue;
    const double diff = std::fabs(g - w);
    if (!(diff <= atol + rtol * std::fabs(w))) {
      ++bad;
      worst = std::max(worst, std::isnan(diff) ? INFINITY : diff);
    }
  }
  if (bad == 0) return "";
  std::ostringstream ss;
  ss << bad << " of " << got.size() << " values differ (max abs diff " << worst << ")";
  return ss.str();
}

bool IsUnsupportedMessage(const std::string& m) {
  return m.find("unsupported dtype") != std::string::npos ||
         m.find("not supported") != std::string::npos;
}

// `bind`: the existing mode, where the data set's shapes fix the inputs' dims and a graph input
// whose value the importer needs is bound to the data set's value (imported again). Without it,
// as ONNX's runner does: model.onnx imported once as it is, the inputs fed at run time.
Result RunTest(const fs::path& dir, const std::string& suite, bool bind) {
  Result r;
  r.suite = suite;
  r.name = dir.filename().string();
  const fs::path model_path = dir / "model.onnx";
  onnx::ModelProto proto;
  if (!proto.ParseFromString(ReadFile(model_path))) {
    r.status = Status::kFailed;
    r.reason = "model.onnx does not parse";
    return r;
  }
  std::set<std::string> initializers, bfloat16;
  for (const auto& t : proto.graph().initializer()) initializers.insert(t.name());
  std::vector<std::string> graph_inputs;
  for (const auto& i : proto.graph().input()) {
    if (!initializers.count(i.name())) graph_inputs.push_back(i.name());
  }
  std::vector<bool> bf16_outputs;
  for (const auto& list : {proto.graph().input(), proto.graph().output()}) {
    for (const auto& v : list) {
      if (!v.type().has_tensor_type()) {
        r.status = Status::kUnsupported;
        r.reason =
            "'" + v.name() + "' is not a tensor (sequences, maps and optionals are not supported)";
        return r;
      }
      if (v.type().tensor_type().elem_type() == onnx::TensorProto::BFLOAT16)
        bfloat16.insert(v.name());
    }
  }
  for (const auto& v : proto.graph().output()) bf16_outputs.push_back(bfloat16.count(v.name()) > 0);
  std::vector<fs::path> sets;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(e.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  try {
    std::optional<fe::OnnxModel> shared;  // imported once unless inputs must be bound
    for (const fs::path& set : sets) {
      std::map<std::string, ir::NDArray> feeds;
      std::vector<fs::path> in_files = Numbered(set, "input_");
      for (size_t i = 0; i < in_files.size(); ++i) {
        const std::string bytes = ReadFile(in_files[i]);
        std::string name = fe::OnnxTensorName(bytes);
        if (name.empty() && i < graph_inputs.size()) name = graph_inputs[i];
        ir::NDArray value = fe::ReadOnnxTensor(bytes, in_files[i].string());
        feeds[name] = bfloat16.count(name) ? AsBFloat16(value) : value;
      }
      fe::OnnxOptions options;
      fe::OnnxModel model;
      if (shared) {
        model = *shared;
      } else if (!bind) {
        model = fe::FromOnnxFile(model_path.string(), options);
        shared = model;
      } else {
        // The data set's shapes fix the model's dynamic input dimensions.
        options.dynamic_values = false;
        for (const auto& [name, value] : feeds) options.shape[name] = value.shape();
        // Inputs such as Reshape's shape must be known at import: each one the importer asks
        // for is bound to this data set's value, and the model imported again.
        for (int attempt = 0;; ++attempt) {
          try {
            model = fe::FromOnnxFile(model_path.string(), options);
            break;
          } catch (const fe::OnnxError& e) {
            if (!e.needs_input_value || attempt > 8 || !feeds.count(e.input_name)) throw;
            options.input_values[e.input_name] = feeds[e.input_name];
          }
        }
        if (options.input_values.empty()) shared = model;
        for (const auto& [name, value] : options.input_values) {
          if (std::find(r.bound.begin(), r.bound.end(), name) == r.bound.end())
            r.bound.push_back(name);
        }
      }
      std::vector<ir::NDArray> args;
      for (const std::string& name : model.input_names) {
        auto it = feeds.find(name);
        if (it == feeds.end()) throw relaypass::Error("no data for input '" + name + "'");
        args.push_back(it->second);
      }
      std::vector<ir::NDArray> outs = relaypass::eval::RunMain(model.mod, args);
      std::vector<fs::path> out_files = Numbered(set, "output_");
      if (outs.size() != out_files.size()) {
        throw relaypass::Error("produced " + std::to_string(outs.size()) + " outputs, expected " +
                               std::to_string(out_files.size()));
      }
      for (size_t k = 0; k < outs.size(); ++k) {
        ir::NDArray want = fe::ReadOnnxTensor(ReadFile(out_files[k]), out_files[k].string());
        if (k < bf16_outputs.size() && bf16_outputs[k]) want = AsBFloat16(want);
        std::string why = Compare(outs[k], want, 1e-3, 1e-7);
        if (!why.empty() && !graph_inputs.empty() && feeds.count(graph_inputs[0])) {
          if (auto fixed = onnx_backend_test::CorrectedBFloat16Cast(feeds[graph_inputs[0]], want)) {
            const std::string shipped_why = why;
            why = Compare(outs[k], *fixed, 1e-3, 1e-7);
            if (why.empty()) {
              r.corrected = "the 1.12 data truncate to bfloat16 (" + shipped_why +
                            "); matches ONNX's later data, rounded to nearest even";
            }
          }
        }
        if (!why.empty()) {
          r.status = Status::kFailed;
          r.reason = set.filename().string() + " output " + std::to_string(k) + ": " + why;
          return r;
        }
      }
    }
  } catch (const fe::OnnxError& e) {
    r.status = e.unsupported() ? Status::kUnsupported : Status::kFailed;
    r.reason = e.message();
    r.op = e.op_type();
  } catch (const relaypass::Error& e) {
    r.status = IsUnsupportedMessage(e.message()) ? Status::kUnsupported : Status::kFailed;
    r.reason = e.message();
  } catch (const std::exception& e) {
    r.status = Status::kFailed;
    r.reason = std::string("exception: ") + e.what();
  }
  return r;
}

std::string StatusName(Status s) {
  return s == Status::kPassed ? "passed" : s == Status::kFailed ? "failed" : "unsupported";
}

std::string Escape(std::string s) {
  std::replace(s.begin(), s.end(), '|', '/');
  std::replace(s.begin(), s.end(), '\n', ' ');
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

// The per-suite counts and the pass figure of one mode.
std::string Figures(const std::vector<Result>& results, const std::vector<std::string>& suites) {
  std::ostringstream md;
  std::map<std::string, std::array<int, 3>> counts;
  std::array<int, 3> total{};
  for (const Result& r : results) {
    counts[r.suite][static_cast<int>(r.status)]++;
    total[static_cast<int>(r.status)]++;
  }
  md << "| suite | tests | passed | failed | unsupported |\n|---|---|---|---|---|\n";
  for (const std::string& s : suites) {
    auto c = counts[s];
    md << "| " << s << " | " << c[0] + c[1] + c[2] << " | " << c[0] << " | " << c[1] << " | "
       << c[2] << " |\n";
  }
  const int n = total[0] + total[1] + total[2];
  md << "| **all** | " << n << " | " << total[0] << " | " << total[1] << " | " << total[2]
     << " |\n\n";
  if (n) {
    md << "Passed: " << total[0] << " of " << n << " (" << std::fixed << std::setprecision(1)
       << 100.0 * total[0] / n << "%)";
    const auto corrected = std::count_if(results.begin(), results.end(), [](const Result& r) {
      return r.status == Status::kPassed && !r.corrected.empty();
    });
    if (corrected) md << ", " << corrected << " of them against the data ONNX corrected later";
    md << ".\n\n";
  }
  return md.str();
}

// The headline mode: as ONNX's runner, nothing bound. Lists every test that does not pass
// unbound, with why (those that pass bound first: what the dynamic import still lacks).
std::string UnboundReport(const std::vector<Result>& unbound, const std::vector<Result>& bound,
                          const std::vector<std::string>& suites) {
  std::ostringstream md;
  md << "### As ONNX's runner: nothing bound at import\n\nEach `model.onnx` imported once as it "
        "is (dynamic dims stay `?`, no input bound), every data set's inputs fed at run time.\n\n"
     << Figures(unbound, suites);
  md << "#### Not passing unbound but passing with inputs bound\n\n| test | status | reason "
        "|\n|---|---|---|\n";
  for (size_t i = 0; i < unbound.size(); ++i) {
    const Result& r = unbound[i];
    if (r.status != Status::kPassed && bound[i].status == Status::kPassed) {
      md << "| " << r.suite << "/" << r.name << " | " << StatusName(r.status) << " | "
         << Escape(r.reason) << " |\n";
    }
  }
  md << "\n#### Failed unbound (and not passing bound either)\n\n| test | reason |\n|---|---|\n";
  for (size_t i = 0; i < unbound.size(); ++i) {
    const Result& r = unbound[i];
    if (r.status == Status::kFailed && bound[i].status != Status::kPassed) {
      md << "| " << r.suite << "/" << r.name << " | " << Escape(r.reason) << " |\n";
    }
  }
  md << "\nEvery other test not passing unbound is unsupported there and does not pass bound "
        "either; the bound mode's lists below say why.\n\n";
  return md.str();
}

std::string Report(const std::vector<Result>& results, const std::vector<std::string>& suites) {
  std::ostringstream md;
  md << "### With graph inputs bound at import\n\nThe data set's input shapes fix the model's "
        "dynamic dims, and a graph input whose value the importer asks for is bound to the data "
        "set's value (the model imported again).\n\n"
     << Figures(results, suites);
  std::map<std::string, int> ops;
  for (const Result& r : results) {
    if (r.status == Status::kUnsupported && !r.op.empty()) ops[r.op]++;
  }
  md << "#### Unsupported operators (tests that need them)\n\n";
  for (const auto& [op, k] : ops) md << "`" << op << "` (" << k << ") ";
  md << "\n\n#### Failed tests\n\n| test | reason |\n|---|---|\n";
  for (const Result& r : results) {
    if (r.status == Status::kFailed) {
      md << "| " << r.suite << "/" << r.name << " | " << Escape(r.reason) << " |\n";
    }
  }
  md << "\n#### Passed with graph inputs bound at import\n\nThese tests feed a value the importer "
        "needs as a constant (a shape, axes, pads, indices) as a graph input; the runner binds "
        "that input to the data set's value and imports again, as TVM's runner freezes it.\n\n"
        "| test | bound inputs |\n|---|---|\n";
  for (const Result& r : results) {
    if (r.status == Status::kPassed && !r.bound.empty()) {
      std::string names;
      for (const std::string& b : r.bound) names += (names.empty() ? "" : ", ") + b;
      md << "| " << r.suite << "/" << r.name << " | " << names << " |\n";
    }
  }
  md << "\n#### Passed against the data ONNX corrected later\n\nONNX 1.12 made these tests' "
        "bfloat16 outputs by truncation; ONNX regenerated them later with rounding to nearest "
        "even (its cast.py on main), as TVM and ONNX Runtime convert. The runner checks that the "
        "shipped output is exactly the truncation of the input, recomputes the rounded values "
        "from the input and compares with those (tools/onnx-backend-test/corrected_data.h).\n\n"
        "| test | note |\n|---|---|\n";
  for (const Result& r : results) {
    if (r.status == Status::kPassed && !r.corrected.empty()) {
      md << "| " << r.suite << "/" << r.name << " | " << Escape(r.corrected) << " |\n";
    }
  }
  md << "\n#### Unsupported tests (other than an unsupported operator)\n\n| test | reason |\n"
        "|---|---|\n";
  for (const Result& r : results) {
    if (r.status == Status::kUnsupported && r.op.empty()) {
      md << "| " << r.suite << "/" << r.name << " | " << Escape(r.reason) << " |\n";
    }
  }
  return md.str();
}

constexpr const char* kMarker = "<!-- onnx-backend-test: generated below, do not edit -->";

void WriteDoc(const std::string& path, const std::string& table) {
  std::string head = ReadFile(path);
  const size_t at = head.find(kMarker);
  if (at != std::string::npos) head = head.substr(0, at);
  std::ofstream out(path, std::ios::binary);
  out << head << kMarker << "\n\n" << table;
}

// Checks (or with `update`, rewrites) the expectations file of one mode; the number of tests
// listed there that do not pass.
int CheckExpected(const std::vector<Result>& results, const std::string& expected,
                  const std::string& filter, bool update, const std::string& mode) {
  std::set<std::string> passing;
  for (const Result& r : results) {
    if (r.status == Status::kPassed) passing.insert(r.suite + "/" + r.name);
  }
  if (update) {
    std::ofstream out(expected);
    for (const std::string& name : passing) out << name << "\n";
    std::cout << "onnx-backend-test: wrote " << passing.size() << " names to " << expected << "\n";
    return 0;
  }
  std::ifstream in(expected);
  if (!in) {
    std::cout << "onnx-backend-test: cannot read " << expected << "\n";
    return 1;
  }
  std::string line;
  int regressions = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!filter.empty() && line.find(filter) == std::string::npos) continue;
    if (!passing.count(line)) {
      std::cout << "REGRESSION (" << mode << "): " << line << " is expected to pass\n";
      ++regressions;
    }
  }
  return regressions;
}

std::string Summary(const std::vector<Result>& results, const std::string& mode) {
  std::array<int, 3> total{};
  for (const Result& r : results) total[static_cast<int>(r.status)]++;
  std::ostringstream ss;
  ss << "onnx-backend-test (" << mode << "): " << results.size() << " tests: " << total[0]
     << " passed, " << total[1] << " failed, " << total[2] << " unsupported";
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = "/usr/include/onnx/backend/test/data";
  std::string expected, expected_unbound, doc, filter;
  bool update = false, verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const std::string& key) -> std::optional<std::string> {
      if (a.rfind(key + "=", 0) == 0) return a.substr(key.size() + 1);
      return std::nullopt;
    };
    if (auto v = value("--data"))
      data = *v;
    else if (auto v = value("--expected"))
      expected = *v;
    else if (auto v = value("--expected-unbound"))
      expected_unbound = *v;
    else if (auto v = value("--doc"))
      doc = *v;
    else if (auto v = value("--filter"))
      filter = *v;
    else if (a == "--update-expected")
      update = true;
    else if (a == "-v" || a == "--verbose")
      verbose = true;
    else {
      std::cerr
          << "usage: onnx-backend-test [--data=DIR] [--expected=FILE] [--expected-unbound=FILE] "
             "[--doc=FILE.md] [--filter=SUBSTRING] [--update-expected] [-v]\n";
      return 2;
    }
  }
  const std::vector<std::string> suites{"node", "pytorch-converted", "pytorch-operator", "simple"};
  std::vector<Result> results, unbound;
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& suite : suites) {
    std::vector<fs::path> dirs;
    if (!fs::exists(fs::path(data) / suite)) continue;
    for (const auto& e : fs::directory_iterator(fs::path(data) / suite)) {
      if (e.is_directory() && fs::exists(e.path() / "model.onnx")) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      if (!filter.empty() && d.filename().string().find(filter) == std::string::npos) continue;
      Result u = RunTest(d, suite, false);
      Result r = RunTest(d, suite, true);
      if (verbose || u.status == Status::kFailed) {
        std::cout << StatusName(u.status) << " (unbound) " << suite << "/" << u.name
                  << (u.reason.empty() ? "" : ": " + u.reason) << "\n";
      }
      if (verbose || r.status == Status::kFailed) {
        std::cout << StatusName(r.status) << " (bound) " << suite << "/" << r.name
                  << (r.reason.empty() ? "" : ": " + r.reason) << "\n";
      }
      unbound.push_back(std::move(u));
      results.push_back(std::move(r));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << Summary(unbound, "as ONNX's runner, nothing bound") << "\n"
            << Summary(results, "inputs bound at import") << " (" << std::fixed
            << std::setprecision(1) << seconds << " s for both)\n";
  if (!doc.empty())
    WriteDoc(doc, UnboundReport(unbound, results, suites) + Report(results, suites));
  int status = 0;
  if (!expected_unbound.empty() &&
      CheckExpected(unbound, expected_unbound, filter, update, "unbound"))
    status = 1;
  if (!expected.empty() && CheckExpected(results, expected, filter, update, "bound")) status = 1;
  return status;
}
