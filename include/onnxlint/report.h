// Emitters: text (human), json (versioned schema), sarif (2.1.0), github (annotations).
#pragma once

#include <onnxlint/export.h>
#include <onnxlint/linter.h>

#include <ostream>
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
};

/// Infos of one rule in one file beyond which the text output shows a count line instead.
inline constexpr size_t kCollapsedInfos = 5;
/// On a model of at least this many nodes (a large model, where infos are many and read
/// least), the infos of one rule collapse from two on.
inline constexpr uint64_t kLargeModelNodes = 1000;
/// Related locations the text output names before "and N more".
inline constexpr size_t kRelatedShown = 3;

void emit_text(const Report& report, const Linter& linter, const TextOptions& opts,
               std::ostream& out);
void emit_json(const Report& report, const Linter& linter, std::ostream& out);
void emit_sarif(const Report& report, const Linter& linter, std::ostream& out);
void emit_github(const Report& report, const Linter& linter, std::ostream& out);

/// `--list-rules` in text or JSON.
void emit_rule_list(const RuleRegistry& registry, bool json, std::ostream& out);
/// `--list-rules --format sarif`: a SARIF 2.1.0 log with one run whose `tool.driver.rules` are
/// every rule (as in a report, at its default severity) and whose `results` are empty.
void emit_rule_list_sarif(const RuleRegistry& registry, std::ostream& out);
/// `--explain ID --format json`: {schema_version, rule (as in --list-rules), documentation}.
void emit_rule_doc_json(const RuleInfo& info, std::ostream& out);

}  // namespace onnxlint
