// Runs a function on a thread with a large stack. The parser is recursive descent and accepts
// Parser::kMaxNesting levels of nesting; that depth must not depend on the caller's stack size
// (8 MiB on a Linux main thread, less on other threads, and more per frame in debug builds).
#pragma once

#include <cstddef>
#include <functional>

namespace relaypass::text {

// Calls `fn` on a fresh thread with `stack_bytes` of stack and waits for it; an exception thrown
// by `fn` is rethrown in the caller. Falls back to calling `fn` directly if no thread can be
// created.
void RunWithStack(size_t stack_bytes, const std::function<void()>& fn);

}  // namespace relaypass::text
