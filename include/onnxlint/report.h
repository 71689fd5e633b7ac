// Emitters: text (human), json (versioned schema), sarif (2.1.0), github (annotations), gitlab
// (Code Quality), junit (XML), markdown (pull-request summary), model-explorer (node data).
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/linter.h>

#include <map>
#include <ostream>
#include <string>
#include <string_view>

namespace ONNXLINT_API onnxlint {

inline constexpr int kJsonSchemaVersion = 1;

/// The shapes of the human output (see docs/output-formats.md).
enum class TextStyle : uint8_t {
  Full,     // findings with note/help lines, report sections, summary line (`--format text`)
  Concise,  // one line per finding, target verdicts, summary line (`--format concise`)
  Files,    // one line per file with its counts and verdicts, summary line (`--format summary`)
};

struct TextOptions {
  bool color = false;
  /// Findings and target verdicts only: no other report section, no summary line.
  bool quiet = false;
  bool statistics = false;  // per-rule counts
  /// Every info finding. Otherwise a rule with more than kCollapsedInfos infos in one file (or
  /// more than one, on a model of kLargeModelNodes nodes or more) shows one count line for them
  /// (`--show-infos` / `-v`).
  bool show_infos = false;
  TextStyle style = TextStyle::Full;
  /// What `--min-severity` shows: above Info, the output is a quiet form (only target verdicts
  /// that are not ok, no other report sections).
  Severity min_severity = Severity::Info;
};

/// Infos of one rule in one file beyond which the text output shows a count line instead.
inline constexpr size_t kCollapsedInfos = 5;
/// On a model of at least this many nodes (a large model, where infos are many and read
/// least), the infos of one rule collapse from two on.
inline constexpr uint64_t kLargeModelNodes = 1000;
/// Related locations the text output names before "and N more".
inline constexpr size_t kRelatedShown = 3;

/// Results per SARIF run that GitHub code scanning accepts (it rejects a file with more, and
/// shows the 5 000 most severe). Past it, emit_sarif() keeps the most severe results and says
/// how many it left out (docs/output-formats.md#sarif).
inline constexpr size_t kSarifMaxResults = 25000;
/// Locations per result that code scanning accepts (relatedLocations are cut to this).
inline constexpr size_t kSarifMaxRelatedLocations = 1000;

void emit_text(const Report& report, const Linter& linter, const TextOptions& opts,
               std::ostream& out);
void emit_json(const Report& report, const Linter& linter, std::ostream& out);
/// The table `--timings` prints: each phase, analysis and rule of FileReport::timings summed
/// over the files, slowest first, with its share of the total; `extra` adds phases measured
/// outside the lint (the CLI's "report" writing). Nothing when no file has timings.
void emit_timings(const Report& report, std::ostream& out,
                  const std::vector<TimingEntry>& extra = {});
/// SARIF 2.1.0; a run keeps at most `max_results` results, the most severe (see
/// kSarifMaxResults).
void emit_sarif(const Report& report, const Linter& linter, std::ostream& out,
                size_t max_results = kSarifMaxResults);
/// Annotations of each severity GitHub Actions shows per step (10 errors, 10 warnings, 10
/// notices; it drops the rest without saying so).
inline constexpr size_t kGithubAnnotationsPerSeverity = 10;
/// GitHub workflow commands: at most `max_per_severity` annotations of each severity, the most
/// important first (path errors, unmet --require-target verdicts and each file's target
/// verdicts; then each rule's finding standing for the most places, Diagnostic::count, then the
/// next of each), and, when some are left out, one `::notice` (in the notices' budget)
/// counting them (docs/output-formats.md#github).
void emit_github(const Report& report, const Linter& linter, std::ostream& out,
                 size_t max_per_severity = kGithubAnnotationsPerSeverity);

/// The fingerprint of `d` in reports that need it unique per report (GitLab Code Quality keeps
/// one issue per fingerprint): Diagnostic::fingerprint(), and for the n-th (n >= 2) finding of
/// a report with the same fingerprint, a hash of it and n.
class FingerprintDeduper {
 public:
  std::string operator()(const Diagnostic& d);

 private:
  std::map<std::string, uint64_t, std::less<>> seen_;
};

/// GitLab Code Quality: a JSON array of issues (description, check_name, fingerprint, severity,
/// location.path, location.lines.begin = 1).
void emit_gitlab(const Report& report, const Linter& linter, std::ostream& out);
/// JUnit XML: one <testcase> per model, a <failure> per finding at or above report.run.fail_on,
/// an <error> for unreadable models and paths without a model.
void emit_junit(const Report& report, const Linter& linter, std::ostream& out);

/// Characters a GitHub pull-request comment holds (65 536); the Markdown report stays below.
inline constexpr size_t kMarkdownMaxBytes = 60000;
/// A file with more findings than this lists them in a collapsed <details> block.
inline constexpr size_t kMarkdownOpenFindings = 10;
/// Markdown for pull-request comments and $GITHUB_STEP_SUMMARY: verdict, a table of files and
/// the findings per file, cut at `max_bytes` with a line saying how many were left out.
void emit_markdown(const Report& report, const Linter& linter, std::ostream& out,
                   size_t max_bytes = kMarkdownMaxBytes);

/// Google Model Explorer node data (ModelNodeData: graph id -> {results, thresholds}) for the
/// one model of the report, as the model-explorer-onnx adapter names graphs and nodes. Reads
/// the model file again for its graph and node names. Throws ConfigError when the report has
/// more than one model or the model came from stdin.
void emit_model_explorer(const Report& report, const Linter& linter, std::ostream& out);

/// `--list-rules` in text or JSON.
void emit_rule_list(const RuleRegistry& registry, bool json, std::ostream& out);
/// `--list-rules --format sarif`: a SARIF 2.1.0 log with one run whose `tool.driver.rules` are
/// every rule (as in a report, at its default severity) and whose `results` are empty.
void emit_rule_list_sarif(const RuleRegistry& registry, std::ostream& out);
/// `--explain ID --format json`: {schema_version, rule (as in --list-rules), documentation}.
void emit_rule_doc_json(const RuleInfo& info, std::ostream& out);

}  // namespace onnxlint
