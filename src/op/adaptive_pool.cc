// Adaptive pooling: nn.adaptive_avg_pool{1,2,3}d and nn.adaptive_max_pool{1,2,3}d (TVM v0.13's
// AdaptivePool*DAttrs and AdaptivePool*DRel). Output element i of a spatial axis of extent n
// pools the input's [floor(i * n / out), ceil((i + 1) * n / out)).
#include <string>

#include "kernels/kernels.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

// The spatial axis letters of an s-d pool, outermost first.
const char* SpatialAxes(int s) {
  return s == 1 ? "W" : (s == 2 ? "HW" : "DHW");
}
const char* DefaultLayout(int s) {
  return s == 1 ? "NCW" : (s == 2 ? "NCHW" : "NCDHW");
}

const AttrsSchema* AdaptivePoolAttrs(int s) {
  auto fields = [](int rank) {
    return std::vector<ir::AttrField>{AttrsSchema::IntArray("output_size", {}),
                                      AttrsSchema::String("layout", DefaultLayout(rank)),
                                      AttrsSchema::String("out_layout", "")};
  };
  static const AttrsSchema a1("relay.attrs.AdaptivePool1DAttrs", fields(1));
  static const AttrsSchema a2("relay.attrs.AdaptivePool2DAttrs", fields(2));
  static const AttrsSchema a3("relay.attrs.AdaptivePool3DAttrs", fields(3));
  return s == 1 ? &a1 : (s == 2 ? &a2 : &a3);
}

// TVM's AdaptivePool{1,2,3}DRel: the spatial extents become output_size (one value for all of
// them, or one each; none keeps the input's). A -1 in output_size (Python's None) keeps that
// axis' input extent.
template <int S>
bool AdaptivePoolRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& layout_name = attrs.get_string("layout");
  Layout layout = ParseLayout(call, layout_name);
  const std::string axes = SpatialAxes(S);
  for (char c : axes) {
    if (!layout.Contains(c) || layout.Contains(static_cast<char>(c - 'A' + 'a'))) {
      call.Fail(call.op_name() + ": invalid layout " + layout_name + "; it must have " + axes +
                ", which cannot be split");
    }
  }
  if (static_cast<size_t>(data->ndim()) != layout.ndim()) {
    call.Fail(call.op_name() + ": data " + TypeString(data) + " does not match layout " +
              layout_name);
  }
  const std::vector<int64_t> sizes = IntsAttr(call, "output_size");
  if (sizes.size() > static_cast<size_t>(S) || (S > 1 && sizes.size() > 1 && sizes.size() != S)) {
    call.Fail(call.op_name() + ": output_size must have " +
              (S == 1 ? std::string("1 element") : "1 or " + std::to_string(S) + " elements") +
              ", got " + attrs.get("output_size").ToString());
  }
  Shape out = data->shape;
  for (int i = 0; i < S; ++i) {
    const int index = layout.IndexOf(axes[i]);
    if (sizes.empty()) continue;
    const int64_t size = sizes.size() == 1 ? sizes[0] : sizes[i];
    if (size < -1) {
      call.Fail(call.op_name() + ": output_size must not be negative, got " +
                attrs.get("output_size").ToString());
    }
    if (size != -1) out[index] = size;
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterAdaptivePoolOps(OpRegistry& registry) {
  struct Entry {
    const char* name;
    int s;
    TypeRelation rel;
    kernels::KernelFn* kernel;
    const char* description;
  };
  const Entry entries[] = {
      {"nn.adaptive_avg_pool1d", 1, AdaptivePoolRel<1>, kernels::AdaptiveAvgPool1D,
       "1-D average pooling to a given output width."},
      {"nn.adaptive_avg_pool2d", 2, AdaptivePoolRel<2>, kernels::AdaptiveAvgPool2D,
       "2-D average pooling to a given output height and width."},
      {"nn.adaptive_avg_pool3d", 3, AdaptivePoolRel<3>, kernels::AdaptiveAvgPool3D,
       "3-D average pooling to a given output depth, height and width."},
      {"nn.adaptive_max_pool1d", 1, AdaptivePoolRel<1>, kernels::AdaptiveMaxPool1D,
       "1-D max pooling to a given output width."},
      {"nn.adaptive_max_pool2d", 2, AdaptivePoolRel<2>, kernels::AdaptiveMaxPool2D,
       "2-D max pooling to a given output height and width."},
      {"nn.adaptive_max_pool3d", 3, AdaptivePoolRel<3>, kernels::AdaptiveMaxPool3D,
       "3-D max pooling to a given output depth, height and width."},
  };
  for (const Entry& e : entries) {
    OpDef& def = RegisterOp(registry, e.name, 1, OpPattern::kOutEWiseFusable, e.rel, e.description);
    def.attrs_schema = AdaptivePoolAttrs(e.s);
    def.kernel = e.kernel;
  }
}

}  // namespace relaypass::op
