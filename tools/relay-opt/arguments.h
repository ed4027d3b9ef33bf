// The checks every relay-opt option gets before CLI11 sees the command line (docs/cli.md,
// "Option values"): one place for what CLI11 leaves loose.
//
// - `--NAME=VALUE`, `--NAME VALUE`, `-XVALUE`, `-X VALUE` and `-X=VALUE` are one form: the
//   option and its value.
// - An empty value is the empty list for a list option (`--print-ir-before=`, `--pipeline=`)
//   and an error for every other option; it never takes the next argument as the value.
// - An option that holds one value may be given once; INPUT may be given once and not empty.
// - Numbers are read exactly into the option's type: out of range or with trailing text is an
//   error, never a wrapped or clamped value.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace relay_opt {

/// An option whose empty value is the empty list: marks it for NormalizeArguments.
CLI::Option* EmptyMeansEmptyList(CLI::Option* option);

/// A validator that accepts only decimal integers that fit in T (no sign for unsigned T) and
/// are at least `min`.
template <typename T>
CLI::Validator ExactInteger(T min = std::numeric_limits<T>::min());

/// `argv[1..argc)` in the form CLI11 reads (in reverse order, as App::parse wants it), after
/// the checks above; throws CLI::ValidationError naming the option at fault.
std::vector<std::string> NormalizeArguments(const CLI::App& app, int argc, const char* const* argv);

/// For a repeatable KEY=VALUE option: throws relaypass::Error when a KEY (the text before the
/// first '=', or the last with `last_equals`) is given twice. `what` names the key ("parameter").
void CheckUniqueKeys(const std::string& option, const std::vector<std::string>& values,
                     const std::string& what, bool last_equals = false);

}  // namespace relay_opt
