// The elementwise programs' loops for AVX2 (CMakeLists.txt gives this file its -m options).
#define RELAYPASS_PROGRAM_LOOPS InstructionLoopsAvx2
#include "program_loops.h"
