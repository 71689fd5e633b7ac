// Wording shared by the shape-*, flow-* and export-unrolled-loop rules: names of formal
// inputs, lists of dim names, and the fix for each kind of data-dependent shape in exporter
// terms.
#pragma once

#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/provenance.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

// A namespace of its own: other rule folders have helpers with the same names.
namespace onnxlint::rules::prov {

/// The schema's name for input `i` of `n` ("shape", "K", ...), or "input i".
inline std::string formal_input_name(const Node& n, size_t i, int64_t opset) {
  if (const OpSchema* s = resolve_schema(n.domain(), n.op_type(), opset)) {
    if (i < s->inputs.size()) return std::string(s->inputs[i].name);
    if (!s->inputs.empty() && s->inputs.back().option == ParamOption::Variadic) {
      return std::string(s->inputs.back().name);
    }
  }
  return fmt::format("input {}", i);
}

/// "'batch'", "'batch', 'seq'".
inline std::string quoted_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += fmt::format("'{}'", capped(n));
  }
  return out;
}

inline std::string dims_phrase(const std::vector<std::string_view>& names) {
  return fmt::format("input dim{} {}", names.size() == 1 ? "" : "s", quoted_list(names));
}

/// The shape of a reason chain, for Diagnostic::cause: what each step follows (`v` the value,
/// `s` the shape) and the op type of the node computing it, or `in` where the chain ends at a
/// graph input or an initializer; the names are left out ("v:Greater<v:Gather<s:NonZero<in").
/// The copies of one piece of exporter code have equal chain shapes.
inline std::string chain_shape(const std::vector<ReasonStep>& steps) {
  std::string out;
  for (const ReasonStep& st : steps) {
    if (!out.empty()) out += '<';
    out += st.via_value ? "v:" : "s:";
    if (st.producer == nullptr) {
      out += "in";
      continue;
    }
    if (!st.producer->in_default_domain()) {
      out += st.producer->domain();
      out += "::";
    }
    out += st.producer->op_type();
  }
  return out;
}

/// The shape of the bodies a node holds (If branches, Loop and Scan bodies), for
/// Diagnostic::cause: per body its attribute, node count and a hash of its op types in order,
/// nested bodies included. Two Ifs whose branches were traced from the same code have equal
/// body shapes; "" for a node without bodies.
inline std::string body_shape(const Node& n) {
  std::string out;
  std::vector<const Graph*> pending;
  for (const Graph* g : n.subgraphs()) pending.push_back(g);
  std::reverse(pending.begin(), pending.end());
  while (!pending.empty()) {
    const Graph* g = pending.back();
    pending.pop_back();
    uint64_t h = 1469598103934665603ull;
    for (const Node& m : g->nodes()) {
      for (char c : m.domain()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
      h = (h ^ ':') * 1099511628211ull;
      for (char c : m.op_type()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
      h = (h ^ ';') * 1099511628211ull;
      const std::vector<const Graph*> inner = m.subgraphs();
      for (auto it = inner.rbegin(); it != inner.rend(); ++it) pending.push_back(*it);
    }
    out += fmt::format("{}{}:{}:{:016x}", out.empty() ? "" : ",", g->owner_attribute(),
                       g->nodes().size(), h);
  }
  return out;
}

/// How to avoid a data-dependent output shape of op `op`, in exporter terms.
inline std::string data_dependent_help(std::string_view op) {
  if (op == "NonZero" || op == "Compress") {
    return "boolean-mask indexing (`x[mask]`, `torch.nonzero`, `masked_select`) exports to "
           "NonZero/Compress: use `torch.where(mask, x, fill)` or multiply by the mask to keep "
           "the shape fixed, and reduce afterwards if you need a count";
  }
  if (op == "Unique") {
    return "avoid `torch.unique` inside the model (run it in Python on the output), or pad its "
           "result to a fixed size";
  }
  if (op == "NonMaxSuppression") {
    return "NMS returns a runtime number of boxes: keep a fixed `max_output_boxes_per_class` "
           "and pad the result to it, or run NMS outside the model";
  }
  if (op == "TopK") {
    return "pass K as a constant (a Python int, not a tensor) so that the output shape is fixed";
  }
  if (op == "Loop") {
    return "move data-dependent loops out of the model (run them in Python around it), or give "
           "the loop a constant trip count and mask the extra iterations";
  }
  if (op == "If") {
    return "return tensors of the same shape from both branches, or use `torch.where` instead "
           "of a Python `if` on tensor values";
  }
  if (op == "Range" || op == "ConstantOfShape" || op == "OneHot") {
    return "pass sizes as Python ints (constants at export time), or compute them from "
           "`x.shape`, not from tensor values";
  }
  return "compute shape arguments from constants (Python ints) or from `x.shape` (which "
         "exports as Shape), not from tensor values; otherwise move this computation out of "
         "the model";
}

/// A dim_param that an exporter or shape-inference pass made up for a size it could not name,
/// rather than one the user chose: ONNX/ORT symbolic shape inference's `unk__12`, torch's
/// `<node><output>_dim_<i>` (`Ifx_dim_0`, `GatherNDy_dim_0`). Such a name says nothing about the
/// model, so it is neither echoed as if it meant something nor taken as intent.
inline bool invented_dim_name(std::string_view name) {
  auto digits_after = [&](size_t pos) {
    if (pos >= name.size()) return false;
    for (size_t i = pos; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return false;
    }
    return true;
  };
  if (name.starts_with("unk__") && digits_after(5)) return true;
  const size_t at = name.rfind("_dim_");
  return at != std::string_view::npos && at > 0 && digits_after(at + 5);
}

/// A dim the exporter named on purpose: a non-empty dim_param that is not invented_dim_name().
inline bool named_dim(const Dim& d) {
  return d.kind == Dim::Kind::Param && !d.param.empty() && !invented_dim_name(d.param);
}

/// How a dim reads in a shape: "3", "batch", or "?" (unknown or an invented name).
inline std::string shape_dim_text(const Dim& d) {
  if (d.kind == Dim::Kind::Value && d.value >= 0) return std::to_string(d.value);
  return named_dim(d) ? capped(d.param) : std::string("?");
}

/// How a dynamic dim reads in a list: "0 'batch'", "2 (unnamed)", "0 (unknown size)".
inline std::string dynamic_dim_text(const Dim& d, size_t axis) {
  if (named_dim(d)) return fmt::format("{} '{}'", axis, capped(d.param));
  if (d.kind == Dim::Kind::Param && !d.param.empty()) return fmt::format("{} (unnamed)", axis);
  return fmt::format("{} (unknown size)", axis);
}

/// A value's shape as the analysis computes it: "[N, 3, (H-1)/2+1, 16]", data-set dims named
/// k, k2, ... with their bounds ("k ≤ 100, set by NonZero '/NonZero'"), unknown dims "?".
struct ComputedShape {
  bool known = false;               ///< false when not even the rank is known
  std::string text;                 ///< "[k, 4]"
  std::vector<std::string> bounds;  ///< "k ≤ 100, set by NonZero '/NonZero'" (bounded dims)
  nlohmann::json json;              ///< [4, "N", {"data": "main/NonZero", "max": 100}, null]
};

inline ComputedShape computed_shape(const Provenance& p, ValueId v) {
  ComputedShape out;
  auto dims = v == kNoValue ? std::nullopt : p.dims(v);
  if (!dims) return out;
  out.known = true;
  out.json = nlohmann::json::array();
  std::vector<std::string> parts;
  int data_dims = 0;
  for (const DimFact& d : *dims) {
    switch (d.kind) {
      case DimFact::Kind::Fixed:
        parts.push_back(std::to_string(d.value));
        out.json.push_back(d.value);
        break;
      case DimFact::Kind::Symbolic:
        parts.push_back(d.expr);
        out.json.push_back(d.expr);
        break;
      case DimFact::Kind::Data: {
        std::string name = ++data_dims == 1 ? "k" : fmt::format("k{}", data_dims);
        parts.push_back(name);
        nlohmann::json j = {{"data", d.origin != nullptr ? d.origin->display_name() : ""}};
        std::string by = d.origin != nullptr ? fmt::format(", set by {}", node_label(*d.origin))
                                             : std::string(", set by data");
        // Only a static bound is worth a line: "unbounded" says nothing a reader can use.
        if (d.bound >= 0) {
          j["max"] = d.bound;
          out.bounds.push_back(fmt::format("{} \u2264 {}{}", name, d.bound, by));
        }
        out.json.push_back(std::move(j));
        break;
      }
      case DimFact::Kind::Unknown:
        parts.push_back("?");
        out.json.push_back(nullptr);
        break;
    }
  }
  out.text = fmt::format("[{}]", fmt::join(parts, ", "));
  return out;
}

}  // namespace onnxlint::rules::prov
