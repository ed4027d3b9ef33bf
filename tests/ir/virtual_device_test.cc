// VirtualDevice: TVM's Join and Default rules (src/target/virtual_device.cc), field by field.
#include <gtest/gtest.h>

#include "relaypass/ir/virtual_device.h"
#include "relaypass/support/error.h"

namespace relaypass::ir {
namespace {

TEST(VirtualDeviceTest, UnconstrainedAndConstrained) {
  EXPECT_TRUE(IsFullyUnconstrained(nullptr));
  EXPECT_TRUE(FullyUnconstrainedVirtualDevice()->IsFullyUnconstrained());
  VirtualDevice cpu = MakeVirtualDevice(1, 0, "llvm", "", "");
  EXPECT_FALSE(cpu->IsFullyUnconstrained());
  // TVM's IsFullyConstrained needs a memory scope too.
  EXPECT_FALSE(cpu->IsFullyConstrained());
  EXPECT_TRUE(MakeVirtualDevice(1, 0, "llvm", "", "global")->IsFullyConstrained());
  EXPECT_TRUE(VirtualDeviceEqual(nullptr, FullyUnconstrainedVirtualDevice()));
  EXPECT_EQ(VirtualDeviceToString(cpu),
            "VirtualDevice(device_type=1, virtual_device_id=0, "
            "target=Target(llvm))");
}

TEST(VirtualDeviceTest, TargetGivesTheDeviceType) {
  // TVM: a target without a device type supplies its own; a disagreeing one is refused.
  EXPECT_EQ(MakeVirtualDevice(kInvalidDeviceType, -1, "cuda", "", "", 2)->device_type, 2);
  EXPECT_THROW(MakeVirtualDevice(1, -1, "cuda", "", "", 2), InternalError);
}

TEST(VirtualDeviceTest, Join) {
  VirtualDevice type_only = MakeVirtualDevice(2, -1);
  VirtualDevice id_and_scope = MakeVirtualDevice(kInvalidDeviceType, 3, "", "", "global");
  auto joined = JoinVirtualDevices(type_only, id_and_scope);
  ASSERT_TRUE(joined);
  EXPECT_TRUE(VirtualDeviceEqual(*joined, MakeVirtualDevice(2, 3, "", "", "global")));
  // Two different device types, ids, targets or scopes do not join.
  EXPECT_FALSE(JoinVirtualDevices(type_only, MakeVirtualDevice(1, -1)));
  EXPECT_FALSE(JoinVirtualDevices(MakeVirtualDevice(2, 0), MakeVirtualDevice(2, 1)));
  EXPECT_FALSE(
      JoinVirtualDevices(MakeVirtualDevice(2, 0, "cuda"), MakeVirtualDevice(2, 0, "opencl")));
  EXPECT_FALSE(JoinVirtualDevices(MakeVirtualDevice(1, 0, "", "", "scopeA"),
                                  MakeVirtualDevice(1, 0, "", "", "scopeB")));
}

TEST(VirtualDeviceTest, Default) {
  VirtualDevice gpu = MakeVirtualDevice(2, 0, "cuda", "llvm", "");
  // Open fields come from the default; set ones stay.
  VirtualDevice scoped = MakeVirtualDevice(kInvalidDeviceType, -1, "", "", "scopeA");
  EXPECT_TRUE(VirtualDeviceEqual(DefaultVirtualDevice(scoped, gpu),
                                 MakeVirtualDevice(2, 0, "cuda", "llvm", "scopeA")));
  // The default's target only goes with its own device type.
  VirtualDevice cpu_type = MakeVirtualDevice(1, -1);
  EXPECT_TRUE(VirtualDeviceEqual(DefaultVirtualDevice(cpu_type, gpu), MakeVirtualDevice(1, 0)));
}

}  // namespace
}  // namespace relaypass::ir
