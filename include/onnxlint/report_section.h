// ReportSection: a block of data a rule adds to a file's report (the dynamic-shape summary, a
// target's fallback estimate). A header of its own, so that rule.h does not need nlohmann/json;
// the few rules that add sections include it.
#pragma once

#include <onnxlint/export.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ONNXLINT_API onnxlint {

/// A report section a rule adds to a file's report (e.g. the dynamic-shape summary): `data` is
/// written under `sections.<name>` in JSON; `text` lines are printed after the findings.
struct ReportSection {
  std::string name;
  nlohmann::json data;
  std::vector<std::string> text;
};

}  // namespace onnxlint
