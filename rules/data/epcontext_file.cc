// data-epcontext-file: an EPContext node with embed_mode 0 names its blob file relative to the
// model's folder: the file must be there (stat only, never read) and must not lie outside it.
#include <fmt/format.h>

#include "rules/categories.h"
#include "rules/data/epcontext.h"
#include "rules/data/external_data.h"

namespace onnxlint::rules {
namespace {

class EpContextFile final : public RuleBase<EpContextFile> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-epcontext-file",
        .category = "data",
        .severity = Severity::Error,
        .summary = "EPContext node whose context file is missing or outside the model's folder",
        .node_ops = {"EPContext"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_epcontext(n) || n.attr_int("embed_mode").value_or(1) != 0) return;
    const auto location = n.attr_string("ep_cache_context");
    if (!location || location->empty()) return;  // data-epcontext-attributes reports it
    if (!real_dir_) real_dir_ = real_model_dir(ctx.model());
    const LocalFile f = check_local_file(ctx.model(), *real_dir_, *location);
    std::string problem;
    switch (f.problem) {
      case LocalFile::Problem::None:
        return;
      case LocalFile::Problem::Absolute:
        problem = "is an absolute path (the file must ship in the model's folder)";
        break;
      case LocalFile::Problem::LeavesFolder:
        problem = "is outside the model's folder ('..')";
        break;
      case LocalFile::Problem::SymlinkOut:
        problem = "resolves through a symlink to a file outside the model's folder";
        break;
      case LocalFile::Problem::Missing:
        problem = "does not exist next to the model";
        break;
      case LocalFile::Problem::NotRegular:
        problem = "is not a regular file";
        break;
    }
    Location loc = ctx.at_node(n);
    loc.attribute = "ep_cache_context";
    Diagnostic& d =
        ctx.report(std::move(loc), fmt::format("EPContext '{}' keeps its compiled context in '{}' "
                                               "(embed_mode 0), which {}",
                                               n.display_name(), *location, problem));
    d.help =
        "ship the context file with the model, in its folder (ONNX Runtime writes it beside the "
        "_ctx.onnx file), or regenerate the model with the session option "
        "ep.context_embed_mode=1 to embed the context in the model";
  }

 private:
  std::optional<std::filesystem::path> real_dir_;
};

}  // namespace

void add_data_epcontext_file(RuleRegistry& registry) { registry.add<EpContextFile>(); }

}  // namespace onnxlint::rules
