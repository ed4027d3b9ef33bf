// Unification of types with unknowns (IncompleteType holes), the core of type inference.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "relaypass/ir/type.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::ir {

// `t` with the type variables that are keys of `map` replaced by their values.
Type SubstituteTypeVars(const Type& t, const std::unordered_map<const TypeNode*, Type>& map);

// Union-find over holes; each class may be bound to a (possibly partial) type.
class TypeSolver {
 public:
  Type NewHole();
  // `t` with every bound hole replaced by what it is bound to (unbound holes stay).
  Type Resolve(const Type& t);
  // Makes `a` and `b` equal, binding holes; returns false (and leaves a message in `why`) on a
  // conflict such as different dtypes or shapes.
  bool Unify(const Type& a, const Type& b, std::string* why);
  // The hole classes that changed (were bound, or merged into another class) since the last
  // call: what lets type inference re-run only the relations waiting on them.
  std::vector<int> TakeChanged() { return std::exchange(changed_, {}); }
  // Appends the classes of the unbound holes `t` holds once resolved.
  void UnboundHoles(const Type& t, std::vector<int>* out);

 private:
  int HoleIndex(const IncompleteTypeNode* hole);
  int Find(int i);
  // The type a hole's class is bound to, or null.
  Type& Binding(int root) { return bindings_[root]; }
  // `t` with the holes at its top followed to what they are bound to; its parts as they are.
  Type ResolveTop(Type t);
  // Whether the hole class `root` occurs in `t`.
  bool Occurs(int root, const Type& t);
  // Binds `hole`'s class to `type`, unless that would make an infinite type.
  bool BindHole(const IncompleteTypeNode* hole, const Type& type, std::string* why);

  support::PointerMap<int> index_;
  std::vector<int> parent_;
  std::vector<Type> bindings_;
  std::vector<Type> holes_;  // keeps the hole nodes alive
  std::vector<int> changed_;
};

}  // namespace relaypass::ir
