// Caps the strings a report repeats from a model (capped(), kMaxEchoBytes in escape.h): applied
// by the driver to every finding as rules report it, to report sections and to the model
// summary, so that every format (and the memory the report takes) sees the capped text.
// Internal to lib/.
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/linter.h>
#include <onnxlint/report_section.h>

#include <nlohmann/json_fwd.hpp>

namespace onnxlint {

/// Caps the message, notes, help, key and every location field but the file (a path the user
/// gave) of `d` and of its related locations.
void cap_echoes(Diagnostic& d);
/// Caps every string of a section: its text lines and the string values and object keys of
/// its data.
void cap_echoes(ReportSection& section);
/// Caps the names, dims and texts of a model summary (its doc_string has its own, smaller cap).
void cap_echoes(ModelSummary& summary);

}  // namespace onnxlint
