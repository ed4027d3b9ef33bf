#include "run.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/support/allocator.h"
#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/tools/npy.h"

namespace relay_opt {

namespace {

namespace ir = relaypass::ir;
namespace eval = relaypass::eval;
using relaypass::Error;

std::string ShapeText(const ir::Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

uint64_t Fnv1a(const ir::NDArray& array) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  const auto* bytes = static_cast<const uint8_t*>(array.raw_data());
  for (size_t i = 0; i < array.nbytes(); ++i) {
    hash ^= bytes[i];
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string Describe(size_t index, const ir::NDArray& array) {
  double min = std::numeric_limits<double>::infinity();
  double max = -min;
  double sum = 0;
  for (int64_t i = 0; i < array.size(); ++i) {
    const double v = eval::ElementAsDouble(array, i);
    min = std::min(min, v);
    max = std::max(max, v);
    sum += v;
  }
  const double mean = array.size() ? sum / static_cast<double>(array.size()) : 0.0;
  char buf[256];
  std::snprintf(buf, sizeof(buf), " min=%.6g max=%.6g mean=%.6g checksum=%016" PRIx64 "\n",
                array.size() ? min : 0.0, array.size() ? max : 0.0, mean, Fnv1a(array));
  return "output[" + std::to_string(index) + "]: shape=" + ShapeText(array.shape()) +
         " dtype=" + array.dtype().ToString() + buf;
}

}  // namespace

void ApplyMemoryBudget(const Options& o, const PassPlan& plan) {
  if (!o.memory_budget.empty()) {
    const std::optional<uint64_t> bytes = relaypass::support::ParseByteCount(o.memory_budget);
    if (!bytes || *bytes == 0) {
      throw Error(
          "--memory-budget: expected a positive byte count such as 4G, 512M or 1000000, "
          "got '" +
          o.memory_budget + "'");
    }
    relaypass::support::SetMemoryBudget(*bytes);
    return;
  }
  auto it = plan.config.find("relay.memory_budget");
  if (it != plan.config.end() && it->second.as_int() > 0) {
    relaypass::support::SetMemoryBudget(static_cast<uint64_t>(it->second.as_int()));
  }
}

namespace {

// The --input files by parameter index, each checked against its parameter's type.
std::map<size_t, ir::NDArray> ReadInputFiles(const ir::Function& main, const Options& o) {
  std::map<size_t, ir::NDArray> files;
  for (const std::string& entry : o.inputs) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw Error("--input: expected NAME=FILE.npy, got '" + entry + "'");
    }
    std::string name = entry.substr(0, eq);
    if (name[0] == '%') name = name.substr(1);
    const std::string path = entry.substr(eq + 1);
    size_t index = main->params.size();
    std::string names;
    for (size_t i = 0; i < main->params.size(); ++i) {
      if (main->params[i]->name_hint == name) index = i;
      names += (names.empty() ? "%" : ", %") + main->params[i]->name_hint;
    }
    if (index == main->params.size()) {
      throw Error("--input: main has no parameter %" + name + " (parameters: " + names + ")");
    }
    ir::NDArray array = relaypass::tools::ReadNpy(path);
    const ir::Var& param = main->params[index];
    const ir::Type& type = param->type_annotation ? param->type_annotation : param->checked_type;
    if (const auto* tensor = type.as<ir::TensorTypeNode>()) {
      bool fits = tensor->dtype == array.dtype() && tensor->ndim() == array.ndim();
      for (int d = 0; fits && d < tensor->ndim(); ++d) {
        fits = tensor->shape[d] == ir::kAnyDim || tensor->shape[d] == array.shape()[d];
      }
      if (!fits) {
        throw Error("--input: " + path + " holds shape=" + ShapeText(array.shape()) + " dtype=" +
                    array.dtype().ToString() + ", but %" + name + " is " + ir::TypeToString(type));
      }
    }
    files[index] = std::move(array);
  }
  return files;
}

}  // namespace

std::vector<eval::Value> MakeInputs(const ir::IRModule& mod,
                                    const std::map<std::string, ir::NDArray>& model_values,
                                    const Options& o, InputsFor purpose, std::string* random_note) {
  if (!mod.Contains("main")) throw Error("--run: the module has no main function");
  const ir::Function main = mod.Lookup("main");
  std::map<size_t, ir::NDArray> files = ReadInputFiles(main, o);
  std::vector<eval::Value> inputs(main->params.size());
  std::vector<size_t> missing;
  for (size_t i = 0; i < main->params.size(); ++i) {
    if (auto file = files.find(i); file != files.end()) {
      inputs[i] = eval::Value(std::move(file->second));
    } else if (auto value = model_values.find(main->params[i]->name_hint);
               value != model_values.end()) {
      inputs[i] = eval::Value(value->second);
    } else {
      missing.push_back(i);
    }
  }
  if (missing.empty()) return inputs;
  std::string names;
  for (size_t i : missing) names += (names.empty() ? "%" : ", %") + main->params[i]->name_hint;
  if (purpose == InputsFor::kRun && !o.random_inputs) {
    throw Error("--run: main's parameter" + std::string(missing.size() == 1 ? " " : "s ") + names +
                (missing.size() == 1 ? " has" : " have") +
                " no value from the model: give each with --input=NAME=FILE.npy, or "
                "--random-inputs for seeded random values (which are not the model's answer)");
  }
  if (purpose == InputsFor::kRun && random_note) {
    *random_note =
        "relay-opt: note: --random-inputs: seeded random values (--seed=" + std::to_string(o.seed) +
        ") for " + names + "; the outputs are not the model's answer\n";
  }
  // Drawn for every parameter, so a parameter's values depend on --seed and its position only.
  std::vector<eval::Value> random = eval::RandomInputs(main, o.seed);
  for (size_t i : missing) inputs[i] = std::move(random[i]);
  return inputs;
}

std::string RunAndReport(const ir::IRModule& mod, const std::vector<eval::Value>& inputs,
                         const Options& o) {
  relaypass::support::AdviseHeapHugePages();
  eval::Interpreter interpreter(mod);
  const std::vector<ir::NDArray> outputs = eval::FlattenTensors(interpreter.RunMain(inputs));
  std::string report;
  for (size_t i = 0; i < outputs.size(); ++i) report += Describe(i, outputs[i]);
  if (!o.output_npy.empty()) {
    if (outputs.empty()) throw Error("--output: main returned no tensor");
    relaypass::tools::WriteNpy(o.output_npy, outputs[0]);
  }
  return report;
}

}  // namespace relay_opt
