#include "rules/categories.h"

namespace onnxlint::rules {

void add_quant_integer_arithmetic(RuleRegistry& registry);
void add_quant_per_channel_opset(RuleRegistry& registry);
void add_quant_qdq_mismatch(RuleRegistry& registry);
void add_quant_scale_length(RuleRegistry& registry);

void register_quant_rules(RuleRegistry& registry) {
  add_quant_integer_arithmetic(registry);
  add_quant_per_channel_opset(registry);
  add_quant_qdq_mismatch(registry);
  add_quant_scale_length(registry);
}

}  // namespace onnxlint::rules
