// The precompiled header of every test executable (CMakeLists.txt, RELAYPASS_PCH): what most test
// files include. Test files still include what they use; this only makes it cheaper to compile.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
