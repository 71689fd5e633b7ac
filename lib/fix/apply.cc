// apply_fixes (fix.h): every edit of a set of fixes applied to an onnx::ModelProto at once.
//
// Edits name the model as it was linted (node indices, graph addresses through node indices),
// so all of them are checked and their graphs resolved first, then the edits that keep node
// positions (renames, inputs, attributes, initializers, declared shapes) are applied, and the
// node lists are rebuilt last, once per graph: removals and a new order in one pass.
#include <fmt/format.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/fix.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_set>

namespace onnxlint {

namespace {

using NodeList = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

// A graph the edits may change: a GraphProto, or a function body (its nodes only).
struct Target {
  onnx::GraphProto* graph = nullptr;
  onnx::FunctionProto* function = nullptr;
  NodeList* nodes() { return graph ? graph->mutable_node() : function->mutable_node(); }
};

// The first attribute of `n` named `name`, or nullptr.
onnx::AttributeProto* attribute_of(onnx::NodeProto& n, std::string_view name) {
  for (onnx::AttributeProto& a : *n.mutable_attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

// The graph of GRAPH attribute `name` of `n` (an If's branch), or nullptr.
onnx::GraphProto* branch_of(onnx::NodeProto& n, std::string_view name) {
  onnx::AttributeProto* a = attribute_of(n, name);
  return a != nullptr && a->has_g() ? a->mutable_g() : nullptr;
}

// The tensor a ClampFloats edit names in `t`: the node's tensor attribute (`index` 1) or the
// graph's initializer; nullptr when there is none.
onnx::TensorProto* clamp_target(Target& t, const Edit& e) {
  if (e.index == 1) {
    onnx::AttributeProto* a = attribute_of(*t.nodes()->Mutable(static_cast<int>(e.node)), e.text);
    return a != nullptr && a->has_t() ? a->mutable_t() : nullptr;
  }
  if (t.graph == nullptr) return nullptr;
  for (onnx::TensorProto& x : *t.graph->mutable_initializer()) {
    if (x.name() == e.text) return &x;
  }
  return nullptr;
}

std::optional<Target> resolve(onnx::ModelProto& model, const GraphAddress& a) {
  Target t;
  if (a.function == -1) {
    t.graph = model.mutable_graph();
  } else if (a.function >= 0 && a.function < model.functions_size()) {
    t.function = model.mutable_functions(a.function);
  } else {
    return std::nullopt;
  }
  for (const GraphAddress::Step& s : a.steps) {
    NodeList* nodes = t.nodes();
    if (s.node >= static_cast<uint32_t>(nodes->size())) return std::nullopt;
    onnx::AttributeProto* attr =
        attribute_of(*nodes->Mutable(static_cast<int>(s.node)), s.attribute);
    onnx::GraphProto* next = nullptr;
    if (attr != nullptr && attr->has_g() && s.graph_index == 0) {
      next = attr->mutable_g();
    } else if (attr != nullptr && s.graph_index < static_cast<uint32_t>(attr->graphs_size())) {
      next = attr->mutable_graphs(static_cast<int>(s.graph_index));
    }
    if (next == nullptr) return std::nullopt;
    t = Target{next, nullptr};
  }
  return t;
}

// What the accepted fixes do to one graph's node list.
struct GraphPlan {
  Target target;
  std::set<uint32_t> removed;
  /// Nodes whose fields an edit changes, and the fix that does (one fix per node).
  std::map<uint32_t, size_t> edited;
  bool has_edits = false;  ///< an edit of any kind lands in this graph
  std::optional<std::vector<uint32_t>> order;
  /// If nodes replaced by a branch: node -> branch attribute.
  std::map<uint32_t, std::string> inlined;
};

bool is_permutation_of(const std::vector<uint32_t>& order, size_t n) {
  if (order.size() != n) return false;
  std::vector<bool> seen(n, false);
  for (uint32_t i : order) {
    if (i >= n || seen[i]) return false;
    seen[i] = true;
  }
  return true;
}

// The reason an edit cannot be applied next to the plans so far ("" = it can).
std::string check(onnx::ModelProto& model, const Edit& e, size_t fix,
                  std::map<GraphAddress, GraphPlan>& plans, std::set<std::string>& domains) {
  if (e.kind == Edit::Kind::AddOpsetImport) {
    for (const auto& imp : model.opset_import()) {
      if (imp.domain() == e.text) return "the opset import exists";
    }
    if (domains.count(e.text)) return "another fix adds that opset import";
    return "";
  }
  auto it = plans.find(e.graph);
  if (it == plans.end()) {
    std::optional<Target> t = resolve(model, e.graph);
    if (!t) return "its graph is not in the model";
    // A graph inside a node that a fix removes goes with it.
    it = plans.emplace(e.graph, GraphPlan{*t, {}, {}, {}}).first;
  }
  GraphAddress parent = e.graph;
  while (!parent.steps.empty()) {
    const uint32_t owner = parent.steps.back().node;
    parent.steps.pop_back();
    auto p = plans.find(parent);
    if (p != plans.end() && p->second.removed.count(owner)) {
      return "another fix removes the node that holds its graph";
    }
  }
  GraphPlan& plan = it->second;
  const size_t node_count = static_cast<size_t>(plan.target.nodes()->size());
  const bool on_graph = plan.target.graph != nullptr;
  switch (e.kind) {
    case Edit::Kind::RemoveNode: {
      if (e.node >= node_count) return "no such node";
      auto edited = plan.edited.find(e.node);
      if (edited != plan.edited.end() && edited->second != fix) return "another fix edits the node";
      // A graph the node holds that another fix edits would be edited in vain.
      for (const auto& [address, other] : plans) {
        if (!other.has_edits || address.function != e.graph.function ||
            address.steps.size() <= e.graph.steps.size() ||
            address.steps[e.graph.steps.size()].node != e.node) {
          continue;
        }
        if (std::equal(e.graph.steps.begin(), e.graph.steps.end(), address.steps.begin(),
                       [](const GraphAddress::Step& a, const GraphAddress::Step& b) {
                         return a.node == b.node && a.attribute == b.attribute &&
                                a.graph_index == b.graph_index;
                       })) {
          return "another fix edits a graph the node holds";
        }
      }
      return "";
    }
    case Edit::Kind::SortNodes:
      if (!is_permutation_of(e.order, node_count)) return "the order is not a permutation";
      if (plan.order) return "another fix orders the graph";
      return "";
    case Edit::Kind::ClampFloats: {
      if (e.index == 1 && e.node >= node_count) return "no such node";
      if (e.index == 1 && plan.removed.count(e.node)) return "another fix removes the node";
      const onnx::TensorProto* t = clamp_target(plan.target, e);
      if (t == nullptr) return "no such tensor";
      if (t->data_location() == onnx::TensorProto::EXTERNAL) {
        return "the tensor is in external data, which fixes do not rewrite";
      }
      if (t->data_type() != onnx::TensorProto::FLOAT &&
          t->data_type() != onnx::TensorProto::DOUBLE &&
          t->data_type() != onnx::TensorProto::FLOAT16) {
        return "not a float tensor";
      }
      return "";
    }
    case Edit::Kind::InlineBranch: {
      if (e.node >= node_count) return "no such node";
      if (plan.removed.count(e.node)) return "another fix removes the node";
      if (plan.edited.count(e.node)) return "another fix edits the node";
      onnx::NodeProto& n = *plan.target.nodes()->Mutable(static_cast<int>(e.node));
      if (n.op_type() != "If") return "not an If";
      const onnx::GraphProto* branch = branch_of(n, e.text);
      if (branch == nullptr) return "no such branch";
      if (branch->output_size() != n.output_size()) return "the branch's outputs do not match";
      if (!on_graph && (branch->initializer_size() > 0 || branch->sparse_initializer_size() > 0)) {
        return "a function body cannot take the branch's initializers";
      }
      return "";
    }
    case Edit::Kind::RenameNode:
    case Edit::Kind::SetNodeInput:
    case Edit::Kind::TruncateOutputs:
    case Edit::Kind::SetIntAttribute: {
      if (e.node >= node_count) return "no such node";
      if (plan.removed.count(e.node)) return "another fix removes the node";
      if (auto edited = plan.edited.find(e.node);
          edited != plan.edited.end() && edited->second != fix) {
        return "another fix edits the node";
      }
      const onnx::NodeProto& n = plan.target.nodes()->Get(static_cast<int>(e.node));
      if (e.kind == Edit::Kind::SetNodeInput && e.index > static_cast<uint32_t>(n.input_size())) {
        return "no such input";
      }
      if (e.kind == Edit::Kind::TruncateOutputs &&
          e.index > static_cast<uint32_t>(n.output_size())) {
        return "no such output";
      }
      if (e.kind == Edit::Kind::SetIntAttribute) {
        for (const auto& attr : n.attribute()) {
          if (attr.name() == e.text && attr.type() != onnx::AttributeProto::INT) {
            return "the attribute is not an int";
          }
        }
      }
      return "";
    }
    case Edit::Kind::RemoveInitializer:
    case Edit::Kind::RemoveGraphInput:
      return on_graph ? "" : "a function has no initializers or typed inputs";
    case Edit::Kind::AddInitializer: {
      if (!on_graph) return "a function has no initializers";
      if (!e.tensor || e.tensor->name.empty()) return "no tensor";
      if (e.tensor->elem_type != onnx::TensorProto::INT64 &&
          e.tensor->elem_type != onnx::TensorProto::INT32) {
        return "only int64 and int32 tensors are written";
      }
      int64_t count = 1;
      for (int64_t d : e.tensor->dims) {
        if (d < 0 || (d > 0 && count > (int64_t{1} << 40) / d)) return "bad dims";
        count *= d;
      }
      if (count != static_cast<int64_t>(e.tensor->values.size())) {
        return "the values do not fill the dims";
      }
      return "";
    }
    case Edit::Kind::SetValueShape:
      return on_graph ? "" : "a function body declares no types";
    case Edit::Kind::AddOpsetImport:
      break;
  }
  return "";
}

// Records an accepted edit in its graph's plan (after check()).
void plan_edit(const Edit& e, size_t fix, std::map<GraphAddress, GraphPlan>& plans,
               std::set<std::string>& domains) {
  if (e.kind == Edit::Kind::AddOpsetImport) {
    domains.insert(e.text);
    return;
  }
  GraphPlan& plan = plans.at(e.graph);
  plan.has_edits = true;
  switch (e.kind) {
    case Edit::Kind::RemoveNode:
      plan.removed.insert(e.node);
      break;
    case Edit::Kind::SortNodes:
      plan.order = e.order;
      break;
    case Edit::Kind::RenameNode:
    case Edit::Kind::SetNodeInput:
    case Edit::Kind::TruncateOutputs:
    case Edit::Kind::SetIntAttribute:
      plan.edited.emplace(e.node, fix);
      break;
    case Edit::Kind::InlineBranch:
      plan.edited.emplace(e.node, fix);
      plan.inlined.emplace(e.node, e.text);
      break;
    default:
      break;
  }
}

void write_tensor(const FixTensor& t, onnx::TensorProto& out) {
  out.Clear();
  out.set_name(t.name);
  out.set_data_type(t.elem_type);
  for (int64_t d : t.dims) out.add_dims(d);
  for (int64_t v : t.values) {
    if (t.elem_type == onnx::TensorProto::INT32) {
      out.add_int32_data(static_cast<int32_t>(v));
    } else {
      out.add_int64_data(v);
    }
  }
}

void write_shape(const Edit& e, onnx::ValueInfoProto& v) {
  onnx::TypeProto_Tensor* tensor = v.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(static_cast<int32_t>(e.number));
  onnx::TensorShapeProto* shape = tensor->mutable_shape();
  shape->Clear();
  for (const FixDim& d : e.shape) {
    onnx::TensorShapeProto_Dimension* dim = shape->add_dim();
    if (d.value) {
      dim->set_dim_value(*d.value);
    } else if (!d.param.empty()) {
      dim->set_dim_param(d.param);
    }
  }
}

// Values beyond ±bound (±inf too; NaN stays) become ±bound, in raw_data or the typed field.
template <class T>
T clamped(T v, double bound) {
  if (v > bound) return static_cast<T>(bound);
  if (v < -bound) return static_cast<T>(-bound);
  return v;
}

// A float16 bit pattern clamped to the largest half, ±65504 (the bound of every float16 fix):
// ±inf becomes it, NaN stays.
uint16_t clamped_half(uint16_t h) {
  const uint16_t magnitude = h & 0x7fff;
  if (magnitude > 0x7c00) return h;  // NaN
  const uint16_t largest = 0x7bff;   // 65504: the bound of every float16 fix
  if (magnitude <= largest) return h;
  return static_cast<uint16_t>((h & 0x8000) | largest);
}

void clamp_floats(onnx::TensorProto& t, double bound) {
  std::string* raw = t.has_raw_data() ? t.mutable_raw_data() : nullptr;
  auto in_raw = [&](auto zero) {
    using T = decltype(zero);
    for (size_t i = 0; i + sizeof(T) <= raw->size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, raw->data() + i, sizeof v);  // little-endian hosts (ONNX's byte order)
      v = clamped(v, bound);
      std::memcpy(raw->data() + i, &v, sizeof v);
    }
  };
  switch (t.data_type()) {
    case onnx::TensorProto::FLOAT:
      if (raw) {
        in_raw(float{});
      } else {
        for (float& v : *t.mutable_float_data()) v = clamped(v, bound);
      }
      break;
    case onnx::TensorProto::DOUBLE:
      if (raw) {
        in_raw(double{});
      } else {
        for (double& v : *t.mutable_double_data()) v = clamped(v, bound);
      }
      break;
    case onnx::TensorProto::FLOAT16:
      if (raw) {
        for (size_t i = 0; i + 2 <= raw->size(); i += 2) {
          uint16_t h;
          std::memcpy(&h, raw->data() + i, 2);
          h = clamped_half(h);
          std::memcpy(raw->data() + i, &h, 2);
        }
      } else {
        for (int32_t& v : *t.mutable_int32_data()) {
          v = clamped_half(static_cast<uint16_t>(v));
        }
      }
      break;
    default:
      break;
  }
}

// The edits that keep every node where it is.
void apply_in_place(onnx::ModelProto& model, const Edit& e, Target& t) {
  auto node = [&]() -> onnx::NodeProto& { return *t.nodes()->Mutable(static_cast<int>(e.node)); };
  switch (e.kind) {
    case Edit::Kind::RenameNode:
      node().set_name(e.text);
      break;
    case Edit::Kind::SetNodeInput: {
      onnx::NodeProto& n = node();
      if (e.index == static_cast<uint32_t>(n.input_size())) {
        n.add_input(e.text);
      } else {
        n.set_input(static_cast<int>(e.index), e.text);
      }
      // Trailing omitted inputs say nothing: drop them.
      while (n.input_size() > 0 && n.input(n.input_size() - 1).empty()) {
        n.mutable_input()->RemoveLast();
      }
      break;
    }
    case Edit::Kind::TruncateOutputs: {
      onnx::NodeProto& n = node();
      while (n.output_size() > static_cast<int>(e.index)) n.mutable_output()->RemoveLast();
      break;
    }
    case Edit::Kind::SetIntAttribute: {
      onnx::NodeProto& n = node();
      onnx::AttributeProto* found = nullptr;
      for (onnx::AttributeProto& attr : *n.mutable_attribute()) {
        if (attr.name() == e.text) found = &attr;
      }
      if (found == nullptr) {
        found = n.add_attribute();
        found->set_name(e.text);
      }
      found->set_type(onnx::AttributeProto::INT);
      found->set_i(e.number);
      break;
    }
    case Edit::Kind::RemoveInitializer: {
      auto* inits = t.graph->mutable_initializer();
      inits->erase(std::remove_if(inits->begin(), inits->end(),
                                  [&](const onnx::TensorProto& x) { return x.name() == e.text; }),
                   inits->end());
      break;
    }
    case Edit::Kind::RemoveGraphInput: {
      auto* inputs = t.graph->mutable_input();
      inputs->erase(
          std::remove_if(inputs->begin(), inputs->end(),
                         [&](const onnx::ValueInfoProto& x) { return x.name() == e.text; }),
          inputs->end());
      break;
    }
    case Edit::Kind::AddInitializer: {
      onnx::TensorProto* slot = nullptr;
      for (onnx::TensorProto& x : *t.graph->mutable_initializer()) {
        if (x.name() == e.tensor->name) slot = &x;
      }
      write_tensor(*e.tensor, slot ? *slot : *t.graph->add_initializer());
      break;
    }
    case Edit::Kind::SetValueShape: {
      onnx::ValueInfoProto* v = nullptr;
      for (onnx::ValueInfoProto& x : *t.graph->mutable_output()) {
        if (x.name() == e.text) v = &x;
      }
      for (onnx::ValueInfoProto& x : *t.graph->mutable_value_info()) {
        if (v == nullptr && x.name() == e.text) v = &x;
      }
      if (v != nullptr) write_shape(e, *v);
      break;
    }
    case Edit::Kind::AddOpsetImport: {
      onnx::OperatorSetIdProto* imp = model.add_opset_import();
      imp->set_domain(e.text);
      imp->set_version(e.number);
      break;
    }
    case Edit::Kind::ClampFloats:
      if (onnx::TensorProto* tensor = clamp_target(t, e)) clamp_floats(*tensor, e.bound);
      break;
    case Edit::Kind::RemoveNode:
    case Edit::Kind::SortNodes:
    case Edit::Kind::InlineBranch:
      break;
  }
}

// The nodes that replace If node `n` (owned by the caller): its branch `attribute`'s nodes,
// each branch output computed in the branch renamed to the If's output, an Identity for one
// that is not (an outer value or a branch initializer). The branch's initializers and
// value_info move to `t`'s graph.
std::vector<onnx::NodeProto*> inline_branch(onnx::NodeProto& n, const std::string& attribute,
                                            Target& t) {
  onnx::GraphProto* branch = branch_of(n, attribute);
  std::map<std::string, std::string> renamed;
  std::set<std::string> produced;
  for (const auto& node : branch->node()) {
    for (const std::string& out : node.output()) produced.insert(out);
  }
  std::vector<std::pair<std::string, std::string>> identities;  // (branch value, If output)
  for (int k = 0; k < branch->output_size(); ++k) {
    const std::string& inner = branch->output(k).name();
    const std::string& outer = n.output(k);
    if (outer.empty()) continue;
    if (produced.count(inner) && !renamed.count(inner)) {
      renamed[inner] = outer;
    } else {
      identities.emplace_back(inner, outer);
    }
  }
  auto rename = [&](std::string* name) {
    auto it = renamed.find(*name);
    if (it != renamed.end()) *name = it->second;
  };
  std::vector<onnx::NodeProto*> out;
  const int count = branch->node_size();
  std::vector<onnx::NodeProto*> taken(static_cast<size_t>(count));
  branch->mutable_node()->ExtractSubrange(0, count, taken.data());
  for (onnx::NodeProto* node : taken) {
    for (std::string& in : *node->mutable_input()) rename(&in);
    for (std::string& o : *node->mutable_output()) rename(&o);
    out.push_back(node);
  }
  for (const auto& [inner, outer] : identities) {
    auto* id = new onnx::NodeProto();
    id->set_op_type("Identity");
    id->set_name(outer + "_inlined");
    auto it = renamed.find(inner);
    id->add_input(it != renamed.end() ? it->second : inner);
    id->add_output(outer);
    out.push_back(id);
  }
  if (t.graph != nullptr) {
    for (onnx::TensorProto& init : *branch->mutable_initializer()) {
      t.graph->add_initializer()->Swap(&init);
    }
    for (onnx::SparseTensorProto& init : *branch->mutable_sparse_initializer()) {
      t.graph->add_sparse_initializer()->Swap(&init);
    }
    // An If output's declaration is the If's (in the graph already): only the branch's
    // inner values move.
    for (onnx::ValueInfoProto& v : *branch->mutable_value_info()) {
      if (renamed.count(v.name())) continue;
      t.graph->add_value_info()->Swap(&v);
    }
  }
  return out;
}

// Rebuilds a node list once: the new order (or the old), without the removed nodes.
void rebuild_nodes(GraphPlan& plan) {
  if (plan.removed.empty() && !plan.order && plan.inlined.empty()) return;
  NodeList* nodes = plan.target.nodes();
  const int count = nodes->size();
  std::vector<onnx::NodeProto*> taken(static_cast<size_t>(count));
  nodes->ExtractSubrange(0, count, taken.data());
  std::vector<uint32_t> order;
  if (plan.order) {
    order = *plan.order;
  } else {
    order.resize(static_cast<size_t>(count));
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  }
  for (uint32_t i : order) {
    if (plan.removed.count(i)) continue;
    if (auto branch = plan.inlined.find(i); branch != plan.inlined.end()) {
      for (onnx::NodeProto* n : inline_branch(*taken[i], branch->second, plan.target)) {
        nodes->AddAllocated(n);
      }
      continue;  // the If itself is deleted below
    }
    nodes->AddAllocated(taken[i]);
    taken[i] = nullptr;
  }
  for (onnx::NodeProto* n : taken) delete n;
}

}  // namespace

ApplyOutcome apply_fixes(onnx::ModelProto& model, const std::vector<const Fix*>& fixes) {
  ApplyOutcome outcome;
  outcome.applied_fix.assign(fixes.size(), false);
  std::map<GraphAddress, GraphPlan> plans;
  std::set<std::string> domains;
  std::vector<const Edit*> accepted;
  for (size_t f = 0; f < fixes.size(); ++f) {
    // Checked against the fixes taken before it (not against its own edits): a fix is taken
    // whole or not at all. A graph first named here gets an empty plan, which changes nothing.
    std::string why = fixes[f]->edits.empty() ? "the fix has no edits" : "";
    for (const Edit& e : fixes[f]->edits) {
      if (why.empty()) why = check(model, e, f, plans, domains);
    }
    if (!why.empty()) {
      outcome.skipped.emplace_back(f, std::move(why));
      continue;
    }
    for (const Edit& e : fixes[f]->edits) plan_edit(e, f, plans, domains);
    for (const Edit& e : fixes[f]->edits) accepted.push_back(&e);
    outcome.applied_fix[f] = true;
    ++outcome.applied;
  }
  for (const Edit* e : accepted) {
    if (e->kind == Edit::Kind::AddOpsetImport) {
      Target none;
      apply_in_place(model, *e, none);
    } else {
      apply_in_place(model, *e, plans.at(e->graph).target);
    }
  }
  // Deepest graphs first: a parent's rebuild moves (or deletes) the nodes that hold them.
  std::vector<GraphPlan*> order;
  for (auto& [address, plan] : plans) order.push_back(&plan);
  std::vector<size_t> depth;
  for (auto& [address, plan] : plans) depth.push_back(address.steps.size());
  std::vector<size_t> idx(order.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return depth[a] > depth[b]; });
  for (size_t i : idx) rebuild_nodes(*order[i]);
  return outcome;
}

}  // namespace onnxlint
