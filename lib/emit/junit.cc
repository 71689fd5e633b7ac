// JUnit XML for CI test-report views (GitLab, Jenkins, Azure DevOps, ...): one <testcase> per
// model, a <failure> per finding at or above the run's --fail-on, an <error> for a model that
// could not be read or checked and for a path without a model. Documented in
// docs/output-formats.md#junit; tests validate it against Jenkins' JUnit XSD.
#include <fmt/format.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

#include <algorithm>
#include <sstream>

#include "emit/markup.h"

namespace onnxlint {

namespace {

using markup::xml_escape;

// The finding as text: the text format's line, then its note and help lines. Each piece is
// made visible on its own (one line each: a line break inside a name or a message is shown as
// "\x0a"), so the only line breaks are the ones put here; xml_escape keeps those. A CI log that
// prints the report therefore shows no line that a model wrote (a "::" workflow command).
std::string finding_text(const Diagnostic& d) {
  std::string s = visible(markup::repo_path(d.location.file));
  if (std::string p = markup::place(d.location); !p.empty()) s += ": " + visible(p);
  s += fmt::format(": {}: ", severity_name(d.severity));
  if (!d.target.empty()) s += fmt::format("[{}] ", visible(d.target));
  s += visible(d.message) + " [" + d.rule_id + "]";
  for (const std::string& n : d.notes) s += "\n    note: " + visible(n);
  if (!d.help.empty()) s += "\n    help: " + visible(d.help);
  return s;
}

std::string short_message(const Diagnostic& d) {
  std::string s = markup::place(d.location);
  if (!s.empty()) s += ": ";
  if (!d.target.empty()) s += "[" + d.target + "] ";
  return s + d.message;  // an attribute: xml_escape keeps no line break
}

bool is_error(const Diagnostic& d) {
  return d.rule_id == kModelUnreadable || d.rule_id == kInternalError;
}

struct Case {
  std::string body;
  bool failure = false;
  bool error = false;
};

Case testcase(const FileReport& f, const std::optional<Severity>& fail_on) {
  Case c;
  std::string name = xml_escape(markup::repo_path(f.path), true);
  std::string out;  // findings that do not fail the model
  std::ostringstream body;
  body << "    <testcase classname=\"onnx-lint\" name=\"" << name << "\">\n";
  if (f.status == FileReport::Status::PathError) {
    body << "      <error type=\"path-error\" message=\"" << xml_escape(f.error, true) << "\">"
         << xml_escape(visible(fmt::format("{}: {}", f.path, f.error)), false) << "</error>\n";
    c.error = true;
  }
  for (const Diagnostic& d : f.diagnostics) {
    const bool fails = f.failed && (is_error(d) || (fail_on && d.severity >= *fail_on));
    if (!fails) {
      out += finding_text(d) + "\n";
      continue;
    }
    const char* tag = is_error(d) ? "error" : "failure";
    (is_error(d) ? c.error : c.failure) = true;
    body << "      <" << tag << " type=\"" << xml_escape(d.rule_id, true) << "\" message=\""
         << xml_escape(short_message(d), true) << "\">" << xml_escape(finding_text(d), false)
         << "</" << tag << ">\n";
  }
  if (!out.empty()) body << "      <system-out>" << xml_escape(out, false) << "</system-out>\n";
  body << "    </testcase>\n";
  c.body = body.str();
  return c;
}

// One test case per target verdict of a file: a failure when a requirement (--require-target)
// is not met, else a pass whose output is the verdict line.
std::vector<Case> target_cases(const FileReport& f,
                               const std::vector<TargetRequirement>& required) {
  std::vector<Case> out;
  const std::vector<std::string> unmet = unmet_requirements(f, required);
  for (const TargetVerdict& v : target_verdicts(f)) {
    Case c;
    std::ostringstream body;
    body << "    <testcase classname=\"onnx-lint.target\" name=\""
         << xml_escape(fmt::format("{} [{}]", markup::repo_path(f.path), v.target), true)
         << "\">\n";
    const std::string prefix = v.target + ": ";
    auto miss = std::find_if(unmet.begin(), unmet.end(),
                             [&](const std::string& u) { return u.starts_with(prefix); });
    if (miss != unmet.end()) {
      c.failure = true;
      body << "      <failure type=\"require-target\" message=\""
           << xml_escape(visible("required target verdict not met: " + *miss), true) << "\">"
           << xml_escape(visible(verdict_line(v)), false) << "</failure>\n";
    } else {
      body << "      <system-out>" << xml_escape(visible(verdict_line(v)), false)
           << "</system-out>\n";
    }
    body << "    </testcase>\n";
    c.body = body.str();
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

void emit_junit(const Report& report, const Linter& linter, std::ostream& out) {
  (void)linter;
  size_t tests = 0, failures = 0, errors = 0;
  std::string cases;
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  auto add = [&](const Case& c) {
    ++tests;
    errors += c.error ? 1 : 0;
    failures += !c.error && c.failure ? 1 : 0;
    cases += c.body;
  };
  for (const FileReport& f : report.files) {
    add(testcase(f, report.run.fail_on));
    for (const Case& c : target_cases(f, required)) add(c);
  }
  const std::string counts =
      fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\"", tests, failures, errors);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"onnx-lint\" " << counts << ">\n"
      << "  <testsuite name=\"onnx-lint\" " << counts << " skipped=\"0\">\n"
      << "    <properties>\n"
      << "      <property name=\"fail-on\" value=\""
      << (report.run.fail_on ? severity_name(*report.run.fail_on) : "never") << "\"/>\n";
  for (const std::string& t : report.run.targets) {
    out << "      <property name=\"target\" value=\"" << xml_escape(t, true) << "\"/>\n";
  }
  for (const TargetRequirement& r : report.run.required_targets) {
    out << "      <property name=\"require-target\" value=\""
        << xml_escape(requirement_text(r), true) << "\"/>\n";
  }
  if (!report.run.config_file.empty()) {
    out << "      <property name=\"config\" value=\"" << xml_escape(report.run.config_file, true)
        << "\"/>\n";
  }
  if (!report.run.baseline_file.empty()) {
    out << "      <property name=\"baseline\" value=\""
        << xml_escape(report.run.baseline_file, true) << "\"/>\n";
  }
  out << "    </properties>\n" << cases << "  </testsuite>\n</testsuites>\n";
}

}  // namespace onnxlint
