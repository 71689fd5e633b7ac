// Small helpers shared by the config reader and --show-config.
#pragma once

#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnxlint {

/// The contents of a small text file (a config or a baseline), read without ever blocking or
/// reading without end: a FIFO, a device or a directory is refused before any byte is read,
/// and so is a file over `max_bytes`. Throws ConfigError("<path>: cannot read the <what>: ...").
std::string read_small_file(const std::string& path, std::string_view what,
                            uint64_t max_bytes = uint64_t{64} << 20);

/// Shell-style match of a whole string: `*` matches any run of characters, `?` one.
bool glob_match(std::string_view pattern, std::string_view text);

/// Levenshtein distance, for "did you mean" suggestions (op names compare ignoring case).
size_t edit_distance(std::string_view a, std::string_view b, bool ignore_case = false);

/// The candidate closest to `name` if it is a plausible misspelling of it.
std::optional<std::string> closest(std::string_view name,
                                   const std::vector<std::string>& candidates);

/// The rule id or category closest to `name`, if plausible.
std::optional<std::string> closest_rule_name(const RuleRegistry& registry, std::string_view name);

/// Why `id` is not a rule: "unknown rule id", with a "did you mean" when one is plausible. The
/// config reader and Linter say the same.
std::string unknown_rule_reason(const RuleRegistry& registry, std::string_view id);

/// Why an option is not one of `info`'s: "unknown option (options of 'id': a, b)" or
/// "unknown option: rule 'id' has no options".
std::string unknown_option_reason(const RuleInfo& info);

/// Why `value` cannot be option `option` ("expected an integer, got string", the config
/// reader's words; "-1 is out of range (from 0 to 2147483647)" for an int outside the option's
/// range), or nullopt when it can. A float option takes an integer; a strings option a single
/// string (see typed_option_value).
std::optional<std::string> option_type_error(const OptionInfo& option, const OptionValue& value);

/// `value`, which option_type_error accepts, as exactly the option's type: an integer for a
/// float option becomes a double, a single string for a strings option a list of one.
OptionValue typed_option_value(const OptionInfo& option, OptionValue value);

/// `name` as a TOML key: bare when it can be, else quoted.
std::string quote_key(std::string_view name);

/// `value` as a TOML basic string, quoted and escaped.
std::string toml_string(std::string_view value);

/// Orders severity patterns from least to most specific (ALL, categories, globs with fewer
/// literal characters first, exact ids), so that applying them in order lets the most specific
/// win. Stable for equal specificity.
void sort_by_specificity(const RuleRegistry& registry, std::vector<SeverityOverride>& patterns);

/// Config files read and parsed as TOML so far in this process (lib/config/config.cc parses
/// each file once while it does not change): for tests of that promise.
uint64_t config_file_parses();

}  // namespace onnxlint
