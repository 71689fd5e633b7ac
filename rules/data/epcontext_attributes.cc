// data-epcontext-attributes: EPContext attributes that ONNX Runtime's EP context format does not
// allow: embed_mode / main_context outside {0, 1}, attributes of the wrong type, a main context
// without its context.
#include <fmt/format.h>

#include <algorithm>

#include "rules/categories.h"
#include "rules/data/epcontext.h"

namespace onnxlint::rules {
namespace {

class EpContextAttributes final : public RuleBase<EpContextAttributes> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "data-epcontext-attributes",
        .category = "data",
        .severity = Severity::Error,
        .summary = "EPContext node with attributes the EP context format does not allow",
        .node_ops = {"EPContext"},
    };
    return k;
  }

  void on_node(const Node& n, RuleContext& ctx) override {
    if (!is_epcontext(n)) return;
    std::vector<std::string> problems;
    static constexpr std::string_view kInts[] = {"embed_mode", "main_context", "max_size"};
    static constexpr std::string_view kStrings[] = {"ep_cache_context",
                                                    "ep_sdk_version",
                                                    "hardware_architecture",
                                                    "notes",
                                                    "onnx_model_filename",
                                                    "partition_name",
                                                    "source"};
    for (const Attribute& a : n.attributes()) {
      const bool is_int = std::find(std::begin(kInts), std::end(kInts), a.name) != std::end(kInts);
      const bool is_string =
          std::find(std::begin(kStrings), std::end(kStrings), a.name) != std::end(kStrings);
      if ((is_int && a.type != Attribute::Type::Int) ||
          (is_string && a.type != Attribute::Type::String)) {
        problems.push_back(fmt::format("'{}' must be {}", a.name, is_int ? "an int" : "a string"));
      }
    }
    for (std::string_view name :
         {std::string_view("embed_mode"), std::string_view("main_context")}) {
      const auto v = n.attr_int(name);
      if (v && *v != 0 && *v != 1) problems.push_back(fmt::format("{} is {} (0 or 1)", name, *v));
    }
    const auto cache = n.attr_string("ep_cache_context");
    if (n.attr_int("main_context").value_or(1) == 1 && (!cache || cache->empty())) {
      problems.push_back(
          "main_context is 1 but ep_cache_context is empty: the node references no compiled "
          "context");
    }
    if (problems.empty()) return;
    std::string joined;
    for (size_t i = 0; i < problems.size(); ++i) joined += (i ? "; " : "") + problems[i];
    Diagnostic& d =
        ctx.report(ctx.at_node(n), fmt::format("EPContext '{}': {}", n.display_name(), joined));
    d.help =
        "regenerate the context model with ONNX Runtime (session options ep.context_enable=1, "
        "ep.context_embed_mode, ep.context_file_path) instead of editing EPContext nodes by "
        "hand";
  }
};

}  // namespace

void add_data_epcontext_attributes(RuleRegistry& registry) { registry.add<EpContextAttributes>(); }

}  // namespace onnxlint::rules
