// The annotation family for BYOC: annotation.compiler_begin and annotation.compiler_end (TVM's
// src/relay/op/annotation/annotation.cc), with CompilerAttrs (`compiler`). Both are identities on
// an edge of the graph: AnnotateTarget inserts them, MergeCompilerRegions and PartitionGraph read
// them. Opaque, so nothing fuses across them; their kernel is the identity. No layout rule (as
// in TVM): layout passes treat them as layout barriers.
// Also the device annotations PlanDevices reads and writes: on_device (TVM's
// src/relay/op/memory/on_device.cc, OnDeviceAttrs) and device_copy (device_copy.cc,
// DeviceCopyAttrs). relaypass evaluates everything on the CPU, so both run as the identity.
#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"

namespace relaypass::op {

namespace {

const ir::AttrsSchema* CompilerAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.CompilerAttrs",
                                      {ir::AttrsSchema::String("compiler", "")});
  return &schema;
}

// TVM's ForwardRel: the result has the argument's type, whatever it is (a tensor or a tuple).
bool ForwardRel(TypeRelationCall& call) {
  ir::Type in = call.arg(0);
  if (in && !in.as<ir::IncompleteTypeNode>()) {
    call.AssignResult(in);
    return true;
  }
  ir::Type out = call.result();
  if (out && !out.as<ir::IncompleteTypeNode>()) {
    call.Assign(0, out);
    return true;
  }
  return false;
}

const ir::AttrsSchema* OnDeviceAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.OnDeviceAttrs",
                                      {ir::AttrsSchema::VirtualDeviceField("virtual_device"),
                                       ir::AttrsSchema::Bool("constrain_result", false),
                                       ir::AttrsSchema::Bool("constrain_body", true)});
  return &schema;
}

const ir::AttrsSchema* DeviceCopyAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.DeviceCopyAttrs",
                                      {ir::AttrsSchema::VirtualDeviceField("src_virtual_device"),
                                       ir::AttrsSchema::VirtualDeviceField("dst_virtual_device")});
  return &schema;
}

}  // namespace

void RegisterAnnotationOps(OpRegistry& registry) {
  OpDef& on_device = RegisterOp(registry, "on_device", 1, OpPattern::kOpaque, ForwardRel,
                                "Annotates an expression with the device it should be on; its "
                                "value is its argument.");
  on_device.attrs_schema = OnDeviceAttrs();
  on_device.kernel = kernels::Identity;
  OpDef& device_copy =
      RegisterOp(registry, "device_copy", 1, OpPattern::kOpaque, ForwardRel,
                 "Copies a tensor from one device to another (the identity on relaypass's CPU).");
  device_copy.attrs_schema = DeviceCopyAttrs();
  device_copy.kernel = kernels::Identity;

  for (const char* name : {"annotation.compiler_begin", "annotation.compiler_end"}) {
    OpDef& def = RegisterOp(registry, name, 1, OpPattern::kOpaque, ForwardRel,
                            "Marks where a region for an external compiler begins or ends; its "
                            "value is its argument.");
    def.attrs_schema = CompilerAttrs();
    def.kernel = kernels::Identity;
  }
}

}  // namespace relaypass::op
