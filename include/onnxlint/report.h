// Emitters: text (human), json (versioned schema), sarif (2.1.0), github (annotations).
#pragma once

#include <ostream>
#include <string_view>

#include <onnxlint/linter.h>

namespace onnxlint {

inline constexpr int kJsonSchemaVersion = 1;

struct TextOptions {
  bool color = false;
  bool quiet = false;       // findings only, no summary
  bool statistics = false;  // per-rule counts
};

void emit_text(const Report& report, const Linter& linter, const TextOptions& opts,
               std::ostream& out);
void emit_json(const Report& report, const Linter& linter, std::ostream& out);
void emit_sarif(const Report& report, const Linter& linter, std::ostream& out);
void emit_github(const Report& report, const Linter& linter, std::ostream& out);

/// `--list-rules` in text or JSON.
void emit_rule_list(const RuleRegistry& registry, bool json, std::ostream& out);

}  // namespace onnxlint
