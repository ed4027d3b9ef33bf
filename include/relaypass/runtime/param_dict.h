// TVM's parameter-dictionary bytes (tvm.runtime.save_param_dict, relay.save_param_dict, the
// "params" of relay.build): what TVM v0.13's SaveParams / LoadParams (src/runtime/file_utils.cc)
// and NDArray::Save / Load (include/tvm/runtime/ndarray.h) write and read, byte for byte.
//
// Layout, every integer little-endian:
//   u64 0xF7E58D4F05049CB7 (kTVMNDArrayListMagic), u64 reserved (0),
//   u64 name count, then each name as u64 length + bytes,
//   u64 array count (equal to the name count), then each array:
//     u64 0xDD5E40F096B4A13F (kTVMNDArrayMagic), u64 reserved (0),
//     DLDevice {i32 device_type = 1 (kDLCPU), i32 device_id = 0}, i32 ndim,
//     DLDataType {u8 code, u8 bits, u16 lanes}, ndim x i64 shape, i64 data byte count, the data.
// The i-th name belongs to the i-th array.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "relaypass/ir/ndarray.h"

namespace relaypass::runtime {

inline constexpr uint64_t kTVMNDArrayListMagic = 0xF7E58D4F05049CB7;
inline constexpr uint64_t kTVMNDArrayMagic = 0xDD5E40F096B4A13F;
/// The most dimensions LoadParamDict accepts (TVM has no cap; no Relay tensor comes near it).
inline constexpr int kMaxParamDims = 64;

/// The bytes of `params`, names in the map's (sorted) order. TVM writes its Map's iteration order,
/// which is unspecified; LoadParamDict (TVM's and ours) takes any order. The dtypes TVM can read
/// back are written: int8/16/32/64, uint8/16/32/64, float16/32/64, bfloat16 and bool (TVM's bool
/// is uint1: code 1, bits 1, one byte per element). Another dtype (a vector type such as
/// float32x4, int4) or an undefined array is a relaypass::Error naming the parameter.
std::string SaveParamDict(const std::map<std::string, ir::NDArray>& params);

/// Reads SaveParamDict's (or TVM's) bytes. Every field is checked against the bytes left before
/// anything is allocated, so no allocation is larger than the input: truncated data, a wrong magic,
/// counts the remaining bytes cannot hold, an unknown dtype, a device other than the CPU, ndim
/// outside [0, kMaxParamDims], a negative dimension, a shape whose size overflows, a data byte
/// count that is not shape x element size, name and array counts that differ, a duplicate name and
/// bytes after the last array are each a relaypass::Error "SOURCE: byte OFFSET: ...".
/// DLPack's kDLBool (code 6, bits 8) is read as bool too.
std::map<std::string, ir::NDArray> LoadParamDict(std::string_view bytes,
                                                 const std::string& source_name);

}  // namespace relaypass::runtime
