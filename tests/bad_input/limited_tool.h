// relay-opt run as the issue-19 checks run it: under `ulimit -v 8000000` (8 GB of address
// space) and `timeout 20`, so an input that would exhaust memory or hang fails the test instead
// of the machine. The sanitizer builds run it with a longer timeout and no address-space limit
// (their shadow memory alone exceeds it).
#pragma once

#include <string>

#include "tool.h"

namespace relaypass::bad_input {

// `relay-opt ARGS` (shell text, as RunRelayOpt's) with the input file `text` as its first
// argument, under the limits above. exit_code is 124 on a timeout, -1 on a crash.
ToolRun RunLimited(const std::string& text, const std::string& args);

}  // namespace relaypass::bad_input
