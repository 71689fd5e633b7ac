// fold_restatements(): a finding that says again, in a target's terms or for another target,
// what another finding at the same place says becomes part of that finding. Documented in
// docs/library.md ("Findings that restate another") and docs/output-formats.md.
#include <fmt/format.h>
#include <onnxlint/diagnostic.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

namespace onnxlint {

namespace {

// The place of a finding: its file, graph and node, or its file, graph and value. Separated by
// a byte names cannot hold.
std::string site_key(const std::string& rule, const Location& l) {
  constexpr char kSep = '\x1f';
  std::string k;
  k.reserve(rule.size() + l.file.size() + l.graph_path.size() + l.value_name.size() + 24);
  k += rule;
  k += kSep;
  k += l.file;
  k += kSep;
  k += l.graph_path;
  k += kSep;
  if (l.node_index) {
    k += 'n';
    k += std::to_string(*l.node_index);
  } else {
    k += 'v';
    k += l.value_name;
  }
  return k;
}

bool is_target_rule(const std::string& rule) { return rule.starts_with("target-"); }

void fold_into(Diagnostic& primary, Diagnostic&& d) {
  primary.notes.push_back(
      d.target.empty()
          ? fmt::format("also {}: {} [{}]", severity_name(d.severity), d.message, d.rule_id)
          : fmt::format("also [{}] {}: {} [{}]", d.target, severity_name(d.severity), d.message,
                        d.rule_id));
  primary.severity = std::max(primary.severity, d.severity);
  primary.also.push_back(
      {std::move(d.rule_id), std::move(d.target), d.severity, std::move(d.message)});
}

}  // namespace

void fold_restatements(std::vector<Diagnostic>& diags) {
  bool any = false;
  for (const Diagnostic& d : diags) any = any || !d.restates.empty();
  if (!any) return;

  // The findings that can take others: every finding that restates nothing, and of the
  // findings that restate their own rule, the most severe at each site (the first of equals).
  // A finding folded into another takes none itself, so no chain forms.
  std::unordered_map<std::string, std::vector<size_t>> primaries;  // rule + site -> indices
  std::unordered_map<std::string, size_t> leader;                  // rule + site -> index
  for (size_t i = 0; i < diags.size(); ++i) {
    const Diagnostic& d = diags[i];
    if (d.restates.empty()) {
      primaries[site_key(d.rule_id, d.location)].push_back(i);
    } else if (d.restates == d.rule_id) {
      auto [it, fresh] = leader.try_emplace(site_key(d.rule_id, d.location), i);
      if (!fresh && diags[it->second].severity < d.severity) it->second = i;
    }
  }
  for (const auto& [key, i] : leader) primaries[key].push_back(i);

  std::vector<bool> folded(diags.size(), false);
  for (size_t i = 0; i < diags.size(); ++i) {
    Diagnostic& d = diags[i];
    if (d.restates.empty()) continue;
    auto it = primaries.find(site_key(d.restates, d.location));
    if (it == primaries.end()) continue;
    // A target rule's finding restates the same target's finding; a finding of a rule without
    // targets stands for every target.
    const bool same_target = is_target_rule(d.restates) && d.restates != d.rule_id;
    for (size_t p : it->second) {
      if (p == i || folded[p]) continue;
      if (same_target && diags[p].target != d.target) continue;
      fold_into(diags[p], std::move(d));
      folded[i] = true;
      break;
    }
  }
  size_t kept = 0;
  for (size_t i = 0; i < diags.size(); ++i) {
    if (folded[i]) continue;
    if (kept != i) diags[kept] = std::move(diags[i]);
    ++kept;
  }
  diags.resize(kept);
}

}  // namespace onnxlint
