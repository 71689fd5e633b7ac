#include "config/text_util.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace onnxlint {

std::string read_small_file(const std::string& path, std::string_view what, uint64_t max_bytes) {
  auto fail = [&](std::string_view why) {
    return ConfigError(fmt::format("{}: cannot read the {}: {}", path, what, why));
  };
  // O_NONBLOCK: a FIFO must not stall the run waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) throw fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw fail("not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    throw fail(fmt::format("larger than {} bytes", max_bytes));
  }
  std::string data(static_cast<size_t>(st.st_size), '\0');
  size_t used = 0;
  while (used < data.size()) {
    const ssize_t got = ::read(fd, data.data() + used, data.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // shrank while reading: keep what was there
    used += static_cast<size_t>(got);
  }
  ::close(fd);
  data.resize(used);
  return data;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative with backtracking to the last star: linear in practice, no recursion.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

size_t edit_distance(std::string_view a, std::string_view b, bool ignore_case) {
  auto same = [ignore_case](char x, char y) {
    if (!ignore_case) return x == y;
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest(std::string_view name,
                                   const std::vector<std::string>& candidates) {
  // Within a third of the name's length (at least 1, at most 4 edits) counts as a misspelling.
  size_t limit = std::clamp<size_t>(name.size() / 3, 1, 4);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    // The distance is at least the difference in length: a long (hostile) name costs nothing.
    const size_t gap = name.size() > c.size() ? name.size() - c.size() : c.size() - name.size();
    if (gap >= best_distance) continue;
    size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

std::optional<std::string> closest_rule_name(const RuleRegistry& registry, std::string_view name) {
  std::vector<std::string> names = registry.categories();
  for (const RuleRegistry::Entry& e : registry.entries()) names.push_back(e.info->id);
  return closest(name, names);
}

std::string unknown_rule_reason(const RuleRegistry& registry, std::string_view id) {
  std::string reason = "unknown rule id";
  if (auto close = closest_rule_name(registry, id)) {
    reason += fmt::format(" (did you mean '{}'?)", *close);
  }
  return reason;
}

std::string unknown_option_reason(const RuleInfo& info) {
  if (info.options.empty()) return fmt::format("unknown option: rule '{}' has no options", info.id);
  std::vector<std::string> names;
  for (const OptionInfo& o : info.options) names.push_back(o.name);
  return fmt::format("unknown option (options of '{}': {})", info.id, fmt::join(names, ", "));
}

std::optional<std::string> option_type_error(const OptionInfo& option, const OptionValue& value) {
  // The type names of the config reader (TOML's).
  static constexpr const char* kGot[] = {"boolean", "integer", "floating-point", "string", "array"};
  static_assert(std::variant_size_v<OptionValue> == std::size(kGot));
  const char* want = nullptr;
  switch (option.type()) {
    case OptionType::Bool:
      if (!std::holds_alternative<bool>(value)) want = "a boolean";
      break;
    case OptionType::Int:
      if (!std::holds_alternative<int64_t>(value)) want = "an integer";
      break;
    case OptionType::Float:
      if (!std::holds_alternative<double>(value) && !std::holds_alternative<int64_t>(value)) {
        want = "a number";
      }
      break;
    case OptionType::String:
      if (!std::holds_alternative<std::string>(value)) want = "a string";
      break;
    case OptionType::Strings:
      if (!std::holds_alternative<std::vector<std::string>>(value) &&
          !std::holds_alternative<std::string>(value)) {
        want = "an array of strings";
      }
      break;
  }
  if (want != nullptr) return fmt::format("expected {}, got {}", want, kGot[value.index()]);
  if (option.type() == OptionType::Int) {
    const int64_t v = std::get<int64_t>(value);
    if (v < option.min_int || v > option.max_int) {
      return fmt::format("{} is out of range (from {} to {})", v, option.min_int, option.max_int);
    }
  }
  return std::nullopt;
}

OptionValue typed_option_value(const OptionInfo& option, OptionValue value) {
  if (option.type() == OptionType::Float) {
    if (auto* i = std::get_if<int64_t>(&value)) return static_cast<double>(*i);
  }
  if (option.type() == OptionType::Strings) {
    if (auto* s = std::get_if<std::string>(&value)) return std::vector<std::string>{std::move(*s)};
  }
  return value;
}

std::string quote_key(std::string_view name) {
  bool bare = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  });
  return bare ? std::string(name) : toml_string(name);
}

std::string toml_string(std::string_view value) {
  std::string out = "\"";
  for (unsigned char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\u{:04X}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  // Bidi controls, zero-width and tag characters would hide in the printed configuration.
  out = escape(out, EscapeMode::Toml);
  return out + "\"";
}

void sort_by_specificity(const RuleRegistry& registry, std::vector<SeverityOverride>& patterns) {
  const std::vector<std::string> categories = registry.categories();
  auto rank = [&](const std::string& p) -> std::pair<int, size_t> {
    if (p == "ALL" || p == "all") return {0, 0};
    if (std::find(categories.begin(), categories.end(), p) != categories.end()) return {1, 0};
    if (p.find_first_of("*?") != std::string::npos) {
      return {2, static_cast<size_t>(std::count_if(p.begin(), p.end(),
                                                   [](char c) { return c != '*' && c != '?'; }))};
    }
    return {3, 0};
  };
  std::stable_sort(patterns.begin(), patterns.end(),
                   [&](const SeverityOverride& a, const SeverityOverride& b) {
                     return rank(a.pattern) < rank(b.pattern);
                   });
}

}  // namespace onnxlint
