// Shared helpers of the relay-opt tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "relaypass/transform/registry.h"
#include "run_tool.h"

namespace relay_opt::testing {

// Whether the library this test (and relay-opt) was built with registers every pass in `names`.
inline bool AllRegistered(const std::vector<std::string>& names, std::string* missing) {
  for (const std::string& name : names) {
    if (!relaypass::transform::PassRegistry::Global().Find(name)) {
      *missing = name;
      return false;
    }
  }
  return true;
}

// Skips the test until the passes it needs have landed.
#define SKIP_UNLESS_REGISTERED(...)                                           \
  do {                                                                        \
    std::string missing_pass;                                                 \
    if (!::relay_opt::testing::AllRegistered({__VA_ARGS__}, &missing_pass)) { \
      GTEST_SKIP() << "pass " << missing_pass << " is not registered yet";    \
    }                                                                         \
  } while (0)

// An error run: exit code 1, nothing on stdout, and a first stderr line starting with `prefix`.
inline void ExpectError(const ToolResult& r, const std::string& prefix) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.first_err_line().substr(0, prefix.size()), prefix) << "stderr:\n" << r.err;
}

inline std::string TestData(const std::string& name) {
  return ReadFile(std::string(RELAYPASS_TEST_DATA) + "/cli/" + name);
}

}  // namespace relay_opt::testing
