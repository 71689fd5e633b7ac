// Diagnostics: what a rule reports, and where.
#pragma once

#include <onnxlint/export.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// Ordered so that `a >= b` means "at least as severe".
enum class Severity : uint8_t { Info = 0, Warning = 1, Error = 2 };

std::string_view severity_name(Severity s);  // "info", "warning", "error"
std::optional<Severity> parse_severity(std::string_view s);

/// Where a finding is. ONNX has no line numbers: a location is a graph path plus a node, a
/// value, an initializer or an attribute inside it.
struct Location {
  std::string file;        // model path as given on the command line
  std::string graph_path;  // "main", "main/Loop_7:body", "fn:domain::Name"; empty = whole model
  std::optional<uint32_t> node_index;
  std::string node_name;  // display name (name or "<op>#<index>")
  std::string op_type;
  std::string domain;
  std::string value_name;  // value, graph input/output or initializer
  std::string attribute;
  std::optional<uint64_t> byte_offset;  // for unreadable models and payload problems

  /// "main/Reshape_12" / "main:'x'" / "main" / "" — the human-readable anchor: the graph path,
  /// "/" and the node name, with one separator also for names that start with "/" (torch:
  /// "/encoder/Reshape" is "main/encoder/Reshape").
  std::string anchor() const;
};

/// Whether a model path names no file: "-" (the command's standard input) or a name in angle
/// brackets that an in-memory lint was given ("<in-memory model>", "<Net export>"). Such a model
/// has no folder (its configuration and external data are looked up from the working folder)
/// and no file a baseline could find again.
inline bool is_in_memory_path(std::string_view path) {
  return path == "-" || (path.size() >= 2 && path.front() == '<' && path.back() == '>');
}

/// Another place that belongs to the same finding: the outputs a data-dependent origin
/// reaches, the other nodes of one op type a target cannot run, ...
struct RelatedLocation {
  Location location;
  std::string message;  // what this place is, e.g. "graph output 'boxes'"; may be empty
};

/// A finding that said again what another finding at the same place says (see
/// Diagnostic::restates): what it was, kept on the finding it was folded into.
/// How a finding's fix changes the model (Diagnostic::fix; docs/fixes.md). Safe: what the
/// model computes is unchanged (`--fix`). Unsafe: it changes on purpose, as the rule's
/// documentation says (`--unsafe-fixes`). None: the finding has no fix.
enum class FixSafety : uint8_t { None = 0, Safe, Unsafe };
/// "none", "safe" or "unsafe".
std::string_view fix_safety_name(FixSafety s);

struct FoldedFinding {
  std::string rule_id;
  std::string target;
  Severity severity = Severity::Warning;
  std::string message;
};

struct Diagnostic {
  std::string rule_id;
  Severity severity = Severity::Warning;
  std::string message;  // one sentence, names the node/value
  Location location;
  std::vector<std::string> notes;  // reason chain, context
  std::string help;                // the fix, in exporter terms
  std::string target;              // target runtime id for target-* rules, else empty
  /// Further places of the same cause (JSON `related`, SARIF `relatedLocations`); the text
  /// output names a few and counts the rest.
  std::vector<RelatedLocation> related;
  /// What the cause of this finding looks like with the model's names left out, as the rule
  /// states it: the op types along its reason chain, the op and argument at its site ("" = the
  /// finding is never merged). The linter merges the findings of one rule in one file whose
  /// cause, severity, target, key and help are equal and whose sites differ only in numbers
  /// (`/NonZero_12` and `/NonZero_57`, `Loop_3:body` and `Loop_9:body`): the copies of one
  /// piece of exporter code (an unrolled loop, a repeated module) are one finding, and the
  /// other sites are its related locations (see group_by_cause() and docs/library.md,
  /// "Findings of one cause").
  std::string cause;
  /// How many places of one cause this finding stands for: 1, or the number of findings
  /// group_by_cause() merged (or a rule grouped itself) into it.
  uint32_t count = 1;

  /// Stable identity for baselines: rule + file name + graph path + node/value (+ target +
  /// key). Independent of the message wording and of the folder the file is in.
  std::string fingerprint() const;
  /// Extra identity used in the fingerprint when a rule reports several findings at one
  /// location (e.g. one per dimension). Keep it stable across message rewording.
  std::string key;
  /// The rule whose finding at the same node or value this finding restates, as the rule
  /// knows it: TensorRT's "Dropout's training_mode must be false" restates
  /// export-training-mode; a restriction on a zero point whose type the target rejects anyway
  /// restates target-unsupported-type; a rule naming itself restates its own finding for
  /// another target. fold_restatements() folds it into that finding when the report has one
  /// ("" = the finding stands alone).
  std::string restates;
  /// The findings folded into this one (JSON `also`); each is also a note.
  std::vector<FoldedFinding> also;
  /// The fix the rule proposes (RuleContext::fix; JSON `fix`, SARIF `fixes`): how safe, and
  /// what it does in one sentence.
  FixSafety fix = FixSafety::None;
  std::string fix_description;
};

/// Deterministic order: file, graph path, node index, rule id, value, message.
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

/// The message of a related location that is another site of a grouped finding.
inline constexpr std::string_view kSameCauseMessage = "same cause";

/// Merges findings of one cause (Diagnostic::cause, above) in `diags`, the findings of one file:
/// each set of findings with equal rule, severity, target, key, help and non-empty cause whose
/// locations are equal once the numbers in their graph paths, node and value names are left
/// out becomes one finding. It keeps the first site (the lowest-numbered copy: graph paths
/// compared number-aware, then node index) with its location, key, notes and related places,
/// so its fingerprint is the one that site has alone, however many copies there are; `count`
/// becomes the number of sites, the message says how many other places have the same cause,
/// and every other site (message kSameCauseMessage), then every related place of theirs that
/// is not already listed, is appended to `related`. Findings without a cause are left as they
/// are. Linear in the findings (one hash per finding) but for sorting each group; the order
/// of `diags` is kept otherwise (a merged finding takes the place of the earliest of its
/// findings in `diags`).
void group_by_cause(std::vector<Diagnostic>& diags);

/// One cause, one finding (docs/library.md, "Findings that restate another"): each finding
/// whose `restates` names a rule with a finding at the same site (graph and node, or graph and
/// value; for a target rule, on the same target) becomes part of that finding: appended to its
/// `also` and its notes, the severity raised to the more severe of the two. Findings of one
/// rule that restate that rule (the same finding for several targets) fold into the most
/// severe of them. A finding whose primary is not in `diags` (its rule is off, suppressed,
/// or found nothing) stays as it is. Linear in the findings; the order is kept.
void fold_restatements(std::vector<Diagnostic>& diags);

}  // namespace onnxlint
