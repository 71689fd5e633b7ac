// The op registry: the family tables merged into one table sorted by (domain, op,
// since_version), and the lookups over it. The public face of the class facts
// (op_semantics_table, find_op_semantics; include/onnxlint/provenance.h) reads it.
#include "analysis/ops/registry.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace onnxlint {
namespace ops {
namespace {

struct Registry {
  // Two parallel columns in one order: the public OpSemantics rows (op_semantics_table
  // returns them as one span) and each row's entry.
  std::vector<OpSemantics> semantics;
  std::vector<const OpEntry*> entries;
};

const Registry& registry() {
  static const Registry r = [] {
    std::vector<const OpEntry*> all;
    for (std::span<const OpEntry> family :
         {elementwise_ops(), reduction_ops(), tensor_ops(), nn_ops(), control_flow_ops(),
          sequence_ops(), quantization_ops(), random_ops(), ml_ops()}) {
      for (const OpEntry& e : family) all.push_back(&e);
    }
    std::sort(all.begin(), all.end(), [](const OpEntry* a, const OpEntry* b) {
      return std::tie(a->sem.domain, a->sem.op, a->sem.since_version) <
             std::tie(b->sem.domain, b->sem.op, b->sem.since_version);
    });
    Registry out;
    out.semantics.reserve(all.size());
    for (const OpEntry* e : all) out.semantics.push_back(e->sem);
    out.entries = std::move(all);
    return out;
  }();
  return r;
}

// Index of the entry in force, or -1.
std::ptrdiff_t find_index(std::string_view domain, std::string_view op, int64_t opset) {
  domain = normalize_domain(domain);
  const std::vector<OpSemantics>& t = registry().semantics;
  auto lo = std::lower_bound(
      t.begin(), t.end(), std::pair(domain, op),
      [](const OpSemantics& s, const std::pair<std::string_view, std::string_view>& k) {
        return std::tie(s.domain, s.op) < std::tie(k.first, k.second);
      });
  if (lo == t.end() || lo->domain != domain || lo->op != op) return -1;
  // The largest since_version <= opset; the oldest entry if the opset predates it.
  auto best = lo;
  for (auto it = lo; it != t.end() && it->domain == domain && it->op == op; ++it) {
    if (it->since_version <= opset) best = it;
  }
  return best - t.begin();
}

}  // namespace

const OpEntry* find_entry(std::string_view domain, std::string_view op, int64_t opset) {
  const std::ptrdiff_t i = find_index(domain, op, opset);
  return i < 0 ? nullptr : registry().entries[static_cast<size_t>(i)];
}

const OpEntry* entry_of(const OpSemantics& sem) {
  const Registry& r = registry();
  if (r.semantics.empty() || &sem < r.semantics.data() ||
      &sem >= r.semantics.data() + r.semantics.size()) {
    return nullptr;
  }
  return r.entries[static_cast<size_t>(&sem - r.semantics.data())];
}

bool is_random_op(std::string_view op) {
  const std::vector<OpSemantics>& t = registry().semantics;
  const std::pair<std::string_view, std::string_view> key(std::string_view(), op);
  auto lo = std::lower_bound(
      t.begin(), t.end(), key,
      [](const OpSemantics& s, const std::pair<std::string_view, std::string_view>& k) {
        return std::tie(s.domain, s.op) < std::tie(k.first, k.second);
      });
  for (auto it = lo; it != t.end() && it->domain.empty() && it->op == op; ++it) {
    if (it->value == ValueBehavior::Random) return true;
  }
  return false;
}

}  // namespace ops

std::string_view shape_class_name(ShapeClass c) {
  switch (c) {
    case ShapeClass::Static:
      return "static";
    case ShapeClass::InputDim:
      return "input-dim-dependent";
    case ShapeClass::Unknown:
      return "unknown";
    case ShapeClass::DataDependent:
      return "data-dependent";
  }
  return "unknown";
}

std::string_view value_class_name(ValueClass c) {
  switch (c) {
    case ValueClass::Constant:
      return "constant";
    case ValueClass::ShapeDerived:
      return "shape-derived";
    case ValueClass::Unknown:
      return "unknown";
    case ValueClass::Data:
      return "data";
  }
  return "unknown";
}

std::span<const OpSemantics> op_semantics_table() { return ops::registry().semantics; }

const OpSemantics* find_op_semantics(std::string_view domain, std::string_view op, int64_t opset) {
  const std::ptrdiff_t i = ops::find_index(domain, op, opset);
  return i < 0 ? nullptr : &ops::registry().semantics[static_cast<size_t>(i)];
}

const OpSemantics& unknown_op_semantics() {
  static const OpSemantics s = [] {
    OpSemantics u;
    u.op = "";
    u.shape = ShapeBehavior::Unknown;
    u.value = ValueBehavior::Unknown;
    return u;
  }();
  return s;
}

}  // namespace onnxlint
