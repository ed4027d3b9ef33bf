// The metadata table: constants that do not print inline (tensors, int8 scalars, ...) are
// printed as `meta[relay.Constant][i]` and stored here, in first-visit order.
//
// Metadata section format (our own encoding; relay_semantics.md 1.8 allows it). After the
// `#[metadata]` line, to the end of the file, one JSON object:
//
//   {
//     "relay.Constant": [
//       {"dtype": "float32", "shape": [1, 64], "data": "AAAAAAAA..."},
//       {"dtype": "int8", "shape": [], "data": "Bw=="}
//     ]
//   }
//
// * The array index is the `i` of `meta[relay.Constant][i]`.
// * "dtype" is the DataType spelling ("float32", "int8", "bool", "float32x4").
// * "shape" lists the dimensions; [] is a scalar.
// * "data" is standard base64 (RFC 4648, with `=` padding) of the raw element bytes in
//   row-major order, little-endian, exactly shape-product * dtype.bytes() bytes (bool: one byte
//   per element, 0 or 1).
// * Keys appear in this order when printed; a reader accepts any order and any JSON whitespace.
//   An empty table is never printed.
// * "VirtualDevice" (printed after "relay.Constant" when there are any) lists the virtual devices
//   of `meta[VirtualDevice][i]`: {"device_type": 2, "virtual_device_id": 0, "target": "cuda ...",
//   "target_host": "llvm ...", "memory_scope": ""} (ir/virtual_device.h).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::text {

class MetaTable {
 public:
  // The index of `c` in the relay.Constant array, appending it on its first use.
  size_t ConstantIndex(const ir::ConstantNode* c);
  // The index of `vd` in the VirtualDevice array (equal devices share one entry).
  size_t VirtualDeviceIndex(const ir::VirtualDevice& vd);
  bool empty() const { return constants_.empty() && virtual_devices_.empty(); }
  const std::vector<ir::Constant>& constants() const { return constants_; }
  // The JSON object described above.
  std::string ToJson() const;
  // The same, appended to `out` (one reservation, no intermediate copy).
  void AppendJson(std::string& out) const;

 private:
  std::vector<ir::Constant> constants_;
  std::unordered_map<const ir::ConstantNode*, size_t> index_;
  std::vector<ir::VirtualDevice> virtual_devices_;
};

// Reads the JSON of a metadata section back: the relay.Constant array, in index order. Throws
// ParseError (without a location; the caller knows where the section starts) if malformed.
// The VirtualDevice array goes to `virtual_devices` when given.
std::vector<ir::Constant> ParseMetaSection(
    std::string_view json, std::vector<ir::VirtualDevice>* virtual_devices = nullptr);

}  // namespace relaypass::text
