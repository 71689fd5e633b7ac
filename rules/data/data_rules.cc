#include "rules/categories.h"

namespace onnxlint::rules {

void register_data_rules(RuleRegistry& registry) {
  add_data_external_missing(registry);
  add_data_external_out_of_bounds(registry);
  add_data_external_path_escape(registry);
  add_data_size_mismatch(registry);
}

}  // namespace onnxlint::rules
