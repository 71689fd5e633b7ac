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

/// Another place that belongs to the same finding: the outputs a data-dependent origin
/// reaches, the other nodes of one op type a target cannot run, ...
struct RelatedLocation {
  Location location;
  std::string message;  // what this place is, e.g. "graph output 'boxes'"; may be empty
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

  /// Stable identity for baselines: rule + file name + graph path + node/value (+ target +
  /// key). Independent of the message wording and of the folder the file is in.
  std::string fingerprint() const;
  /// Extra identity used in the fingerprint when a rule reports several findings at one
  /// location (e.g. one per dimension). Keep it stable across message rewording.
  std::string key;
};

/// Deterministic order: file, graph path, node index, rule id, value, message.
bool diagnostic_less(const Diagnostic& a, const Diagnostic& b);

}  // namespace onnxlint
