#include "relaypass/workloads/init.h"

#include <cmath>
#include <random>

#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"

namespace relaypass::workloads {

namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// NumPy's legacy random_sample(): 53 random bits from two 32-bit outputs of MT19937.
double NextDouble(std::mt19937& gen) {
  uint32_t a = gen() >> 5;
  uint32_t b = gen() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// Xavier(rnd_type="uniform", factor_type="avg", magnitude=3) as in tvm.relay.testing.init.
void Xavier(const std::string& name, ir::NDArray& array, std::mt19937& gen) {
  const ir::Shape& shape = array.shape();
  if (shape.size() < 2) {
    throw Error("Xavier initializer needs a weight of rank >= 2: " + name);
  }
  double hw = 1;
  for (size_t i = 2; i < shape.size(); ++i) hw *= static_cast<double>(shape[i]);
  double fan_in = static_cast<double>(shape[1]) * hw;
  double fan_out = static_cast<double>(shape[0]) * hw;
  double factor = (fan_in + fan_out) / 2.0;
  if (name.find("depthwise") != std::string::npos) factor = hw;
  double scale = std::sqrt(3.0 / factor);
  // np.random.uniform(low, high): low + (high - low) * random_sample(), rounded to float32.
  const double low = -scale;
  const double range = scale - low;
  float* out = array.mutable_data<float>();
  const int64_t n = array.size();
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(low + range * NextDouble(gen));
}

void Fill(ir::NDArray& array, float value) {
  float* out = array.mutable_data<float>();
  const int64_t n = array.size();
  for (int64_t i = 0; i < n; ++i) out[i] = value;
}

}  // namespace

std::map<std::string, ir::NDArray> InitParams(const ir::IRModule& typed_mod, uint32_t seed) {
  std::mt19937 gen(seed);  // same as NumPy's init_genrand(seed)
  std::map<std::string, ir::NDArray> params;
  for (const ir::Var& p : typed_mod.Lookup("main")->params) {
    const std::string& name = p->name_hint;
    if (name == "data") continue;
    auto* type = p->checked_type.as<ir::TensorTypeNode>();
    if (!type || !type->is_static()) throw Error("parameter " + name + " has no static type");
    if (type->dtype != ir::DataType::Float32()) {
      throw Error("parameter " + name + ": only float32 parameters are initialised");
    }
    ir::NDArray array = ir::NDArray::Empty(type->shape, type->dtype);
    if (EndsWith(name, "weight")) {
      Xavier(name, array, gen);
    } else if (EndsWith(name, "bias") || EndsWith(name, "beta") || EndsWith(name, "mean")) {
      Fill(array, 0.0f);
    } else if (EndsWith(name, "gamma") || EndsWith(name, "var")) {
      Fill(array, 1.0f);
    } else {
      throw Error("no initializer for parameter " + name);
    }
    params.emplace(name, array);
  }
  return params;
}

Workload CreateWorkload(const ir::Function& net, uint32_t seed) {
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(net));
  std::map<std::string, ir::NDArray> params = InitParams(mod, seed);
  return {std::move(mod), std::move(params)};
}

}  // namespace relaypass::workloads
