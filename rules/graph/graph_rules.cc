#include "rules/categories.h"

namespace onnxlint::rules {

void register_graph_rules(RuleRegistry& registry) {
  add_graph_dead_node(registry);
  add_graph_duplicate_node_name(registry);
  add_graph_duplicate_value(registry);
  add_graph_initializer_as_input(registry);
  add_graph_missing_output(registry);
  add_graph_undefined_value(registry);
  add_graph_unsorted_nodes(registry);
  add_graph_unused_initializer(registry);
  add_graph_unused_input(registry);
}

}  // namespace onnxlint::rules
