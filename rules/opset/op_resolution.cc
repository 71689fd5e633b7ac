#include "rules/opset/op_resolution.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

namespace onnxlint::rules {
namespace {

using Imports = std::vector<std::pair<std::string_view, int64_t>>;

Imports normalized(std::span<const OpsetImport> imports) {
  Imports out;
  out.reserve(imports.size());
  for (const OpsetImport& imp : imports)
    out.emplace_back(normalize_domain(imp.domain), imp.version);
  return out;
}

std::optional<int64_t> find_import(const Imports& imports, std::string_view domain) {
  for (const auto& [d, v] : imports) {
    if (d == domain) return v;
  }
  return std::nullopt;
}

// The function whose body (at any depth) holds graph `g`, if any.
const Function* enclosing_function(const Graph* g) {
  while (g->parent() != nullptr) g = g->parent();
  return g->kind() == Graph::Kind::Function ? g->function() : nullptr;
}

class Resolver {
 public:
  Resolver(const Model& model, std::vector<AttrIssue>& issues)
      : issues_(issues), op_has_values_(model.op_kinds().size(), -1) {
    model_imports_ = normalized(model.opset_imports());
    // IR 1 and 2 had no opset_import: the default domain was implicitly at opset 1.
    if (model.opset_imports().empty() && model.has_ir_version() && model.ir_version() > 0 &&
        model.ir_version() < 3) {
      model_imports_.emplace_back("", 1);
    }
    for (const auto& f : model.functions()) {
      functions_.emplace(std::pair{normalize_domain(f->domain()), f->name()}, f);
      function_imports_.emplace(f, normalized(f->opset_imports()));
    }
  }

  OpResolution resolve(const Node& n, const Function* scope) {
    std::span<const OpSchema> versions;
    OpResolution r = resolve_op(n, scope, versions);
    check_attributes(n, r, versions);
    return r;
  }

  // What a node with this op resolves to before its attributes are looked at: the same for
  // every node of the op in one scope. `versions`: the op's schemas, for check_attributes.
  OpResolution resolve_op(const Node& n, const Function* scope,
                          std::span<const OpSchema>& versions) {
    OpResolution r;
    r.domain = normalize_domain(n.domain());
    r.scope_function = scope;
    std::optional<int64_t> imported;
    if (scope != nullptr) {
      imported = find_import(function_imports_.at(scope), r.domain);
      r.import_from_function = imported.has_value();
    }
    if (!imported) imported = find_import(model_imports_, r.domain);
    r.opset = imported.value_or(0);

    auto fn = functions_.find(std::pair{r.domain, n.op_type()});
    if (fn != functions_.end()) r.function = fn->second;
    if (!imported) {
      r.status = OpStatus::MissingImport;
      return r;
    }
    if (r.function != nullptr) {
      r.status = OpStatus::LocalFunction;
      return r;
    }
    const DomainInfo* info = find_domain(r.domain);
    if (info == nullptr) {
      r.status = OpStatus::Custom;
      return r;
    }
    if (r.opset > info->max_opset) {
      r.status = OpStatus::BeyondTable;
      return r;
    }
    versions = op_versions(r.domain, n.op_type());
    if (versions.empty()) {
      r.status = OpStatus::Unknown;
      return r;
    }
    // The schema in force: the last version whose since_version <= the import.
    const OpSchema* in_force = nullptr;
    for (const OpSchema& s : versions) {
      if (s.since_version <= r.opset) in_force = &s;
    }
    if (in_force == nullptr) {
      r.status = OpStatus::TooLow;
      // The first version that is not deprecated (GroupNormalization-18 was withdrawn; 21 is
      // the one to ask for); the first version at all if every one is.
      r.schema = &versions.front();
      for (const OpSchema& s : versions) {
        if (!s.deprecated) {
          r.schema = &s;
          break;
        }
      }
      r.needed_opset = r.schema->since_version;
    } else if (in_force->deprecated) {
      r.status = OpStatus::Removed;
      r.schema = in_force;
      return r;
    } else {
      r.status = OpStatus::Standard;
      r.schema = in_force;
    }
    return r;
  }

  // The node's attribute issues (Standard and TooLow resolutions only), appended to the
  // issues and ranged in `r`.
  void check_attributes(const Node& n, OpResolution& r, std::span<const OpSchema> versions) {
    if (r.status != OpStatus::Standard && r.status != OpStatus::TooLow) return;
    r.issues_begin = static_cast<uint32_t>(issues_.size());
    check_each_attribute(n, r, versions);
    r.issues_end = static_cast<uint32_t>(issues_.size());
  }

 private:
  void check_each_attribute(const Node& n, OpResolution& r, std::span<const OpSchema> versions) {
    const OpSchema& base = *r.schema;
    const bool standard = r.status == OpStatus::Standard;
    for (const Attribute& a : n.attributes()) {
      const bool ref = !a.ref_attr_name.empty();
      int needed = 0;
      std::string_view source;
      std::string value;
      const AttributeSchema* as = base.find_attribute(a.name);
      if (as == nullptr) {
        const OpSchema* later = nullptr;
        for (const OpSchema& s : versions) {
          if (s.since_version > base.since_version && !s.deprecated &&
              s.find_attribute(a.name) != nullptr) {
            later = &s;
            break;
          }
        }
        if (later == nullptr) {
          if (!standard) continue;  // a too-low op gets one finding: the op itself
          const OpSchema* earlier = nullptr;
          for (const OpSchema& s : versions) {
            if (s.since_version < base.since_version && s.find_attribute(a.name) != nullptr) {
              earlier = &s;
            }
          }
          AttrIssue& i = issues_.emplace_back();
          i.name = a.name;
          i.attribute = &a;
          i.kind = earlier != nullptr ? AttrIssue::Kind::Removed : AttrIssue::Kind::Unknown;
          if (earlier != nullptr) i.version = earlier->until_version;
          continue;
        }
        needed = later->since_version;
        if (const ValueAvailability* e =
                find_value_availability(r.domain, n.op_type(), a.name, "*");
            e != nullptr && e->since_opset == needed) {
          source = e->source;
        }
      } else if (standard && a.type != Attribute::Type::Undefined && (!ref || a.type_declared) &&
                 a.type != as->type) {
        AttrIssue& i = issues_.emplace_back();
        i.kind = AttrIssue::Kind::WrongType;
        i.name = a.name;
        i.attribute = &a;
        i.expected = as;
        continue;
      }
      // Values that arrived later than the attribute (Pad mode 'wrap', ...). A reference to a
      // function attribute has no value here: it is checked where the function is called.
      if (!ref && has_value_rows(n, r.domain)) {
        std::string text = attribute_value_text(a);
        if (!text.empty()) {
          const ValueAvailability* e = find_value_availability(r.domain, n.op_type(), a.name, text);
          if (e != nullptr && e->value != "*" && e->since_opset > r.opset &&
              e->since_opset > needed) {
            needed = e->since_opset;
            source = e->source;
            value = std::move(text);
          }
        }
      }
      if (needed > r.opset) {
        AttrIssue& i = issues_.emplace_back();
        i.kind = AttrIssue::Kind::NeedsNewer;
        i.name = a.name;
        i.attribute = &a;
        i.version = needed;
        i.value = std::move(value);
        i.source = source;
        r.needed_opset = std::max(r.needed_opset, needed);
      }
    }
    if (!standard) return;
    for (const AttributeSchema& as : base.attributes) {
      if (as.required && n.attribute(as.name) == nullptr) {
        AttrIssue& i = issues_.emplace_back();
        i.kind = AttrIssue::Kind::MissingRequired;
        i.name = as.name;
        i.expected = &as;
      }
    }
  }

  // Whether the value-availability table has rows for the node's op: asked once per op
  // (Node::op_id), so that nodes of other ops skip the attribute's text and the table scan.
  bool has_value_rows(const Node& n, std::string_view domain) {
    int8_t& known = op_has_values_[n.op_id()];
    if (known < 0) {
      known = 0;
      for (const ValueAvailability& e : value_availability_table()) {
        if (e.domain == domain && e.op == n.op_type()) known = 1;
      }
    }
    return known == 1;
  }

  struct PairHash {
    size_t operator()(const std::pair<std::string_view, std::string_view>& p) const {
      return std::hash<std::string_view>()(p.first) * 31 + std::hash<std::string_view>()(p.second);
    }
  };

  std::vector<AttrIssue>& issues_;
  Imports model_imports_;
  std::unordered_map<std::pair<std::string_view, std::string_view>, const Function*, PairHash>
      functions_;
  std::unordered_map<const Function*, Imports> function_imports_;
  std::vector<int8_t> op_has_values_;  // by Node::op_id: -1 not yet asked, 0 no rows, 1 rows
};

}  // namespace

namespace {

struct SameResolution {
  bool operator()(const OpResolution& a, const OpResolution& b) const {
    return a.status == b.status && a.domain == b.domain && a.opset == b.opset &&
           a.import_from_function == b.import_from_function &&
           a.scope_function == b.scope_function && a.schema == b.schema &&
           a.function == b.function && a.needed_opset == b.needed_opset &&
           a.issues_begin == b.issues_begin && a.issues_end == b.issues_end;
  }
};

struct HashResolution {
  size_t operator()(const OpResolution& r) const {
    size_t h = std::hash<std::string_view>()(r.domain);
    auto mix = [&h](size_t v) { h = (h ^ v) * 0x9E3779B97F4A7C15ull; };
    mix(static_cast<size_t>(r.status));
    mix(static_cast<size_t>(r.opset));
    mix(reinterpret_cast<size_t>(r.schema));
    mix(reinterpret_cast<size_t>(r.function));
    mix(reinterpret_cast<size_t>(r.scope_function));
    mix(static_cast<size_t>(r.needed_opset));
    mix(r.issues_begin);
    return h;
  }
};

}  // namespace

OpResolutionIndex::OpResolutionIndex(const Model& model, AnalysisCache&) {
  Resolver resolver(model, issues_);
  std::unordered_map<OpResolution, uint32_t, HashResolution, SameResolution> index_of;
  auto index = [&](const OpResolution& r) {
    auto [it, added] = index_of.try_emplace(r, static_cast<uint32_t>(distinct_.size()));
    if (added) distinct_.push_back(r);
    return it->second;
  };
  // Outside functions a node's op alone decides its resolution up to its attributes: resolved
  // once per op (Node::op_id); its nodes without attributes share one entry, and so do those
  // whose attributes raise nothing. Only attributes are checked per node.
  struct PerOp {
    bool resolved = false;
    OpResolution base;
    std::span<const OpSchema> versions;
    uint32_t plain = UINT32_MAX;  // the entry of its nodes without attributes
    uint32_t clean = UINT32_MAX;  // the entry of its nodes whose attributes raise nothing
  };
  std::vector<PerOp> per_op(model.op_kinds().size());
  // The facts of each op: from the entries its nodes use, each (op, entry) pair seen once in a
  // row (nearly every node repeats its predecessor's).
  op_bits_.assign(model.op_kinds().size(), 0);
  std::vector<uint32_t> last_entry(model.op_kinds().size(), UINT32_MAX);
  auto note = [&](const Node& n, uint32_t entry) {
    if (last_entry[n.op_id()] == entry) return;
    last_entry[n.op_id()] = entry;
    const OpResolution& r = distinct_[entry];
    uint32_t bits = status_bit(r.status);
    if (r.issues_begin != r.issues_end) bits |= kAttributeIssueBit;
    if (r.needed_opset != 0) bits |= kNeededOpsetBit;
    op_bits_[n.op_id()] |= bits;
  };
  for (const Graph* g : model.all_graphs()) {
    const Function* scope = enclosing_function(g);
    std::vector<uint32_t>& ids = by_graph_[g];
    ids.reserve(g->nodes().size());
    for (const Node& n : g->nodes()) {
      if (scope != nullptr) {
        ids.push_back(index(resolver.resolve(n, scope)));
        note(n, ids.back());
        continue;
      }
      PerOp& op = per_op[n.op_id()];
      if (!op.resolved) {
        op.base = resolver.resolve_op(n, nullptr, op.versions);
        op.resolved = true;
      }
      OpResolution r = op.base;
      if (n.attributes().empty()) {  // a missing required attribute is the same for each
        if (op.plain == UINT32_MAX) {
          resolver.check_attributes(n, r, op.versions);
          op.plain = index(r);
        }
        ids.push_back(op.plain);
        note(n, op.plain);
        continue;
      }
      resolver.check_attributes(n, r, op.versions);
      const bool clean = r.issues_begin == r.issues_end && r.needed_opset == op.base.needed_opset;
      if (!clean) {
        ids.push_back(index(r));
        note(n, ids.back());
        continue;
      }
      if (op.clean == UINT32_MAX) op.clean = index(r);
      ids.push_back(op.clean);
      note(n, op.clean);
    }
  }
  main_graph_ = &model.graph();
  main_ids_ = &by_graph_[&model.graph()];
  for (uint32_t bits : op_bits_) all_bits_ |= bits;
}

std::string opset_text(std::string_view domain, int64_t version) {
  domain = normalize_domain(domain);
  if (domain.empty()) return fmt::format("opset {}", version);
  return fmt::format("{} opset {}", domain, version);
}

std::string min_opset_text(std::string_view domain, int64_t version) {
  domain = normalize_domain(domain);
  if (domain.empty()) return fmt::format("opset ≥ {}", version);
  return fmt::format("{} opset ≥ {}", domain, version);
}

std::string imports_text(const OpResolution& r) {
  std::string who = "model";
  if (r.import_from_function && r.scope_function != nullptr) {
    who = fmt::format("function '{}::{}'", r.scope_function->domain(), r.scope_function->name());
  }
  if (r.domain.empty()) return fmt::format("{} imports {}", who, r.opset);
  return fmt::format("{} imports {} {}", who, r.domain, r.opset);
}

std::string raise_opset_help(std::string_view domain, int version) {
  domain = normalize_domain(domain);
  if (domain.empty()) {
    return fmt::format(
        "export with opset_version={} or newer (torch.onnx.export(..., opset_version={})), or "
        "convert the model with onnx.version_converter.convert_version(model, {})",
        version, version, version);
  }
  return fmt::format(
      "import {} {} or newer (opset_import / custom_opsets={{'{}': {}}} in torch.onnx.export, "
      "target_opset in onnxmltools/skl2onnx)",
      domain, version, domain, version);
}

std::string attribute_value_text(const Attribute& a) {
  if (a.type == Attribute::Type::String) return std::string(a.s);
  if (a.type == Attribute::Type::Int) return std::to_string(a.i);
  return {};
}

}  // namespace onnxlint::rules
