// Pipeline text, its one owner: the grammar (`NAME(option=literal, ...), ...`) read, pass names
// in kebab-case read as registered names (`fold-constant` as mlir-opt and opt spell passes), and
// pipelines written back, either as given or with every option resolved (mlir-opt's
// --dump-pass-pipeline). relay-opt, the Python bindings and the registry all read through here.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "relaypass/transform/option_value.h"
#include "relaypass/transform/pass.h"

namespace relaypass::transform {

class PassRegistry;
class PassContext;

/// One pass as pipeline text writes it.
struct PassText {
  std::string name;
  std::vector<std::pair<std::string, OptionValue>> options;  // as written, in order
  size_t column = 0;                                         // 1-based, of the name
};

/// Reads a pipeline: `PASS {',' PASS}` (empty text: no passes), where PASS is `NAME` or
/// `NAME(option=literal, ...)`, literals as in ParseOptionValue. A NAME is letters, digits, '_',
/// '.' and '-' (kebab-case spellings are names here; the registry decides what is registered).
/// PassError "pipeline 'TEXT': MESSAGE at column N" for a syntax error.
std::vector<PassText> ReadPipelineText(const std::string& text);
/// Reads exactly one PASS; PassError "pass 'TEXT': ..." for a syntax error.
PassText ReadPassText(const std::string& text);

/// `NAME` or `NAME(a=1, b="x")`, each value as OptionValue::ToString writes it; for a list,
/// the passes joined by ",". ReadPipelineText(WritePipelineText(p)) gives p back.
std::string WritePassText(const PassText& pass);
std::string WritePipelineText(const std::vector<PassText>& passes);

/// The registered pass that `name` spells in kebab-case or snake_case: `fold-constant` and
/// `fold_constant` give `FoldConstant` (letters and digits compared without case, `-` and `_`
/// ignored, `.` kept). "" if `name` has no `-` or `_` (a name such as `foldconstant` stays
/// unknown: pass names are case-sensitive, as in TVM), is registered as written, or matches no
/// (or more than one) registered name.
std::string RegisteredSpelling(const std::string& name, const PassRegistry& registry);

struct PassNameFix {
  std::string written;
  std::string registered;
};

/// `text` read as a pipeline with every pass name that RegisteredSpelling recognises replaced by
/// the registered one (appended to `fixes`), written back with WritePipelineText. Names with a
/// '-' that match no registered pass are appended to `unknown` when it is given. PassError for a
/// syntax error, with the column in `text`.
std::string NormalizePipelineNames(const std::string& text, const PassRegistry& registry,
                                   std::vector<PassNameFix>* fixes,
                                   std::vector<std::string>* unknown = nullptr);

/// Creates one pass from text (ReadPassText, then PassRegistry::Create). The pass remembers its
/// text (Pass::spec()). Without `registry`, PassRegistry::Global().
Pass CreatePass(const std::string& text);
Pass CreatePass(const std::string& text, const PassRegistry& registry);

/// A pipeline (ReadPipelineText) as a Sequential named "sequential" of the created passes.
Pass ParsePipeline(const std::string& text);
Pass ParsePipeline(const std::string& text, const PassRegistry& registry);

/// The text of a pass: its spec() if it came from the registry; for a Sequential named
/// "sequential", its members' texts joined by ","; otherwise its name. Whitespace is
/// normalised, so PrintPipeline(ParsePipeline(t)) == t for text written without spaces.
std::string PrintPipeline(const Pass& pass);

/// The passes of `pass` (a Sequential's members, at any depth, one per line, two spaces of
/// indent per level) as they will run: `FuseOps(fuse_opt_level=2)`, each registered option shown
/// with the value given or its default. A pass the registry did not create is shown by name.
/// With `ctx`, a Sequential member that ctx's gating skips is marked `  // skipped: opt_level 3
/// > 2` (or `disabled`), and one run because it is required is marked `  // required`.
std::string PrintResolvedPipeline(const Pass& pass, const PassRegistry& registry,
                                  const PassContext* ctx = nullptr);

}  // namespace relaypass::transform
