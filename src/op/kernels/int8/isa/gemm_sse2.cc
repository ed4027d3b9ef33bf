// The int8 GEMM for x86-64's baseline, SSE2 (TVM's target "llvm" or "-mcpu=x86-64"): the
// widening product of sse_common.h for uint8 x int8 and uint8 x uint8.
#include "int8_tiles.h"
#include "sse_common.h"

namespace {

struct WideU8S8 : WideU8U8 {
  static BVec LoadB(const int8_t* p) { return LoadSigned(p); }
};

}  // namespace

RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8s8_sse2, int8_t, WideU8S8)
RELAYPASS_INT8_GEMM_ENTRY(relaypass_int8_gemm_u8u8_sse2, uint8_t, WideU8U8)
