// Unrolled loops (include/onnxlint/unrolled_loops.h): one pass per graph in topological order.
// Each single-position Gather/Slice joins the run of its (tensor, axis) and tags its output
// with its position; every other node passes on the union of its inputs' positions (of the
// first run met), so the first node whose inputs carry two positions is where the pieces meet.
#include <onnxlint/graph_index.h>
#include <onnxlint/provenance.h>
#include <onnxlint/unrolled_loops.h>

#include <algorithm>
#include <bit>
#include <map>
#include <unordered_map>
#include <utility>

namespace onnxlint {
namespace {

// Which positions of which run a value carries: bit i = position i (positions 0..63).
struct Tag {
  uint32_t run = 0;  // 1-based index into the runs; 0: none
  uint64_t bits = 0;
};

// The single position a Gather/Slice reads along one axis, or false.
bool single_position(const Provenance& p, const Node& n, int64_t& axis, UnrolledPiece& piece) {
  piece.node = &n;
  if (n.op_type() == "Gather") {
    if (n.input_count() < 2) return false;
    const ValueId idx = p.input(n, 1);
    auto v = idx == kNoValue ? std::nullopt : p.known_ints(idx);
    if (!v || v->size() != 1) return false;
    auto idims = p.dims(idx);
    if (idims && idims->size() > 1) return false;
    axis = n.attr_int("axis").value_or(0);
    piece.index = (*v)[0];
    return true;
  }
  const auto slice = single_axis_slice(p, n);
  if (!slice) return false;
  axis = slice->axis;
  piece.index = slice->start;
  piece.end = slice->end;
  return true;
}

// k when the width-one pieces read exactly the positions 0..k-1 (non-negative as written).
int64_t leading_length(const std::vector<UnrolledPiece>& pieces) {
  uint64_t seen = 0;
  for (const UnrolledPiece& x : pieces) {
    if (x.end && *x.end != x.index + 1) continue;  // x[:, :6], x[:, -1:]: not one position
    if (x.index < 0) continue;
    if (x.index >= 64) return 0;
    seen |= uint64_t{1} << x.index;
  }
  const int k = std::popcount(seen);
  if (k == 0) return 0;
  return seen == (k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1) ? k : 0;
}

}  // namespace

std::optional<AxisSlice> single_axis_slice(const Provenance& p, const Node& n) {
  if (!n.in_default_domain() || n.op_type() != "Slice") return std::nullopt;
  // starts, ends, axes, steps: attributes before opset 10, inputs 1-4 from it. An absent
  // optional argument is empty (its default); one given must hold exactly one element.
  auto arg = [&](size_t k, const char* attr) -> std::optional<std::vector<int64_t>> {
    if (p.opset(n) < 10) {
      if (k == 4) return std::vector<int64_t>{};
      const Attribute* a = n.attribute(attr);
      if (a == nullptr) return std::vector<int64_t>{};
      return std::vector<int64_t>(a->ints.begin(), a->ints.end());
    }
    if (k >= n.input_count() || n.input(k).empty()) return std::vector<int64_t>{};
    const ValueId v = p.input(n, k);
    return v == kNoValue ? std::nullopt : p.known_ints(v);
  };
  const auto starts = arg(1, "starts"), ends = arg(2, "ends"), axes = arg(3, "axes"),
             steps = arg(4, "");
  if (!starts || !ends || !axes || !steps) return std::nullopt;
  if (starts->size() != 1 || ends->size() != 1) return std::nullopt;
  const bool axes_given =
      p.opset(n) < 10 ? n.attribute("axes") != nullptr : n.input_count() > 3 && !n.input(3).empty();
  if (axes_given && axes->size() != 1) return std::nullopt;
  const bool steps_given = p.opset(n) >= 10 && n.input_count() > 4 && !n.input(4).empty();
  if (steps_given && (steps->size() != 1 || (*steps)[0] != 1)) return std::nullopt;
  return AxisSlice{axes->empty() ? 0 : (*axes)[0], (*starts)[0], (*ends)[0]};
}

UnrolledLoops::UnrolledLoops(const Model& model, AnalysisCache& cache) {
  const Provenance& p = cache.get<Provenance>();
  const GraphIndex& index = cache.get<GraphIndex>();
  std::unordered_map<ValueId, Tag> tags;
  std::unordered_map<const Node*, Tag> piece_tags;  // what each piece's output carries
  std::map<std::pair<ValueId, int64_t>, uint32_t> run_of;
  for (const Graph* g : model.all_graphs()) {
    const GraphInfo& gi = index.info(*g);
    if (!gi.topo_order) continue;  // a cycle: no order makes "combined again" meaningful
    run_of.clear();                // the pieces of a loop lie within one graph
    piece_tags.clear();
    const size_t first_run = runs_.size();
    // The pieces, grouped by (tensor, axis).
    for (const Node& n : g->nodes()) {
      if (!n.in_default_domain() || (n.op_type() != "Gather" && n.op_type() != "Slice") ||
          n.input_count() == 0) {
        continue;
      }
      const ValueId data = p.input(n, 0);
      if (data == kNoValue) continue;
      // Shape vectors are unpacked, not looped over. (from_shape alone is not enough: a tensor
      // reshaped with `x.view(x.size(0), -1)` is computed from a Shape output too.)
      const ValueClass vc = p.value_class(data);
      if (vc == ValueClass::ShapeDerived || (vc == ValueClass::Constant && p.from_shape(data))) {
        continue;
      }
      int64_t axis = 0;
      UnrolledPiece piece;
      if (!single_position(p, n, axis, piece)) continue;
      if (axis < 0) {
        const auto dims = p.static_dims(data);  // the rank: the analysis's, else declared
        if (!dims) continue;
        axis += static_cast<int64_t>(dims->size());
        if (axis < 0) continue;
      }
      auto [it, fresh] = run_of.emplace(std::make_pair(data, axis), 0);
      if (fresh) {
        UnrolledRun r;
        r.graph = g;
        r.data = data;
        r.axis = axis;
        runs_.push_back(std::move(r));
        it->second = static_cast<uint32_t>(runs_.size() - first_run);
      }
      runs_[first_run + it->second - 1].pieces.push_back(piece);
      if ((!piece.end || *piece.end == piece.index + 1) && piece.index >= 0 && piece.index < 64) {
        piece_tags[&n] = Tag{it->second, uint64_t{1} << piece.index};
      }
    }
    const bool any_loop =
        std::any_of(runs_.begin() + static_cast<std::ptrdiff_t>(first_run), runs_.end(),
                    [](const UnrolledRun& r) { return r.pieces.size() >= 2; });
    if (any_loop) {
      // Where the pieces meet: positions flow forward in topological order.
      tags.clear();
      for (uint32_t i : *gi.topo_order) {
        const Node& n = g->nodes()[i];
        Tag t;  // the union of the inputs' positions, of the first run met
        for (size_t k = 0; k < n.input_count(); ++k) {
          const ValueId v = p.input(n, k);
          if (v == kNoValue) continue;
          auto it = tags.find(v);
          if (it == tags.end()) continue;
          if (t.run == 0) t.run = it->second.run;
          if (it->second.run == t.run) t.bits |= it->second.bits;
        }
        if (t.run != 0 && std::popcount(t.bits) >= 2) {
          UnrolledRun& r = runs_[first_run + t.run - 1];
          if (r.combined == nullptr) r.combined = &n;
        }
        // A piece read again by another piece of the same run is not a new iteration: its
        // output carries only its own position.
        if (auto pt = piece_tags.find(&n); pt != piece_tags.end()) t = pt->second;
        if (t.run == 0) continue;
        for (size_t k = 0; k < n.outputs().size(); ++k) {
          const ValueId v = p.output(n, k);
          if (v == kNoValue) continue;
          tags[v] = t;
          if (std::popcount(t.bits) >= 2) combined_values_.insert(v);
        }
      }
    }
    // Runs of one piece are no loop; the rest keep node order.
    size_t kept = first_run;
    for (size_t i = first_run; i < runs_.size(); ++i) {
      if (runs_[i].pieces.size() < 2) continue;
      runs_[i].leading_length = leading_length(runs_[i].pieces);
      if (kept != i) runs_[kept] = std::move(runs_[i]);
      ++kept;
    }
    runs_.resize(kept);
  }
}

}  // namespace onnxlint
