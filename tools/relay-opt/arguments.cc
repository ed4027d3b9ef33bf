#include "arguments.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include "relaypass/support/error.h"

namespace relay_opt {

namespace {

// Names (CLI11's get_name()) of the options marked by EmptyMeansEmptyList.
std::set<std::string>& ListOptions() {
  static std::set<std::string> names;
  return names;
}

// `value` quoted for a message, long values cut in the middle.
std::string Quote(const std::string& value) {
  constexpr size_t kMax = 80;
  if (value.size() <= kMax) return "'" + value + "'";
  return "'" + value.substr(0, 50) + "..." + value.substr(value.size() - 20) + "'";
}

[[noreturn]] void Fail(const std::string& name, const std::string& message) {
  throw CLI::ValidationError(name, message);
}

}  // namespace

CLI::Option* EmptyMeansEmptyList(CLI::Option* option) {
  ListOptions().insert(option->get_name());
  return option;
}

template <typename T>
CLI::Validator ExactInteger(T min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        T value{};
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        const std::string range =
            std::to_string(min) + " to " + std::to_string(std::numeric_limits<T>::max());
        if (ec == std::errc::result_out_of_range || (ec == std::errc() && value < min)) {
          return Quote(text) + " is out of range (" + range + ")";
        }
        if (ec != std::errc() || ptr != end || text.empty()) {
          return "expected an integer (" + range + "), got " + Quote(text);
        }
        return "";
      },
      "INT");
}

template CLI::Validator ExactInteger<int>(int);
template CLI::Validator ExactInteger<int64_t>(int64_t);
template CLI::Validator ExactInteger<uint64_t>(uint64_t);

std::vector<std::string> NormalizeArguments(const CLI::App& app, int argc,
                                            const char* const* argv) {
  std::vector<std::string> out;
  std::map<const CLI::Option*, std::string> given;  // single-value options seen, with the value
  std::string input;
  bool input_given = false;
  bool positional_only = false;  // after "--"
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!positional_only && arg == "--") {
      positional_only = true;
      out.push_back(arg);
      continue;
    }
    if (positional_only || arg.size() < 2 || arg[0] != '-') {
      if (arg.empty()) Fail("INPUT", "empty file name");
      if (input_given) {
        Fail("INPUT", "given twice (" + Quote(input) + " and " + Quote(arg) +
                          "); relay-opt reads one input");
      }
      input_given = true;
      input = arg;
      out.push_back(arg);
      continue;
    }
    // An option: its name, and its value when written in the same argument.
    const bool is_long = arg.rfind("--", 0) == 0;
    std::string name;
    std::string value;
    bool has_value = false;
    if (is_long) {
      const size_t eq = arg.find('=');
      name = arg.substr(0, eq);
      has_value = eq != std::string::npos;
      if (has_value) value = arg.substr(eq + 1);
    } else {
      name = arg.substr(0, 2);
      has_value = arg.size() > 2;
      if (has_value) value = arg.substr(arg[2] == '=' ? 3 : 2);
    }
    const CLI::Option* option = app.get_option_no_throw(name);
    if (!option) {
      out.push_back(arg);  // CLI11 reports it, with the closest name (UnknownOptionMessage)
      continue;
    }
    if (option->get_expected_max() == 0) {  // a flag
      if (has_value && value.empty()) Fail(name, "empty value (give the flag alone)");
      out.push_back(arg);
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        out.push_back(arg);  // CLI11 says the value is missing
        continue;
      }
      value = argv[++i];
    }
    if (value.empty()) {
      if (!ListOptions().count(option->get_name())) Fail(name, "empty value");
      // The empty list: nothing for a repeatable list, the empty string for a single one.
      if (option->get_multi_option_policy() != CLI::MultiOptionPolicy::TakeAll) {
        out.push_back(name);
        out.emplace_back();
      }
      continue;
    }
    if (option->get_multi_option_policy() != CLI::MultiOptionPolicy::TakeAll) {
      auto [it, first] = given.emplace(option, value);
      if (!first) {
        Fail(name,
             "given twice (" + Quote(it->second) + ", then " + Quote(value) + "); give it once");
      }
    }
    // One argument, so that CLI11 never reads a value that starts with '-' as an option.
    out.push_back(is_long ? name + "=" + value : name + value);
  }
  return {out.rbegin(), out.rend()};
}

void CheckUniqueKeys(const std::string& option, const std::vector<std::string>& values,
                     const std::string& what, bool last_equals) {
  std::set<std::string> keys;
  for (const std::string& value : values) {
    const size_t eq = last_equals ? value.rfind('=') : value.find('=');
    if (eq == std::string::npos) continue;  // the option's own check reports the form
    const std::string key = value.substr(0, eq);
    if (!keys.insert(key).second) {
      throw relaypass::Error(option + ": " + what + " " + Quote(key) +
                             " given twice; give each once");
    }
  }
}

}  // namespace relay_opt
