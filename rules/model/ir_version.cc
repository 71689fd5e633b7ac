// model-ir-version: ir_version missing or 0 (error); older than the first ONNX release that
// shipped an imported opset (warning); too old for an element type the model uses (error);
// newer than the tables know (warning).
#include <fmt/format.h>
#include <onnxlint/data_type.h>
#include <onnxlint/opset_table.h>

#include <map>

#include "rules/categories.h"

namespace onnxlint::rules {
namespace {

// Where an element type is first used, and how often.
struct TypeUse {
  Location where;
  std::string what;  // "initializer 'w'", "Cast 'c' attribute 'to'"
  size_t count = 0;
};

class IrVersion final : public RuleBase<IrVersion> {
 public:
  static const RuleInfo& static_info() {
    static const RuleInfo k{
        .id = "model-ir-version",
        .category = "model",
        .severity = Severity::Error,
        .summary =
            "Model whose ir_version is missing, too old for what it uses, or newer than "
            "known",
        .rejected_at_load = true,
    };
    return k;
  }

  void on_model(const Model& m, RuleContext& ctx) override {
    if (!m.has_ir_version() || m.ir_version() <= 0) {
      Diagnostic& d = ctx.report(Severity::Error, ctx.at_model(),
                                 m.has_ir_version() ? "ir_version is 0" : "ir_version is missing");
      d.help = "set model.ir_version (onnx.helper.make_model sets it; e.g. IR 8 for opset 17)";
      return;
    }
    if (m.ir_version() > max_known_ir_version()) {
      Diagnostic& d = ctx.report(
          Severity::Warning, ctx.at_model(),
          fmt::format("ir_version {} is newer than the tables know (IR {} of ONNX {}); newer "
                      "IR features are not checked",
                      m.ir_version(), max_known_ir_version(), onnx_data_version()));
      d.help = "upgrade onnx-lint, or save the model with an older onnx package";
    }
    opsets_need(m, ctx);
  }

  void on_model_end(const Model& m, RuleContext& ctx) override {
    if (!m.has_ir_version() || m.ir_version() <= 0) return;
    std::map<int32_t, TypeUse> uses;
    auto use = [&](int32_t type, auto&& where, auto&& what) {
      const int need = min_ir_version_for_element_type(type);
      if (need == 0 || need <= m.ir_version()) return;
      auto [it, inserted] = uses.try_emplace(type);
      if (inserted) {
        it->second.where = where();
        it->second.what = what();
      }
      ++it->second.count;
    };
    for (const Graph* g : m.all_graphs()) {
      auto value = [&](const ValueInfo& vi, const char* kind) {
        if (vi.type.elem_type == DataType::Undefined) return;
        use(
            vi.type.elem_type, [&] { return ctx.at_value(*g, vi.name); },
            [&] { return fmt::format("{} '{}'", kind, vi.name); });
      };
      for (const ValueInfo& vi : g->inputs()) value(vi, "input");
      for (const ValueInfo& vi : g->outputs()) value(vi, "output");
      for (const ValueInfo& vi : g->value_info()) value(vi, "value");
      for (const TensorData& t : g->initializers()) {
        use(
            t.data_type, [&] { return ctx.at_value(*g, t.name); },
            [&] { return fmt::format("initializer '{}'", t.name); });
      }
      for (const SparseTensorData& s : g->sparse_initializers()) {
        use(
            s.values.data_type, [&] { return ctx.at_value(*g, s.values.name); },
            [&] { return fmt::format("sparse initializer '{}'", s.values.name); });
      }
      for (const Node& n : g->nodes()) {
        if (n.attributes().empty()) continue;
        const bool standard = normalize_domain(n.domain()).empty();
        for (const Attribute& a : n.attributes()) {
          auto what = [&] { return fmt::format("{} attribute '{}'", n.display_name(), a.name); };
          auto where = [&] { return ctx.at_node(n); };
          if (a.t != nullptr) use(a.t->data_type, where, what);
          for (const TensorData* t : a.tensors) use(t->data_type, where, what);
          // Element-type attributes of standard ops (Cast `to`, RandomNormal `dtype`, ...).
          if (standard && a.type == Attribute::Type::Int && a.ref_attr_name.empty() &&
              (a.name == "to" || a.name == "dtype" || a.name == "output_dtype")) {
            use(static_cast<int32_t>(a.i), where, what);
          }
        }
      }
    }
    for (const auto& [type, u] : uses) {
      const int need = min_ir_version_for_element_type(type);
      Diagnostic& d = ctx.report(
          Severity::Error, u.where,
          fmt::format("{} uses element type {}, which needs IR ≥ {}; model has ir_version {}",
                      u.what, data_type_name(type), need, m.ir_version()));
      d.key = std::string(data_type_name(type));
      if (u.count > 1) {
        d.notes.push_back(fmt::format("{} more use{} of {} in the model", u.count - 1,
                                      u.count == 2 ? "" : "s", data_type_name(type)));
      }
      d.help = fmt::format(
          "save the model with ir_version {} or newer (a newer onnx package / exporter sets it), "
          "or cast the tensors to a type IR {} supports",
          need, m.ir_version());
    }
  }

 private:
  // The IR of the first release that shipped each imported opset; one finding for the
  // strictest import.
  static void opsets_need(const Model& m, RuleContext& ctx) {
    int worst = 0;
    std::vector<std::string> notes;
    std::string headline;
    for (const OpsetImport& imp : m.opset_imports()) {
      std::optional<int> need = min_ir_version_for_opset(imp.domain, imp.version);
      if (!need || *need <= m.ir_version()) continue;
      std::string_view domain = normalize_domain(imp.domain);
      std::string text =
          fmt::format("{} {} first shipped in ONNX {} (IR {})", domain_display_name(domain),
                      imp.version, first_release_for_opset(imp.domain, imp.version), *need);
      if (*need > worst) {
        worst = *need;
        headline = text;
      }
      notes.push_back(std::move(text));
    }
    if (worst == 0) return;
    Diagnostic& d = ctx.report(Severity::Warning, ctx.at_model(),
                               fmt::format("ir_version {} is older than the opsets it imports: {}",
                                           m.ir_version(), headline));
    for (const std::string& n : notes) {
      if (n != headline) d.notes.push_back(n);
    }
    d.help = fmt::format(
        "save with ir_version {} or newer (re-export with a current torch / onnx, or set "
        "model.ir_version); runtimes that check the pair may refuse the model",
        worst);
  }
};

}  // namespace

void add_model_ir_version(RuleRegistry& registry) { registry.add<IrVersion>(); }

}  // namespace onnxlint::rules
