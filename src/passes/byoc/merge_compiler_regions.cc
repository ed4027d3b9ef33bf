// MergeCompilerRegions (TVM v0.13, src/relay/transforms/merge_compiler_regions.cc): visiting the
// compiler_end annotations in post-order, each region absorbs the parent regions (those feeding
// its inputs) of the same target, unless a path through a region of another target links them
// (the "restrictions" that keep the merged graph acyclic). Then the begin/end pairs that became
// internal to a region are removed.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "annotated_regions.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

void MergeRegions(byoc::AnnotatedRegionSet& regions, const ir::Expr& expr) {
  std::set<int> merged;
  std::unordered_map<int, std::set<int>> restrictions;
  std::unordered_map<int, std::set<int>> restricted_by;  // region -> regions it restricts
  std::vector<ir::Expr> ends;
  ir::post_order_visit(expr, [&](const ir::Expr& e) {
    if (CompilerEndTarget(e)) ends.push_back(e);
  });
  for (const ir::Expr& end : ends) {
    const int id = regions.RegionOf(end.get());
    if (id < 0 || merged.count(id)) continue;
    const std::string target = regions.region(id).target;
    // The parent regions, in input order, once each.
    std::vector<int> parents;
    for (const ir::Expr& in : regions.Ins(id)) {
      const int parent = regions.RegionOf(in.as<ir::CallNode>()->args[0].get());
      if (parent >= 0 && std::find(parents.begin(), parents.end(), parent) == parents.end()) {
        parents.push_back(parent);
      }
    }
    std::set<int>& own = restrictions[id];
    for (int parent : parents) {
      auto inherited = restrictions.find(parent);
      if (inherited == restrictions.end()) continue;
      for (int r : inherited->second) {
        own.insert(r);
        restricted_by[r].insert(id);
      }
    }
    for (int parent : parents) {
      if (regions.region(parent).target != target) {
        own.insert(parent);
        restricted_by[parent].insert(id);
        continue;
      }
      if (own.count(parent)) continue;
      regions.Merge(parent, id);
      // Every region restricted by the parent is now restricted by the merged region.
      auto holders = restricted_by.find(parent);
      if (holders != restricted_by.end()) {
        std::set<int> moved = std::move(holders->second);
        restricted_by.erase(holders);
        for (int other : moved) {
          if (restrictions[other].erase(parent)) {
            restrictions[other].insert(id);
            restricted_by[id].insert(other);
          }
        }
      }
    }
    merged.insert(id);
  }
}

// Removes compiler_begin(compiler_end(x)) when both are in one region.
class MergeAnnotations : public ir::ExprMutator {
 public:
  explicit MergeAnnotations(const byoc::AnnotatedRegionSet& regions) : regions_(regions) {}

 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    if (!CompilerBeginTarget(ir::Expr(pre)) || !CompilerEndTarget(pre->args[0])) return post;
    const int begin_region = regions_.RegionOf(pre);
    if (begin_region < 0 || begin_region != regions_.RegionOf(pre->args[0].get())) return post;
    return post.as<ir::CallNode>()->args[0].as<ir::CallNode>()->args[0];
  }

 private:
  const byoc::AnnotatedRegionSet& regions_;
};

}  // namespace

transform::Pass MergeCompilerRegions() {
  transform::Pass merge = transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        byoc::AnnotatedRegionSet regions = byoc::AnnotatedRegionSet::Create(func);
        MergeRegions(regions, func);
        MergeAnnotations rewriter(regions);
        return rewriter.Mutate(func).downcast<ir::FunctionNode>();
      },
      0, "MergeCompilerRegions", {});
  // TVM names the Sequential "sequential"; the registry needs the pass's own name.
  return transform::Sequential({merge, transform::InferType()}, "MergeCompilerRegions");
}

}  // namespace relaypass::passes
