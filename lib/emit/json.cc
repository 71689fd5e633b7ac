// The JSON report (schema_version 1, documented in docs/json-report.md). Deterministic: files
// in input order, findings sorted, no timestamps.
#include <onnxlint/report.h>
#include <onnxlint/verdicts.h>
#include <onnxlint/version.h>

#include <set>

#include "emit/json_stream.h"

namespace onnxlint {

nlohmann::json location_json(const Location& l) {
  nlohmann::json j = nlohmann::json::object();
  j["file"] = l.file;
  j["graph"] = l.graph_path;
  if (l.node_index) {
    j["node"] = {{"index", *l.node_index},
                 {"name", l.node_name},
                 {"op_type", l.op_type},
                 {"domain", l.domain}};
  }
  if (!l.value_name.empty()) j["value"] = l.value_name;
  if (!l.attribute.empty()) j["attribute"] = l.attribute;
  if (l.byte_offset) j["byte_offset"] = *l.byte_offset;
  return j;
}

nlohmann::json also_json(const std::vector<FoldedFinding>& also) {
  nlohmann::json out = nlohmann::json::array();
  for (const FoldedFinding& f : also) {
    nlohmann::json j = {
        {"rule", f.rule_id}, {"severity", severity_name(f.severity)}, {"message", f.message}};
    if (!f.target.empty()) j["target"] = f.target;
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json diagnostic_json(const Diagnostic& d) {
  nlohmann::json j;
  j["rule"] = d.rule_id;
  j["severity"] = severity_name(d.severity);
  j["message"] = d.message;
  j["location"] = location_json(d.location);
  j["notes"] = d.notes;
  if (!d.help.empty()) j["help"] = d.help;
  if (!d.target.empty()) j["target"] = d.target;
  if (!d.related.empty()) {
    nlohmann::json related = nlohmann::json::array();
    for (const RelatedLocation& r : d.related) {
      nlohmann::json jr = {{"location", location_json(r.location)}};
      if (!r.message.empty()) jr["message"] = r.message;
      related.push_back(std::move(jr));
    }
    j["related"] = std::move(related);
  }
  if (d.count > 1) j["count"] = d.count;
  if (!d.also.empty()) j["also"] = also_json(d.also);
  if (d.fix != FixSafety::None) {
    j["fix"] = {{"safety", fix_safety_name(d.fix)}, {"description", d.fix_description}};
  }
  j["fingerprint"] = d.fingerprint();
  return j;
}

// What --fix did to a file (docs/fixes.md): the fixes applied (the finding as it was, and the
// fix), the file written.
nlohmann::json fixing_json(const FixSummary& s) {
  nlohmann::json applied = nlohmann::json::array();
  for (const AppliedFix& a : s.applied) {
    applied.push_back({{"rule", a.rule_id},
                       {"location", location_json(a.location)},
                       {"message", a.message},
                       {"safety", fix_safety_name(a.safety)},
                       {"description", a.description},
                       {"pass", a.pass}});
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const FixSummary::VerdictBefore& v : s.verdicts_before) {
    verdicts.push_back({{"target", v.target}, {"support", v.support}, {"line", v.line}});
  }
  return {{"input", s.input},
          {"output", s.written ? nlohmann::json(s.output) : nlohmann::json(nullptr)},
          {"written", s.written},
          {"dry_run", s.dry_run},
          {"passes", s.passes},
          {"fixed_dims", s.fixed_dims},
          {"applied", std::move(applied)},
          {"unsafe_available", s.unsafe_available},
          {"copied_data", s.copied_data},
          {"verdicts_before", verdicts},
          {"declared_shapes", s.declared_shapes},
          {"error", s.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.error)},
          {"not_fixable",
           s.not_fixable.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.not_fixable)}};
}

nlohmann::json counts_json(const std::vector<Diagnostic>& diags) {
  nlohmann::json c = {{"error", 0}, {"warning", 0}, {"info", 0}};
  for (const Diagnostic& d : diags)
    c[std::string(severity_name(d.severity))] =
        c[std::string(severity_name(d.severity))].get<uint64_t>() + 1;
  return c;
}

namespace {

// A dim as docs/json-report.md states it: a number (fixed), a string (a dim_param or the
// analysis's expression), {"data": origin node, "max"?} (set by values at run time) or null.
nlohmann::json dim_json(const DimSummary& d) {
  switch (d.kind) {
    case DimSummary::Kind::Fixed:
      return d.value;
    case DimSummary::Kind::Symbolic:
      return d.text;
    case DimSummary::Kind::Data: {
      nlohmann::json j = {{"data", d.text}};
      if (d.bound >= 0) j["max"] = d.bound;
      return j;
    }
    case DimSummary::Kind::Unknown:
      break;
  }
  return nullptr;
}

nlohmann::json dims_json(const std::optional<std::vector<DimSummary>>& dims) {
  if (!dims) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const DimSummary& d : *dims) out.push_back(dim_json(d));
  return out;
}

nlohmann::json signature_json(const std::vector<ValueSignature>& values, bool outputs) {
  nlohmann::json out = nlohmann::json::array();
  for (const ValueSignature& v : values) {
    nlohmann::json j = {{"name", v.name},
                        {"type", v.type.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.type)},
                        {"dims", dims_json(v.dims)}};
    if (outputs) j["analysis"] = dims_json(v.analysis);
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json model_json(const ModelSummary& m) {
  nlohmann::json opsets = nlohmann::json::object();
  for (const auto& [domain, version] : m.opset_imports)
    opsets[std::string(domain_display_name(domain))] = version;
  nlohmann::json metadata = nlohmann::json::object();
  for (const auto& [key, value] : m.metadata_props) metadata[key] = value;  // last one wins
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [domain, by_op] : m.ops) {
    nlohmann::json counts = nlohmann::json::object();
    for (const auto& [op, n] : by_op) counts[op] = n;
    ops[domain] = std::move(counts);
  }
  nlohmann::json external = nlohmann::json::array();
  for (const ExternalFile& f : m.external_data) {
    nlohmann::json j = {{"location", f.location}, {"tensors", f.tensors}};
    j["bytes"] = f.bytes ? nlohmann::json(*f.bytes) : nlohmann::json(nullptr);
    if (!f.sha256.empty()) j["sha256"] = f.sha256;
    if (!f.error.empty()) j["error"] = f.error;
    external.push_back(std::move(j));
  }
  nlohmann::json j = {{"ir_version", m.ir_version},
                      {"opset_imports", opsets},
                      {"producer", {{"name", m.producer_name}, {"version", m.producer_version}}},
                      {"model_version", m.model_version},
                      {"doc_string", m.doc_string},
                      {"doc_string_bytes", m.doc_string_bytes},
                      {"graph_name", m.graph_name},
                      {"metadata_props", std::move(metadata)},
                      {"inputs", signature_json(m.inputs, false)},
                      {"outputs", signature_json(m.outputs, true)},
                      {"ops", std::move(ops)},
                      {"graphs", m.graphs},
                      {"nodes", m.nodes},
                      {"initializers", m.initializers},
                      {"functions", m.functions},
                      {"file_bytes", m.file_bytes},
                      {"initializer_bytes", m.initializer_bytes},
                      {"external_bytes", m.external_bytes},
                      {"external_data", std::move(external)}};
  if (!m.sha256.empty()) j["sha256"] = m.sha256;
  return j;
}

// As given on the command line: "full", "tensorrt=partial".
std::vector<std::string> required_texts(const std::vector<TargetRequirement>& required) {
  std::vector<std::string> out;
  for (const TargetRequirement& r : required) out.push_back(requirement_text(r));
  return out;
}

nlohmann::json file_json(const FileReport& f, const std::vector<TargetRequirement>& required) {
  nlohmann::json jf;
  jf["path"] = f.path;
  jf["status"] = f.status == FileReport::Status::Ok           ? "ok"
                 : f.status == FileReport::Status::Unreadable ? "unreadable"
                                                              : "error";
  jf["verdict"] = f.failed ? "fail" : "pass";
  jf["unmet_targets"] = unmet_requirements(f, required);
  if (f.status == FileReport::Status::PathError) jf["error"] = f.error;
  jf["config_file"] =
      f.config_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.config_file);
  jf["model"] = f.model ? model_json(*f.model) : nlohmann::json(nullptr);
  if (f.fixing) jf["fixing"] = fixing_json(*f.fixing);
  nlohmann::json diags = nlohmann::json::array();
  for (const Diagnostic& d : f.diagnostics) diags.push_back(diagnostic_json(d));
  jf["diagnostics"] = std::move(diags);
  jf["counts"] = counts_json(f.diagnostics);
  nlohmann::json by_rule = nlohmann::json::object();
  for (const Diagnostic& d : f.diagnostics) {
    by_rule[d.rule_id] = by_rule.value(d.rule_id, uint64_t{0}) + 1;
  }
  jf["counts_by_rule"] = std::move(by_rule);
  jf["suppressed"] = f.suppressed;
  jf["baselined"] = f.baselined;
  jf["hidden"] = f.hidden;
  nlohmann::json capped = nlohmann::json::object();
  for (const auto& [rule, n] : f.capped) capped[rule] = n;
  jf["capped"] = std::move(capped);
  nlohmann::json sections = nlohmann::json::object();
  for (const ReportSection& s : f.sections) sections[s.name] = s.data;
  jf["sections"] = std::move(sections);
  return jf;
}

// Everything but the files.
nlohmann::json report_head(const Report& report, const Linter& linter) {
  nlohmann::json root;
  root["schema_version"] = kJsonSchemaVersion;
  root["tool"] = {{"name", "onnx-lint"}, {"version", kVersion}};
  nlohmann::json by_rule = nlohmann::json::object();
  for (const auto& [rule, n] : report.count_by_rule()) by_rule[rule] = n;
  uint64_t path_errors = 0, unreadable = 0, failed = 0, suppressed = 0, baselined = 0, hidden = 0;
  for (const FileReport& f : report.files) {
    path_errors += f.status == FileReport::Status::PathError;
    unreadable += f.status == FileReport::Status::Unreadable;
    failed += f.failed;
    suppressed += f.suppressed;
    baselined += f.baselined;
    hidden += f.hidden;
  }
  root["summary"] = {{"files", report.files_linted()},
                     {"path_errors", path_errors},
                     {"unreadable", unreadable},
                     {"passed", report.files.size() - failed},
                     {"failed", failed},
                     {"suppressed", suppressed},
                     {"baselined", baselined},
                     {"hidden", hidden},
                     {"by_severity",
                      {{"error", report.count(Severity::Error)},
                       {"warning", report.count(Severity::Warning)},
                       {"info", report.count(Severity::Info)}}},
                     {"by_rule", by_rule}};
  const RunInfo& run = report.run;
  nlohmann::json tables = nlohmann::json::object();
  for (const auto& [name, version] : run.tables) tables[name] = version;
  auto or_null = [](const std::string& s) {
    return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
  };
  root["run"] = {{"targets", run.targets},
                 {"required_targets", required_texts(run.required_targets)},
                 {"fail_on", run.fail_on ? std::string(severity_name(*run.fail_on)) : "never"},
                 {"config_file", or_null(run.config_file)},
                 {"baseline_file", or_null(run.baseline_file)},
                 {"hash", linter.options().hash},
                 {"tables", std::move(tables)}};
  nlohmann::json rules = nlohmann::json::array();
  // The enabled rules, plus any rule with a finding that the selection did not enable (an
  // unreadable model is always reported; per-file overrides enable others).
  std::set<std::string> ids;
  for (const std::string& id : linter.enabled_rules()) ids.insert(id);
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) ids.insert(d.rule_id);
  }
  for (const std::string& id : ids) {
    const RuleRegistry::Entry* e = linter.registry().find(id);
    if (e == nullptr) continue;
    const RuleInfo& info = *e->info;
    rules.push_back({{"id", info.id},
                     {"category", info.category},
                     {"severity", severity_name(linter.severity_of(info))},
                     {"summary", info.summary}});
  }
  root["rules"] = std::move(rules);
  return root;
}

}  // namespace

nlohmann::json report_json(const Report& report, const Linter& linter) {
  nlohmann::json root = report_head(report, linter);
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  nlohmann::json files = nlohmann::json::array();
  for (const FileReport& f : report.files) files.push_back(file_json(f, required));
  root["files"] = std::move(files);
  return root;
}

void emit_json(const Report& report, const Linter& linter, std::ostream& out) {
  // Written file by file, byte for byte what dump(report_json(...)) gives: only one file's
  // document is in memory at a time, not the whole report's. Keys are sorted ("files" first).
  using namespace json_stream;
  const nlohmann::json head = report_head(report, linter);
  const std::vector<TargetRequirement>& required = report.run.required_targets;
  out << "{\n  \"files\": [";
  for (size_t i = 0; i < report.files.size(); ++i) {
    out << (i == 0 ? "\n    " : ",\n    ");
    write_indented(out, dump(file_json(report.files[i], required)), 4);
  }
  out << (report.files.empty() ? "]" : "\n  ]");
  for (const auto& [key, value] : head.items()) {
    out << ",\n";
    write_member(out, key, value, 2);
  }
  out << "\n}\n";
}

namespace {

// A rule as --list-rules --format json and --explain --format json describe it.
nlohmann::json rule_info_json(const RuleInfo& info) {
  nlohmann::json opts = nlohmann::json::array();
  for (const OptionInfo& o : info.options) {
    opts.push_back({{"name", o.name},
                    {"type", option_type_name(o.type())},
                    {"default", option_value_text(o.default_value)},
                    {"description", o.description}});
  }
  return {{"id", info.id},
          {"category", info.category},
          {"severity", severity_name(info.severity)},
          {"summary", info.summary},
          {"node_ops", info.node_ops},
          {"fixable", info.fixable},
          {"options", opts},
          {"doc", "docs/rules/" + info.id + ".md"}};
}

}  // namespace

void emit_rule_doc_json(const RuleInfo& info, std::ostream& out) {
  nlohmann::json doc = {{"schema_version", kJsonSchemaVersion},
                        {"rule", rule_info_json(info)},
                        {"documentation", std::string(RuleRegistry::documentation(info.id))}};
  out << doc.dump(2) << "\n";
}

void emit_rule_list(const RuleRegistry& registry, bool json, std::ostream& out) {
  if (json) {
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& e : registry.entries()) rules.push_back(rule_info_json(*e.info));
    out << nlohmann::json{{"schema_version", kJsonSchemaVersion}, {"rules", rules}}.dump(2) << "\n";
    return;
  }
  size_t width = 0;
  for (const auto& e : registry.entries()) width = std::max(width, e.info->id.size());
  for (const auto& e : registry.entries()) {
    const RuleInfo& info = *e.info;
    out << info.id << std::string(width + 2 - info.id.size(), ' ')
        << std::string(severity_name(info.severity))
        << std::string(9 - severity_name(info.severity).size(), ' ') << info.summary
        << (info.fixable ? " (fix: --fix)" : "") << "\n";
  }
}

}  // namespace onnxlint
