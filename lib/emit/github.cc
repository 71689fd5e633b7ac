// GitHub Actions workflow commands: one `::error|warning|notice file=…,title=…::message` line
// per finding, which the runner turns into annotations on the pull request. Documented in
// docs/output-formats.md.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

namespace onnxlint {

namespace {

std::string_view command(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "notice";
  }
  return "warning";
}

// The runner's escaping (actions/toolkit, command.ts): '%', CR and LF in the message; also ':'
// and ',' in property values, which would otherwise end the property.
std::string escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escape_property(std::string_view s) {
  std::string out;
  for (char c : escape_data(s)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

// Per file, one notice with its target verdicts, and an error for each verdict below a
// --require-target (those fail the run).
void target_annotations(const Report& report, std::ostream& out) {
  const std::vector<TargetRequirement> required = required_targets_of(report);
  for (const FileReport& f : report.files) {
    const std::vector<TargetVerdict> verdicts = target_verdicts(f);
    if (verdicts.empty()) continue;
    std::string file = visible(f.path);
    while (file.starts_with("./")) file.erase(0, 2);
    for (const std::string& u : unmet_requirements(f, required)) {
      out << "::error file=" << escape_property(file)
          << ",title=onnx-lint require-target::" << escape_data(visible(u)) << "\n";
    }
    std::string message;
    for (const TargetVerdict& v : verdicts) {
      if (!message.empty()) message += "\n";
      message += visible(verdict_line(v));
    }
    out << "::notice file=" << escape_property(file)
        << ",title=onnx-lint targets::" << escape_data(message) << "\n";
  }
}

}  // namespace

void emit_github(const Report& report, const Linter& linter, std::ostream& out) {
  (void)linter;
  for (const FileReport& f : report.files) {
    if (f.status == FileReport::Status::PathError) {  // no model, so no rule: titled by the tool
      std::string file = visible(f.path);
      while (file.starts_with("./")) file.erase(0, 2);
      out << "::error file=" << escape_property(file)
          << ",title=onnx-lint::" << escape_data(visible(f.error)) << "\n";
      continue;
    }
    for (const Diagnostic& d : f.diagnostics) {
      // Each piece made visible first (ESC, bidi controls, and the line breaks inside it: the
      // only line breaks are the note/help lines added here), then the runner's own escaping
      // for the lines the message is made of.
      std::string file = visible(d.location.file);
      while (file.starts_with("./")) file.erase(0, 2);
      std::string anchor = visible(d.location.anchor());
      std::string message;
      if (!anchor.empty()) {
        message = anchor;
        if (!d.location.op_type.empty()) message += " (" + visible(d.location.op_type) + ")";
        message += ": ";
      }
      if (!d.target.empty()) message += "[" + visible(d.target) + "] ";
      message += visible(d.message);
      for (const std::string& n : d.notes) message += "\nnote: " + visible(n);
      if (!d.help.empty()) message += "\nhelp: " + visible(d.help);
      out << "::" << command(d.severity) << " file=" << escape_property(file)
          << ",title=" << escape_property(d.rule_id) << "::" << escape_data(message) << "\n";
    }
  }
  target_annotations(report, out);
}

}  // namespace onnxlint
