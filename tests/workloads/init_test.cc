// Parameter initialisation bit-exact with TVM (NumPy's legacy MT19937 stream, Xavier uniform),
// and bind_params_by_name on a whole workload.
#include <gtest/gtest.h>

#include <cstring>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/workloads/init.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::workloads {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Reference values produced with NumPy 1.24 (Debian python3-numpy, /usr/bin/python3) by a small
// script (not part of the build) that reads main's parameter list, in order, from the printed
// module (resnet-18: tests/data/resnet18_nchw.relay, TVM's own output; mobilenet: `relay-opt
// --workload mobilenet --emit astext`, whose order mobilenet_test.cc checks), then, after
// np.random.seed(0), does for every `*weight` parameter exactly what TVM's Xavier() does:
//   hw = np.prod(shape[2:]); factor = (shape[1] * hw + shape[0] * hw) / 2.0
//   scale = np.sqrt(3 / factor); arr = np.zeros(shape, dtype="float32")
//   arr[:] = np.random.uniform(-scale, scale, size=shape)
// and prints the bit pattern of arr.reshape(-1)[index] as struct.pack("<f", v) reads it.
struct Reference {
  const char* name;
  int64_t index;
  uint32_t bits;
};
constexpr Reference kResNet18[] = {
    {"conv0_weight", 0, 0x3b88c2a4},                 // 0.0041735936
    {"conv0_weight", 1, 0x3c96b936},                 // 0.018398862
    {"conv0_weight", 2, 0x3c0ff4a0},                 // 0.0087863505
    {"conv0_weight", 9407, 0x3cb8b8f2},              // 0.022549126
    {"stage1_unit1_conv1_weight", 0, 0xbd0e7b98},    // -0.034785837
    {"stage1_unit1_sc_weight", 5, 0x3e50e134},       // 0.20398408
    {"stage4_unit2_conv2_weight", 100, 0x3c0ecebd},  // 0.008716282
    {"fc1_weight", 0, 0x3ce16be5},                   // 0.027517268
    {"fc1_weight", 511999, 0xbd4859c6},              // -0.04891374
};

constexpr Reference kMobileNet[] = {
    {"conv_block_1_conv_weight", 0, 0x3c5cc13e},              // 0.013473807
    {"separable_conv_block_1_weight", 0, 0x3ce95e25},         // 0.028487274
    {"separable_conv_block_1_weight", 287, 0x3d1c0250},       // 0.038088143
    {"separable_conv_block_13_conv2_weight", 7, 0x3cd71186},  // 0.026253473
    {"fc_weight", 1023999, 0x3d4f0b1d},                       // 0.050547708
};

void ExpectBits(const Workload& w, const Reference& r) {
  ASSERT_EQ(w.params.count(r.name), 1u) << r.name;
  const ir::NDArray& a = w.params.at(r.name);
  ASSERT_LT(r.index, a.size()) << r.name;
  EXPECT_EQ(Bits(a.data<float>()[r.index]), r.bits) << r.name << "[" << r.index << "]";
}

TEST(InitParamsTest, ResNet18MatchesNumPyBitForBit) {
  Workload w = GetWorkload("resnet-18");
  for (const Reference& r : kResNet18) ExpectBits(w, r);
}

TEST(InitParamsTest, MobileNetMatchesNumPyBitForBit) {
  Workload w = GetWorkload("mobilenet");
  for (const Reference& r : kMobileNet) ExpectBits(w, r);
}

TEST(InitParamsTest, ConstantsBySuffix) {
  Workload w = GetWorkload("resnet-18");
  const std::pair<const char*, float> cases[] = {{"bn0_gamma", 1.0f},
                                                 {"bn0_beta", 0.0f},
                                                 {"bn0_moving_mean", 0.0f},
                                                 {"bn0_moving_var", 1.0f},
                                                 {"fc1_bias", 0.0f}};
  for (const auto& [name, value] : cases) {
    const ir::NDArray& a = w.params.at(name);
    for (int64_t i = 0; i < a.size(); ++i) ASSERT_EQ(a.data<float>()[i], value) << name;
  }
  EXPECT_EQ(w.params.at("bn0_gamma").shape(), (ir::Shape{64}));
  EXPECT_EQ(w.params.at("fc1_weight").shape(), (ir::Shape{1000, 512}));
}

TEST(InitParamsTest, SameSeedSameValuesOtherSeedOthers) {
  Workload a = GetWorkload("mobilenet");
  Workload b = GetWorkload("mobilenet");
  ASSERT_EQ(a.params.size(), b.params.size());
  for (const auto& [name, value] : a.params) EXPECT_TRUE(value.BitwiseEqual(b.params.at(name)));
  std::map<std::string, ir::NDArray> other = InitParams(a.mod, 1);
  EXPECT_FALSE(other.at("fc_weight").BitwiseEqual(a.params.at("fc_weight")));
}

TEST(InitParamsTest, BindingAllParamsLeavesOnlyData) {
  for (const char* name : {"resnet-18", "mobilenet"}) {
    Workload w = GetWorkload(name);
    ir::Function bound = ir::BindParamsByName(w.mod.Lookup("main"), w.params);
    ASSERT_EQ(bound->params.size(), 1u) << name;
    EXPECT_EQ(bound->params[0]->name_hint, "data") << name;
    ir::IRModule typed = ir::InferTypes(ir::IRModule::FromExpr(bound));
    EXPECT_EQ(ir::TypeToString(typed.Lookup("main")->ret_type), "Tensor[(1, 1000), float32]");
  }
}

TEST(WorkloadRegistryTest, ExampleAndChainStayUntyped) {
  Workload example = GetWorkload("example");
  EXPECT_TRUE(example.params.empty());
  EXPECT_FALSE(example.mod.Lookup("main")->ret_type);
  Workload chain = GetWorkload("chain-4");
  EXPECT_TRUE(chain.params.empty());
  EXPECT_EQ(chain.mod.Lookup("main")->params.size(), 1u);
}

}  // namespace
}  // namespace relaypass::workloads
