#include <onnxlint/report_section.h>
#include <onnxlint/rule.h>

namespace onnxlint {

RuleContext::RuleContext(DriverKey /*key*/, const Model& model, AnalysisCache& cache,
                         const RuleInfo& rule, const RuleOptions& options,
                         std::span<const std::string> targets, Severity severity,
                         std::deque<Diagnostic>& sink, std::vector<ReportSection>& sections)
    : model_(model),
      cache_(cache),
      rule_(rule),
      options_(options),
      targets_(targets),
      severity_(severity),
      sink_(sink),
      sections_(sections) {}

int64_t RuleContext::option_int(std::string_view name, int64_t fallback) const {
  auto it = options_.find(name);
  if (it == options_.end()) return fallback;
  if (auto* v = std::get_if<int64_t>(&it->second)) return *v;
  return fallback;
}

bool RuleContext::option_bool(std::string_view name, bool fallback) const {
  auto it = options_.find(name);
  if (it == options_.end()) return fallback;
  if (auto* v = std::get_if<bool>(&it->second)) return *v;
  return fallback;
}

std::string RuleContext::option_string(std::string_view name, std::string fallback) const {
  auto it = options_.find(name);
  if (it == options_.end()) return fallback;
  if (auto* v = std::get_if<std::string>(&it->second)) return *v;
  return fallback;
}

std::vector<std::string> RuleContext::option_strings(std::string_view name) const {
  auto it = options_.find(name);
  if (it == options_.end()) return {};
  if (auto* v = std::get_if<std::vector<std::string>>(&it->second)) return *v;
  if (auto* v = std::get_if<std::string>(&it->second)) return {*v};
  return {};
}

Diagnostic& RuleContext::report(Location location, std::string message) {
  return report(severity_, std::move(location), std::move(message));
}

Diagnostic& RuleContext::report(Severity severity, Location location, std::string message) {
  // A rule reporting an explicit severity still honours a user override of its default.
  Severity effective = severity_ == rule_.severity ? severity : severity_;
  if (kept_ >= kMaxFindingsPerModel) {
    if (dropped_++ == 0 || effective > dropped_severity_) dropped_severity_ = effective;
    overflow_ = Diagnostic{};
    return overflow_;
  }
  ++kept_;
  Diagnostic& d = sink_.emplace_back();
  d.rule_id = rule_.id;
  d.severity = effective;
  d.location = std::move(location);
  d.message = std::move(message);
  return d;
}

void RuleContext::add_section(ReportSection section) { sections_.push_back(std::move(section)); }

Location RuleContext::at_model() const {
  Location l;
  l.file = model_.path();
  return l;
}

Location RuleContext::at_graph(const Graph& g) const {
  Location l = at_model();
  l.graph_path = g.path();
  return l;
}

Location RuleContext::at_node(const Node& n) const {
  Location l = at_graph(*n.graph());
  l.node_index = n.index();
  l.node_name = n.display_name();
  l.op_type = std::string(n.op_type());
  l.domain = std::string(n.domain());
  return l;
}

Location RuleContext::at_value(const Graph& g, std::string_view value) const {
  Location l = at_graph(g);
  l.value_name = std::string(value);
  return l;
}

Location RuleContext::at_node_value(const Node& n, std::string_view value) const {
  Location l = at_node(n);
  l.value_name = std::string(value);
  return l;
}

}  // namespace onnxlint
