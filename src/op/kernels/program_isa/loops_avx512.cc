// The elementwise programs' loops for AVX512 (CMakeLists.txt gives this file its -m options).
#define RELAYPASS_PROGRAM_LOOPS InstructionLoopsAvx512
#include "program_loops.h"
