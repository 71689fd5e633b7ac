// Compiler-style text output: one line per finding with note/help lines, report sections and a
// summary; also the concise (one line per finding) and per-file summary styles.
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>

#include <algorithm>
#include <map>
#include <set>

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

std::string where(const Location& l) {
  std::string out = l.file;
  std::string anchor = l.anchor();
  if (!anchor.empty()) out += ": " + anchor;
  if (!l.op_type.empty()) out += " (" + l.op_type + ")";
  return visible(out);  // names come from the model: no terminal or log control reaches out
}

std::string plural(uint64_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

void finding_line(const Diagnostic& d, const Style& st, std::ostream& out) {
  out << st.wrap(where(d.location), "1") << ": "
      << st.wrap(severity_name(d.severity), severity_color(d.severity)) << ": ";
  if (!d.target.empty()) out << "[" << visible(d.target) << "] ";
  out << visible(d.message) << " " << st.wrap("[" + d.rule_id + "]", "2") << "\n";
}

// "main/a (graph output 'y'), main/b and 12 more": the related places, a few named.
std::string related_text(const Diagnostic& d) {
  std::string s;
  const size_t shown = std::min(d.related.size(), kRelatedShown);
  for (size_t i = 0; i < shown; ++i) {
    const RelatedLocation& r = d.related[i];
    s += i == 0 ? "" : ", ";
    std::string anchor = r.location.anchor();
    s += anchor.empty() ? r.location.file : anchor;
    if (!r.message.empty()) s += " (" + r.message + ")";
  }
  if (d.related.size() > shown) {
    s += fmt::format(" and {} more (--format json lists all)", d.related.size() - shown);
  }
  return s;
}

// Note and help lines already printed in this file, by rule: a large model repeats the same
// help for every finding of a rule, and a person reads it once. A help is printed once per file
// whatever the rule (kept under an empty rule id): several rules give the same fix for one
// construct (a detector's post-processing is a data-dependent shape, If and Loop).
using Printed = std::set<std::pair<std::string_view, std::string_view>>;

void finding(const Diagnostic& d, const Style& st, Printed& printed, std::ostream& out) {
  finding_line(d, st, out);
  for (const std::string& n : d.notes) {
    if (!printed.emplace(d.rule_id, n).second) continue;
    out << "    " << st.wrap("note:", "1;34") << " " << visible(n) << "\n";
  }
  if (!d.related.empty()) {
    out << "    " << st.wrap("also:", "1;34") << " " << visible(related_text(d)) << "\n";
  }
  if (!d.help.empty() && printed.emplace(std::string_view(), d.help).second) {
    out << "    " << st.wrap("help:", "1;32") << " " << visible(d.help) << "\n";
  }
  if (d.fix != FixSafety::None) {
    out << "    " << st.wrap("fix:", "1;32") << " " << visible(d.fix_description)
        << (d.fix == FixSafety::Safe ? " (--fix)" : " (unsafe: --fix --unsafe-fixes)") << "\n";
  }
}

// What --fix did to a file (or, with --diff, would do), before the findings left.
void fix_lines(const FileReport& f, const Style& st, std::ostream& out) {
  if (!f.fixing) return;
  const FixSummary& s = *f.fixing;
  const std::string name = st.wrap(visible(s.input), "1");
  const size_t n = s.applied.size();
  if (!s.fixed_dims.empty()) {
    out << name << ": " << (s.dry_run ? "would fix dims " : "fixed dims ")
        << visible(fmt::format("{}", fmt::join(s.fixed_dims, ", "))) << "\n";
  }
  if (s.written) {
    out << name << ": "
        << fmt::format("fixed {} in {}, wrote {}; the findings left follow", plural(n, "finding"),
                       s.passes == 1 ? std::string("1 pass") : fmt::format("{} passes", s.passes),
                       visible(s.output))
        << "\n";
  } else if (s.dry_run) {
    out << name << ": "
        << fmt::format("would fix {} (--diff: nothing written); the findings left would be",
                       plural(n, "finding"))
        << "\n";
  } else if (!s.not_fixable.empty()) {
    out << name << ": not fixed: " << visible(s.not_fixable) << "\n";
  } else if (s.error.empty()) {
    out << name << ": nothing to fix, nothing written\n";
  }
  if (!s.error.empty()) {
    out << name << ": " << st.wrap("error:", severity_color(Severity::Error))
        << " not fixed: " << visible(s.error) << "\n";
  }
  for (const AppliedFix& a : s.applied) {
    out << "  " << st.wrap(s.written ? "fixed:" : "would fix:", "1;32") << " "
        << visible(a.location.anchor().empty() ? std::string("model") : a.location.anchor())
        << (a.location.op_type.empty() ? "" : " (" + visible(a.location.op_type) + ")") << ": "
        << visible(a.description) << (a.safety == FixSafety::Unsafe ? " (unsafe)" : "") << " "
        << st.wrap("[" + a.rule_id + "]", "2") << "\n";
  }
  if (s.declared_shapes > 0) {
    out << "  " << st.wrap(s.written ? "fixed:" : "would fix:", "1;32") << " "
        << fmt::format("declared the static shape of {} value_info entr{} (--fix-dims)",
                       s.declared_shapes, s.declared_shapes == 1 ? "y" : "ies")
        << "\n";
  }
  for (const FixSummary::VerdictBefore& v : s.verdicts_before) {
    out << "  " << st.wrap("before:", "1") << " " << visible(v.line) << "\n";
  }
  for (const std::string& c : s.copied_data) {
    out << "  copied external data to " << visible(c) << "\n";
  }
  if (s.unsafe_available > 0) {
    out << name << ": "
        << fmt::format("{} left with an unsafe fix (add --unsafe-fixes to apply)",
                       plural(s.unsafe_available, "finding"))
        << "\n";
  }
}

// A group of findings the text shows as one count line: the infos of one rule, or the
// warnings/infos of one target rule on one target (the target summary lists what they are).
struct Collapsed {
  std::string rule;
  std::string target;
  Severity severity;
  auto operator<=>(const Collapsed&) const = default;
};

Collapsed collapse_key(const Diagnostic& d) { return {d.rule_id, d.target, d.severity}; }

std::map<Collapsed, uint64_t> collapsed_groups(const FileReport& f, const TextOptions& opts) {
  std::map<Collapsed, uint64_t> groups;
  if (opts.show_infos) return groups;
  for (const Diagnostic& d : f.diagnostics) {
    // Errors always show one by one; other findings collapse per target, infos per rule.
    if (d.severity == Severity::Error) continue;
    if (d.severity == Severity::Info || !d.target.empty()) ++groups[collapse_key(d)];
  }
  // On a large model the infos of a rule, and the warnings and infos of a target rule on one
  // target (the target summary says what they are), collapse from two on.
  const bool large = f.model && f.model->nodes >= kLargeModelNodes;
  std::erase_if(groups, [&](const auto& kv) { return kv.second <= (large ? 1 : kCollapsedInfos); });
  return groups;
}

void counts_line(const FileReport& f, const Style& st, std::ostream& out) {
  uint64_t by[3] = {0, 0, 0};
  for (const Diagnostic& d : f.diagnostics) ++by[static_cast<int>(d.severity)];
  std::string s;
  if (f.status == FileReport::Status::Unreadable) {
    s = "unreadable";
    if (!f.diagnostics.empty()) s += ": " + visible(f.diagnostics.front().message);
  } else if (by[0] + by[1] + by[2] == 0) {
    s = "ok";
  } else {
    s = fmt::format("{}, {}, {} info", plural(by[2], "error"), plural(by[1], "warning"), by[0]);
  }
  const char* color = by[2] || f.status == FileReport::Status::Unreadable ? "1;31"
                      : by[1]                                             ? "1;33"
                                                                          : "1;32";
  out << st.wrap(visible(f.path), "1") << ": " << st.wrap(s, color);
  for (const TargetVerdict& v : target_verdicts(f)) {
    out << fmt::format("; {} {}", visible(v.target), support_name(v.support));
  }
  out << "\n";
}

// A file's verdicts below a requirement (--require-target): they fail the run, so they show in
// every style, quiet or not.
void unmet_lines(const FileReport& f, const std::vector<TargetRequirement>& required,
                 const Style& st, std::ostream& out) {
  for (const std::string& u : unmet_requirements(f, required)) {
    out << st.wrap(visible(f.path), "1") << ": "
        << st.wrap("error", severity_color(Severity::Error))
        << ": required target verdict not met: " << visible(u) << "\n";
  }
}

}  // namespace

void emit_text(const Report& report, const Linter& linter, const TextOptions& opts,
               std::ostream& out) {
  Style st{opts.color};
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  // Where each target's support table comes from: said once per run, not once per file.
  std::map<std::string, std::string> sources;
  for (const FileReport& f : report.files) {
    // A path that yielded no model: the command says why on stderr, the summary counts it.
    if (f.status == FileReport::Status::PathError) continue;
    fix_lines(f, st, out);
    if (opts.style == TextStyle::Files) {
      counts_line(f, st, out);
      unmet_lines(f, required, st, out);
      continue;
    }
    const std::map<Collapsed, uint64_t> collapsed = collapsed_groups(f, opts);
    // On a large model a rule's warnings past the first kCollapsedInfos are one count line:
    // a two-stage detector has a dozen data-dependent origins, and the screen is for the rest.
    const bool cap_warnings = !opts.show_infos && f.model && f.model->nodes >= kLargeModelNodes;
    std::map<std::string_view, uint64_t> warnings_shown, warnings_left;
    Printed printed;
    for (const Diagnostic& d : f.diagnostics) {
      if (d.severity != Severity::Error && collapsed.count(collapse_key(d)) != 0) continue;
      if (cap_warnings && d.severity == Severity::Warning && d.target.empty() &&
          ++warnings_shown[d.rule_id] > kCollapsedInfos) {
        ++warnings_left[d.rule_id];
        continue;
      }
      if (opts.style == TextStyle::Concise) {
        finding_line(d, st, out);
      } else {
        finding(d, st, printed, out);
      }
    }
    for (const auto& [rule, n] : warnings_left) {
      const RuleRegistry::Entry* e = linter.registry().find(rule);
      out << st.wrap(visible(f.path), "1") << ": "
          << st.wrap(severity_name(Severity::Warning), severity_color(Severity::Warning)) << ": "
          << fmt::format("{} more findings: {}", n,
                         e != nullptr ? e->info->summary : std::string_view(rule))
          << " " << st.wrap("[" + std::string(rule) + "]", "2") << " (-v lists them)\n";
    }
    // One count line per rule and severity: a target rule's counts on several targets share
    // it ("44 findings on onnxruntime-coreml-mlprogram (22), onnxruntime-nnapi (22)").
    std::map<std::pair<std::string, Severity>, std::vector<std::pair<std::string, uint64_t>>>
        per_targets;
    for (const auto& [key, n] : collapsed) {
      if (!key.target.empty()) per_targets[{key.rule, key.severity}].emplace_back(key.target, n);
    }
    for (const auto& [key, n] : collapsed) {
      const RuleRegistry::Entry* e = linter.registry().find(key.rule);
      const std::string_view summary = e != nullptr ? e->info->summary : key.rule;
      const auto& shared = per_targets[{key.rule, key.severity}];
      if (!key.target.empty() && shared.size() > 1) {
        if (shared.front().first != key.target) continue;  // said with the first target
        uint64_t total = 0;
        std::vector<std::string> parts;
        for (const auto& [target, count] : shared) {
          total += count;
          parts.push_back(fmt::format("{} ({})", visible(target), count));
        }
        out << st.wrap(visible(f.path), "1") << ": "
            << st.wrap(severity_name(key.severity), severity_color(key.severity)) << ": "
            << fmt::format("{} findings on {}: {}", total, fmt::join(parts, ", "), summary) << " "
            << st.wrap("[" + key.rule + "]", "2") << " (see the target summary; -v lists them)\n";
        continue;
      }
      out << st.wrap(visible(f.path), "1") << ": "
          << st.wrap(severity_name(key.severity), severity_color(key.severity)) << ": ";
      if (!key.target.empty()) out << "[" << visible(key.target) << "] ";
      out << fmt::format("{} findings: {}", n, summary) << " " << st.wrap("[" + key.rule + "]", "2")
          << (key.target.empty() ? " (-v lists them)\n"
                                 : " (see the target summary; -v lists them)\n");
    }
    // The target verdicts are the answer to --target. The quiet forms (-q, concise, a raised
    // --min-severity) show only those that are not ok, unless -v asks for all.
    const bool quiet_form =
        opts.quiet || opts.style == TextStyle::Concise || opts.min_severity > Severity::Info;
    std::vector<std::string> verdicts;
    for (const TargetVerdict& v : target_verdicts(f)) {
      if (quiet_form && !opts.show_infos && v.support == Support::Full) continue;
      verdicts.push_back(verdict_line(v));
      sources.emplace(v.target, table_source_line(v));
    }
    if (!verdicts.empty()) {
      out << st.wrap(visible(f.path + ": targets:"), "1") << "\n";
      for (const std::string& line : verdicts) out << "  " << visible(line) << "\n";
    }
    unmet_lines(f, required, st, out);
    // Other sections (dynamic shapes, ...) are detail: the full form only.
    if (quiet_form) continue;
    for (const ReportSection& s : f.sections) {
      if (s.text.empty() || s.name == "targets") continue;
      out << st.wrap(visible(f.path + ": " + s.name + ":"), "1") << "\n";
      for (const std::string& line : s.text) out << "  " << visible(line) << "\n";
    }
  }
  if (opts.statistics) {
    auto counts = report.count_by_rule();
    std::vector<std::pair<uint64_t, std::string>> sorted;
    for (const auto& [rule, n] : counts) sorted.emplace_back(n, rule);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [n, rule] : sorted) out << fmt::format("{:>6}  {}\n", n, rule);
  }
  if (opts.quiet) return;
  for (const auto& [target, line] : sources) out << visible(line) << "\n";
  uint64_t errors = report.count(Severity::Error), warnings = report.count(Severity::Warning),
           infos = report.count(Severity::Info);
  uint64_t unreadable = 0, suppressed = 0, baselined = 0, hidden = 0;
  for (const FileReport& f : report.files) {
    unreadable += f.status == FileReport::Status::Unreadable;
    suppressed += f.suppressed;
    baselined += f.baselined;
    hidden += f.hidden;
  }
  const uint64_t path_errors = report.files.size() - report.files_linted();
  std::string summary =
      fmt::format("{} checked: {}, {}, {} info", plural(report.files_linted(), "file"),
                  plural(errors, "error"), plural(warnings, "warning"), infos);
  if (unreadable) summary += fmt::format(", {} unreadable", unreadable);
  if (path_errors) summary += fmt::format(", {} without a model", plural(path_errors, "path"));
  if (suppressed) summary += fmt::format(", {} suppressed in-model", suppressed);
  if (baselined) summary += fmt::format(", {} in baseline", baselined);
  if (hidden) summary += fmt::format(", {} below --min-severity not shown", hidden);
  out << st.wrap(summary, errors || unreadable || path_errors ? "1;31"
                          : warnings                          ? "1;33"
                                                              : "1;32")
      << "\n";
}

}  // namespace onnxlint
