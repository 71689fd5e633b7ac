// Models whose initializer lives in an external-data file, written into a scratch folder, for
// the data-external-* rules (they stat the data file, so the files must be real).
#pragma once

#include <onnxlint/linter.h>
#include <onnxlint/registry.h>

#include <algorithm>
#include <string>
#include <vector>

#include "loader/temp_dir.h"
#include "support/model_builder.h"

namespace onnxlint::testing {

/// A float tensor stored externally. Empty `offset`/`length` leave those entries out.
inline onnx::TensorProto external_tensor(const std::string& name, const std::vector<int64_t>& dims,
                                         const std::string& location,
                                         const std::string& offset = "",
                                         const std::string& length = "") {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const std::string& key, const std::string& value) {
    auto* kv = t.add_external_data();
    kv->set_key(key);
    kv->set_value(value);
  };
  if (!location.empty()) add("location", location);
  if (!offset.empty()) add("offset", offset);
  if (!length.empty()) add("length", length);
  return t;
}

/// y = Add(x, W) with W the given (external) initializer.
inline ModelBuilder model_with_initializer(const onnx::TensorProto& t) {
  ModelBuilder m;
  m.graph().input("x").output("y");
  m.graph().initializer(t);
  m.graph().node("Add", {"x", t.name()}, {"y"}, "add");
  return m;
}

/// Lints a file on disk with only `rule_id` enabled: full diagnostics.
inline std::vector<Diagnostic> file_diagnostics(const std::string& rule_id,
                                                const std::string& path) {
  LintOptions options;
  options.select = {rule_id};
  Linter linter(builtin_registry(), options);
  return linter.lint_file(path).diagnostics;
}

/// Same, as sorted "<rule> <anchor>" strings (like lint_harness's findings()).
inline std::vector<std::string> file_findings(const std::string& rule_id, const std::string& path) {
  std::vector<std::string> out;
  for (const Diagnostic& d : file_diagnostics(rule_id, path)) {
    out.push_back(d.rule_id + " " + d.location.anchor());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace onnxlint::testing
