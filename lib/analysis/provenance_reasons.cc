// Reason chains of the provenance analysis: from a value back to where its class arose, and
// their rendering for notes ("Concat_9 <- Unsqueeze_8 <- ... <- input 'x' [batch, 16]").
#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/provenance.h>

#include <algorithm>

#include "analysis/provenance_internal.h"
#include "util/checked_math.h"

namespace onnxlint {
// ---------------------------------------------------------------------------------------------
// Reason chains

// A chain for an input-dim-dependent fact that ends where its dims come from: the nearest
// graph input (breadth-first, backwards over the node inputs whose facts carry input dims)
// that declares all of them, else the one that declares the most. The back-pointers kept
// during the pass name one predecessor per value, which may carry only some of the dims (an
// attention output's chain through the mask [b, t] for dims b and s). nullopt: use those.
bool Provenance::Impl::set_includes(uint32_t x, uint32_t y) const {
  return std::includes(sets[x].begin(), sets[x].end(), sets[y].begin(), sets[y].end());
}

std::optional<std::vector<ReasonStep>> Provenance::Impl::walk_to_dims(uint32_t v, bool via_value,
                                                                      size_t max_steps) const {
  if (v >= shape.size()) return std::nullopt;
  const Fact& start = via_value ? value[v] : shape[v];
  if (start.level != kDims || start.dims == 0) return std::nullopt;
  const std::vector<uint32_t>& want = sets[start.dims];
  auto coverage = [&](const Fact& f) {
    const std::vector<uint32_t>& have = sets[f.dims];
    size_t n = 0;
    for (uint32_t d : want) n += std::binary_search(have.begin(), have.end(), d) ? 1 : 0;
    return n;
  };
  struct State {
    uint32_t value;
    bool via_value;
    uint32_t parent;  // index into `seen`, or kNoValue for the start
    uint32_t depth;
  };
  std::vector<State> seen{{v, via_value, kNoValue, 0}};
  std::unordered_map<uint64_t, uint32_t> index{{uint64_t{v} << 1 | via_value, 0}};
  constexpr size_t kBudget = 1024;  // states: render time stays a small multiple of the walk
  uint32_t best = kNoValue;
  size_t best_cover = 0;
  for (uint32_t i = 0; i < seen.size() && seen.size() < kBudget; ++i) {
    const State cur = seen[i];
    const Node* n = table.producer(cur.value);
    if (n == nullptr) {  // a graph, subgraph or function input: where dims enter
      const size_t c = coverage(cur.via_value ? value[cur.value] : shape[cur.value]);
      if (c > best_cover) {
        best = i;
        best_cover = c;
        if (c == want.size()) break;
      }
      continue;
    }
    if (cur.depth + 1 >= max_steps) continue;
    const OpSemantics& sem = semantics_of(*n);
    const bool any = sem.shape == ShapeBehavior::ControlFlow || sem.shape == ShapeBehavior::Unknown;
    for (size_t k = 0; k < n->inputs().size(); ++k) {
      const uint32_t in = table.input(*n, k);
      if (in == kNoValue) continue;
      // Which of the input's facts can set this one: shapes set shapes, values set values, a
      // value read as a shape argument sets a shape, and Shape/Size turn a shape into a value.
      const bool shape_edge =
          any || (cur.via_value ? sem.value == ValueBehavior::FromShape : sem.input_shapes);
      const bool value_edge =
          any || (cur.via_value ? sem.value == ValueBehavior::Propagate : sem.reads_value(k));
      for (const bool vv : {false, true}) {
        if (!(vv ? value_edge : shape_edge)) continue;
        const Fact& f = vv ? value[in] : shape[in];
        if (f.level != kDims || coverage(f) == 0) continue;
        if (!index.try_emplace(uint64_t{in} << 1 | vv, static_cast<uint32_t>(seen.size())).second) {
          continue;
        }
        seen.push_back({in, vv, i, cur.depth + 1});
      }
    }
  }
  if (best == kNoValue) return std::nullopt;
  std::vector<ReasonStep> out;
  for (uint32_t i = best; i != kNoValue; i = seen[i].parent) {
    ReasonStep st;
    st.value = seen[i].value;
    const GraphSlot* gs = slot_of_value(st.value);
    st.graph = gs != nullptr ? gs->graph : nullptr;
    st.via_value = seen[i].via_value;
    out.push_back(st);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<ReasonStep> Provenance::Impl::walk(uint32_t v, bool via_value, size_t max_steps) const {
  std::vector<ReasonStep> out = walk_back_pointers(v, via_value, max_steps);
  // Usually the back-pointers end at an input that declares every dim; search only if not.
  // A chain cut at max_steps stays as it is: a search to the same depth rarely does better
  // there, and chains of long dynamic models are reported thousands of times.
  if (out.size() >= max_steps) return out;
  if (v < shape.size() && !out.empty()) {
    const Fact& start = via_value ? value[v] : shape[v];
    const ReasonStep& last = out.back();
    const Fact& end = last.via_value ? value[last.value] : shape[last.value];
    if (start.level == kDims && table.producer(last.value) == nullptr &&
        set_includes(end.dims, start.dims)) {
      return out;
    }
  }
  if (auto path = walk_to_dims(v, via_value, max_steps)) return *path;
  return out;
}

std::vector<ReasonStep> Provenance::Impl::walk_back_pointers(uint32_t v, bool via_value,
                                                             size_t max_steps) const {
  std::vector<ReasonStep> out;
  uint32_t cur = v;
  bool vv = via_value;
  while (cur != kNoValue && cur < shape.size() && out.size() < max_steps) {
    ReasonStep st;
    st.value = cur;
    const GraphSlot* gs = slot_of_value(cur);
    st.graph = gs != nullptr ? gs->graph : nullptr;
    st.via_value = vv;
    out.push_back(st);
    const Fact& f = vv ? value[cur] : shape[cur];
    if (f.pred == kNoValue) break;
    const Fact& next = f.via_value ? value[f.pred] : shape[f.pred];
    if (next.level == kStatic) break;
    cur = f.pred;
    vv = f.via_value != 0;
  }
  return out;
}

std::string Provenance::Impl::describe_terminal(uint32_t v, bool via_value) const {
  const GraphSlot* gs = slot_of_value(v);
  if (gs == nullptr) return "?";
  const Graph& g = *gs->graph;
  uint32_t idx = v - gs->base;
  if (idx < g.inputs().size()) {
    const ValueInfo& in = g.inputs()[idx];
    if (g.kind() == Graph::Kind::Main) {
      if (via_value || !in.type.has_shape) return fmt::format("input '{}'", in.name);
      std::string ds;
      for (const Dim& d : in.type.dims) {
        if (!ds.empty()) ds += ", ";
        ds += d.kind == Dim::Kind::Value   ? std::to_string(d.value)
              : d.kind == Dim::Kind::Param ? capped(d.param)  // echoed per finding
                                           : std::string("?");
      }
      return fmt::format("input '{}' [{}]", in.name, ds);
    }
    if (g.kind() == Graph::Kind::Function && g.function() != nullptr) {
      return fmt::format("'{}' (input of function {})", in.name, g.function()->name());
    }
    if (g.owner() != nullptr) {
      std::string owner = g.owner()->display_name();
      if (g.owner()->op_type() == "Loop") {
        if (idx == 0) return fmt::format("'{}' (iteration count of {})", in.name, owner);
        if (idx == 1) return fmt::format("'{}' (condition of {})", in.name, owner);
        return fmt::format("'{}' (carried by {})", in.name, owner);
      }
      return fmt::format("'{}' (input of {}'s {})", in.name, owner, g.owner_attribute());
    }
    return fmt::format("'{}'", in.name);
  }
  idx -= static_cast<uint32_t>(g.inputs().size());
  if (idx < g.initializers().size()) {
    return fmt::format("initializer '{}'", g.initializers()[idx].name);
  }
  return fmt::format("'{}'", name(v));
}

std::string Provenance::Impl::render(uint32_t v, bool via_value) const {
  constexpr size_t kMax = 12;
  // Torch's scoped names make a hop 30-60 characters: past this many the chain is cut where it
  // is, so a note stays a readable line (the first hops are the ones that explain).
  constexpr size_t kMaxChars = 300;
  std::vector<ReasonStep> steps = walk(v, via_value, kMax);
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (out.size() > kMaxChars) {
      out += " \u2190 \u2026";
      return out;
    }
    const ReasonStep& st = steps[i];
    const Node* p = producer_of(st.value);
    std::string part;
    if (p != nullptr) {
      part = p->display_name();
      // Shape_5(x): the value whose shape is read.
      if (st.via_value && i + 1 < steps.size() && !steps[i + 1].via_value &&
          semantics_of(*p).shape == ShapeBehavior::ShapeToValue) {
        part += fmt::format("({})", name(steps[i + 1].value));
      }
    } else {
      part = describe_terminal(st.value, st.via_value);
    }
    if (!out.empty()) out += " \u2190 ";
    out += part;
  }
  if (steps.size() == kMax) {
    const ReasonStep& last = steps.back();
    const Fact& f = last.via_value ? value[last.value] : shape[last.value];
    if (f.pred != kNoValue) out += " \u2190 \u2026";
  }
  return out;
}

}  // namespace onnxlint
