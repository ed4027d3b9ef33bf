// nn.contrib_conv2d_NCHWc and nn.contrib_depthwise_conv2d_NCHWc: TVM's x86 convolutions on
// channel-blocked layouts (data NCHW[x]c, kernel OIHW[x]i[y]o), the ops TVM's AlterOpLayout
// rewrites conv2d into. As in TVM, they share nn.conv2d's attributes and type relation (which
// converts any blocked layout to NCHW/OIHW), so the evaluator runs them with nn.conv2d's kernel.
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/support/error.h"

namespace relaypass::op {

void RegisterConvNCHWcOps(OpRegistry& registry) {
  const OpDef* conv2d = registry.Find("nn.conv2d");
  if (conv2d == nullptr)
    throw InternalError("nn.contrib_conv2d_NCHWc: nn.conv2d is not registered");
  const struct {
    const char* name;
    const char* description;
  } ops[] = {
      {"nn.contrib_conv2d_NCHWc",
       "2D convolution on channel-blocked layouts (NCHW[x]c data, OIHW[x]i[y]o kernel), TVM's "
       "x86 layout for conv2d."},
      {"nn.contrib_depthwise_conv2d_NCHWc",
       "Depthwise 2D convolution on channel-blocked layouts (NCHW[x]c data), TVM's x86 layout "
       "for depthwise conv2d."},
  };
  for (const auto& entry : ops) {
    OpDef& op = RegisterOp(registry, entry.name, 2, OpPattern::kOutEWiseFusable,
                           conv2d->type_relation, entry.description);
    op.attrs_schema = conv2d->attrs_schema;
    op.kernel = conv2d->kernel;
    op.infer_layout = conv2d->infer_layout;
  }
}

}  // namespace relaypass::op
