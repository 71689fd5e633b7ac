#include <onnxlint/registry.h>

#include "rules/categories.h"

namespace onnxlint {

void register_all_rules(RuleRegistry& registry) {
  register_engine_rules(registry);
  rules::register_data_rules(registry);
  rules::register_export_rules(registry);
  rules::register_flow_rules(registry);
  rules::register_graph_rules(registry);
  rules::register_model_rules(registry);
  rules::register_opset_rules(registry);
  rules::register_quant_rules(registry);
  rules::register_shape_rules(registry);
  rules::register_target_rules(registry);
}

const RuleRegistry& builtin_registry() {
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    register_all_rules(r);
    return r;
  }();
  return registry;
}

}  // namespace onnxlint
