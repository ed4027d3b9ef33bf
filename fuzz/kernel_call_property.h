// The property the kernel fuzzer checks (fuzz/kernel_fuzzer.cc), shared with tests/bad_input,
// which replays the kept findings and a seeded sweep in the ordinary (and sanitizer) suite.
//
// The bytes choose one registered operator that has a kernel, its arguments (1 to 3 tensors of
// rank 0 to 4, dimensions 0 to 6, a dtype among float32/float16/float64/int32/int64/int8/uint8/
// bool, sometimes wrapped in a tuple) and a value for each attribute of its schema (left at the
// default, or one of: small, zero, negative, huge, INT32/INT64 extremes; arrays of 0 to 5 such
// values; strings from the layouts, modes and equations the ops know; dtypes). The call goes
// through type inference, then the evaluator on seeded random inputs. A relaypass::Error
// anywhere is a rejected input and fine; anything else -- a crash, a sanitizer report, a hang,
// another exception (std::bad_alloc included) -- is a bug.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/attrs.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"
// CallOp (a call with named attribute values), from the op layer's own shorthands.
#include "../src/op/op_common.h"

namespace relaypass::fuzz {

// Reads the fuzzer's bytes; past the end every read is 0 (so every input means something).
class KernelFuzzBytes {
 public:
  KernelFuzzBytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // A value in [0, n), n >= 1.
  size_t Pick(size_t n) { return n <= 256 ? Byte() % n : (Byte() << 8 | Byte()) % n; }
  int64_t Int() {
    static const int64_t kInteresting[] = {0,
                                           1,
                                           -1,
                                           2,
                                           3,
                                           -2,
                                           4,
                                           -3,
                                           5,
                                           7,
                                           16,
                                           -16,
                                           255,
                                           65536,
                                           std::numeric_limits<int32_t>::max(),
                                           std::numeric_limits<int32_t>::min(),
                                           int64_t{1} << 32,
                                           int64_t{1} << 40,
                                           -(int64_t{1} << 40),
                                           std::numeric_limits<int64_t>::max(),
                                           std::numeric_limits<int64_t>::min(),
                                           std::numeric_limits<int64_t>::max() - 1,
                                           std::numeric_limits<int64_t>::min() + 1};
    const uint8_t b = Byte();
    if (b < 160) return kInteresting[b % (sizeof(kInteresting) / sizeof(kInteresting[0]))];
    return static_cast<int8_t>(Byte());  // any small value, negative included
  }
  double Double() {
    static const double kInteresting[] = {0.0,
                                          1.0,
                                          -1.0,
                                          0.5,
                                          2.0,
                                          1e-5,
                                          -0.5,
                                          1e18,
                                          -1e18,
                                          1e308,
                                          4.0,
                                          std::numeric_limits<double>::infinity(),
                                          std::numeric_limits<double>::quiet_NaN()};
    return kInteresting[Pick(sizeof(kInteresting) / sizeof(kInteresting[0]))];
  }
  std::string String() {
    static const char* const kStrings[] = {
        "",           "NCHW",     "NHWC",       "OIHW",
        "HWIO",       "NCW",      "NCDHW",      "OIDHW",
        "NCHW4c",     "OIHW4o",   "NWC",        "constant",
        "edge",       "reflect",  "linear",     "nearest_neighbor",
        "cubic",      "bilinear", "half_pixel", "align_corners",
        "asymmetric", "round",    "floor",      "end",
        "size",       "both",     "values",     "indices",
        "ij->ji",     "ii->i",    "ii->ii",     "iii->iii",
        "ij,jk->ik",  "...->...", "i,i->",      "fast",
        "clip",       "wrap",     "zeros",      "border",
        "float32",    "int8"};
    return kStrings[Pick(sizeof(kStrings) / sizeof(kStrings[0]))];
  }
  std::string DType() {
    static const char* const kDTypes[] = {"float32", "float32", "float32", "int32", "int64",
                                          "float16", "float64", "int8",    "uint8", "bool"};
    return kDTypes[Pick(sizeof(kDTypes) / sizeof(kDTypes[0]))];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Half the calls are hostile (every attribute fuzzed, shapes independent); the others are
// plausible (most attributes at their defaults, the rest small; arguments shaped after the
// first), so that convolutions, pools and norms get past type inference into their kernels.
struct KernelFuzzMode {
  bool plausible = false;
  size_t spatial = 2;  // the op's spatial rank, from its name (1d / 2d / 3d)
};

inline int64_t FuzzInt(KernelFuzzBytes& in, const KernelFuzzMode& mode) {
  if (!mode.plausible || in.Pick(8) == 0) return in.Int();
  static const int64_t kSmall[] = {0, 1, 1, 2, -1, 3};
  return kSmall[in.Pick(6)];
}

inline ir::AttrValue FuzzIntArray(KernelFuzzBytes& in, const KernelFuzzMode& mode) {
  size_t n = in.Pick(6);
  if (mode.plausible && in.Pick(4) != 0) {
    const size_t lengths[] = {1, mode.spatial, mode.spatial, 2 * mode.spatial};
    n = lengths[in.Pick(4)];
  }
  std::vector<ir::AttrValue> items;
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = FuzzInt(in, mode);
    items.push_back(ir::AttrValue::Int(
        x, x == static_cast<int32_t>(x) ? ir::DataType::Int32() : ir::DataType::Int(64)));
  }
  return ir::AttrValue::Array(std::move(items));
}

// A value for `field` (its default, sometimes).
inline ir::AttrValue FuzzAttr(KernelFuzzBytes& in, const ir::AttrField& field,
                              const KernelFuzzMode& mode) {
  // The default: a third of the time in a hostile call, seven in eight in a plausible one.
  if (field.has_default && (mode.plausible ? in.Pick(8) != 0 : in.Pick(3) == 0)) {
    return field.default_value;
  }
  switch (field.type) {
    case ir::AttrFieldType::kInt:
    case ir::AttrFieldType::kIndexExpr: {
      const int64_t v = FuzzInt(in, mode);
      return ir::AttrValue::Int(
          v, v == static_cast<int32_t>(v) ? ir::DataType::Int32() : ir::DataType::Int(64));
    }
    case ir::AttrFieldType::kBool:
      return ir::AttrValue::Bool(in.Byte() & 1);
    case ir::AttrFieldType::kDouble:
      return ir::AttrValue::Double(in.Double());
    case ir::AttrFieldType::kString:
      return ir::AttrValue::Str(in.String());
    case ir::AttrFieldType::kDType:
      return ir::AttrValue::Str(in.Pick(4) == 0 ? "" : in.DType());
    case ir::AttrFieldType::kIntArray:
      return in.Pick(8) == 0 ? ir::AttrValue::Null() : FuzzIntArray(in, mode);
    case ir::AttrFieldType::kIntOrIntArray:
      return in.Pick(2) == 0 ? ir::AttrValue::Int(FuzzInt(in, mode) & 0xffff)
                             : FuzzIntArray(in, mode);
    case ir::AttrFieldType::kIntArrayArray: {
      std::vector<ir::AttrValue> rows(in.Pick(5));
      for (ir::AttrValue& r : rows) r = FuzzIntArray(in, mode);
      return ir::AttrValue::Array(std::move(rows));
    }
    case ir::AttrFieldType::kDoubleArray: {
      std::vector<ir::AttrValue> v(in.Pick(5));
      for (ir::AttrValue& x : v) x = ir::AttrValue::Double(in.Double());
      return ir::AttrValue::Array(std::move(v));
    }
    case ir::AttrFieldType::kVirtualDevice:  // on_device / device_copy: any device runs the same
      return ir::AttrValue::Device(
          ir::MakeVirtualDevice(static_cast<int>(in.Pick(3)), static_cast<int>(in.Pick(2))));
  }
  return ir::AttrValue::Null();
}

// The registered ops that have a kernel, in a fixed order.
inline const std::vector<std::string>& KernelOpNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const std::string& name : ir::OpRegistry::Global().ListNames()) {
      const op::OpDef* def = op::Def(ir::OpRegistry::Global().Find(name));
      if (def && def->kernel) out.push_back(name);
    }
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

// What one fuzzed call reached: its op, whether it type-checked and whether the kernel ran.
struct KernelCallOutcome {
  std::string op;
  bool typed = false, ran = false;
};

// Runs one fuzzed call. A relaypass::Error is caught (the outcome says how far the call got),
// any other exception propagates (the caller treats it as a bug).
inline KernelCallOutcome CheckKernelCall(const uint8_t* data, size_t size) {
  KernelCallOutcome outcome;
  const std::vector<std::string>& names = KernelOpNames();
  KernelFuzzBytes in(data, size);
  const std::string& name = names[in.Pick(names.size())];
  outcome.op = name;
  const ir::OpDef* def = ir::OpRegistry::Global().Find(name);
  if (std::getenv("RELAYPASS_KERNEL_FUZZ_TRACE_CALLS"))
    std::fprintf(stderr, "kernel fuzz: %s\n", name.c_str());
  // Small tensors, and a budget that makes a huge result fail fast instead of filling memory.
  support::MemoryBudgetScope budget(uint64_t{256} << 20);
  try {
    const int count = def->num_inputs >= 0 && in.Pick(4) != 0 ? def->num_inputs
                                                              : 1 + static_cast<int>(in.Pick(3));
    KernelFuzzMode mode;
    mode.plausible = in.Pick(2) == 0;
    mode.spatial = name.find("1d") != std::string::npos   ? 1
                   : name.find("3d") != std::string::npos ? 3
                                                          : 2;
    std::vector<ir::Var> params;
    std::vector<ir::Expr> args;
    std::string first_dtype;
    std::vector<int64_t> first_shape;
    for (int i = 0; i < count; ++i) {
      std::vector<int64_t> shape;
      if (!mode.plausible) {
        shape.resize(in.Pick(5));
        for (int64_t& d : shape) d = static_cast<int64_t>(in.Pick(7));
      } else if (i == 0) {
        shape.resize(in.Pick(4) == 0 ? in.Pick(6) : mode.spatial + 2);
        for (int64_t& d : shape) d = 1 + static_cast<int64_t>(in.Pick(4));
      } else {
        // Shaped after the first: the same rank with some of its dims, or a vector of one of
        // its dims (gamma, bias, alpha), or a scalar.
        const size_t kind = in.Pick(4);
        if (kind < 2) {
          shape = first_shape;
          for (int64_t& d : shape) {
            if (in.Pick(3) == 0) d = 1 + static_cast<int64_t>(in.Pick(4));
          }
        } else if (kind == 2 && !first_shape.empty()) {
          shape = {first_shape[in.Pick(first_shape.size())]};
        }
      }
      // Mostly one dtype for all arguments, as most ops require.
      std::string dtype = i > 0 && in.Pick(4) != 0 ? first_dtype : in.DType();
      if (i == 0) {
        if (mode.plausible && in.Pick(2) == 0) dtype = "float32";
        first_dtype = dtype;
        first_shape = shape;
      }
      params.push_back(relay::var("p" + std::to_string(i), shape, dtype));
      args.push_back(params.back());
    }
    if (in.Pick(5) == 0) args = {relay::tuple(args)};
    op::AttrValues attrs;
    if (def->attrs_schema) {
      for (const ir::AttrField& field : def->attrs_schema->fields()) {
        attrs.emplace_back(field.name, FuzzAttr(in, field, mode));
      }
    }
    ir::Expr call = op::CallOp(name, args, attrs);
    ir::IRModule mod = ir::IRModule::FromExpr(relay::function(params, call));
    mod = ir::InferTypes(mod);
    outcome.typed = true;
    std::vector<ir::NDArray> inputs;
    for (size_t i = 0; i < params.size(); ++i) {
      const auto* t = params[i]->type_annotation.as<ir::TensorTypeNode>();
      inputs.push_back(
          eval::RandomTensor(ir::Shape(t->shape.begin(), t->shape.end()), t->dtype, 1 + i));
    }
    eval::RunMain(mod, inputs);
    outcome.ran = true;
  } catch (const Error& e) {
    // rejected with a typed error: fine
    if (std::getenv("RELAYPASS_KERNEL_FUZZ_TRACE_CALLS")) std::fprintf(stderr, "  %s\n", e.what());
  }
  return outcome;
}

}  // namespace relaypass::fuzz
