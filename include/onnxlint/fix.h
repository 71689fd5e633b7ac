// Fixes: what a rule proposes to change in the model, as edits on the model's structure, and
// the fix mode that applies them (`onnx-lint --fix`, docs/fixes.md).
//
// A rule declares its fix beside its finding (RuleContext::fix). The edits name graphs by
// their structural address and nodes by their index, never by pointer, so that a fix outlives
// the model view it was found on; apply_fixes() applies every edit of a set of fixes to an
// onnx::ModelProto at once, and fix_model() runs the loop lint → apply → lint again until no
// fix is left.
#pragma once

#include <onnxlint/diagnostic.h>
#include <onnxlint/export.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnx {
class ModelProto;
}

namespace ONNXLINT_API onnxlint {

class Graph;
class Linter;
class Model;
struct FileReport;

/// Where a graph is in the model: the main graph, a function body (`function` is its index
/// in the model's functions), or a subgraph reached from one of those through `steps`: each
/// step is the node (index in the graph so far) and its graph attribute (a GRAPH attribute;
/// `graph_index` is the position in a GRAPHS attribute).
struct GraphAddress {
  struct Step {
    uint32_t node = 0;
    std::string attribute;
    uint32_t graph_index = 0;
  };
  int32_t function = -1;  ///< -1: the main graph
  std::vector<Step> steps;

  /// The address of `g` in `model`; nullopt when the view cannot say (a graph of a GRAPHS
  /// attribute that is not found).
  static std::optional<GraphAddress> of(const Model& model, const Graph& g);
  friend bool operator==(const GraphAddress&, const GraphAddress&) = default;
  friend auto operator<=>(const GraphAddress& a, const GraphAddress& b) {
    return a.key() <=> b.key();
  }

 private:
  std::string key() const;
};

/// A tensor a fix adds: an initializer holding the value the analysis proved.
struct FixTensor {
  std::string name;
  int32_t elem_type = 7;        ///< TensorProto.DataType: INT64 (7) or INT32 (6)
  std::vector<int64_t> dims;    ///< the shape ({} = a scalar)
  std::vector<int64_t> values;  ///< row-major, converted to elem_type when written
};

/// A declared shape dimension a fix writes: a size, or a symbolic name (`param`).
struct FixDim {
  std::optional<int64_t> value;
  std::string param;
};

/// One change to the model. Node indices are positions in the graph as linted; every edit of
/// one application refers to that same state (apply_fixes() applies them all at once).
struct Edit {
  enum class Kind : uint8_t {
    RemoveNode,         ///< node
    SortNodes,          ///< order: every node index once, in the new order
    RenameNode,         ///< node, text = the new name
    SetNodeInput,       ///< node, index, text = the value name ("" omits it)
    TruncateOutputs,    ///< node, index = how many outputs to keep
    SetIntAttribute,    ///< node, text = attribute name, number = the value
    RemoveInitializer,  ///< text = its name
    RemoveGraphInput,   ///< text = its name
    AddInitializer,     ///< tensor
    SetValueShape,      ///< text = graph output or value_info name, shape, number = elem type
    AddOpsetImport,     ///< text = domain, number = version (model-wide; graph unused)
    /// node (an If), text = the branch attribute whose nodes replace it: the branch's outputs
    /// renamed to the If's outputs (an Identity where a branch output is not computed in the
    /// branch), its initializers and value_info moved to the graph.
    InlineBranch,
    /// The float values of a tensor beyond ±`bound` become ±`bound` (±inf too): an
    /// initializer (text = its name), or with `index` 1 the tensor attribute `text` of `node`.
    /// Float, double and float16 tensors stored in the file (not external data).
    ClampFloats,
  };
  Kind kind = Kind::RemoveNode;
  GraphAddress graph;
  uint32_t node = 0;
  uint32_t index = 0;
  int64_t number = 0;
  std::string text;
  std::vector<uint32_t> order;
  std::optional<FixTensor> tensor;
  std::vector<FixDim> shape;
  double bound = 0;
};

/// A fix as a rule proposes it: what it does (one sentence, for reports and --diff), how safe
/// it is, and its edits.
struct Fix {
  FixSafety safety = FixSafety::Safe;
  std::string description;
  std::vector<Edit> edits;
};

/// A fix of one finding, as the lint found it (FileReport::fixes, with LintOptions::collect_fixes).
struct PlannedFix {
  std::string rule_id;
  Location location;
  std::string message;
  Fix fix;
};

/// What apply_fixes() did.
struct ApplyOutcome {
  size_t applied = 0;  ///< fixes with every edit applied
  /// Fixes left out, and why: an edit that names a graph, node or value the model does not
  /// have, or that conflicts with an edit applied before it.
  std::vector<std::pair<size_t, std::string>> skipped;
  std::vector<bool> applied_fix;  ///< per fix given
};

/// Applies `fixes` to `model` at once: every edit names the model as it was before this call.
/// A fix whose edits cannot all be applied is left out whole (ApplyOutcome::skipped).
ApplyOutcome apply_fixes(onnx::ModelProto& model, const std::vector<const Fix*>& fixes);

/// What `--fix` is asked to do.
struct FixOptions {
  bool unsafe = false;   ///< `--unsafe-fixes`: apply unsafe fixes too
  bool dry_run = false;  ///< `--diff`: compute, do not write
  /// `--fix-output`: where to write; empty = beside the input, `<stem>.fixed.onnx`.
  std::filesystem::path output;
  /// `--fix-dims name=size`: symbolic dims of the graph inputs made fixed before fixing.
  std::map<std::string, int64_t, std::less<>> dims;
  /// Rounds of lint → apply; each round's fixes may enable others (a folded Shape leaves its
  /// producers dead).
  int max_passes = 16;
};

/// A fix that was applied, for the report.
struct AppliedFix {
  std::string rule_id;
  Location location;  ///< in the model as it was in that pass
  std::string message;
  FixSafety safety = FixSafety::Safe;
  std::string description;
  int pass = 1;
};

/// The outcome of fixing one model (FileReport::fixing).
struct FixSummary {
  std::string input;
  std::string output;  ///< the file written ("" with dry_run or when nothing was written)
  bool written = false;
  bool dry_run = false;
  int passes = 0;
  std::vector<AppliedFix> applied;
  /// Dims `--fix-dims` fixed ("batch=1"), sorted by name.
  std::vector<std::string> fixed_dims;
  /// `--fix-dims`: value_info entries declared with the static shape the fixed dims made them
  /// (the graph outputs are shape-dynamic-output's fix).
  uint64_t declared_shapes = 0;
  /// Findings left with an unsafe fix `--unsafe-fixes` would apply.
  uint64_t unsafe_available = 0;
  /// Why the model was not fixed or written, where the run asked for something it cannot do
  /// (a `--fix-dims` name no input has, an output that cannot be written): exit code 2. ""
  /// = it was, or there was nothing to fix.
  std::string error;
  /// Why the model itself cannot be rewritten (protobuf's parser refuses it, or it is over
  /// 2 GiB): said in the report, the exit code is the findings'. "" = it can.
  std::string not_fixable;
  /// External-data files copied beside the output (an output in another folder).
  std::vector<std::string> copied_data;
  /// The target verdicts of the model as given, before any fix (the report has those after):
  /// what `--fix-dims` bought on a static-shape target.
  struct VerdictBefore {
    std::string target;
    std::string support;  ///< "full", "partial" or "unsupported"
    std::string line;     ///< as the text report's target summary says it
  };
  std::vector<VerdictBefore> verdicts_before;
};

/// The default output path: `dir/stem.fixed.onnx` beside `input`.
std::filesystem::path default_fix_output(const std::filesystem::path& input);

/// Fixes the model at `path` with `linter`'s rules (their fixes are collected whatever the
/// linter's options say): lints, applies the fixes `options` allow, lints again, until none is
/// left or `max_passes`; writes the result (never over `path`), and returns the report of the
/// written model (the path as written) with `fixing` filled. A model that cannot be read, parsed
/// or written is reported as it is, with FixSummary::error saying why.
FileReport fix_model(const Linter& linter, const std::string& path, const FixOptions& options);

/// The same for a model in memory: returns the fixed bytes in `fixed` (nothing is written;
/// `name` is the model's name in reports, `directory` where its external data is).
FileReport fix_bytes(const Linter& linter, const std::string& name, std::string_view bytes,
                     const std::string& directory, const FixOptions& options, std::string& fixed);

}  // namespace onnxlint
