// The annotation family for BYOC: annotation.compiler_begin and annotation.compiler_end (TVM's
// src/relay/op/annotation/annotation.cc), with CompilerAttrs (`compiler`). Both are identities on
// an edge of the graph: AnnotateTarget inserts them, MergeCompilerRegions and PartitionGraph read
// them. Opaque, so nothing fuses across them; their kernel is the identity. No layout rule (as
// in TVM): layout passes treat them as layout barriers.
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

}  // namespace

void RegisterAnnotationOps(OpRegistry& registry) {
  for (const char* name : {"annotation.compiler_begin", "annotation.compiler_end"}) {
    OpDef& def = RegisterOp(registry, name, 1, OpPattern::kOpaque, ForwardRel,
                            "Marks where a region for an external compiler begins or ends; its "
                            "value is its argument.");
    def.attrs_schema = CompilerAttrs();
    def.kernel = kernels::Identity;
  }
}

}  // namespace relaypass::op
