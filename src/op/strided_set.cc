// strided_set (TVM v0.13's StridedSetRel: the result has the data's type): data with the strided
// slice begin:end:strides (1-D integer tensors; missing axes take the whole axis) set to v.
#include <string>

#include "families.h"
#include "kernels/strided_set.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

bool StridedSetRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef v = TensorOf(call, 1);
  if (!data || !v) return false;
  if (v->dtype != data->dtype) {
    call.Fail("strided_set: v " + TypeString(v) + " and data " + TypeString(data) +
              " differ in dtype");
  }
  const char* names[3] = {"begin", "end", "strides"};
  for (size_t i = 2; i < 5; ++i) {
    TensorTypeRef t = TensorOf(call, i);
    if (!t) return false;
    if (t->ndim() != 1 || (!t->dtype.is_int() && !t->dtype.is_uint())) {
      call.Fail(std::string("strided_set: ") + names[i - 2] +
                " must be a 1-D integer tensor, got " + TypeString(t));
    }
  }
  call.AssignResult(ir::Type(data));
  return true;
}

}  // namespace

void RegisterStridedSetOp(OpRegistry& registry) {
  RegisterOp(registry, "strided_set", 5, OpPattern::kInjective, StridedSetRel,
             "Sets the strided slice begin:end:strides of data to v.")
      .kernel = kernels::StridedSet;
}

}  // namespace relaypass::op
