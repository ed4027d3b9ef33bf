#include "relaypass/ir/object.h"

#include <vector>

namespace relaypass::ir {

namespace {

// The queue of the outermost ReleaseObject running on this thread, or null. A plain pointer
// (trivially destructible, no allocation of its own), so it works at any time: during static
// destruction, and while a thread exits -- the parser runs each parse on a thread of its own, and
// a queue allocated per thread and never freed leaked once per parse.
thread_local std::vector<const Object*>* pending = nullptr;

}  // namespace

void ReleaseObject(const Object* obj) {
  // Deleting a node releases its children, which may reach zero and come back here. Queue them
  // instead of recursing, so freeing a long chain uses constant stack.
  if (pending) {
    pending->push_back(obj);
    return;
  }
  std::vector<const Object*> queue;  // allocates only if a child is released too
  pending = &queue;
  const Object* next = obj;
  while (true) {
    delete next;
    if (queue.empty()) break;
    next = queue.back();
    queue.pop_back();
  }
  pending = nullptr;
}

}  // namespace relaypass::ir
