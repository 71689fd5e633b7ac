#include "emit/echo_cap.h"

#include <onnxlint/escape.h>

#include <nlohmann/json.hpp>

namespace onnxlint {

namespace {

void cap(Location& l) {
  // Not the file: a path given on the command line or found in a folder, bounded by PATH_MAX.
  for (std::string* s :
       {&l.graph_path, &l.node_name, &l.op_type, &l.domain, &l.value_name, &l.attribute}) {
    cap_in_place(*s);
  }
}

void cap(std::optional<std::vector<DimSummary>>& dims) {
  if (!dims) return;
  for (DimSummary& d : *dims) cap_in_place(d.text);
}

// Iterative (a section's nesting is the rule's, but a stack costs nothing here).
void cap_json(nlohmann::json& root) {
  std::vector<nlohmann::json*> pending{&root};
  while (!pending.empty()) {
    nlohmann::json* j = pending.back();
    pending.pop_back();
    if (j->is_string()) {
      cap_in_place(j->get_ref<std::string&>());
    } else if (j->is_array()) {
      for (nlohmann::json& el : *j) pending.push_back(&el);
    } else if (j->is_object()) {
      // Keys come from the model too (op types, dim names); renamed only when too long.
      std::vector<std::string> long_keys;
      for (auto it = j->begin(); it != j->end(); ++it) {
        if (it.key().size() > kMaxEchoBytes) long_keys.push_back(it.key());
      }
      for (const std::string& k : long_keys) {
        nlohmann::json value = std::move((*j)[k]);
        j->erase(k);
        (*j)[capped(k)] = std::move(value);
      }
      for (auto it = j->begin(); it != j->end(); ++it) pending.push_back(&it.value());
    }
  }
}

}  // namespace

void cap_echoes(Diagnostic& d) {
  cap_in_place(d.message);
  for (std::string& n : d.notes) cap_in_place(n);
  cap_in_place(d.help);
  cap_in_place(d.key);
  cap_in_place(d.fix_description);
  cap(d.location);
  for (RelatedLocation& r : d.related) {
    cap(r.location);
    cap_in_place(r.message);
  }
}

void cap_echoes(ReportSection& section) {
  for (std::string& line : section.text) cap_in_place(line);
  cap_json(section.data);
}

void cap_echoes(ModelSummary& s) {
  cap_in_place(s.producer_name);
  cap_in_place(s.producer_version);
  cap_in_place(s.graph_name);
  for (auto& [domain, version] : s.opset_imports) cap_in_place(domain);
  for (auto& [key, value] : s.metadata_props) {
    cap_in_place(key);
    cap_in_place(value);
  }
  for (auto* list : {&s.inputs, &s.outputs}) {
    for (ValueSignature& v : *list) {
      cap_in_place(v.name);
      cap(v.dims);
      cap(v.analysis);
    }
  }
  // Op types and domains are map keys: rebuilt only when one is too long.
  bool long_key = false;
  for (const auto& [domain, ops] : s.ops) {
    long_key = long_key || domain.size() > kMaxEchoBytes;
    for (const auto& [op, n] : ops) long_key = long_key || op.size() > kMaxEchoBytes;
  }
  if (long_key) {
    std::map<std::string, std::map<std::string, uint64_t>> ops;
    for (auto& [domain, by_op] : s.ops) {
      for (auto& [op, n] : by_op) ops[capped(domain)][capped(op)] += n;
    }
    s.ops = std::move(ops);
  }
  for (ExternalFile& f : s.external_data) cap_in_place(f.location);
}

}  // namespace onnxlint
