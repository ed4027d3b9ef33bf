#include "relaypass/ir/object.h"

#include <vector>

namespace relaypass::ir {

void ReleaseObject(const Object* obj) {
  // Deleting a node releases its children, which may reach zero and come back here. Queue them
  // instead of recursing, so freeing a long chain uses constant stack.
  // The queue is never destroyed: objects held by static variables are released after a
  // function-local thread_local would be gone.
  thread_local auto* pending = new std::vector<const Object*>();
  thread_local bool draining = false;
  pending->push_back(obj);
  if (draining) return;
  draining = true;
  while (!pending->empty()) {
    const Object* next = pending->back();
    pending->pop_back();
    delete next;
  }
  draining = false;
}

}  // namespace relaypass::ir
