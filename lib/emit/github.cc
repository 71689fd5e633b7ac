// GitHub Actions workflow commands: one `::error|warning|notice file=…,title=…::message` line
// per finding, which the runner turns into annotations on the pull request; at most 10 of each
// severity (what GitHub shows per step), the most important, and a notice counting the rest.
// Documented in docs/output-formats.md.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

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

// One workflow command, before the cap: its kind, how it ranks, and its line.
struct Annotation {
  Severity severity;              // Info: ::notice
  const Diagnostic* d = nullptr;  // a rule's finding; null: a path error or target verdicts
  size_t order = 0;               // report order
  std::string line;
  size_t tier = 0;  // findings: how many of its rule's and target's rank before it
  uint64_t count() const { return d != nullptr ? d->count : 0; }
};

std::string finding_line(const Diagnostic& d) {
  // Each piece made visible first (ESC, bidi controls, and the line breaks inside it: the only
  // line breaks are the note/help lines added here), then the runner's own escaping for the
  // lines the message is made of.
  std::string file = visible(d.location.file);
  while (file.starts_with("./")) file.erase(0, 2);
  std::string anchor = visible(d.location.anchor());
  std::string message;
  if (!anchor.empty()) {
    message = anchor;
    if (!d.location.op_type.empty()) message += " (" + visible(d.location.op_type) + ")";
    message += ": ";
  }
  if (!d.target.empty()) message += fmt::format("[{}] ", visible(d.target));
  message += visible(d.message);
  for (const std::string& n : d.notes) message += "\nnote: " + visible(n);
  if (!d.help.empty()) message += "\nhelp: " + visible(d.help);
  return "::" + std::string(command(d.severity)) + " file=" + escape_property(file) +
         ",title=" + escape_property(d.rule_id) + "::" + escape_data(message) + "\n";
}

}  // namespace

void emit_github(const Report& report, const Linter& linter, std::ostream& out,
                 size_t max_per_severity) {
  (void)linter;
  // GitHub shows `max_per_severity` annotations of each kind per step and drops the rest
  // silently: the most important ones go first, and one notice counts the rest. Within a
  // severity: paths that yield no model, verdicts below a --require-target and each file's
  // target verdicts (the answer to --target); then each rule's (and target's) finding standing
  // for the most places (Diagnostic::count), then each one's second, ...: ten warnings are not
  // ten copies of one rule's while another rule goes unseen. Report order breaks ties.
  std::vector<Annotation> all;
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  for (const FileReport& f : report.files) {
    std::string file = visible(f.path);
    while (file.starts_with("./")) file.erase(0, 2);
    if (f.status == FileReport::Status::PathError) {  // no model, so no rule: titled by the tool
      all.push_back({Severity::Error, nullptr, all.size(),
                     "::error file=" + escape_property(file) +
                         ",title=onnx-lint::" + escape_data(visible(f.error)) + "\n"});
      continue;
    }
    for (const Diagnostic& d : f.diagnostics) {
      all.push_back({d.severity, &d, all.size(), finding_line(d)});
    }
    // One notice with the file's target verdicts, and an error for each verdict below a
    // --require-target (those fail the run).
    const std::vector<TargetVerdict> verdicts = target_verdicts(f);
    if (verdicts.empty()) continue;
    for (const std::string& u : unmet_requirements(f, required)) {
      all.push_back({Severity::Error, nullptr, all.size(),
                     "::error file=" + escape_property(file) +
                         ",title=onnx-lint require-target::" + escape_data(visible(u)) + "\n"});
    }
    std::string message;
    for (const TargetVerdict& v : verdicts) {
      if (!message.empty()) message += "\n";
      message += visible(verdict_line(v));
    }
    all.push_back({Severity::Info, nullptr, all.size(),
                   "::notice file=" + escape_property(file) +
                       ",title=onnx-lint targets::" + escape_data(message) + "\n"});
  }
  // Each finding's tier among its rule's and target's, most places first.
  std::vector<Annotation*> findings;
  for (Annotation& a : all) {
    if (a.d != nullptr) findings.push_back(&a);
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Annotation* a, const Annotation* b) {
    return a->count() > b->count();
  });
  std::map<std::tuple<Severity, std::string_view, std::string_view>, size_t> seen;
  for (Annotation* a : findings) a->tier = seen[{a->d->severity, a->d->rule_id, a->d->target}]++;
  auto rank = [](const Annotation& a) {
    return std::make_tuple(-static_cast<int>(a.severity), a.d != nullptr, a.tier, ~a.count(),
                           a.order);
  };
  std::sort(all.begin(), all.end(),
            [&](const Annotation& a, const Annotation& b) { return rank(a) < rank(b); });
  uint64_t total[3] = {0, 0, 0};
  for (const Annotation& a : all) ++total[static_cast<int>(a.severity)];
  const bool cut =
      total[0] > max_per_severity || total[1] > max_per_severity || total[2] > max_per_severity;
  // The closing notice is an annotation of its own: it takes one of the notices' places.
  const uint64_t cap[3] = {cut && max_per_severity > 0 ? max_per_severity - 1 : max_per_severity,
                           max_per_severity, max_per_severity};
  uint64_t shown[3] = {0, 0, 0}, left[3] = {0, 0, 0}, left_other = 0;
  for (const Annotation& a : all) {
    const int s = static_cast<int>(a.severity);
    if (shown[s] >= cap[s]) {
      if (a.d != nullptr) {
        ++left[s];
      } else {
        ++left_other;
      }
      continue;
    }
    ++shown[s];
    out << a.line;
  }
  const uint64_t not_shown = left[0] + left[1] + left[2];
  if (not_shown + left_other == 0) return;
  std::string parts;
  for (int s = 2; s >= 0; --s) {
    if (left[s] == 0) continue;
    parts += parts.empty() ? "" : ", ";
    parts += fmt::format("{} {}{}", left[s], s == 0 ? "info" : severity_name(Severity(s)),
                         s != 0 && left[s] != 1 ? "s" : "");
  }
  std::string what = fmt::format("{} more finding{} not annotated ({})", not_shown,
                                 not_shown == 1 ? " is" : "s are", parts);
  if (left_other > 0) {
    what = fmt::format("{}{} more target verdict or path annotation{} not shown",
                       not_shown > 0 ? what + "; " : "", left_other,
                       left_other == 1 ? " is" : "s are");
  }
  out << "::notice title=onnx-lint::"
      << escape_data(fmt::format(
             "{}: GitHub shows {} annotations of each severity per step, the most severe and "
             "most repeated are above. The text, JSON and SARIF reports list every finding "
             "(onnx-lint --format sarif --output onnx-lint.sarif, for code scanning).",
             what, max_per_severity))
      << "\n";
}

}  // namespace onnxlint
