#include <fmt/format.h>
#include <onnxlint/report_section.h>
#include <onnxlint/rule.h>

#include <algorithm>
#include <stdexcept>

#include "config/text_util.h"
#include "driver/lint_run.h"

namespace onnxlint {

std::string_view option_type_name(OptionType type) {
  switch (type) {
    case OptionType::Bool:
      return "bool";
    case OptionType::Int:
      return "int";
    case OptionType::Float:
      return "float";
    case OptionType::String:
      return "string";
    case OptionType::Strings:
      return "strings";
  }
  return "unknown";
}

std::string option_value_text(const OptionValue& value) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int64_t i) const { return fmt::format("{}", i); }
    std::string operator()(double d) const {
      std::string s = fmt::format("{}", d);
      if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a TOML float
      return s;
    }
    std::string operator()(const std::string& s) const { return toml_string(s); }
    std::string operator()(const std::vector<std::string>& list) const {
      std::vector<std::string> items;
      for (const std::string& s : list) items.push_back(toml_string(s));
      return fmt::format("[{}]", fmt::join(items, ", "));
    }
  };
  return std::visit(Visitor{}, value);
}

const OptionValue& RuleOptionsView::value(std::string_view name, OptionType type) const {
  auto decl = std::find_if(info_.options.begin(), info_.options.end(),
                           [&](const OptionInfo& o) { return o.name == name; });
  if (decl == info_.options.end()) {
    throw std::logic_error(fmt::format(
        "rule '{}' reads option '{}', which its RuleInfo does not declare", info_.id, name));
  }
  if (decl->type() != type) {
    throw std::logic_error(fmt::format("rule '{}' reads option '{}' as {}, declared as {}",
                                       info_.id, name, option_type_name(type),
                                       option_type_name(decl->type())));
  }
  auto it = configured_.find(name);
  if (it == configured_.end()) return decl->default_value;
  if (it->second.index() != decl->default_value.index()) {
    throw std::logic_error(fmt::format("option '{}' of rule '{}' has not been checked: {}", name,
                                       info_.id, option_value_text(it->second)));
  }
  return it->second;
}

RuleContext::RuleContext(DriverKey /*key*/, LintRun& run, const RuleInfo& rule, Severity severity)
    : model_(run.model),
      cache_(run.cache),
      rule_(rule),
      targets_(run.targets),
      severity_(severity),
      run_(run) {}

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
  Diagnostic& d = run_.diagnostics.emplace_back();
  d.rule_id = rule_.id;
  d.severity = effective;
  d.location = std::move(location);
  d.message = std::move(message);
  return d;
}

void RuleContext::count_past_cap() {
  if (!at_cap()) throw std::logic_error("count_past_cap() before the rule reached its cap");
  if (dropped_++ == 0 || severity_ > dropped_severity_) dropped_severity_ = severity_;
}

FixBuilder RuleContext::fix(Diagnostic& d, FixSafety safety, std::string description) {
  // The finding past the cap is never emitted: neither is its fix.
  if (!rule_.fixable) {
    throw std::logic_error(fmt::format(
        "rule '{}' states a fix but its RuleInfo does not declare `fixable`", rule_.id));
  }
  if (&d == &overflow_ || safety == FixSafety::None) return FixBuilder(model_, nullptr);
  d.fix = safety;
  d.fix_description = description;
  if (!run_.collect_fixes) return FixBuilder(model_, nullptr);
  Fix& f = run_.fixes.emplace_back(&d, Fix{}).second;
  f.safety = safety;
  f.description = std::move(description);
  return FixBuilder(model_, &f);
}

void RuleContext::add_section(ReportSection section) {
  run_.sections.push_back(std::move(section));
}

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
