// Lookups over the generated deployment-target tables (see include/onnxlint/targets.h and
// docs/targets.md).
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "onnxlint/opset_table.h"
#include "onnxlint/targets.h"

namespace onnxlint {
namespace detail {
// Defined in the generated target_tables_data.cc.
std::span<const TargetInfo> generated_targets();
}  // namespace detail

namespace {

// "Conv" for ai.onnx, "com.microsoft:FusedConv" otherwise (the spelling of the ORT docs).
std::string op_name(std::string_view domain, std::string_view op) {
  if (domain.empty()) return std::string(op);
  std::string s(domain);
  s += ':';
  s += op;
  return s;
}

std::string range_text(const VersionRange& r) {
  if (r.to == 0) return std::to_string(r.from) + "+";
  if (r.to == r.from) return std::to_string(r.from);
  return std::to_string(r.from) + "-" + std::to_string(r.to);
}

std::string ranges_text(std::span<const VersionRange> ranges) {
  std::string s;
  for (size_t i = 0; i < ranges.size(); ++i) {
    if (i != 0) s += (i + 1 == ranges.size()) ? " and " : ", ";
    s += range_text(ranges[i]);
  }
  return s;
}

bool in_ranges(std::span<const VersionRange> ranges, int v) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [v](const VersionRange& r) { return r.contains(v); });
}

int find_opset(std::span<const DomainOpset> bounds, std::string_view domain) {
  domain = normalize_domain(domain);
  for (const DomainOpset& b : bounds) {
    if (b.domain == domain) return b.opset;
  }
  return 0;
}

bool covers_domain(const TargetInfo& t, std::string_view domain) {
  return std::binary_search(t.covered_domains.begin(), t.covered_domains.end(), domain);
}

bool contains_type(std::span<const std::string_view> types, std::string_view type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

}  // namespace

std::span<const TargetInfo> all_targets() { return detail::generated_targets(); }

std::vector<std::pair<std::string, std::string>> table_versions(
    const std::vector<std::string>& targets) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("onnx", std::string(onnx_data_version()));
  for (const std::string& name : targets) {
    if (const TargetInfo* t = find_target(name)) {
      out.emplace_back(std::string(t->id), std::string(t->runtime_version));
    }
  }
  return out;
}

namespace {

const TargetInfo* find_unversioned(std::string_view id_or_alias) {
  for (const TargetInfo& t : all_targets()) {
    if (t.id == id_or_alias) return &t;
  }
  for (const TargetInfo& t : all_targets()) {
    if (contains_type(t.aliases, id_or_alias)) return &t;
  }
  return nullptr;
}

// Dotted release numbers compared number by number ("8.6" < "10.0" < "10.15").
bool older_release(std::string_view a, std::string_view b) {
  while (!a.empty() || !b.empty()) {
    auto take = [](std::string_view& s) {
      uint64_t n = 0;
      size_t i = 0;
      for (; i < s.size() && s[i] != '.'; ++i) n = n * 10 + static_cast<uint64_t>(s[i] - '0');
      s.remove_prefix(i < s.size() ? i + 1 : i);
      return n;
    };
    const uint64_t x = take(a);
    const uint64_t y = take(b);
    if (x != y) return x < y;
  }
  return false;
}

}  // namespace

std::vector<const TargetInfo*> target_versions(std::string_view family) {
  std::vector<const TargetInfo*> out;
  for (const TargetInfo& t : all_targets()) {
    if (t.family == family && !t.version.empty()) out.push_back(&t);
  }
  std::sort(out.begin(), out.end(), [](const TargetInfo* a, const TargetInfo* b) {
    return older_release(a->version, b->version);
  });
  return out;
}

const TargetInfo* find_target(std::string_view id_or_alias) {
  if (const TargetInfo* t = find_unversioned(id_or_alias)) return t;
  const size_t at = id_or_alias.find('@');
  if (at == std::string_view::npos) return nullptr;
  const TargetInfo* base = find_unversioned(id_or_alias.substr(0, at));
  const std::string_view version = id_or_alias.substr(at + 1);
  if (base == nullptr || version.empty()) return nullptr;
  // An exact release, else the newest release within the one named ("10" takes 10.x).
  const TargetInfo* best = nullptr;
  for (const TargetInfo* t : target_versions(base->family)) {
    if (t->version == version) return t;
    if (t->version.size() > version.size() && t->version.starts_with(version) &&
        t->version[version.size()] == '.') {
      best = t;  // oldest first, so the last match is the newest
    }
  }
  return best;
}

std::string target_names_for_help() {
  std::string s;
  for (const TargetInfo& t : all_targets()) {
    if (t.id != t.family) continue;  // a versioned table: listed with its family's versions
    if (!s.empty()) s += ", ";
    s += t.id;
    bool first = true;
    for (std::string_view a : t.aliases) {
      if (a == t.id) continue;
      s += first ? " (" : ", ";
      s += a;
      first = false;
    }
    const std::vector<const TargetInfo*> releases = target_versions(t.family);
    if (!releases.empty()) {
      s += first ? " (@" : "; @";
      for (size_t i = 0; i < releases.size(); ++i) {
        if (i != 0) s += '|';
        s += releases[i]->version;
      }
      first = false;
    }
    if (!first) s += ')';
  }
  return s;
}

const TargetOp* find_target_op(const TargetInfo& target, std::string_view domain,
                               std::string_view op) {
  const std::pair<std::string_view, std::string_view> key{normalize_domain(domain), op};
  auto less = [](const TargetOp& e, const std::pair<std::string_view, std::string_view>& k) {
    return std::pair<std::string_view, std::string_view>{e.domain, e.op} < k;
  };
  auto it = std::lower_bound(target.ops.begin(), target.ops.end(), key, less);
  if (it == target.ops.end() || it->domain != key.first || it->op != key.second) return nullptr;
  return &*it;
}

bool is_listed_unsupported(const TargetInfo& target, std::string_view domain, std::string_view op) {
  std::string key(normalize_domain(domain));
  key += "::";
  key += op;
  return std::binary_search(target.unsupported.begin(), target.unsupported.end(),
                            std::string_view(key));
}

int target_min_opset(const TargetInfo& target, std::string_view domain) {
  return find_opset(target.min_opset, domain);
}

int target_max_opset(const TargetInfo& target, std::string_view domain) {
  return find_opset(target.max_opset, domain);
}

std::string_view to_string(OpVerdict verdict) {
  switch (verdict) {
    case OpVerdict::Supported:
      return "supported";
    case OpVerdict::Unsupported:
      return "unsupported";
    case OpVerdict::ListedUnsupported:
      return "listed-unsupported";
    case OpVerdict::VersionOutOfRange:
      return "version-out-of-range";
    case OpVerdict::Unknown:
      return "unknown";
  }
  return "unknown";
}

OpCheck check_op(const TargetInfo& target, std::string_view domain, std::string_view op,
                 int since_version, int model_opset) {
  domain = normalize_domain(domain);
  const std::string name = op_name(domain, op);
  const std::string_view who = target.display_name;
  OpCheck r;

  if (target.ops.empty() && target.unsupported.empty()) {
    r.verdict = OpVerdict::Unknown;
    r.reason = std::string(who) + " has no operator data, so " + name + " cannot be checked.";
    return r;
  }

  // ONNX Runtime turns Constant nodes into initializers when it loads the model: no kernel needed.
  if (target.constant_folding && domain.empty() && op == "Constant") {
    r.verdict = OpVerdict::Supported;
    r.entry = find_target_op(target, domain, op);
    r.reason =
        std::string(who) + " turns Constant nodes into initializers when it loads the model.";
    return r;
  }

  if (is_listed_unsupported(target, domain, op)) {
    r.verdict = OpVerdict::ListedUnsupported;
    r.reason = std::string(who) + " lists " + name + " as not supported.";
    return r;
  }

  const TargetOp* entry = find_target_op(target, domain, op);
  r.entry = entry;
  if (entry == nullptr) {
    r.verdict = OpVerdict::Unsupported;
    if (covers_domain(target, domain)) {
      r.reason = std::string(who) + " does not support " + name;
      r.reason += target.cpu_fallback ? "; the node would fall back to the CPU."
                                      : " (it is not in its operator list).";
    } else if (is_standard_domain(domain)) {
      r.reason = std::string(who) + " supports no " + std::string(domain_display_name(domain)) +
                 " operators, so " + name + " is not supported" +
                 (target.cpu_fallback ? "; the node would fall back to the CPU." : ".");
    } else {
      r.custom_domain = true;
      r.reason = std::string(who) + " has no built-in operators in domain '" + std::string(domain) +
                 "'; " + name +
                 " needs a custom operator (plugin or extension) registered with the runtime.";
    }
    return r;
  }

  // The op's own version ranges.
  if (entry->versions_known) {
    if (target.semantics == VersionSemantics::OpSinceVersion && since_version > 0 &&
        !in_ranges(entry->versions, since_version)) {
      r.verdict = OpVerdict::VersionOutOfRange;
      r.reason = std::string(who) + " has " + name + " kernels only for since-version " +
                 ranges_text(entry->versions) + "; the model's " + name + " resolves to version " +
                 std::to_string(since_version) + ".";
      return r;
    }
    if (target.semantics == VersionSemantics::ModelOpset && model_opset > 0 &&
        !in_ranges(entry->versions, model_opset)) {
      r.verdict = OpVerdict::VersionOutOfRange;
      r.reason = std::string(who) + " supports " + name + " only for opset " +
                 ranges_text(entry->versions) + "; the model imports " +
                 std::string(domain_display_name(domain)) + " " + std::to_string(model_opset) + ".";
      return r;
    }
  }

  // Target-wide opset bounds for the domain.
  if (model_opset > 0) {
    const int lo = target_min_opset(target, domain);
    const int hi = target_max_opset(target, domain);
    if ((lo > 0 && model_opset < lo) || (hi > 0 && model_opset > hi)) {
      r.verdict = OpVerdict::VersionOutOfRange;
      std::string bounds;
      if (lo > 0 && hi > 0) {
        bounds = std::to_string(lo) + "-" + std::to_string(hi);
      } else if (lo > 0) {
        bounds = std::to_string(lo) + " and later";
      } else {
        bounds = "up to " + std::to_string(hi);
      }
      r.reason = std::string(who) + " accepts " + std::string(domain_display_name(domain)) +
                 " opsets " + bounds + "; the model imports " + std::to_string(model_opset) +
                 " (node " + name + ").";
      return r;
    }
  }

  r.verdict = OpVerdict::Supported;
  r.reason = std::string(who) + " supports " + name;
  if (model_opset > 0) r.reason += " at opset " + std::to_string(model_opset);
  if (entry->status == "partial") {
    r.reason += ", but only some attribute/shape patterns convert";
  } else if (target.semantics == VersionSemantics::ModelOpset && model_opset > 0 &&
             !entry->unregistered_newer_versions.empty()) {
    for (int v : entry->unregistered_newer_versions) {
      if (v <= model_opset) {
        r.reason += ", but its translator predates " + name + "-" + std::to_string(v) +
                    " (newer attributes or types may not work)";
        break;
      }
    }
  }
  r.reason += '.';
  return r;
}

bool type_supported(const TargetOp& op, std::string_view type_string) {
  return op.types.empty() || contains_type(op.types, type_string);
}

bool type_supported(const TargetOp& op, std::string_view type_string, int since_version) {
  if (since_version > 0) {
    for (const TypedRange& tr : op.typed_ranges) {
      if (tr.versions.contains(since_version)) return contains_type(tr.types, type_string);
    }
  }
  return type_supported(op, type_string);
}

const TypeParamTypes* TypedRange::find_param(std::string_view param) const {
  auto it =
      std::lower_bound(params.begin(), params.end(), param,
                       [](const TypeParamTypes& p, std::string_view k) { return p.param < k; });
  if (it == params.end() || it->param != param) return nullptr;
  return &*it;
}

const TypedRange* find_kernel(const TargetOp& op, int since_version) {
  if (since_version <= 0) return nullptr;
  for (const TypedRange& tr : op.typed_ranges) {
    if (tr.versions.contains(since_version)) return &tr;
  }
  return nullptr;
}

std::string version_ranges_text(std::span<const VersionRange> ranges) {
  return ranges_text(ranges);
}

}  // namespace onnxlint
