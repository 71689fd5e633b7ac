// FixBuilder (rule.h) and GraphAddress (fix.h): a rule's fix as edits that name graphs by their
// place in the model and nodes by their index.
#include <fmt/format.h>
#include <onnxlint/fix.h>
#include <onnxlint/model.h>
#include <onnxlint/rule.h>

#include <algorithm>

namespace onnxlint {

std::optional<GraphAddress> GraphAddress::of(const Model& model, const Graph& g) {
  switch (g.kind()) {
    case Graph::Kind::Main:
      return GraphAddress{};
    case Graph::Kind::Function: {
      const auto functions = model.functions();
      for (size_t i = 0; i < functions.size(); ++i) {
        if (&functions[i]->body() == &g) {
          GraphAddress a;
          a.function = static_cast<int32_t>(i);
          return a;
        }
      }
      return std::nullopt;
    }
    case Graph::Kind::Subgraph:
      break;
  }
  const Node* owner = g.owner();
  if (owner == nullptr || g.parent() == nullptr) return std::nullopt;
  std::optional<GraphAddress> a = of(model, *g.parent());
  if (!a) return std::nullopt;
  // The position among the owner's subgraphs of the same attribute (a GRAPHS attribute holds
  // several).
  uint32_t graph_index = 0;
  bool found = false;
  for (const Graph* sub : owner->subgraphs()) {
    if (sub == &g) {
      found = true;
      break;
    }
    if (sub->owner_attribute() == g.owner_attribute()) ++graph_index;
  }
  if (!found) return std::nullopt;
  a->steps.push_back({owner->index(), std::string(g.owner_attribute()), graph_index});
  return a;
}

std::string GraphAddress::key() const {
  std::string k = std::to_string(function);
  for (const Step& s : steps) k += fmt::format("/{}:{}:{}", s.node, s.attribute, s.graph_index);
  return k;
}

Edit& FixBuilder::add(Edit::Kind kind, const Graph* g) {
  Edit& e = fix_->edits.emplace_back();
  e.kind = kind;
  if (g != nullptr) {
    if (std::optional<GraphAddress> a = GraphAddress::of(model_, *g)) {
      e.graph = std::move(*a);
    } else {
      // An edit that cannot name its graph must not land on another: apply_fixes() refuses
      // the fix.
      e.graph.function = -2;
    }
  }
  return e;
}

void FixBuilder::remove_node(const Node& n) {
  if (!fix_) return;
  add(Edit::Kind::RemoveNode, n.graph()).node = n.index();
}

void FixBuilder::sort_nodes(const Graph& g, std::vector<uint32_t> order) {
  if (!fix_) return;
  add(Edit::Kind::SortNodes, &g).order = std::move(order);
}

void FixBuilder::rename_node(const Node& n, std::string name) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::RenameNode, n.graph());
  e.node = n.index();
  e.text = std::move(name);
}

void FixBuilder::set_node_input(const Node& n, uint32_t k, std::string value) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::SetNodeInput, n.graph());
  e.node = n.index();
  e.index = k;
  e.text = std::move(value);
}

void FixBuilder::truncate_outputs(const Node& n, uint32_t keep) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::TruncateOutputs, n.graph());
  e.node = n.index();
  e.index = keep;
}

void FixBuilder::set_int_attribute(const Node& n, std::string name, int64_t value) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::SetIntAttribute, n.graph());
  e.node = n.index();
  e.text = std::move(name);
  e.number = value;
}

void FixBuilder::remove_initializer(const Graph& g, std::string name) {
  if (!fix_) return;
  add(Edit::Kind::RemoveInitializer, &g).text = std::move(name);
}

void FixBuilder::remove_graph_input(const Graph& g, std::string name) {
  if (!fix_) return;
  add(Edit::Kind::RemoveGraphInput, &g).text = std::move(name);
}

void FixBuilder::add_initializer(const Graph& g, FixTensor tensor) {
  if (!fix_) return;
  add(Edit::Kind::AddInitializer, &g).tensor = std::move(tensor);
}

void FixBuilder::set_value_shape(const Graph& g, std::string name, int32_t elem_type,
                                 std::vector<FixDim> shape) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::SetValueShape, &g);
  e.text = std::move(name);
  e.number = elem_type;
  e.shape = std::move(shape);
}

void FixBuilder::clamp_initializer(const Graph& g, std::string name, double bound) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::ClampFloats, &g);
  e.text = std::move(name);
  e.bound = bound;
}

void FixBuilder::clamp_attribute(const Node& n, std::string attribute, double bound) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::ClampFloats, n.graph());
  e.node = n.index();
  e.index = 1;
  e.text = std::move(attribute);
  e.bound = bound;
}

void FixBuilder::inline_branch(const Node& n, std::string attribute) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::InlineBranch, n.graph());
  e.node = n.index();
  e.text = std::move(attribute);
}

void FixBuilder::add_opset_import(std::string domain, int64_t version) {
  if (!fix_) return;
  Edit& e = add(Edit::Kind::AddOpsetImport, nullptr);
  e.text = std::move(domain);
  e.number = version;
}

}  // namespace onnxlint
