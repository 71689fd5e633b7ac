// SARIF 2.1.0 for code-scanning services (GitHub code scanning, Azure DevOps, SARIF viewers).
// Rules come from the registry with their documentation; each result carries the model file as
// its artifact and the graph path / node as a logical location (ONNX has no lines). Documented
// in docs/output-formats.md.
#include <fmt/format.h>
#include <onnxlint/report.h>
#include <onnxlint/version.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#ifndef ONNXLINT_DOCS_URL
#define ONNXLINT_DOCS_URL ""
#endif

#include "emit/json_stream.h"

namespace onnxlint {

namespace {

using nlohmann::json;

std::string_view sarif_level(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Info:
      return "note";
  }
  return "warning";
}

// Percent-encodes everything but RFC 3986 unreserved characters and '/'.
std::string uri_escape(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.' || c == '~' || c == '/';
    out += plain ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return out;
}

// A relative path stays a relative reference (code scanning resolves it against the repository
// root); an absolute path becomes a file:// URI.
std::string artifact_uri(std::string_view file) {
  if (file == "-") return "stdin";
  std::filesystem::path p = std::filesystem::path(file).lexically_normal();
  if (p.is_absolute()) return "file://" + uri_escape(p.generic_string());
  std::string s = p.generic_string();
  return uri_escape(s.empty() ? std::string(file) : s);
}

// The paragraph under "## What it flags", or "" when the page has none.
std::string what_it_flags(std::string_view doc) {
  size_t at = doc.find("\n## What it flags");
  if (at == std::string_view::npos) return "";
  at = doc.find('\n', at + 1);
  if (at == std::string_view::npos) return "";
  std::string out;
  for (size_t pos = at + 1; pos < doc.size();) {
    size_t end = doc.find('\n', pos);
    std::string_view line = doc.substr(pos, end == std::string_view::npos ? doc.npos : end - pos);
    pos = end == std::string_view::npos ? doc.size() : end + 1;
    if (line.starts_with("#")) break;
    if (line.find_first_not_of(" \t") == std::string_view::npos) {
      if (!out.empty()) break;
      continue;
    }
    if (!out.empty()) out += ' ';
    out += line;
  }
  return out;
}

json rule_json(const RuleInfo& info, Severity severity) {
  json r;
  r["id"] = info.id;
  r["name"] = info.id;
  r["shortDescription"] = {{"text", info.summary}};
  std::string_view doc = RuleRegistry::documentation(info.id);
  std::string full = what_it_flags(doc);
  r["fullDescription"] = {{"text", full.empty() ? info.summary : full}};
  if (doc.empty()) {
    r["help"] = {{"text", info.summary}};
  } else {
    r["help"] = {{"text", std::string(doc)}, {"markdown", std::string(doc)}};
  }
  const std::string_view base = ONNXLINT_DOCS_URL;
  if (!base.empty()) r["helpUri"] = fmt::format("{}{}.md", base, info.id);
  r["defaultConfiguration"] = {{"level", sarif_level(severity)}};
  r["properties"] = {{"category", info.category}, {"tags", {"onnx", info.category}}};
  if (info.fixable) r["properties"]["fixable"] = true;
  return r;
}

json logical_location(const Location& l) {
  json loc;
  json props = json::object();
  if (!l.graph_path.empty()) props["graph"] = l.graph_path;
  if (l.node_index) {
    loc["name"] = l.node_name;
    loc["kind"] = "function";  // a node applies an operator, the closest SARIF kind
    props["nodeIndex"] = *l.node_index;
    if (!l.op_type.empty()) props["opType"] = l.op_type;
    if (!l.domain.empty()) props["domain"] = l.domain;
    if (!l.value_name.empty()) props["value"] = l.value_name;
  } else if (!l.value_name.empty()) {
    loc["name"] = l.value_name;
    loc["kind"] = "variable";
  } else if (!l.graph_path.empty()) {
    loc["name"] = l.graph_path;
    loc["kind"] = "module";
  } else {
    return nullptr;  // the whole model: the artifact says it all
  }
  if (!l.attribute.empty()) props["attribute"] = l.attribute;
  loc["fullyQualifiedName"] = l.anchor();
  if (!props.empty()) loc["properties"] = std::move(props);
  return loc;
}

json result_json(const Diagnostic& d, size_t rule_index) {
  json r;
  r["ruleId"] = d.rule_id;
  r["ruleIndex"] = rule_index;
  r["level"] = sarif_level(d.severity);
  std::string text = d.target.empty() ? d.message : fmt::format("[{}] {}", d.target, d.message);
  for (const std::string& n : d.notes) text += "\nnote: " + n;
  if (!d.help.empty()) text += "\nhelp: " + d.help;
  r["message"] = {{"text", text}};

  json location;
  // Code scanning needs a line to place an alert; ONNX files have none, so results anchor at
  // the start of the file and the real place is the logical location.
  location["physicalLocation"] = {{"artifactLocation", {{"uri", artifact_uri(d.location.file)}}},
                                  {"region", {{"startLine", 1}}}};
  if (json logical = logical_location(d.location); !logical.is_null()) {
    location["logicalLocations"] = json::array({std::move(logical)});
  }
  r["locations"] = json::array({std::move(location)});
  const size_t related_kept = std::min(d.related.size(), kSarifMaxRelatedLocations);
  if (!d.related.empty()) {
    json related = json::array();
    for (size_t i = 0; i < related_kept; ++i) {
      const RelatedLocation& rl = d.related[i];
      json loc;
      loc["id"] = i + 1;
      loc["physicalLocation"] = {{"artifactLocation", {{"uri", artifact_uri(rl.location.file)}}},
                                 {"region", {{"startLine", 1}}}};
      if (json logical = logical_location(rl.location); !logical.is_null()) {
        loc["logicalLocations"] = json::array({std::move(logical)});
      }
      if (!rl.message.empty()) loc["message"] = {{"text", rl.message}};
      related.push_back(std::move(loc));
    }
    r["relatedLocations"] = std::move(related);
  }
  // A finding of one cause repeated (Diagnostic::count): the other sites are its related
  // locations.
  if (d.count > 1) r["occurrenceCount"] = d.count;
  r["partialFingerprints"] = {{"onnxLint/v1", d.fingerprint()}};

  // A fix (docs/fixes.md): SARIF's replacements edit bytes, and a protobuf edit moves every
  // enclosing length, so the replacement only marks where the change is (an empty region at
  // the finding's byte offset); `onnx-lint --fix` makes the change.
  if (d.fix != FixSafety::None) {
    const uint64_t at = d.location.byte_offset.value_or(0);
    json change = {{"artifactLocation", {{"uri", artifact_uri(d.location.file)}}},
                   {"replacements",
                    json::array({{{"deletedRegion", {{"byteOffset", at}, {"byteLength", 0}}}}})}};
    r["fixes"] = json::array(
        {{{"description",
           {{"text",
             fmt::format("{} ({}: onnx-lint --fix{})", d.fix_description, fix_safety_name(d.fix),
                         d.fix == FixSafety::Unsafe ? " --unsafe-fixes" : "")}}},
          {"artifactChanges", json::array({std::move(change)})},
          {"properties", {{"safety", fix_safety_name(d.fix)}}}}});
  }

  json props = json::object();
  if (!d.target.empty()) props["target"] = d.target;
  if (!d.notes.empty()) props["notes"] = d.notes;
  if (!d.help.empty()) props["help"] = d.help;
  if (!d.also.empty()) props["also"] = also_json(d.also);
  if (d.location.byte_offset) props["byteOffset"] = *d.location.byte_offset;
  if (related_kept < d.related.size()) {
    props["relatedLocationsOmitted"] = d.related.size() - related_kept;
  }
  if (!props.empty()) r["properties"] = std::move(props);
  return r;
}

}  // namespace

namespace {

constexpr const char* kSarifSchema =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

json tool_json(json rules) {
  json driver = {{"name", "onnx-lint"},
                 {"version", kVersion},
                 {"semanticVersion", kVersion},
                 {"rules", std::move(rules)}};
  if (std::string_view base = ONNXLINT_DOCS_URL; !base.empty()) {
    driver["informationUri"] = std::string(base);
  }
  return {{"driver", std::move(driver)}};
}

// The run, built in the order the sorted document is written: `head` (invocations,
// properties), then each result through `on_result`, then the tool (whose rule list may grow
// while results are made). Shared by the streamed writer and the whole-document form.
// The results a run keeps when there are more than `max_results` (GitHub code scanning
// rejects a run of more than 25 000): the most severe, in report order. Null = all of them.
std::unique_ptr<std::vector<bool>> kept_results(const Report& report, size_t max_results) {
  std::vector<const Diagnostic*> all;
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) all.push_back(&d);
  }
  if (all.size() <= max_results) return nullptr;
  std::vector<size_t> order(all.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return all[a]->severity > all[b]->severity; });
  auto kept = std::make_unique<std::vector<bool>>(all.size(), false);
  for (size_t i = 0; i < max_results; ++i) (*kept)[order[i]] = true;
  return kept;
}

template <class OnResult>
void build_run(const Report& report, const Linter& linter, size_t max_results, json& head,
               OnResult&& on_result, json& tool) {
  // Rules: every enabled rule, plus any a per-file override enabled that produced a result.
  std::set<std::string> ids;
  for (const std::string& id : linter.enabled_rules()) ids.insert(id);
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) ids.insert(d.rule_id);
  }
  json rules = json::array();
  std::map<std::string, size_t, std::less<>> index;
  for (const std::string& id : ids) {
    const RuleRegistry::Entry* e = linter.registry().find(id);
    if (e == nullptr) continue;
    index[id] = rules.size();
    rules.push_back(rule_json(*e->info, linter.severity_of(*e->info)));
  }

  uint64_t suppressed = 0, baselined = 0;
  for (const FileReport& f : report.files) {
    suppressed += f.suppressed;
    baselined += f.baselined;
  }
  // A path that yielded no model is a tool execution notification, not a result: it is about
  // the run, not about a model.
  json invocation = {
      {"executionSuccessful", !report.has_internal_error() && !report.has_path_error()}};
  json notifications = json::array();
  for (const FileReport& f : report.files) {
    if (f.status != FileReport::Status::PathError) continue;
    notifications.push_back(
        {{"level", "error"},
         {"message", {{"text", fmt::format("{}: {}", f.path, f.error)}}},
         {"locations", json::array({{{"physicalLocation",
                                      {{"artifactLocation", {{"uri", artifact_uri(f.path)}}}}}}})},
         {"properties", {{"path", f.path}, {"reason", f.error}}}});
  }
  const std::unique_ptr<std::vector<bool>> kept = kept_results(report, max_results);
  const size_t omitted = kept ? std::count(kept->begin(), kept->end(), false) : 0;
  if (omitted > 0) {
    notifications.push_back(
        {{"level", "warning"},
         {"message",
          {{"text", fmt::format("{} of {} results left out: code scanning accepts at most {} "
                                "results per run; the most severe are kept (--format json "
                                "lists every finding)",
                                omitted, kept->size(), max_results)}}},
         {"properties", {{"resultsOmitted", omitted}}}});
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);
  head = {{"invocations", json::array({std::move(invocation)})},
          {"properties",
           {{"files", report.files_linted()},
            {"pathErrors", report.files.size() - report.files_linted()},
            {"suppressedInModel", suppressed},
            {"baselined", baselined}}}};
  if (omitted > 0) head["properties"]["resultsOmitted"] = omitted;
  on_result(json());  // the results start
  size_t at = 0;
  for (const FileReport& f : report.files) {
    for (const Diagnostic& d : f.diagnostics) {
      if (kept && !(*kept)[at++]) continue;
      auto it = index.find(d.rule_id);
      if (it == index.end()) {  // a rule unknown to the registry (should not happen)
        index[d.rule_id] = rules.size();
        rules.push_back({{"id", d.rule_id}});
        it = index.find(d.rule_id);
      }
      on_result(result_json(d, it->second));
    }
  }

  tool = tool_json(std::move(rules));
}

}  // namespace

json sarif_json(const Report& report, const Linter& linter, size_t max_results) {
  json run, tool;
  json results = json::array();
  build_run(
      report, linter, max_results, run,
      [&](json r) {
        if (!r.is_null()) results.push_back(std::move(r));
      },
      tool);
  run["results"] = std::move(results);
  run["tool"] = std::move(tool);
  return {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", json::array({std::move(run)})}};
}

json sarif_json(const Report& report, const Linter& linter) {
  return sarif_json(report, linter, kSarifMaxResults);
}

void emit_sarif(const Report& report, const Linter& linter, std::ostream& out, size_t max_results) {
  // Written result by result, byte for byte what dump(sarif_json(...)) gives (keys sorted:
  // "$schema", "runs", "version"; in the run "invocations", "properties", "results", "tool").
  using namespace json_stream;
  json head, tool;
  bool any = false;
  out << "{\n  \"$schema\": " << json(kSarifSchema).dump() << ",\n  \"runs\": [\n    {\n";
  build_run(
      report, linter, max_results, head,
      [&](const json& r) {
        if (r.is_null()) {  // the head is complete
          for (const auto& [key, value] : head.items()) {
            write_member(out, key, value, 6);
            out << ",\n";
          }
          out << "      \"results\": [";
          return;
        }
        out << (any ? ",\n        " : "\n        ");
        write_indented(out, dump(r), 8);
        any = true;
      },
      tool);
  out << (any ? "\n      ]" : "]") << ",\n";
  write_member(out, "tool", tool, 6);
  out << "\n    }\n  ],\n  \"version\": \"2.1.0\"\n}\n";
}

void emit_rule_list_sarif(const RuleRegistry& registry, std::ostream& out) {
  json rules = json::array();
  for (const auto& e : registry.entries()) rules.push_back(rule_json(*e.info, e.info->severity));
  json run = {{"results", json::array()}, {"tool", tool_json(std::move(rules))}};
  json log = {{"$schema", kSarifSchema}, {"version", "2.1.0"}, {"runs", json::array({run})}};
  out << log.dump(2) << "\n";
}

}  // namespace onnxlint
