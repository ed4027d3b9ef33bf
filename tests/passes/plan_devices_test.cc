// PlanDevices with a compilation config (TVM's device_planner.cc). Expected modules are derived
// by hand from TVM's rules: primitives put their arguments and result on one device, an
// on_device call puts its body on its device, function results default to the default device
// and parameters to their function's result; the capture phase writes the parameters' and
// functions' virtual devices, a fixed on_device (constrain_result=True) and a device_copy where
// a value changes device, and an on_device around every let-bound value.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/plan_devices.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

const ir::VirtualDevice& Cpu() {
  static const ir::VirtualDevice vd =
      ir::MakeVirtualDevice(1, 0, "llvm -keys=cpu", "llvm -keys=cpu");
  return vd;
}
const ir::VirtualDevice& Gpu() {
  static const ir::VirtualDevice vd =
      ir::MakeVirtualDevice(2, 0, "cuda -keys=cuda,gpu", "llvm -keys=cpu");
  return vd;
}

// CPU and GPU targets, primitives on the GPU by default (relay.fallback_device_type=2).
DevicePlanningConfig Config() {
  DevicePlanningConfig config;
  config.default_primitive_virtual_device = Gpu();
  config.host_virtual_device = ir::MakeVirtualDevice(1, 0, "llvm -keys=cpu");
  config.primitive_targets = {
      ir::MakeVirtualDevice(1, -1, "llvm -keys=cpu", "llvm -keys=cpu"),
      ir::MakeVirtualDevice(2, -1, "cuda -keys=cuda,gpu", "llvm -keys=cpu")};
  return config;
}

ir::IRModule Parse(const std::string& text) {
  text::ParseOptions options;
  options.virtual_devices = {Cpu(), Gpu()};
  return text::ParseModule(text, options);
}

void ExpectPlanned(const std::string& input, const std::string& expected) {
  ir::IRModule planned = ir::InferTypes(PlanDevices(Config())(Parse(input)));
  ir::IRModule want = Parse(expected);
  EXPECT_TRUE(ir::StructuralEqual(planned, want)) << "got:\n"
                                                  << text::PrettyPrint(planned) << "\nwant:\n"
                                                  << text::PrettyPrint(want);
  // The pass is idempotent.
  ir::IRModule again = ir::InferTypes(PlanDevices(Config())(want));
  EXPECT_TRUE(ir::StructuralEqual(again, want)) << text::PrettyPrint(again);
}

TEST(PlanDevicesTest, EverythingOnTheDefaultDevice) {
  ExpectPlanned(R"(
    def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]) {
      negative(add(%a, %b))
    })",
                R"(
    def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(2, 3), float32],
              %b {virtual_device=meta[VirtualDevice][1]}: Tensor[(2, 3), float32],
              virtual_device=meta[VirtualDevice][1]) {
      negative(add(%a, %b))
    })");
}

TEST(PlanDevicesTest, AnAnnotatedArgumentIsCopied) {
  // add's operands follow its on_device (CPU); multiply stays on the default (GPU), so the sum
  // is fixed on the CPU and copied.
  ExpectPlanned(R"(
    def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32],
              %c: Tensor[(2, 3), float32]) {
      %0 = add(%a, %b);
      %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);
      multiply(%1, %c)
    })",
                R"(
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2, 3), float32],
              %b {virtual_device=meta[VirtualDevice][0]}: Tensor[(2, 3), float32],
              %c {virtual_device=meta[VirtualDevice][1]}: Tensor[(2, 3), float32],
              virtual_device=meta[VirtualDevice][1]) {
      %0 = add(%a, %b);
      %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True);
      %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0],
                       dst_virtual_device=meta[VirtualDevice][1]);
      multiply(%2, %c)
    })");
}

TEST(PlanDevicesTest, ALetBoundOnDeviceFixesItsVariable) {
  // `let %x = on_device(e, CPU)` becomes fixed (phase 0): %x, add's operands and negative (which
  // shares %x's device) are all on the CPU, and so is main's result; the let-bound value keeps
  // its on_device.
  ExpectPlanned(R"(
    def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]) {
      let %x = on_device(add(%a, %b), virtual_device=meta[VirtualDevice][0]);
      negative(%x)
    })",
                R"(
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2, 3), float32],
              %b {virtual_device=meta[VirtualDevice][0]}: Tensor[(2, 3), float32],
              virtual_device=meta[VirtualDevice][0]) {
      let %x = on_device(add(%a, %b), virtual_device=meta[VirtualDevice][0],
                         constrain_result=True);
      negative(%x)
    })");
}

TEST(PlanDevicesTest, ALetBoundValueOnAnotherDeviceIsCopied) {
  // %y's value is fixed on the CPU (phase 0), but subtract follows main's default (GPU) with %c:
  // %y is copied where subtract reads it; %x (unannotated) defaults to the let's device, GPU.
  ExpectPlanned(R"(
    def @main(%a: Tensor[(2, 3), float32], %c: Tensor[(2, 3), float32]) {
      let %y = on_device(negative(%a), virtual_device=meta[VirtualDevice][0]);
      let %x = exp(%c);
      %0 = on_device(%y, virtual_device=meta[VirtualDevice][0]);
      subtract(%0, %x)
    })",
                R"(
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2, 3), float32],
              %c {virtual_device=meta[VirtualDevice][1]}: Tensor[(2, 3), float32],
              virtual_device=meta[VirtualDevice][1]) {
      let %y = on_device(negative(%a), virtual_device=meta[VirtualDevice][0],
                         constrain_result=True);
      let %x = on_device(exp(%c), virtual_device=meta[VirtualDevice][1], constrain_result=True);
      %0 = device_copy(%y, src_virtual_device=meta[VirtualDevice][0],
                       dst_virtual_device=meta[VirtualDevice][1]);
      subtract(%0, %x)
    })");
}

TEST(PlanDevicesTest, AnArgumentWantedOnTwoDevicesIsCopied) {
  // %b feeds add (on the CPU) and multiply (on the GPU): PlanDevicesCheckConflicts copies it for
  // multiply, the later call, and the CPU sum is copied to subtract on the GPU.
  ExpectPlanned(R"(
    def @main(%a: Tensor[(2), float32], %b: Tensor[(2), float32], %c: Tensor[(2), float32]) {
      %0 = add(%a, %b);
      %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);
      %2 = multiply(%b, %c);
      %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);
      subtract(%1, %3)
    })",
                R"(
    def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32],
              %b {virtual_device=meta[VirtualDevice][0]}: Tensor[(2), float32],
              %c {virtual_device=meta[VirtualDevice][1]}: Tensor[(2), float32],
              virtual_device=meta[VirtualDevice][1]) {
      %0 = add(%a, %b);
      %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True);
      %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0],
                       dst_virtual_device=meta[VirtualDevice][1]);
      %3 = device_copy(%b, src_virtual_device=meta[VirtualDevice][0],
                       dst_virtual_device=meta[VirtualDevice][1]);
      %4 = multiply(%3, %c);
      subtract(%2, %4)
    })");
}

TEST(PlanDevicesTest, WithoutConfigNothingChanges) {
  ir::IRModule mod = Parse("def @main(%a: Tensor[(2), float32]) { negative(%a) }");
  EXPECT_TRUE(ir::StructuralEqual(PlanDevices()(mod), mod));
}

TEST(PlanDevicesTest, ConflictingDevicesAreAnError) {
  // add's operands would be on the CPU and on the GPU: TVM's fatal unification error.
  ir::IRModule mod = Parse(R"(
    def @main(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) {
      %0 = on_device(%a, virtual_device=meta[VirtualDevice][0], constrain_result=True);
      %1 = on_device(%b, virtual_device=meta[VirtualDevice][1], constrain_result=True);
      add(%0, %1)
    })");
  EXPECT_THROW(PlanDevices(Config())(mod), Error);
}

TEST(PlanDevicesTest, ConfigRoundTripsThroughItsOption) {
  DevicePlanningConfig config = Config();
  DevicePlanningConfig back = DevicePlanningConfig::FromOption(config.ToOption());
  EXPECT_TRUE(ir::VirtualDeviceEqual(back.default_primitive_virtual_device, Gpu()));
  ASSERT_EQ(back.primitive_targets.size(), 2u);
  EXPECT_TRUE(DevicePlanningConfig::FromOption(ir::AttrValue::Map({})).empty());
  // A device type without a target of its own cannot be made canonical.
  EXPECT_THROW(config.Canonical(ir::MakeVirtualDevice(4, 0)), ValueError);
  EXPECT_TRUE(ir::VirtualDeviceEqual(config.Canonical(ir::MakeVirtualDevice(2, 0)), Gpu()));
}

TEST(PlanDevicesTest, RecoverVirtualDeviceMap) {
  ir::IRModule planned = PlanDevices(Config())(Parse(R"(
    def @main(%a: Tensor[(2), float32], %b: Tensor[(2), float32]) {
      %0 = on_device(add(%a, %a), virtual_device=meta[VirtualDevice][0]);
      subtract(%0, %b)
    })"));
  ir::Function main = planned.Lookup("main");
  int cpu = 0, gpu = 0;
  for (const auto& [expr, vd] : RecoverVirtualDeviceMap(planned, main)) {
    (vd->device_type == 1 ? cpu : gpu)++;
  }
  // CPU: %a, add, its fixed on_device; GPU: %b, the copy, subtract, main.
  EXPECT_EQ(cpu, 3);
  EXPECT_EQ(gpu, 4);
}

TEST(PlanDevicesTest, MillionNodeChain) {
  // The registry-wide depth tests run PlanDevices without a config; this runs the planner itself.
  const int64_t n = relaypass::testing::ScaledDepth(1000000);
  ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(n)));
  ir::IRModule out = PlanDevices(Config())(mod);
  ir::Function main = out.Lookup("main");
  EXPECT_TRUE(ir::VirtualDeviceEqual(main->virtual_device, Gpu()));
  for (const ir::Var& p : main->params)
    EXPECT_TRUE(ir::VirtualDeviceEqual(p->virtual_device, Gpu()));
  EXPECT_EQ(ir::CountNodes(main), ir::CountNodes(mod.Lookup("main")));
}

}  // namespace
}  // namespace relaypass::passes
