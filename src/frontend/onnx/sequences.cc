// The sequence ops on sequences known at import as lists (no Relay ADT): SequenceEmpty,
// SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase, SequenceLength,
// ConcatFromSequence (concatenate, expand_dims for new_axis) and SplitToSequence (split).
#include "graph_importer.h"

#include <algorithm>

#include "relaypass/relay.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

bool GraphImporter::IsSequenceOp(const std::string& op) {
  return op == "SequenceEmpty" || op == "SequenceConstruct" || op == "SequenceInsert" ||
         op == "SequenceAt" || op == "SequenceErase" || op == "SequenceLength" ||
         op == "ConcatFromSequence" || op == "SplitToSequence";
}

// A position input (scalar, known at import) normalised against `size` (`inclusive`: size
// itself allowed, as SequenceInsert's).
int64_t GraphImporter::Position(const onnx::NodeProto& node, int64_t index, int i, int64_t size,
                                bool inclusive, int64_t fallback) {
  if (node.input_size() <= i || node.input(i).empty()) return fallback;
  const ValueInfo& v = values_.at(node.input(i));
  if (!v.value || v.value->size() != 1) {
    NodeFail(node, index, "the position must be a scalar known at import", true);
  }
  int64_t p = IntAtImport(node, index, *v.value, 0, "the position");
  if (p < 0) p += size;
  if (p < 0 || p > size || (!inclusive && p == size)) {
    NodeFail(node, index, "position " + std::to_string(p) + " is out of range");
  }
  return p;
}

int64_t GraphImporter::AttrInt(const onnx::NodeProto& node, const std::string& name,
                               int64_t fallback) {
  for (const onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == name) return a.i();
  }
  return fallback;
}

// The sequence ops on sequences known at import as lists (no Relay ADT): SequenceEmpty,
// SequenceConstruct, SequenceInsert, SequenceAt, SequenceErase, SequenceLength,
// ConcatFromSequence (concatenate, expand_dims for new_axis) and SplitToSequence (split).
void GraphImporter::ConvertSequenceNode(const onnx::NodeProto& node, int64_t index) {
  const std::string& op = node.op_type();
  if (node.output_size() != 1 || node.output(0).empty()) {
    NodeFail(node, index, op + " must have one output");
  }
  auto input = [&](int i) -> const ValueInfo& {
    if (node.input_size() <= i || node.input(i).empty()) NodeFail(node, index, "missing input");
    return values_.at(node.input(i));
  };
  auto sequence = [&](int i) -> const ValueInfo& {
    const ValueInfo& v = input(i);
    if (!v.is_sequence) NodeFail(node, index, "input " + std::to_string(i) + " is not a sequence");
    return v;
  };
  ValueInfo out;
  if (op == "SequenceEmpty") {
    out.is_sequence = true;
    std::optional<ir::DataType> dt = DTypeFromOnnx(AttrInt(node, "dtype", 1));
    out.element_dtype = dt ? *dt : ir::DataType::Float32();
  } else if (op == "SequenceConstruct") {
    out.is_sequence = true;
    for (int i = 0; i < node.input_size(); ++i) out.elements.push_back(input(i));
    if (!out.elements.empty()) out.element_dtype = out.elements[0].dtype;
  } else if (op == "SequenceInsert") {
    out = sequence(0);
    const int64_t size = static_cast<int64_t>(out.elements.size());
    const int64_t at = Position(node, index, 2, size, true, size);
    out.elements.insert(out.elements.begin() + at, input(1));
  } else if (op == "SequenceErase") {
    out = sequence(0);
    const int64_t size = static_cast<int64_t>(out.elements.size());
    if (size == 0) NodeFail(node, index, "erasing from an empty sequence");
    out.elements.erase(out.elements.begin() + Position(node, index, 1, size, false, size - 1));
  } else if (op == "SequenceAt") {
    const ValueInfo& seq = sequence(0);
    const int64_t size = static_cast<int64_t>(seq.elements.size());
    out = seq.elements.at(Position(node, index, 1, size, false, 0));
  } else if (op == "SequenceLength") {
    out.value = ir::NDArray::Scalar<int64_t>(static_cast<int64_t>(sequence(0).elements.size()),
                                             ir::DataType::Int64());
    out.dtype = ir::DataType::Int64();
    out.expr = ir::MakeConstant(*out.value);
    out.import_const = true;
  } else if (op == "ConcatFromSequence") {
    const ValueInfo& seq = sequence(0);
    if (seq.elements.empty()) NodeFail(node, index, "concatenating an empty sequence", true);
    const bool new_axis = AttrInt(node, "new_axis", 0) != 0;
    int64_t axis = AttrInt(node, "axis", 0);
    const int64_t rank = static_cast<int64_t>(seq.elements[0].shape.size()) + (new_axis ? 1 : 0);
    if (axis < 0) axis += rank;
    out = Derive(node, index, seq.elements, [&](const std::vector<ir::Expr>& parts) {
      std::vector<ir::Expr> fields = parts;
      if (new_axis) {
        for (ir::Expr& f : fields) f = relay::expand_dims(f, static_cast<int>(axis));
      }
      return relay::concatenate(fields, static_cast<int>(axis));
    });
  } else {  // SplitToSequence
    const ValueInfo& x = input(0);
    int64_t axis = AttrInt(node, "axis", 0);
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) NodeFail(node, index, "axis out of range");
    const int64_t extent = x.shape[axis];
    std::vector<int64_t> sizes;
    bool squeeze = false;
    if (node.input_size() > 1 && !node.input(1).empty()) {
      const ValueInfo& split = input(1);
      if (!split.value && options_.dynamic_values && split.shape.size() == 1 &&
          split.shape[0] >= 0) {
        // Sizes known only at run time (a static count): one dyn.strided_slice per piece,
        // between the sizes' exclusive and inclusive cumulative sums on `axis`.
        out.is_sequence = true;
        out.element_dtype = x.dtype;
        const ValueInfo sizes_value = split;
        for (int64_t k = 0; k < split.shape[0]; ++k) {
          out.elements.push_back(
              Derive(node, index, {x, sizes_value}, [&](const std::vector<ir::Expr>& a) {
                ir::Expr sizes = relay::cast(a[1], "int64");
                ir::Expr ends = relay::cumsum(sizes, 0);
                ir::Expr starts = relay::subtract(ends, sizes);
                auto i64 = [](const std::vector<int64_t>& v) {
                  ir::NDArray t =
                      ir::NDArray::Empty({static_cast<int64_t>(v.size())}, ir::DataType::Int64());
                  std::copy(v.begin(), v.end(), t.mutable_data<int64_t>());
                  return ir::Expr(ir::MakeConstant(t));
                };
                const ir::Expr at = i64({axis});
                ir::Expr begin =
                    relay::scatter_elements(i64(std::vector<int64_t>(rank, 0)), at,
                                            relay::strided_slice(starts, {k}, {k + 1}));
                ir::Expr end = relay::scatter_elements(relay::shape_of(a[0], "int64"), at,
                                                       relay::strided_slice(ends, {k}, {k + 1}));
                return relay::call("dyn.strided_slice",
                                   {a[0], begin, end, i64(std::vector<int64_t>(rank, 1))},
                                   {{"slice_mode", ir::AttrValue::Str("end")}});
              }));
        }
        values_[node.output(0)] = std::move(out);
        return;
      }
      if (!split.value) {
        OnnxError error("node #" + std::to_string(index) + " '" + node.name() + "' (" +
                            node.op_type() + "): split must be known at import",
                        index, node.name(), node.op_type(), true);
        error.needs_input_value = !split.roots.empty();  // bind the graph input it comes from
        if (!split.roots.empty()) error.input_name = split.roots.front();
        throw error;
      }
      if (split.value->ndim() == 0) {
        const int64_t chunk = IntAtImport(node, index, *split.value, 0, "split");
        if (chunk < 1) NodeFail(node, index, "split must be positive");
        for (int64_t at = 0; at < extent; at += chunk)
          sizes.push_back(std::min(chunk, extent - at));
      } else {
        for (int64_t k = 0; k < split.value->size(); ++k) {
          sizes.push_back(IntAtImport(node, index, *split.value, k, "split"));
        }
      }
    } else {
      sizes.assign(extent, 1);
      squeeze = AttrInt(node, "keepdims", 1) == 0;
    }
    out.is_sequence = true;
    out.element_dtype = x.dtype;
    int64_t begin = 0;
    for (int64_t size : sizes) {
      const int64_t b = begin;
      out.elements.push_back(Derive(node, index, {x}, [&](const std::vector<ir::Expr>& a) {
        ir::Expr piece =
            relay::strided_slice(a[0], {b}, {b + size}, relay::Ints{1}, relay::Ints{axis});
        return squeeze ? relay::squeeze(piece, relay::Ints{axis}) : piece;
      }));
      begin += size;
    }
    if (begin != extent) NodeFail(node, index, "split sizes do not add up to the axis");
  }
  values_[node.output(0)] = std::move(out);
}

}  // namespace relaypass::frontend::onnx_import
