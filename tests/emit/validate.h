// Schema validation for the emitter tests: JSON documents with Debian's python3-jsonschema,
// XML with xmllint (libxml2-utils). Each returns "" when the document is valid, else the
// validator's complaint.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "support/lint_harness.h"

namespace onnxlint::testing {

namespace validate_detail {

inline std::string run(const std::string& document, const std::string& suffix,
                       const std::string& command_before_file, const std::string& after = "") {
  namespace fs = std::filesystem;
  std::random_device rd;
  const fs::path tmp = fs::temp_directory_path() / ("onnxlint-validate-" + std::to_string(rd()));
  fs::create_directories(tmp);
  std::ofstream(tmp / ("doc" + suffix), std::ios::binary) << document;
  const std::string cmd = command_before_file + " " + (tmp / ("doc" + suffix)).string() + after +
                          " > " + (tmp / "log.txt").string() + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream log(tmp / "log.txt");
  std::stringstream ss;
  ss << log.rdbuf();
  fs::remove_all(tmp);
  return rc == 0 ? "" : "validator exit " + std::to_string(rc) + ": " + ss.str();
}

}  // namespace validate_detail

/// Validates a JSON document against tests/data/`schema` (any draft the schema names). With
/// `each_item`, the document is an array and every item is validated against the schema.
inline std::string json_schema_errors(const std::string& document, const std::string& schema,
                                      bool each_item = false) {
  const std::string script =
      "import json, sys, jsonschema\n"
      "schema = json.load(open(sys.argv[1]))\n"
      "doc = json.load(open(sys.argv[2]))\n"
      "cls = jsonschema.validators.validator_for(schema)\n"
      "cls.check_schema(schema)\n"
      "docs = doc if sys.argv[3] == '1' else [doc]\n"
      "errors = [e for d in docs for e in cls(schema).iter_errors(d)]\n"
      "for e in errors[:5]: print(list(e.absolute_path), e.message)\n"
      "sys.exit(1 if errors else 0)\n";
  namespace fs = std::filesystem;
  std::random_device rd;
  const fs::path py =
      fs::temp_directory_path() / ("onnxlint-validate-" + std::to_string(rd()) + ".py");
  std::ofstream(py) << script;
  std::string out = validate_detail::run(
      document, ".json", "/usr/bin/python3 " + py.string() + " " + data_path(schema),
      each_item ? " 1" : " 0");
  fs::remove(py);
  return out;
}

/// Validates an XML document against tests/data/`xsd` with xmllint.
inline std::string xsd_errors(const std::string& document, const std::string& xsd) {
  return validate_detail::run(document, ".xml", "xmllint --noout --schema " + data_path(xsd));
}

}  // namespace onnxlint::testing
