// Markdown for pull-request comments and GitHub's job summary ($GITHUB_STEP_SUMMARY): the
// verdict, a table of files, the findings per file. Stays under a comment's 65 536 characters
// (and so under the summary's 1 MiB). Documented in docs/output-formats.md#markdown.
#include <fmt/format.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

#include <array>

#include "emit/markup.h"

namespace onnxlint {

namespace {

using markup::md_escape;

std::string_view icon(Severity s) {
  switch (s) {
    case Severity::Error:
      return "\xE2\x9D\x8C";  // cross mark
    case Severity::Warning:
      return "\xE2\x9A\xA0\xEF\xB8\x8F";  // warning sign
    case Severity::Info:
      return "\xE2\x84\xB9\xEF\xB8\x8F";  // information source
  }
  return "";
}

constexpr std::string_view kPass = "\xE2\x9C\x85";              // check mark
constexpr std::string_view kFail = "\xE2\x9D\x8C";              // cross mark
constexpr std::string_view kWarn = "\xE2\x9A\xA0\xEF\xB8\x8F";  // warning sign

std::string plural(uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

std::string finding_line(const Diagnostic& d) {
  std::string s =
      fmt::format("- {} **{}** `{}`", icon(d.severity), severity_name(d.severity), d.rule_id);
  if (std::string p = markup::place(d.location); !p.empty()) s += fmt::format(" {}", md_escape(p));
  s += ": ";
  if (!d.target.empty()) s += "\\[" + md_escape(d.target) + "\\] ";
  s += md_escape(d.message) + "\n";
  for (const std::string& n : d.notes) s += "  - note: " + md_escape(n) + "\n";
  if (!d.help.empty()) s += "  - help: " + md_escape(d.help) + "\n";
  return s;
}

}  // namespace

void emit_markdown(const Report& report, const Linter& linter, std::ostream& out,
                   size_t max_bytes) {
  (void)linter;
  const std::string fail_on =
      report.run.fail_on ? std::string(severity_name(*report.run.fail_on)) : "never";
  size_t failed = 0;
  for (const FileReport& f : report.files) failed += f.failed ? 1 : 0;
  std::string doc;
  if (failed > 0) {
    doc += fmt::format("## {} onnx-lint: {} of {} failed (fail-on: {})\n\n", kFail, failed,
                       plural(report.files.size(), "file"), fail_on);
  } else {
    doc += fmt::format("## {} onnx-lint: {} passed (fail-on: {})\n\n", kPass,
                       plural(report.files.size(), "file"), fail_on);
  }
  if (report.files.empty()) {
    out << doc;
    return;
  }

  // A Targets column when targets were checked: each target's verdict, and the ones below a
  // --require-target say so in the Verdict column.
  const bool targets = !report.run.targets.empty();
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  doc += targets ? "| File | Errors | Warnings | Infos | Targets | Verdict |\n"
                   "|---|---:|---:|---:|---|---|\n"
                 : "| File | Errors | Warnings | Infos | Verdict |\n|---|---:|---:|---:|---|\n";
  for (const FileReport& f : report.files) {
    std::array<uint64_t, 3> n{};
    for (const Diagnostic& d : f.diagnostics) ++n[static_cast<size_t>(d.severity)];
    std::string verdict = f.failed ? fmt::format("{} fail", kFail) : fmt::format("{} pass", kPass);
    if (f.status == FileReport::Status::PathError) {
      doc += fmt::format("| {} | – | – | – |{} {} {} |\n", md_escape(markup::repo_path(f.path)),
                         targets ? " – |" : "", kFail, md_escape(f.error));
      continue;
    }
    if (f.status == FileReport::Status::Unreadable) verdict += " (unreadable)";
    const std::vector<std::string> unmet = unmet_requirements(f, required);
    if (!unmet.empty()) verdict += ": " + md_escape(fmt::format("{}", fmt::join(unmet, "; ")));
    std::string column;
    if (targets) {
      std::vector<std::string> parts;
      for (const TargetVerdict& v : target_verdicts(f)) {
        const std::string_view mark = v.support == Support::Full      ? kPass
                                      : v.support == Support::Partial ? kWarn
                                                                      : kFail;
        parts.push_back(
            fmt::format("{} `{}` {}", mark, md_escape(v.target), support_name(v.support)));
      }
      column = fmt::format(
          " {} |", parts.empty() ? std::string("–") : fmt::format("{}", fmt::join(parts, "<br>")));
    }
    doc += fmt::format("| {} | {} | {} | {} |{} {} |\n", md_escape(markup::repo_path(f.path)), n[2],
                       n[1], n[0], column, verdict);
  }

  // The findings, file by file, until the next one would pass the size limit (with room for
  // the closing lines).
  constexpr size_t kReserve = 256;
  uint64_t total = 0, shown = 0;
  for (const FileReport& f : report.files) total += f.diagnostics.size();
  bool full = false;
  for (const FileReport& f : report.files) {
    if (f.diagnostics.empty() || full) continue;
    std::string head = fmt::format("\n### {}\n\n", md_escape(markup::repo_path(f.path)));
    const bool collapse = f.diagnostics.size() > kMarkdownOpenFindings;
    if (collapse) {
      head += fmt::format("<details><summary>{}</summary>\n\n",
                          plural(f.diagnostics.size(), "finding"));
    }
    if (doc.size() + head.size() + kReserve > max_bytes) {
      full = true;
      break;
    }
    doc += head;
    for (const Diagnostic& d : f.diagnostics) {
      std::string line = finding_line(d);
      if (doc.size() + line.size() + kReserve > max_bytes) {
        full = true;
        break;
      }
      doc += line;
      ++shown;
    }
    if (collapse) doc += "\n</details>\n";
  }
  if (shown < total) {
    doc += fmt::format(
        "\n{} more finding{} not shown (this summary stays under GitHub's comment size); "
        "`--format json` lists every finding.\n",
        total - shown, total - shown == 1 ? "" : "s");
  }
  out << doc;
}

}  // namespace onnxlint
