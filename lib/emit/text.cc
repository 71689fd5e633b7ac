// Compiler-style text output: one line per finding, note/help lines, then a summary.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/report.h>

namespace onnxlint {

namespace {

struct Style {
  bool color;
  std::string wrap(std::string_view text, const char* code) const {
    if (!color) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
};

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::Error:
      return "1;31";
    case Severity::Warning:
      return "1;33";
    case Severity::Info:
      return "1;36";
  }
  return "0";
}

std::string where(const Diagnostic& d) {
  const Location& l = d.location;
  std::string out = l.file;
  std::string anchor = l.anchor();
  if (!anchor.empty()) out += ": " + anchor;
  if (!l.op_type.empty()) out += " (" + l.op_type + ")";
  if (l.byte_offset && l.graph_path.empty()) out += fmt::format(" @{}", *l.byte_offset);
  return visible(out);  // names come from the model: no terminal or log control reaches out
}

}  // namespace

void emit_text(const Report& report, const Linter& linter, const TextOptions& opts,
               std::ostream& out) {
  (void)linter;
  Style st{opts.color};
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) {
      out << st.wrap(where(d), "1") << ": "
          << st.wrap(severity_name(d.severity), severity_color(d.severity)) << ": ";
      if (!d.target.empty()) out << "[" << visible(d.target) << "] ";
      out << visible(d.message) << " " << st.wrap("[" + d.rule_id + "]", "2") << "\n";
      for (const std::string& n : d.notes)
        out << "    " << st.wrap("note:", "1;34") << " " << visible(n) << "\n";
      if (!d.help.empty())
        out << "    " << st.wrap("help:", "1;32") << " " << visible(d.help) << "\n";
    }
    if (!opts.quiet) {
      for (const ReportSection& s : f.sections) {
        if (s.text.empty()) continue;
        out << st.wrap(visible(f.path + ": " + s.name + ":"), "1") << "\n";
        for (const std::string& line : s.text) out << "  " << visible(line) << "\n";
      }
    }
  }
  if (opts.statistics) {
    auto counts = report.count_by_rule();
    std::vector<std::pair<uint64_t, std::string>> sorted;
    for (const auto& [rule, n] : counts) sorted.emplace_back(n, rule);
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    for (const auto& [n, rule] : sorted) out << fmt::format("{:>6}  {}\n", n, rule);
  }
  if (opts.quiet) return;
  uint64_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning),
           infos = report.count(Severity::Info);
  uint64_t unreadable = 0, suppressed = 0, baselined = 0;
  for (const FileReport& f : report.files) {
    unreadable += f.status == FileReport::Status::Unreadable;
    suppressed += f.suppressed;
    baselined += f.baselined;
  }
  std::string summary = fmt::format("{} file{} checked: {} error{}, {} warning{}, {} info",
                                    report.files.size(), report.files.size() == 1 ? "" : "s",
                                    errors, errors == 1 ? "" : "s", warnings,
                                    warnings == 1 ? "" : "s", infos);
  if (unreadable) summary += fmt::format(", {} unreadable", unreadable);
  if (suppressed) summary += fmt::format(", {} suppressed in-model", suppressed);
  if (baselined) summary += fmt::format(", {} in baseline", baselined);
  out << st.wrap(summary, errors ? "1;31" : warnings ? "1;33" : "1;32") << "\n";
}

}  // namespace onnxlint
