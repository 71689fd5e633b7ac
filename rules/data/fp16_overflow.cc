// data-fp16-overflow: constants that do not fit in float16 on a float16 path.
//
// Two deterministic checks, one opt-in heuristic:
//  - a float/double constant (initializer, Constant, ConstantOfShape `value`) holding a finite
//    value that rounds to ±inf in float16 (|x| >= 65520) reaches a Cast/CastLike to float16,
//    directly or through ops that only move or select values (Reshape, Where, Concat, ...);
//  - a float16 tensor in the file (initializer, Constant, ConstantOfShape `value`) holds ±inf;
//  - `reductions = true`: float16 ReduceSum/ReduceSumSquare/ReduceL2 over many elements.
// Payloads are read in place (raw_data or packed typed fields of the mapped file), only for
// the constants on a float16 path and float16 tensors, and only up to `max-elements` each.
#include <fmt/format.h>
#include <onnxlint/data_type.h>
#include <onnxlint/element_types.h>
#include <onnxlint/provenance.h>
#include <onnxlint/value_table.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "rules/categories.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

// Round-to-nearest-even: every finite value below 65520 in magnitude becomes a finite half.
constexpr double kHalfOverflow = 65520.0;
// The largest float16: what the fixes clamp to.
constexpr double kHalfMax = 65504.0;

bool is_standard(const Node& n) { return n.in_default_domain(); }

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) {
    auto* b = reinterpret_cast<unsigned char*>(&v);
    std::reverse(b, b + sizeof v);
  }
  return v;
}

/// What a scan of one tensor found.
struct Scan {
  uint64_t hits = 0;     // elements that overflow (float/double) or are ±inf (float16)
  uint64_t scanned = 0;  // elements read
  double first = 0;      // the first such element
  bool read = false;     // false: not readable in place (external, unpacked, too large...)
};

/// Calls `f(double)` for each element of a float/double/float16 tensor read in place, or
/// returns false when the payload cannot be read without copying or decoding a big message.
template <class F>
bool for_each_float(const Model& m, const TensorData& t, uint64_t max_elements, F&& f) {
  const auto n = t.element_count();
  if (!n || *n > max_elements) return false;
  const auto bytes = m.span_bytes(t.payload);
  const int32_t dt = t.data_type;
  if (t.storage == TensorData::Storage::Raw ||
      (t.storage == TensorData::Storage::Typed && t.typed_packed && dt != DataType::Float16)) {
    // raw_data, or packed float_data (fixed32) / double_data (fixed64): the same layout.
    const size_t width = dt == DataType::Double    ? 8
                         : dt == DataType::Float   ? 4
                         : dt == DataType::Float16 ? 2
                                                   : 0;
    if (!holds_exactly(bytes.size(), *n, width)) return false;  // no n * width: it can wrap
    for (uint64_t i = 0; i < *n; ++i) {
      const std::byte* p = bytes.data() + i * width;
      if (dt == DataType::Double) {
        f(load<double>(p), 0);
      } else if (dt == DataType::Float) {
        f(static_cast<double>(load<float>(p)), 0);
      } else {
        f(0.0, load<uint16_t>(p));
      }
    }
    return true;
  }
  if (t.storage == TensorData::Storage::Typed && t.typed_packed && dt == DataType::Float16) {
    // int32_data (packed varints), one half per entry.
    uint64_t count = 0;
    size_t i = 0;
    while (i < bytes.size()) {
      uint64_t v = 0;
      int shift = 0;
      while (true) {
        if (i >= bytes.size() || shift > 63) return false;
        const auto b = static_cast<uint8_t>(bytes[i++]);
        v |= static_cast<uint64_t>(b & 0x7f) << shift;
        shift += 7;
        if ((b & 0x80) == 0) break;
      }
      f(0.0, static_cast<uint16_t>(v));
      ++count;
    }
    return count == *n;
  }
  return false;
}

bool half_is_inf(uint16_t h) { return (h & 0x7fff) == 0x7c00; }
bool overflows_half(double x) { return std::isfinite(x) && std::fabs(x) >= kHalfOverflow; }

std::string number(double x) { return fmt::format("{:g}", x); }

class Fp16Overflow final : public RuleBase<Fp16Overflow> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-fp16-overflow",
        .category = "data",
        .severity = Severity::Warning,
        .summary = "Constant outside float16's finite range on a float16 path",
        .node_ops = {"Cast", "CastLike", "ReduceL2", "ReduceSum", "ReduceSumSquare"},
        .options = {{"max-elements", 1048576,
                     "largest constant (in elements) whose payload is read; larger ones are "
                     "skipped"},
                    {"reductions", false,
                     "also flag float16 sum reductions over many elements (a heuristic)"},
                    {"reduction-min-elements", 4096,
                     "with `reductions`: the fewest reduced elements that are flagged"}},
        .fixable = true,
    };
    return k;
  }

  explicit Fp16Overflow(const RuleOptionsView& opts)
      : max_elements_(
            static_cast<uint64_t>(std::max<int64_t>(0, opts.get<int64_t>("max-elements")))),
        reductions_(opts.get<bool>("reductions")),
        min_reduced_(std::max<int64_t>(1, opts.get<int64_t>("reduction-min-elements"))) {}

  // float16 tensors holding ±inf, wherever they are.
  void on_graph(const Graph& g, RuleContext& ctx) override {
    for_each_tensor(g, [&](const TensorSite& site) {
      const TensorData& t = *site.tensor;
      if (t.data_type != DataType::Float16 || site.sparse_part) return;
      Scan s;
      s.read = for_each_float(ctx.model(), t, max_elements_, [&](double, uint16_t h) {
        ++s.scanned;
        if (!half_is_inf(h)) return;
        if (s.hits++ == 0) s.first = (h & 0x8000) ? -INFINITY : INFINITY;
      });
      if (!s.read || s.hits == 0) return;
      Location loc = site.node ? ctx.at_node_value(*site.node, t.name) : ctx.at_value(g, t.name);
      loc.attribute = std::string(site.attribute);
      const std::string what = site.node
                                   ? fmt::format("{} '{}' (attribute '{}')", site.node->op_type(),
                                                 site.node->display_name(), site.attribute)
                                   : fmt::format("initializer '{}'", t.name);
      Diagnostic& d = ctx.report(
          std::move(loc), fmt::format("float16 {} holds {} ({} of {} elements are ±inf), which "
                                      "turns into NaN once it is added to its negation or "
                                      "multiplied by 0 (a fully masked softmax row)",
                                      what, number(s.first), s.hits, s.scanned));
      d.key = std::string(site.attribute);
      d.help =
          "keep constants finite in float16: fill masks with torch.finfo(torch.float16).min "
          "(-65504) instead of -inf or torch.finfo(torch.float32).min, and convert with "
          "onnxconverter-common's float16.convert_float_to_float16 (it clamps constants to "
          "±65504) rather than casting the tensors with numpy";
      if (t.storage == TensorData::Storage::External) return;
      FixBuilder fix = ctx.fix(d, FixSafety::Unsafe,
                               "clamp its ±inf to ±65504, the largest float16 (as "
                               "onnxconverter-common does)");
      if (site.node != nullptr) {
        fix.clamp_attribute(*site.node, std::string(site.attribute), kHalfMax);
      } else {
        fix.clamp_initializer(g, std::string(t.name), kHalfMax);
      }
    });
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_standard(n)) return;
    if (n.op_type() == "Cast" || n.op_type() == "CastLike") {
      check_cast(n, ctx);
    } else if (reductions_) {
      check_reduction(n, ctx);
    }
  }

 private:
  // Memo of the backward walk from a cast: per value, whether an overflowing constant reaches
  // it, and through which input (so that the path can be printed).
  enum : uint8_t { kUnseen = 0, kBusy, kNone, kFound };
  struct Memo {
    uint8_t state = kUnseen;
    ValueId next = kNoValue;  // kFound: the input it comes through; kNoValue at the constant
    Scan scan;                // kFound at the constant itself
  };

  void check_cast(const Node& n, RuleContext& ctx) {
    const ValueTable& vt = ctx.get<ValueTable>();
    if (n.inputs().empty()) return;
    bool to_half = false;
    if (n.op_type() == "Cast") {
      to_half = n.attr_int("to") == DataType::Float16;
    } else if (n.inputs().size() > 1) {
      to_half = ctx.get<ElementTypes>().input_elem(n, 1) == DataType::Float16;
    }
    if (!to_half) return;
    const ValueId src = vt.input(n, 0);
    if (src == kNoValue || !reaches(vt, ctx, src)) return;

    // The path from the constant to the cast.
    std::vector<ValueId> path;
    for (ValueId v = src; v != kNoValue && path.size() < 64; v = memo_[v].next) path.push_back(v);
    const ValueId origin = path.back();
    const Scan& s = memo_[origin].scan;
    std::string chain = fmt::format("'{}'", vt.name_of(origin));
    for (size_t k = path.size() - 1; k-- > 0;) {
      const Node* p = vt.producer(path[k]);
      if (p != nullptr) chain += fmt::format(" → {} '{}'", p->op_type(), p->display_name());
    }
    chain += fmt::format(" → {} '{}'", n.op_type(), n.display_name());
    const Node* const_node = vt.producer(origin);
    const std::string what =
        const_node != nullptr
            ? fmt::format("{} '{}'", const_node->op_type(), const_node->display_name())
            : fmt::format("initializer '{}'", vt.name_of(origin));
    Diagnostic& d = ctx.report(
        ctx.at_node_value(n, n.inputs()[0]),
        fmt::format("{} '{}' converts {} to float16, but it holds {} ({} of {} elements beyond "
                    "float16's ±65504), which becomes {}inf",
                    n.op_type(), n.display_name(), what, number(s.first), s.hits, s.scanned,
                    s.first < 0 ? "-" : "+"));
    d.notes.push_back("path: " + chain);
    d.help =
        "use a fill value that fits the compute type: torch.finfo(torch.float16).min (-65504) "
        "or torch.finfo(x.dtype).min on the tensor being masked, not -3.4e38 / "
        "torch.finfo(torch.float32).min; when converting with onnxconverter-common's "
        "float16.convert_float_to_float16, let it convert the constant (it clamps to ±65504) "
        "instead of inserting a Cast";
    // The constant clamped where it is stored: every reader sees the clamped value.
    const Graph* home = vt.graph_of(origin);
    if (home == nullptr) return;
    if (const_node != nullptr) {
      const Attribute* value = const_node->attribute("value");
      if (value == nullptr || value->type != Attribute::Type::Tensor) return;
      ctx.fix(d, FixSafety::Unsafe,
              fmt::format("clamp {} to ±65504, the float16 range (every reader of it sees the "
                          "clamped values)",
                          what))
          .clamp_attribute(*const_node, "value", kHalfMax);
    } else {
      bool stored = false;
      for (const TensorData& t : home->initializers()) {
        stored =
            stored || (t.name == vt.name_of(origin) && t.storage != TensorData::Storage::External);
      }
      if (!stored) return;
      ctx.fix(d, FixSafety::Unsafe,
              fmt::format("clamp {} to ±65504, the float16 range (every reader of it sees the "
                          "clamped values)",
                          what))
          .clamp_initializer(*home, std::string(vt.name_of(origin)), kHalfMax);
    }
  }

  // Iterative post-order walk (a long chain of Reshapes must not exhaust the stack).
  bool reaches(const ValueTable& vt, RuleContext& ctx, ValueId start) {
    if (memo_.empty()) memo_.resize(vt.size());
    std::vector<std::pair<ValueId, size_t>> stack;
    auto push = [&](ValueId v) {
      if (memo_[v].state != kUnseen) return;
      memo_[v].state = kBusy;
      stack.push_back({v, 0});
    };
    push(start);
    while (!stack.empty()) {
      auto& [v, k] = stack.back();
      Memo& m = memo_[v];
      if (k == 0 && source(vt, ctx, v, m)) {
        stack.pop_back();
        continue;
      }
      const Node* p = vt.producer(v);
      // `k` counts the producer's passing inputs already decided; the walk resumes here after
      // each one, so the inputs are a range, not a list rebuilt per resume (a Concat of N
      // inputs would cost N^2).
      const Passes ins = p ? passes(*p) : Passes{};
      bool descended = false;
      while (k < ins.size()) {
        const ValueId in = vt.input(*p, ins.first + k);
        const uint8_t state = in == kNoValue ? uint8_t{kNone} : memo_[in].state;
        if (state == kFound) {
          m.state = kFound;
          m.next = in;
          break;
        }
        if (state == kUnseen) {  // resumed here once `in` is decided
          push(in);
          descended = true;
          break;
        }
        ++k;  // kNone, or kBusy (a cycle in an unsorted graph)
      }
      if (descended) continue;
      if (m.state == kBusy) m.state = kNone;
      stack.pop_back();
    }
    return memo_[start].state == kFound;
  }

  // A constant: decides the value's memo (kFound / kNone) and returns true.
  bool source(const ValueTable& vt, RuleContext& ctx, ValueId v, Memo& m) {
    const TensorData* t = nullptr;
    const Attribute* a = nullptr;
    if (auto c = vt.constant(v)) {
      t = c->tensor;
      a = c->attribute;
      if (t == nullptr && a == nullptr) return false;
    } else if (const Node* p = vt.producer(v);
               p != nullptr && is_standard(*p) && p->op_type() == "ConstantOfShape") {
      const Attribute* value = p->attribute("value");
      if (value == nullptr || value->t == nullptr) {
        m.state = kNone;
        return true;
      }
      t = value->t;
    } else {
      return false;
    }
    Scan& s = m.scan;
    auto visit = [&](double x) {
      ++s.scanned;
      if (overflows_half(x) && s.hits++ == 0) s.first = x;
    };
    if (t != nullptr && (t->data_type == DataType::Float || t->data_type == DataType::Double)) {
      s.read =
          for_each_float(ctx.model(), *t, max_elements_, [&](double x, uint16_t) { visit(x); });
    } else if (a != nullptr && a->name == "value_float") {
      visit(a->f);
      s.read = true;
    } else if (a != nullptr && a->name == "value_floats" && a->floats.size() <= max_elements_) {
      for (float x : a->floats) visit(x);
      s.read = true;
    }
    m.state = s.read && s.hits > 0 ? kFound : kNone;
    return true;
  }

  // Inputs whose values an op passes on unchanged (moves, selects, repeats): an overflowing
  // constant that enters there reaches the output as it is. Always one range of inputs.
  struct Passes {
    size_t first = 0, last = 0;  // inputs [first, last)
    size_t size() const { return last - first; }
  };
  static Passes passes(const Node& p) {
    if (!is_standard(p)) return {};
    const std::string_view op = p.op_type();
    if (op == "Identity" || op == "Reshape" || op == "Unsqueeze" || op == "Squeeze" ||
        op == "Flatten" || op == "Transpose" || op == "Expand" || op == "Tile" || op == "Gather" ||
        op == "GatherElements" || op == "GatherND" || op == "Slice" || op == "Split" ||
        op == "Neg" || op == "Abs") {
      return {0, 1};
    }
    if (op == "Cast") {
      const auto to = p.attr_int("to");
      return to == DataType::Float || to == DataType::Double ? Passes{0, 1} : Passes{};
    }
    if (op == "Where") return {1, 3};
    if (op == "Concat") return {0, p.inputs().size()};
    return {};
  }

  void check_reduction(const Node& n, RuleContext& ctx) {
    const ValueTable& vt = ctx.get<ValueTable>();
    if (n.inputs().empty() || ctx.get<ElementTypes>().input_elem(n, 0) != DataType::Float16) return;
    const Provenance& prov = ctx.get<Provenance>();
    const auto dims = prov.dims(vt.input(n, 0));
    if (!dims) return;
    const int64_t rank = static_cast<int64_t>(dims->size());
    // axes: an attribute up to ReduceSum-11 / the others' 13, an input from there on.
    std::optional<std::vector<int64_t>> axes;
    if (const Attribute* a = n.attribute("axes")) {
      axes = std::vector<int64_t>(a->ints.begin(), a->ints.end());
    } else if (n.inputs().size() > 1 && !n.inputs()[1].empty()) {
      axes = prov.known_ints(vt.input(n, 1));
      if (!axes) return;  // computed at run time
    }
    std::vector<bool> reduced(dims->size(), false);
    if (!axes || axes->empty()) {
      if (n.attr_int("noop_with_empty_axes").value_or(0) != 0) return;
      reduced.assign(dims->size(), true);
    } else {
      for (int64_t ax : *axes) {
        if (ax < 0) ax += rank;
        if (ax < 0 || ax >= rank) return;
        reduced[static_cast<size_t>(ax)] = true;
      }
    }
    // The reduced element count, saturated at int64's maximum (more than any threshold).
    int64_t count = 1;
    bool saturated = false, empty = false;
    for (size_t k = 0; k < dims->size(); ++k) {
      if (!reduced[k]) continue;
      const DimFact& f = (*dims)[k];
      if (f.kind != DimFact::Kind::Fixed || f.value < 0) return;  // only proven sizes count
      empty |= f.value == 0;
      saturated = saturated || __builtin_mul_overflow(count, f.value, &count);
    }
    if (empty) {
      count = 0;
    } else if (saturated) {
      count = std::numeric_limits<int64_t>::max();
    }
    if (count < min_reduced_) return;
    const bool squares = n.op_type() != "ReduceSum";
    Diagnostic& d = ctx.report(
        Severity::Info, ctx.at_node(n),
        fmt::format("{} '{}' sums {} float16 {} into one value: the sum overflows float16's "
                    "±65504 once the mean {} exceeds {}",
                    n.op_type(), n.display_name(), count, squares ? "squares" : "elements",
                    squares ? "square" : "magnitude",
                    number(65504.0 / static_cast<double>(count))));
    d.help =
        "compute the reduction in float32: keep the op in float32 when converting "
        "(onnxconverter-common float16.convert_float_to_float16(..., op_block_list=['" +
        std::string(n.op_type()) +
        "']) or torch.autocast's float32 ops), or scale the input "
        "first (ReduceMean instead of ReduceSum)";
  }

  const uint64_t max_elements_;  // the options
  const bool reductions_;
  const int64_t min_reduced_;
  std::vector<Memo> memo_;
};

}  // namespace

void add_data_fp16_overflow(RuleRegistry& registry) { registry.add<Fp16Overflow>(); }

}  // namespace onnxlint::rules
