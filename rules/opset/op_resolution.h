// Operator resolution, shared by the opset-* and export-* rules: for every node of the model,
// the opset import it resolves against, the schema (or model-local function) it names, and what
// is wrong with its attributes. Computed once per model, so each schema is looked up once per
// node however many rules ask.
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/model.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/rule.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnxlint::rules {

/// How a node's (domain, op_type) resolves.
enum class OpStatus : uint8_t {
  Standard,       // standard domain, a live schema at the imported opset (`schema`)
  LocalFunction,  // a model-local FunctionProto (`function`)
  MissingImport,  // the node's domain has no opset_import (model's, or its function's)
  TooLow,         // known op whose first live version is newer than the import
  Removed,        // the schema in force is deprecated (`schema`)
  Unknown,        // standard domain, op unknown at every version
  BeyondTable,    // import newer than the embedded table: not checked
  Custom,         // non-standard domain and no model-local function
};

/// One problem with one attribute (or a missing required attribute) of a Standard node.
struct AttrIssue {
  enum class Kind : uint8_t {
    NeedsNewer,       // attribute or value accepted only from `version` on (opset-too-low)
    Unknown,          // no version of the op has it
    Removed,          // only older versions had it; `version` is the last opset that did
    WrongType,        // `expected` says another type
    MissingRequired,  // `expected` is required and absent
  };
  Kind kind = Kind::Unknown;
  std::string_view name;
  const Attribute* attribute = nullptr;       // nullptr for MissingRequired
  const AttributeSchema* expected = nullptr;  // WrongType, MissingRequired
  int version = 0;                            // NeedsNewer, Removed
  std::string value;                          // NeedsNewer on a value: the value as text
  std::string_view source;                    // NeedsNewer: changelog section, if known
};

struct OpResolution {
  OpStatus status = OpStatus::Custom;
  std::string_view domain;  // normalized ("" for ai.onnx)
  int64_t opset = 0;        // imported version of the domain (0 when missing)
  /// The import came from the enclosing function's opset_import (else the model's).
  bool import_from_function = false;
  const Function* scope_function = nullptr;  // function whose body holds the node, if any
  /// Standard / Removed: the schema in force. TooLow: the first live version.
  const OpSchema* schema = nullptr;
  /// The model-local function of that (domain, op): LocalFunction, and MissingImport calls.
  const Function* function = nullptr;
  /// The lowest opset of `domain` at which the node is valid as written, when that is newer
  /// than `opset` (TooLow, or Standard with a NeedsNewer attribute); else 0.
  int needed_opset = 0;
  uint32_t issues_begin = 0;
  uint32_t issues_end = 0;
};

class OpResolutionIndex {
 public:
  OpResolutionIndex(const Model& model, AnalysisCache& cache);

  const OpResolution& of(const Node& n) const {
    const std::vector<uint32_t>& ids =
        n.graph() == main_graph_ ? *main_ids_ : by_graph_.at(n.graph());
    return distinct_[ids.at(n.index())];
  }
  /// Whether any node of the model resolves with status `s`: a rule about one status skips
  /// its walk over the nodes when none does.
  bool any(OpStatus s) const { return all_bits_ & status_bit(s); }
  /// Whether any node has an attribute issue, or needs a newer opset than its import.
  bool any_attribute_issue() const { return !issues_.empty(); }
  bool any_needed_opset() const { return all_bits_ & kNeededOpsetBit; }
  /// The same per op (Rule::wants_op): whether any node of `op` resolves with status `s`, has
  /// an attribute issue, or needs a newer opset than its import.
  bool any(OpStatus s, const OpKind& op) const { return bits_of(op) & status_bit(s); }
  bool any_attribute_issue(const OpKind& op) const { return bits_of(op) & kAttributeIssueBit; }
  bool any_needed_opset(const OpKind& op) const { return bits_of(op) & kNeededOpsetBit; }
  std::span<const AttrIssue> issues(const OpResolution& r) const {
    return std::span<const AttrIssue>(issues_).subspan(r.issues_begin,
                                                       r.issues_end - r.issues_begin);
  }

 private:
  // Nodes of one op at one opset resolve alike: each node holds the index of its resolution
  // in distinct_ (4 bytes rather than a copy per node). Nodes with attribute issues have
  // their own entries (their issue ranges differ).
  std::vector<OpResolution> distinct_;
  std::unordered_map<const Graph*, std::vector<uint32_t>> by_graph_;
  const Graph* main_graph_ = nullptr;  // where nearly every lookup goes: no hashing for it
  const std::vector<uint32_t>* main_ids_ = nullptr;
  std::vector<AttrIssue> issues_;
  // Per op id: status_bit(s) for each status its nodes resolve with, and the two flags;
  // all_bits_ is their union, the same facts for the whole model.
  static constexpr uint32_t kAttributeIssueBit = 1u << 30;
  static constexpr uint32_t kNeededOpsetBit = 1u << 31;
  static constexpr uint32_t status_bit(OpStatus s) { return 1u << static_cast<unsigned>(s); }
  std::vector<uint32_t> op_bits_;
  uint32_t all_bits_ = 0;
  uint32_t bits_of(const OpKind& op) const { return op.id < op_bits_.size() ? op_bits_[op.id] : 0; }
};

/// For the opset rules that run in the driver's pass over the nodes (on_node, narrowed per op by
/// Rule::wants_op): the model's OpResolutionIndex, looked up once per rule instance (one per
/// model) rather than once per node.
class ResolvedOps {
 protected:
  const OpResolutionIndex& resolved(RuleContext& ctx) {
    if (ops_ == nullptr) ops_ = &ctx.get<OpResolutionIndex>();
    return *ops_;
  }

 private:
  const OpResolutionIndex* ops_ = nullptr;
};

/// Messages shared by the opset rules.
/// "opset 13" for ai.onnx, "ai.onnx.ml opset 2" for other domains.
std::string opset_text(std::string_view domain, int64_t version);
/// "opset ≥ 16" for ai.onnx, "ai.onnx.ml opset ≥ 4" for other domains.
std::string min_opset_text(std::string_view domain, int64_t version);
/// "model imports 13" / "function 'dom::F' imports ai.onnx.ml 3".
std::string imports_text(const OpResolution& r);
/// Exporter help for raising an opset: `opset_version=N` for ai.onnx, the import for others.
std::string raise_opset_help(std::string_view domain, int version);
/// The text of an attribute value as the value-availability table spells it ("wrap", "1"),
/// or "" when the attribute holds no int or string.
std::string attribute_value_text(const Attribute& a);

/// The formal parameter that actual argument `i` binds to (the last one if it is variadic), or
/// nullptr past the schema's parameters.
inline const ParamSchema* param_for(std::span<const ParamSchema> params, size_t i) {
  if (params.empty()) return nullptr;
  if (i < params.size()) return &params[i];
  if (params.back().option == ParamOption::Variadic) return &params.back();
  return nullptr;
}

}  // namespace onnxlint::rules
