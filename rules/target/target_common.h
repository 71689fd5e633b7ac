// Shared helpers of the target-* rules: the selected targets, how a node is checked against a
// target table, and two small analyses (known value facts, constant-derived values).
#pragma once

#include <onnxlint/analysis.h>
#include <onnxlint/element_types.h>
#include <onnxlint/fold_states.h>
#include <onnxlint/graph_index.h>
#include <onnxlint/model.h>
#include <onnxlint/opset_table.h>
#include <onnxlint/rule.h>
#include <onnxlint/targets.h>
#include <onnxlint/value_table.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace onnxlint::rules::target {

/// The targets selected with --target / config `targets`, resolved (ids or aliases), without
/// duplicates, in selection order. Names that resolve to nothing are skipped (the CLI rejects
/// them before linting).
std::vector<const TargetInfo*> selected_targets(const RuleContext& ctx);

/// ONNX Runtime's own domains: contrib ops (com.microsoft), the layouts its optimizer writes
/// (com.microsoft.nchwc, com.ms.internal.nhwc) and its DirectML / experimental ops.
inline bool is_onnxruntime_domain(std::string_view d) {
  return d == "com.microsoft" || d == "com.microsoft.nchwc" || d == "com.ms.internal.nhwc" ||
         d == "com.microsoft.dml" || d == "com.microsoft.experimental";
}

/// The target is an ONNX Runtime execution provider (its id starts with "onnxruntime-").
inline bool is_onnxruntime_target(const TargetInfo& t) { return t.id.starts_with("onnxruntime-"); }

/// The model-local function a graph belongs to (through its parents), or nullptr.
const Function* enclosing_function(const Graph& g);

/// The opset a node in `g` sees for `domain`: the enclosing function's opset_import when the
/// graph is (inside) a function body and the function imports the domain, else the model's.
/// 0 when the domain is not imported.
int visible_opset(const Model& model, const Graph& g, std::string_view domain);

/// True when the node calls a model-local function: it is not an operator of any runtime (the
/// function body's nodes are checked instead).
bool calls_local_function(const Model& model, const Node& n);

/// How one node fares on one target.
struct NodeCheck {
  bool function_call = false;  // calls a model-local function: not checked as an op
  int opset = 0;               // visible opset of the node's domain (0 = not imported)
  int since = 0;               // schema since-version at that opset (0 = unknown)
  /// The opset lies outside the target-wide bounds for the domain (target-opset-range reports
  /// it once for the model); `op` is then checked without the opset.
  bool opset_out_of_range = false;
  /// The target folds the node into an initializer before assigning nodes (it is computed only
  /// from constants and TargetInfo::constant_folding is set): it needs no kernel.
  bool folded = false;
  /// The target has no kernel for the node but expands it into its schema's function body
  /// (TargetInfo::inlines_functions); the body's ops are not checked.
  bool expanded = false;
  OpCheck op;
  /// The node can run on the target as far as the tables tell.
  bool supported() const {
    return !function_call && !opset_out_of_range && (folded || expanded || op.supported());
  }
  /// The target has to run the node itself (not folded away or expanded, not a function call).
  bool runs_node() const { return !function_call && !folded && !expanded; }
};

/// The severity of a node a target cannot take as the model has it: a warning where the runtime
/// runs the node elsewhere (TargetInfo::cpu_fallback: ONNX Runtime execution providers hand it to
/// another provider, usually the CPU; onnx-mlir NNPA runs it on the CPU), an error where the
/// conversion or session fails (TensorRT's ONNX parser, OpenVINO's frontend, onnx-mlir CPU,
/// onnx2tf).
Severity node_failure_severity(const TargetInfo& t);

/// Per-node findings of a target rule, grouped: the nodes of one op type that fail on one target
/// for one reason are one finding. Its location is the first node (graph order of the walk); the
/// other nodes are related locations, so JSON and SARIF list every node.
class NodeFindings {
 public:
  /// Adds one node's finding (message, notes, help, key and target filled; location and
  /// severity are set here). Findings of equal (target, op, `reason`) are merged.
  /// `severity`: the group's severity when not node_failure_severity(t).
  void add(const TargetInfo& t, const Node& n, const std::string& reason, Diagnostic d,
           Location where, std::optional<Severity> severity = std::nullopt);
  /// Reports every group at its severity (a user override of the rule's severity wins). A group of
  /// one is reported as added; a larger one with `several(first, reason, count)` as its message.
  using Several =
      std::function<std::string(const Diagnostic& first, const std::string& reason, size_t count)>;
  void report(RuleContext& ctx, const Several& several);

 private:
  struct Group {
    const TargetInfo* target = nullptr;
    std::string reason;
    Severity severity = Severity::Error;
    Diagnostic first;
    std::vector<Location> more;
  };
  std::vector<Group> groups_;
  std::map<std::tuple<const TargetInfo*, std::string, std::string, std::string>, size_t> index_;
};

/// `folds` (optional) enables constant folding for targets that fold.
NodeCheck check_node(const Model& model, const TargetInfo& target, const Node& n,
                     const FoldStates* folds = nullptr);

/// One element type a target's kernel does not take: the values of `n` bound to type parameter
/// `param` that have element type `elem_type`.
struct TypeOffence {
  std::string_view param;
  int32_t elem_type = 0;
  std::vector<std::string_view> inputs, outputs;
  std::span<const std::string_view> allowed;  // the kernel's types for `param`
  /// The ORT kernel whose since-version range holds the node; nullptr for tables with one type
  /// list per op (TensorRT), which constrain the op's main data tensor only.
  const TypedRange* kernel = nullptr;
};

/// The element types of `n` that target `t` does not support (target-unsupported-type), where
/// both the inferred type (ElementTypes: declarations never override inference) and the
/// table's type list are known, ordered by (param, type). Empty
/// when the target does not run the node itself or its op is not supported (`nc` from
/// check_node): types only matter once the op runs.
std::vector<TypeOffence> unsupported_types(const Model& model, const TargetInfo& t, const Node& n,
                                           const NodeCheck& nc, const ElementTypes& types);

/// The node's schema at its visible opset (standard domains only), or nullptr.
const OpSchema* node_schema(const Model& model, const Node& n);

/// "Conv" for ai.onnx, "com.microsoft:FusedConv" otherwise.
std::string op_label(std::string_view domain, std::string_view op);

/// Comma-separated list ("float, float16") of ORT type strings shown as element type names.
std::string type_list_text(std::span<const std::string_view> types);

/// The element type name of an ORT type string: "tensor(float16)" -> "float16".
std::string_view type_short_name(std::string_view type_string);

}  // namespace onnxlint::rules::target
