// Target verdicts (include/onnxlint/verdicts.h): the one reader and writer of the "targets"
// report section outside the rule that computes it.
#include <fmt/format.h>
#include <onnxlint/registry.h>
#include <onnxlint/report_section.h>
#include <onnxlint/verdicts.h>

#include <algorithm>

namespace onnxlint {

namespace {

constexpr std::string_view kSection = "targets";
// Load errors recorded per verdict (the count says how many there are in all).
constexpr size_t kLoadErrorsKept = 3;

uint64_t u64(const nlohmann::json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_unsigned() ? it->get<uint64_t>()
         : it != o.end() && it->is_number_integer() && it->get<int64_t>() >= 0
             ? static_cast<uint64_t>(it->get<int64_t>())
             : 0;
}
std::string str(const nlohmann::json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}
bool flag(const nlohmann::json& o, const char* key, bool fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// A commit hash shortened to 12 digits (as git does); other versions as they are.
std::string_view short_version(std::string_view v) {
  const bool hash =
      v.size() == 40 && v.find_first_not_of("0123456789abcdef") == std::string_view::npos;
  return hash ? v.substr(0, 12) : v;
}

ReportSection* section_of(FileReport& f) {
  for (ReportSection& s : f.sections) {
    if (s.name == kSection && s.data.is_array()) return &s;
  }
  return nullptr;
}

}  // namespace

std::string_view support_name(Support s) {
  switch (s) {
    case Support::Full:
      return "ok";
    case Support::Partial:
      return "partial";
    case Support::Unsupported:
      break;
  }
  return "unsupported";
}

std::optional<Support> parse_support(std::string_view s) {
  if (s == "ok" || s == "full") return Support::Full;
  if (s == "partial") return Support::Partial;
  if (s == "unsupported") return Support::Unsupported;
  return std::nullopt;
}

std::vector<TargetVerdict> target_verdicts(const FileReport& file) {
  std::vector<TargetVerdict> out;
  for (const ReportSection& s : file.sections) {
    if (s.name != kSection || !s.data.is_array()) continue;
    for (const nlohmann::json& t : s.data) {
      if (!t.is_object()) continue;
      TargetVerdict v;
      v.target = str(t, "target");
      v.name = str(t, "name");
      v.support = parse_support(str(t, "verdict")).value_or(Support::Unsupported);
      v.nodes = u64(t, "nodes");
      v.supported_nodes = u64(t, "supported_nodes");
      v.unsupported_nodes = u64(t, "unsupported_nodes");
      v.folded_nodes = u64(t, "folded_nodes");
      v.expanded_nodes = u64(t, "expanded_nodes");
      v.dynamic_shape_nodes = u64(t, "dynamic_shape_nodes");
      v.unsupported_type_nodes = u64(t, "unsupported_type_nodes");
      v.restriction_nodes = u64(t, "restriction_nodes");
      v.partitions = u64(t, "partitions");
      if (auto ops = t.find("unsupported_ops"); ops != t.end() && ops->is_array()) {
        for (const nlohmann::json& op : *ops) {
          if (op.is_object()) v.unsupported_ops.emplace_back(str(op, "op"), u64(op, "count"));
        }
      }
      v.opset_supported = flag(t, "opset_supported", true);
      v.ir_version_supported = flag(t, "ir_version_supported", true);
      v.cpu_fallback = flag(t, "cpu_fallback", false);
      if (auto le = t.find("load_errors"); le != t.end() && le->is_array()) {
        for (const nlohmann::json& e : *le) {
          if (e.is_object()) v.load_errors.emplace_back(str(e, "rule"), str(e, "message"));
        }
      }
      v.load_error_count = std::max<uint64_t>(u64(t, "load_error_count"), v.load_errors.size());
      if (auto src = t.find("source"); src != t.end() && src->is_object()) {
        v.source_repo = str(*src, "repo");
        v.source_path = str(*src, "path");
        v.source_version = str(*src, "version");
      }
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::string verdict_reason(const TargetVerdict& v) {
  if (v.support == Support::Full) return "";
  std::vector<std::string> parts;
  if (v.load_error_count > 0 && !v.load_errors.empty()) {
    parts.push_back(fmt::format("the runtime rejects the model at load: {}: {}",
                                v.load_errors.front().first, v.load_errors.front().second));
  }
  if (!v.opset_supported) parts.emplace_back("the model's opset is outside what it accepts");
  if (!v.ir_version_supported) {
    parts.emplace_back("the model's IR version is newer than it accepts");
  }
  if (v.unsupported_nodes > 0 && v.opset_supported) {
    // What makes the nodes unsupported, each node counted under its first cause.
    std::vector<std::string> causes;
    for (const auto& [op, n] : v.unsupported_ops) causes.push_back(fmt::format("{} x{}", op, n));
    if (v.dynamic_shape_nodes > 0) {
      causes.push_back(fmt::format("{} with dynamic input shapes", v.dynamic_shape_nodes));
    }
    if (v.unsupported_type_nodes > 0) {
      causes.push_back(fmt::format("{} with unsupported element types", v.unsupported_type_nodes));
    }
    if (v.restriction_nodes > 0) {
      causes.push_back(fmt::format("{} breaking a restriction", v.restriction_nodes));
    }
    std::string s = fmt::format("{} of {} nodes unsupported", v.unsupported_nodes,
                                v.supported_nodes + v.unsupported_nodes);
    if (!causes.empty()) s += fmt::format(": {}", fmt::join(causes, ", "));
    parts.push_back(std::move(s));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string verdict_line(const TargetVerdict& v) {
  std::string s = fmt::format("{} ({}): {}: {}/{} nodes supported, {} supported partition{}",
                              v.target, v.name, support_name(v.support), v.supported_nodes,
                              v.supported_nodes + v.unsupported_nodes, v.partitions,
                              v.partitions == 1 ? "" : "s");
  if (v.folded_nodes != 0 && v.expanded_nodes != 0) {
    s += fmt::format(" ({} folded into initializers, {} expanded into function bodies)",
                     v.folded_nodes, v.expanded_nodes);
  } else if (v.folded_nodes != 0) {
    s += fmt::format(" ({} folded into initializers)", v.folded_nodes);
  } else if (v.expanded_nodes != 0) {
    s += fmt::format(" ({} expanded into function bodies)", v.expanded_nodes);
  }
  // Unsupported ops are named only when the nodes themselves are the reason: with the model's
  // opset out of range every node fails for that one cause, which the line says instead.
  if (!v.unsupported_ops.empty() && v.opset_supported) {
    // A line, not a table: the first ops by name, the rest counted (JSON lists every op).
    constexpr size_t kOpsShown = 10;
    s += "; unsupported:";
    for (size_t i = 0; i < v.unsupported_ops.size() && i < kOpsShown; ++i) {
      const auto& [op, count] = v.unsupported_ops[i];
      s += fmt::format("{} {} x{}", i == 0 ? "" : ",", op, count);
    }
    if (v.unsupported_ops.size() > kOpsShown) {
      s += fmt::format(" and {} more ops", v.unsupported_ops.size() - kOpsShown);
    }
  }
  auto nodes = [](uint64_t n) { return fmt::format("{} node{}", n, n == 1 ? "" : "s"); };
  if (v.dynamic_shape_nodes != 0) {
    s += fmt::format("; {} with dynamic input shapes", nodes(v.dynamic_shape_nodes));
  }
  if (v.unsupported_type_nodes != 0) {
    s += fmt::format("; {} with unsupported element types", nodes(v.unsupported_type_nodes));
  }
  if (v.restriction_nodes != 0) {
    s += fmt::format("; {} breaking a documented restriction", nodes(v.restriction_nodes));
  }
  if (!v.opset_supported) s += "; the model's opset is outside what it accepts";
  if (!v.ir_version_supported) s += "; the model's IR version is newer than it accepts";
  if (v.unsupported_nodes != 0 && v.supported_nodes != 0 && v.cpu_fallback) {
    s += "; unsupported nodes fall back to the CPU";
  }
  if (v.load_error_count > 0) {
    s += fmt::format(
        "; the runtime rejects the model at load ({} error{}: {})", v.load_error_count,
        v.load_error_count == 1 ? "" : "s",
        v.load_errors.empty() ? std::string("see the findings") : v.load_errors.front().first);
  }
  return s;
}

std::string table_source_line(const TargetVerdict& v) {
  return fmt::format("{} support table: {} {} @ {}", v.target, v.source_repo, v.source_path,
                     short_version(v.source_version));
}

void apply_load_errors(FileReport& file, const RuleRegistry& registry) {
  ReportSection* section = section_of(file);
  if (section == nullptr) return;
  nlohmann::json errors = nlohmann::json::array();
  uint64_t count = 0;
  for (const Diagnostic& d : file.diagnostics) {
    const RuleRegistry::Entry* e = registry.find(d.rule_id);
    if (e == nullptr || !e->info->rejected_at_load) continue;
    ++count;
    if (errors.size() < kLoadErrorsKept) {
      errors.push_back({{"rule", d.rule_id}, {"message", d.message}});
    }
  }
  for (nlohmann::json& t : section->data) {
    if (!t.is_object()) continue;
    t["load_errors"] = errors;
    t["load_error_count"] = count;
    if (count > 0) t["verdict"] = std::string(support_name(Support::Unsupported));
  }
}

std::vector<std::string> unmet_requirements(const FileReport& file,
                                            const std::vector<TargetRequirement>& requirements) {
  std::vector<std::string> out;
  if (requirements.empty() || file.status != FileReport::Status::Ok) return out;
  for (const TargetVerdict& v : target_verdicts(file)) {
    // The most demanding requirement that names this target (or every target).
    std::optional<Support> need;
    for (const TargetRequirement& r : requirements) {
      if (!r.target.empty() && r.target != v.target) continue;
      need = std::max(need.value_or(r.level), r.level);
    }
    if (!need || v.support >= *need) continue;
    const std::string why = verdict_reason(v);
    out.push_back(fmt::format("{}: {}, required {}{}", v.target, support_name(v.support),
                              *need == Support::Full ? "full" : "partial",
                              why.empty() ? "" : " (" + why + ")"));
  }
  return out;
}

int decide_verdicts(Report& report, std::optional<Severity> fail_on,
                    const std::vector<TargetRequirement>& requirements) {
  const int code = decide_verdicts(report, fail_on);
  report.run.required_targets = requirements;
  if (requirements.empty()) return code;
  bool unmet = false;
  for (FileReport& f : report.files) {
    if (!unmet_requirements(f, requirements).empty()) {
      f.failed = true;
      unmet = true;
    }
  }
  return code == 0 && unmet ? 1 : code;
}

std::string requirement_text(const TargetRequirement& r) {
  const std::string_view level = r.level == Support::Full ? "full" : "partial";
  return r.target.empty() ? std::string(level) : fmt::format("{}={}", r.target, level);
}

TargetRequirement parse_target_requirement(
    std::string_view text,
    const std::function<std::optional<std::string>(std::string_view)>& resolve) {
  TargetRequirement r;
  std::string_view level = text;
  if (auto eq = text.find('='); eq != std::string_view::npos) {
    const std::string_view target = text.substr(0, eq);
    level = text.substr(eq + 1);
    auto canonical = resolve ? resolve(target) : std::optional<std::string>(std::string(target));
    if (!canonical) {
      throw ConfigError(fmt::format("--require-target {}: unknown target '{}' (see --list-targets)",
                                    text, target));
    }
    r.target = *canonical;
  }
  auto s = parse_support(level);
  if (!s || *s == Support::Unsupported) {
    throw ConfigError(fmt::format(
        "--require-target {}: expected LEVEL or TARGET=LEVEL with LEVEL full or partial", text));
  }
  r.level = *s;
  return r;
}

}  // namespace onnxlint
