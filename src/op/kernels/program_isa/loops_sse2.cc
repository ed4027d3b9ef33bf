// The elementwise programs' loops for SSE2 (CMakeLists.txt gives this file its -m options).
#define RELAYPASS_PROGRAM_LOOPS InstructionLoopsSse2
#include "program_loops.h"
