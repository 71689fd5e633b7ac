// GitLab Code Quality (a subset of the Code Climate issue format): a JSON array of issues that
// GitLab shows in merge requests and pipelines. Documented in docs/output-formats.md#gitlab.
#include <fmt/format.h>
#include <onnxlint/report.h>

#include <nlohmann/json.hpp>

#include "emit/json_stream.h"
#include "emit/markup.h"

namespace onnxlint {

namespace {

using nlohmann::json;

uint64_t fnv1a(std::string_view s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Code Quality severities: info, minor, major, critical, blocker.
std::string_view gitlab_severity(const Diagnostic& d) {
  if (d.rule_id == kModelUnreadable || d.rule_id == kInternalError) return "blocker";
  switch (d.severity) {
    case Severity::Error:
      return "major";
    case Severity::Warning:
      return "minor";
    case Severity::Info:
      return "info";
  }
  return "minor";
}

json location(std::string_view path) {
  // GitLab places an issue on a line; an ONNX file has none, so every issue is on line 1.
  return {{"path", markup::repo_path(path)}, {"lines", {{"begin", 1}}}};
}

}  // namespace

std::string FingerprintDeduper::operator()(const Diagnostic& d) {
  std::string fp = d.fingerprint();
  uint64_t& n = seen_[fp];
  ++n;
  if (n == 1) return fp;
  return fmt::format("{:016x}", fnv1a(fmt::format("{}#{}", fp, n)));
}

void emit_gitlab(const Report& report, const Linter& linter, std::ostream& out) {
  (void)linter;
  json issues = json::array();
  FingerprintDeduper fingerprint;
  for (const FileReport& f : report.files) {
    if (f.status == FileReport::Status::PathError) {  // no model, so no rule: the tool's issue
      Diagnostic tool;  // fingerprinted as a finding of "onnx-lint" about the whole file
      tool.rule_id = "onnx-lint";
      tool.location.file = f.path;
      issues.push_back({{"type", "issue"},
                        {"check_name", "onnx-lint"},
                        {"description", visible(fmt::format("{}: {}", f.path, f.error))},
                        {"fingerprint", fingerprint(tool)},
                        {"severity", "blocker"},
                        {"location", location(f.path)}});
      continue;
    }
    for (const Diagnostic& d : f.diagnostics) {
      std::string description = markup::place(d.location);
      if (!description.empty()) description += ": ";
      if (!d.target.empty()) description += "[" + d.target + "] ";
      description += d.message;
      std::string body;  // one line per note: line breaks inside one are shown, not kept
      for (const std::string& n : d.notes) body += "note: " + visible(n) + "\n";
      if (!d.help.empty()) body += "help: " + visible(d.help) + "\n";
      json issue = {{"type", "issue"},
                    {"check_name", d.rule_id},
                    {"description", visible(description)},
                    {"fingerprint", fingerprint(d)},
                    {"severity", gitlab_severity(d)},
                    {"location", location(d.location.file)}};
      if (!body.empty()) issue["content"] = {{"body", body}};
      issues.push_back(std::move(issue));
    }
  }
  out << json_stream::dump(issues) << "\n";
}

}  // namespace onnxlint
