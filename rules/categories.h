// Each category's registration function. A rule file defines its rule class privately and
// exposes one `add_<rule_id>(RuleRegistry&)`, declared and called (sorted by id) in its
// category's `<category>_rules.cc`.
#pragma once

#include <onnxlint/registry.h>

namespace onnxlint::rules {

void register_data_rules(RuleRegistry& registry);
void register_export_rules(RuleRegistry& registry);
void register_flow_rules(RuleRegistry& registry);
void register_graph_rules(RuleRegistry& registry);
void register_model_rules(RuleRegistry& registry);
void register_opset_rules(RuleRegistry& registry);
void register_quant_rules(RuleRegistry& registry);
void register_shape_rules(RuleRegistry& registry);
void register_target_rules(RuleRegistry& registry);

}  // namespace onnxlint::rules
