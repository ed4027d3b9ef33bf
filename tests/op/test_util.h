// Small assertions shared by the op tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "relaypass/support/error.h"

namespace relaypass::op::testing {

// Expects f() to throw a TypeError whose message contains `needle`.
template <typename F>
void ExpectTypeError(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected a TypeError containing: " << needle;
  } catch (const TypeError& e) {
    EXPECT_NE(e.message().find(needle), std::string::npos) << e.message();
  }
}

}  // namespace relaypass::op::testing
