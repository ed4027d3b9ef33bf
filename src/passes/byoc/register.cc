// The BYOC passes in the pass registry. MergeComposite's table is named: the pattern table
// registered for that compiler (TVM's get_pattern_table), since patterns have no text form.
#include "relaypass/passes/byoc.h"

namespace relaypass::passes {

void RegisterByocPasses(transform::PassRegistry& registry) {
  using transform::OptionType;
  using transform::OptionValue;
  registry.Register({"MergeComposite",
                     {{"pattern_table", OptionType::kString, std::nullopt,
                       "the compiler whose registered pattern table to use (e.g. \"dnnl\")"}},
                     [](const transform::PassOptions& o) {
                       return MergeComposite(GetPatternTable(o.GetString("pattern_table")));
                     },
                     "merges the matches of a pattern table into Composite functions"});
  registry.Register(
      {"AnnotateTarget",
       {{"targets", OptionType::kList, std::nullopt, "compiler names, in order of priority"},
        {"include_non_call_ops", OptionType::kBool, OptionValue::Bool(true),
         "annotate tuples and get-items with their arguments' target"}},
       [](const transform::PassOptions& o) {
         std::vector<std::string> targets;
         const OptionValue& list = o.Get("targets");
         if (list.kind() == OptionValue::Kind::kString) {
           targets.push_back(list.as_string());
         } else {
           for (const OptionValue& t : list.as_array()) targets.push_back(t.as_string());
         }
         return AnnotateTarget(std::move(targets), o.GetBool("include_non_call_ops"));
       },
       "puts compiler_begin/compiler_end around the calls external compilers take"});
  registry.Register({"MergeCompilerRegions",
                     {},
                     [](const transform::PassOptions&) { return MergeCompilerRegions(); },
                     "merges adjacent annotated regions of the same compiler"});
  registry.Register({"PartitionGraph",
                     {{"mod_name", OptionType::kString, OptionValue::Str("default"),
                       "module name in the functions' names (tvmgen_<mod_name>_...)"},
                      {"bind_constants", OptionType::kBool, OptionValue::Bool(true),
                       "bind constant inputs into the partitioned functions"}},
                     [](const transform::PassOptions& o) {
                       return PartitionGraph(o.GetString("mod_name"), o.GetBool("bind_constants"));
                     },
                     "lifts annotated regions into global functions for their compilers"});
}

}  // namespace relaypass::passes
