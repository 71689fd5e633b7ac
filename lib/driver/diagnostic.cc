#include <fmt/format.h>
#include <onnxlint/diagnostic.h>

#include <tuple>

namespace onnxlint {

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "error";
}

std::string_view fix_safety_name(FixSafety s) {
  switch (s) {
    case FixSafety::None:
      return "none";
    case FixSafety::Safe:
      return "safe";
    case FixSafety::Unsafe:
      return "unsafe";
  }
  return "none";
}

std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "info") return Severity::Info;
  if (s == "warning") return Severity::Warning;
  if (s == "error") return Severity::Error;
  return std::nullopt;
}

std::string Location::anchor() const {
  std::string out = graph_path;
  if (!node_name.empty()) {
    out += out.empty() || node_name.front() == '/' ? "" : "/";
    out += node_name;
  }
  if (!value_name.empty() && node_name.empty()) {
    out += out.empty() ? "" : ":";
    out += "'" + value_name + "'";
  }
  return out;
}

namespace {
uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The file part of a fingerprint: the path as given, without a leading "./", so that the same
// repository-relative path matches on every machine.
std::string_view stable_file(std::string_view f) {
  while (f.starts_with("./")) f.remove_prefix(2);
  return f;
}
}  // namespace

std::string Diagnostic::fingerprint() const {
  const std::string_view parts[] = {rule_id,
                                    stable_file(location.file),
                                    location.graph_path,
                                    location.node_name,
                                    location.value_name,
                                    location.attribute,
                                    target,
                                    key};
  uint64_t h = 1469598103934665603ull;
  for (std::string_view p : parts) {
    h = fnv1a(p, h);
    h = fnv1a(std::string_view("\x1f", 1), h);  // separator: ("ab","c") != ("a","bc")
  }
  return fmt::format("{:016x}", h);
}

bool diagnostic_less(const Diagnostic& a, const Diagnostic& b) {
  auto node = [](const Diagnostic& d) { return d.location.node_index.value_or(UINT32_MAX); };
  return std::tie(a.location.file, a.location.graph_path) <
             std::tie(b.location.file, b.location.graph_path) ||
         (std::tie(a.location.file, a.location.graph_path) ==
              std::tie(b.location.file, b.location.graph_path) &&
          std::make_tuple(node(a), std::cref(a.rule_id), std::cref(a.target),
                          std::cref(a.location.value_name), std::cref(a.key),
                          std::cref(a.message)) <
              std::make_tuple(node(b), std::cref(b.rule_id), std::cref(b.target),
                              std::cref(b.location.value_name), std::cref(b.key),
                              std::cref(b.message)));
}

}  // namespace onnxlint
