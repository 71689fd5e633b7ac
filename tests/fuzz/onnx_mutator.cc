// The structure-aware model mutator (onnx_mutator.h). Every edit is one a hostile or a buggy
// exporter could make and protobuf still parses: the interesting values are the ones that broke
// onnx-lint before (rank 0 into a Reshape, INT64_MIN, dims past the loader's limits, cycles,
// deep nesting) or that sit at a boundary of its arithmetic.
#include "onnx_mutator.h"

#include <onnx/onnx_pb.h>
#include <onnxlint/opset_table.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// libFuzzer's byte mutator (with the dictionary given by -dict).
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace onnxlint::fuzz {
namespace {

using Nodes = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, n); 0 when n is 0.
  size_t below(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(engine_);
  }
  bool one_in(size_t n) { return below(n) == 0; }
  template <class T>
  const T& pick(std::span<const T> items) {
    return items[below(items.size())];
  }
  template <class T>
  T* pick(const std::vector<T*>& items) {
    return items.empty() ? nullptr : items[below(items.size())];
  }

 private:
  std::mt19937_64 engine_;
};

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

constexpr int64_t kInterestingInts[] = {0,
                                        1,
                                        -1,
                                        2,
                                        3,
                                        -2,
                                        4,
                                        7,
                                        64,
                                        65,
                                        255,
                                        65536,
                                        int64_t{1} << 31,
                                        (int64_t{1} << 31) - 1,
                                        -(int64_t{1} << 31),
                                        int64_t{1} << 32,
                                        int64_t{1} << 40,
                                        int64_t{1} << 62,
                                        kInt64Max,
                                        kInt64Max - 1,
                                        kInt64Min,
                                        kInt64Min + 1};

constexpr float kInterestingFloats[] = {0.0F,
                                        -0.0F,
                                        1.0F,
                                        -1.0F,
                                        0.5F,
                                        2.0F,
                                        1e-45F,
                                        1e-7F,
                                        65504.0F,
                                        65520.0F,
                                        -65504.0F,
                                        1e30F,
                                        std::numeric_limits<float>::max(),
                                        std::numeric_limits<float>::lowest(),
                                        std::numeric_limits<float>::infinity(),
                                        -std::numeric_limits<float>::infinity(),
                                        std::numeric_limits<float>::quiet_NaN()};

// Names that have broken printers and escaping before: control characters, workflow commands,
// bidi overrides, names that look like expressions, and long ones (built on demand).
constexpr std::string_view kInterestingNames[] = {
    "N",        "batch",  "",     "N+1",        "seq_len", "2*N",          "?",
    "-1",       "unk__0", "a\nb", "::error::x", "\x1b[2J", "\xe2\x80\xae", "\xf3\xa0\x80\x81",
    "\xff\xfe", "%0A",    "a,b"};

// Op types the shape analyses model most closely (the rest come from the embedded opset table).
constexpr std::string_view kShapeOps[] = {
    "Reshape", "Shape",  "Gather",  "Concat", "Unsqueeze",       "Squeeze", "Range",
    "Tile",    "Expand", "Slice",   "Resize", "ConstantOfShape", "Cast",    "If",
    "Loop",    "Scan",   "Split",   "Pad",    "Transpose",       "Mul",     "Add",
    "Div",     "Sub",    "Flatten", "TopK",   "NonZero",         "Einsum",  "Constant"};

int64_t interesting_int(Rng& rng) {
  if (rng.one_in(3)) return static_cast<int64_t>(rng.below(21)) - 10;
  return rng.pick(std::span<const int64_t>(kInterestingInts));
}

float interesting_float(Rng& rng) { return rng.pick(std::span<const float>(kInterestingFloats)); }

std::string interesting_name(Rng& rng) {
  switch (rng.below(8)) {
    case 0:
      return std::string(300, 'n');
    case 1:
      return std::string(5000, 'd');  // long enough to be capped when echoed
    default:
      return std::string(rng.pick(std::span<const std::string_view>(kInterestingNames)));
  }
}

// A scope: a graph or a function body, with the value names visible in it (its own and, for a
// subgraph, those of the graphs around it).
struct Scope {
  onnx::GraphProto* graph = nullptr;  // null for a function body
  Nodes* nodes = nullptr;
  std::vector<std::string> visible;
  std::vector<std::string> outer;  // visible from the enclosing graphs only
};

// Pointers into the message for the edits (valid until the message changes shape).
struct ModelIndex {
  std::vector<Scope> scopes;
  std::vector<onnx::NodeProto*> nodes;
  std::vector<onnx::TypeProto_Tensor*> tensor_types;
  std::vector<onnx::TensorShapeProto*> shapes;
  std::vector<onnx::AttributeProto*> attributes;
  std::vector<onnx::TensorProto*> tensors;
};

constexpr int kMaxIndexDepth = 64;

void index_type(onnx::TypeProto* type, ModelIndex& ix, int depth) {
  if (depth > kMaxIndexDepth) return;
  if (type->has_tensor_type()) {
    ix.tensor_types.push_back(type->mutable_tensor_type());
    if (type->tensor_type().has_shape())
      ix.shapes.push_back(type->mutable_tensor_type()->mutable_shape());
  }
  if (type->has_sparse_tensor_type() && type->sparse_tensor_type().has_shape()) {
    ix.shapes.push_back(type->mutable_sparse_tensor_type()->mutable_shape());
  }
  if (type->has_sequence_type() && type->sequence_type().has_elem_type()) {
    index_type(type->mutable_sequence_type()->mutable_elem_type(), ix, depth + 1);
  }
  if (type->has_optional_type() && type->optional_type().has_elem_type()) {
    index_type(type->mutable_optional_type()->mutable_elem_type(), ix, depth + 1);
  }
  if (type->has_map_type() && type->map_type().has_value_type()) {
    index_type(type->mutable_map_type()->mutable_value_type(), ix, depth + 1);
  }
}

void index_value_infos(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* values,
                       ModelIndex& ix) {
  for (onnx::ValueInfoProto& v : *values) {
    if (v.has_type()) index_type(v.mutable_type(), ix, 0);
  }
}

void index_graph(onnx::GraphProto* g, const std::vector<std::string>& outer, ModelIndex& ix,
                 int depth);

void index_nodes(Nodes* nodes, const std::vector<std::string>& visible, ModelIndex& ix, int depth) {
  for (onnx::NodeProto& n : *nodes) {
    ix.nodes.push_back(&n);
    for (onnx::AttributeProto& a : *n.mutable_attribute()) {
      ix.attributes.push_back(&a);
      if (a.has_t()) ix.tensors.push_back(a.mutable_t());
      for (onnx::TensorProto& t : *a.mutable_tensors()) ix.tensors.push_back(&t);
      if (a.has_g()) index_graph(a.mutable_g(), visible, ix, depth + 1);
      for (onnx::GraphProto& g : *a.mutable_graphs()) index_graph(&g, visible, ix, depth + 1);
    }
  }
}

void index_graph(onnx::GraphProto* g, const std::vector<std::string>& outer, ModelIndex& ix,
                 int depth) {
  if (depth > kMaxIndexDepth) return;
  Scope scope;
  scope.graph = g;
  scope.nodes = g->mutable_node();
  scope.outer = outer;
  scope.visible = outer;
  for (const onnx::ValueInfoProto& v : g->input()) scope.visible.push_back(v.name());
  for (onnx::TensorProto& t : *g->mutable_initializer()) {
    scope.visible.push_back(t.name());
    ix.tensors.push_back(&t);
  }
  for (const onnx::NodeProto& n : g->node()) {
    for (const std::string& o : n.output()) scope.visible.push_back(o);
  }
  index_value_infos(g->mutable_input(), ix);
  index_value_infos(g->mutable_output(), ix);
  index_value_infos(g->mutable_value_info(), ix);
  ix.scopes.push_back(scope);
  index_nodes(g->mutable_node(), scope.visible, ix, depth);
}

ModelIndex index_model(onnx::ModelProto& m) {
  ModelIndex ix;
  if (m.has_graph()) index_graph(m.mutable_graph(), {}, ix, 0);
  for (onnx::FunctionProto& f : *m.mutable_functions()) {
    Scope scope;
    scope.nodes = f.mutable_node();
    scope.visible.assign(f.input().begin(), f.input().end());
    for (const onnx::NodeProto& n : f.node()) {
      for (const std::string& o : n.output()) scope.visible.push_back(o);
    }
    ix.scopes.push_back(scope);
    index_nodes(f.mutable_node(), scope.visible, ix, 1);
  }
  return ix;
}

void set_dim(onnx::TensorShapeProto_Dimension* d, Rng& rng) {
  if (rng.one_in(3)) {
    d->set_dim_param(interesting_name(rng));
  } else if (rng.one_in(8)) {
    d->clear_dim_value();
    d->clear_dim_param();  // neither: an unknown dim
  } else {
    d->set_dim_value(interesting_int(rng));
  }
}

// A tensor's rank: a dim more or less, rank 0, no shape at all (unknown rank), or past the
// loader's 64-dim limit.
bool edit_rank(ModelIndex& ix, Rng& rng) {
  onnx::TypeProto_Tensor* t = rng.pick(ix.tensor_types);
  if (t == nullptr) return false;
  onnx::TensorShapeProto* shape = t->mutable_shape();
  switch (rng.below(5)) {
    case 0:
      set_dim(shape->add_dim(), rng);
      break;
    case 1:
      if (shape->dim_size() == 0) return false;
      shape->mutable_dim()->DeleteSubrange(static_cast<int>(rng.below(shape->dim_size())), 1);
      break;
    case 2:
      shape->clear_dim();  // rank 0
      break;
    case 3:
      t->clear_shape();  // rank unknown
      break;
    default:
      for (int k = 0; k < 66; ++k) shape->add_dim()->set_dim_value(1);
      break;
  }
  return true;
}

bool edit_dim(ModelIndex& ix, Rng& rng) {
  std::vector<onnx::TensorShapeProto*> with_dims;
  for (onnx::TensorShapeProto* s : ix.shapes) {
    if (s->dim_size() > 0) with_dims.push_back(s);
  }
  onnx::TensorShapeProto* s = rng.pick(with_dims);
  if (s == nullptr) return false;
  set_dim(s->mutable_dim(static_cast<int>(rng.below(s->dim_size()))), rng);
  return true;
}

// A list of ints as perm/axes/pads/shape attributes see them: extremes, duplicates, a
// permutation with one entry out of range, or long.
void set_ints(google::protobuf::RepeatedField<int64_t>* ints, Rng& rng) {
  switch (rng.below(5)) {
    case 0:
      if (!ints->empty()) {
        ints->Set(static_cast<int>(rng.below(ints->size())), interesting_int(rng));
        break;
      }
      [[fallthrough]];
    case 1:
      ints->Add(interesting_int(rng));
      break;
    case 2:
      ints->Clear();
      break;
    case 3: {
      const int n = static_cast<int>(rng.below(7));
      std::vector<int64_t> perm(n);
      for (int k = 0; k < n; ++k) perm[k] = k;
      std::shuffle(perm.begin(), perm.end(),
                   std::mt19937(static_cast<unsigned>(rng.below(1U << 30))));
      if (n > 0 && rng.one_in(2)) perm[rng.below(n)] = rng.one_in(2) ? n : -n - 1;
      if (n > 1 && rng.one_in(3)) perm[0] = perm[1];
      ints->Clear();
      for (int64_t v : perm) ints->Add(v);
      break;
    }
    default:
      for (int k = 0; k < 70; ++k) ints->Add(k % 3 == 0 ? -1 : 1);
      break;
  }
}

bool edit_attribute(ModelIndex& ix, Rng& rng) {
  if (ix.nodes.empty()) return false;
  onnx::AttributeProto* a = rng.pick(ix.attributes);
  if (a == nullptr || rng.one_in(5)) {
    // A new attribute under a name the shape ops read.
    constexpr std::string_view kNames[] = {
        "axis",   "axes", "perm",  "to",   "shape", "allowzero",  "keepdims", "pads",
        "starts", "ends", "split", "mode", "value", "batch_dims", "direction"};
    onnx::NodeProto* n = rng.pick(ix.nodes);
    a = n->add_attribute();
    a->set_name(std::string(rng.pick(std::span<const std::string_view>(kNames))));
    if (rng.one_in(2)) {
      a->set_type(onnx::AttributeProto::INT);
      a->set_i(interesting_int(rng));
    } else {
      a->set_type(onnx::AttributeProto::INTS);
      set_ints(a->mutable_ints(), rng);
    }
    return true;
  }
  if (rng.one_in(10)) {
    // The declared type against the value given (INT declared, ints given, ...).
    a->set_type(static_cast<onnx::AttributeProto_AttributeType>(rng.below(15)));
    return true;
  }
  switch (a->type()) {
    case onnx::AttributeProto::INT:
      a->set_i(interesting_int(rng));
      break;
    case onnx::AttributeProto::INTS:
      set_ints(a->mutable_ints(), rng);
      break;
    case onnx::AttributeProto::FLOAT:
      a->set_f(interesting_float(rng));
      break;
    case onnx::AttributeProto::FLOATS:
      if (a->floats_size() > 0 && !rng.one_in(4)) {
        a->set_floats(static_cast<int>(rng.below(a->floats_size())), interesting_float(rng));
      } else {
        a->add_floats(interesting_float(rng));
      }
      break;
    case onnx::AttributeProto::STRING:
      a->set_s(rng.one_in(2) ? interesting_name(rng)
                             : std::string(rng.pick(std::span<const std::string_view>(kShapeOps))));
      break;
    default:
      a->set_i(interesting_int(rng));
      a->set_type(onnx::AttributeProto::INT);
      break;
  }
  return true;
}

// Another op from the embedded opset table (any domain), or one the shape analyses model.
bool edit_op_type(ModelIndex& ix, Rng& rng) {
  onnx::NodeProto* n = rng.pick(ix.nodes);
  if (n == nullptr) return false;
  if (rng.one_in(2)) {
    n->set_op_type(std::string(rng.pick(std::span<const std::string_view>(kShapeOps))));
    n->clear_domain();
    return true;
  }
  const std::span<const OpSchema> schemas = all_schemas();
  if (schemas.empty()) return false;
  const OpSchema& s = schemas[rng.below(schemas.size())];
  n->set_op_type(std::string(s.name));
  n->set_domain(std::string(s.domain));
  return true;
}

// An initializer's declared dims and type against its payload, or its payload moved to external
// data (the fuzz targets resolve external data in a folder of small files, one named w.bin).
bool edit_tensor(ModelIndex& ix, Rng& rng) {
  onnx::TensorProto* t = rng.pick(ix.tensors);
  if (t == nullptr) return false;
  switch (rng.below(7)) {
    case 0:
      t->add_dims(interesting_int(rng));
      break;
    case 1:
      if (t->dims_size() == 0) {
        t->add_dims(interesting_int(rng));
      } else {
        t->set_dims(static_cast<int>(rng.below(t->dims_size())), interesting_int(rng));
      }
      break;
    case 2:
      t->clear_dims();
      break;
    case 3:
      if (t->raw_data().empty()) {
        t->set_raw_data(std::string(rng.below(64), '\x7f'));
      } else {
        t->mutable_raw_data()->resize(rng.below(t->raw_data().size()));
      }
      break;
    case 4:
      t->set_data_type(static_cast<int32_t>(rng.below(26)));
      break;
    case 5:
      t->clear_raw_data();
      t->clear_float_data();
      t->clear_int64_data();
      t->clear_int32_data();
      break;
    default: {
      constexpr std::string_view kLocations[] = {"w.bin",       "./w.bin",     "sub/../w.bin",
                                                 "empty.bin",   "missing.bin", "../w.bin",
                                                 "/etc/passwd", "sub",         "w.bin/x"};
      t->clear_raw_data();
      t->set_data_location(onnx::TensorProto::EXTERNAL);
      t->clear_external_data();
      onnx::StringStringEntryProto* loc = t->add_external_data();
      loc->set_key("location");
      loc->set_value(std::string(rng.pick(std::span<const std::string_view>(kLocations))));
      if (rng.one_in(2)) {
        onnx::StringStringEntryProto* e = t->add_external_data();
        e->set_key(rng.one_in(2) ? "offset" : "length");
        e->set_value(std::to_string(interesting_int(rng)));
      }
      break;
    }
  }
  return true;
}

// Edges: an input rewired to another value (possibly from an enclosing graph, or a value
// produced later: a cycle), an input dropped or emptied, an output renamed onto another value.
bool edit_edge(ModelIndex& ix, Rng& rng) {
  std::vector<Scope*> scopes;
  for (Scope& s : ix.scopes) {
    if (!s.nodes->empty()) scopes.push_back(&s);
  }
  Scope* s = rng.pick(scopes);
  if (s == nullptr) return false;
  const int index = static_cast<int>(rng.below(s->nodes->size()));
  onnx::NodeProto* n = s->nodes->Mutable(index);
  switch (rng.below(6)) {
    case 0: {  // rewire to any visible value
      if (s->visible.empty()) return false;
      const std::string& to = s->visible[rng.below(s->visible.size())];
      if (n->input_size() == 0 || rng.one_in(4)) {
        n->add_input(to);
      } else {
        n->set_input(static_cast<int>(rng.below(n->input_size())), to);
      }
      break;
    }
    case 1: {  // rewire to a value of an enclosing graph
      if (s->outer.empty() || n->input_size() == 0) return false;
      n->set_input(static_cast<int>(rng.below(n->input_size())),
                   s->outer[rng.below(s->outer.size())]);
      break;
    }
    case 2: {  // a cycle: read the output of this node or of one after it
      const int later = index + static_cast<int>(rng.below(s->nodes->size() - index));
      const onnx::NodeProto& producer = s->nodes->Get(later);
      if (producer.output_size() == 0) return false;
      const std::string out = producer.output(static_cast<int>(rng.below(producer.output_size())));
      if (n->input_size() == 0) {
        n->add_input(out);
      } else {
        n->set_input(static_cast<int>(rng.below(n->input_size())), out);
      }
      break;
    }
    case 3:  // drop the last input
      if (n->input_size() == 0) return false;
      n->mutable_input()->RemoveLast();
      break;
    case 4:  // an optional input left out
      if (n->input_size() == 0) return false;
      n->set_input(static_cast<int>(rng.below(n->input_size())), "");
      break;
    default:  // two producers of one name
      if (n->output_size() == 0 || s->visible.empty()) return false;
      n->set_output(static_cast<int>(rng.below(n->output_size())),
                    s->visible[rng.below(s->visible.size())]);
      break;
  }
  return true;
}

onnx::ValueInfoProto scalar(const std::string& name, int32_t elem_type) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  onnx::TypeProto_Tensor* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem_type);
  t->mutable_shape();  // rank 0
  return v;
}

// Nodes [first, first + count) of a graph moved into the branches of an If, or the body of a
// Loop, whose outputs take the names the nodes produced (inside, the values are renamed).
bool edit_nesting(ModelIndex& ix, Rng& rng) {
  std::vector<Scope*> graphs;
  for (Scope& s : ix.scopes) {
    if (s.graph != nullptr && !s.nodes->empty()) graphs.push_back(&s);
  }
  Scope* s = rng.pick(graphs);
  if (s == nullptr) return false;
  Nodes* nodes = s->nodes;
  const int first = static_cast<int>(rng.below(nodes->size()));
  const int count = 1 + static_cast<int>(rng.below(std::min<size_t>(8, nodes->size() - first)));
  static int serial = 0;
  const std::string suffix = "__w" + std::to_string(serial++ % 1000);

  const bool loop = rng.one_in(2);
  onnx::GraphProto body;
  body.set_name("wrapped" + suffix);
  if (loop) {
    *body.add_input() = scalar("iter" + suffix, onnx::TensorProto::INT64);
    *body.add_input() = scalar("cond" + suffix, onnx::TensorProto::BOOL);
    onnx::NodeProto* keep_going = body.add_node();
    keep_going->set_op_type("Identity");
    keep_going->add_input("cond" + suffix);
    keep_going->add_output("cond_out" + suffix);
    body.add_output()->set_name("cond_out" + suffix);
  }
  std::map<std::string, std::string> renamed;
  std::vector<std::string> produced;
  for (int k = first; k < first + count; ++k) {
    for (const std::string& o : nodes->Get(k).output()) {
      if (!o.empty() && renamed.emplace(o, o + suffix).second) produced.push_back(o);
    }
  }
  onnx::NodeProto wrapper;
  wrapper.set_name("wrapper" + suffix);
  for (int k = first; k < first + count; ++k) {
    onnx::NodeProto* inner = body.add_node();
    *inner = nodes->Get(k);
    for (std::string& i : *inner->mutable_input()) {
      if (auto r = renamed.find(i); r != renamed.end()) i = r->second;
    }
    for (std::string& o : *inner->mutable_output()) {
      if (auto r = renamed.find(o); r != renamed.end()) o = r->second;
    }
  }
  for (const std::string& o : produced) {
    body.add_output()->set_name(renamed[o]);
    wrapper.add_output(o);
  }
  if (loop) {
    wrapper.set_op_type("Loop");
    // Trip count and condition: left out, or some value of the graph.
    for (int k = 0; k < 2; ++k) {
      wrapper.add_input(rng.one_in(2) || s->visible.empty()
                            ? std::string()
                            : s->visible[rng.below(s->visible.size())]);
    }
    onnx::AttributeProto* a = wrapper.add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = std::move(body);
  } else {
    wrapper.set_op_type("If");
    if (s->visible.empty() || rng.one_in(3)) {
      *s->graph->add_input() = scalar("cond" + suffix, onnx::TensorProto::BOOL);
      wrapper.add_input("cond" + suffix);
    } else {
      wrapper.add_input(s->visible[rng.below(s->visible.size())]);
    }
    for (const char* branch : {"then_branch", "else_branch"}) {
      onnx::AttributeProto* a = wrapper.add_attribute();
      a->set_name(branch);
      a->set_type(onnx::AttributeProto::GRAPH);
      *a->mutable_g() = body;
    }
  }
  nodes->DeleteSubrange(first, count);
  *nodes->Add() = std::move(wrapper);
  for (int k = nodes->size() - 1; k > first; --k) nodes->SwapElements(k, k - 1);
  return true;
}

// The opsets and IR version the model claims.
bool edit_versions(onnx::ModelProto& m, Rng& rng) {
  switch (rng.below(3)) {
    case 0:
      m.set_ir_version(rng.one_in(2) ? static_cast<int64_t>(rng.below(13)) : interesting_int(rng));
      break;
    case 1: {
      if (m.opset_import_size() == 0) m.add_opset_import();
      onnx::OperatorSetIdProto* o =
          m.mutable_opset_import(static_cast<int>(rng.below(m.opset_import_size())));
      o->set_version(rng.one_in(2) ? static_cast<int64_t>(rng.below(26)) : interesting_int(rng));
      break;
    }
    default: {
      onnx::OperatorSetIdProto* o = m.add_opset_import();
      const std::span<const DomainInfo> domains = all_domains();
      if (!domains.empty()) o->set_domain(std::string(domains[rng.below(domains.size())].domain));
      o->set_version(static_cast<int64_t>(rng.below(26)));
      break;
    }
  }
  return true;
}

// A node duplicated, removed or moved (producers after their consumers).
bool edit_node_list(ModelIndex& ix, Rng& rng) {
  std::vector<Scope*> scopes;
  for (Scope& s : ix.scopes) {
    if (!s.nodes->empty()) scopes.push_back(&s);
  }
  Scope* s = rng.pick(scopes);
  if (s == nullptr) return false;
  const int k = static_cast<int>(rng.below(s->nodes->size()));
  switch (rng.below(3)) {
    case 0:
      *s->nodes->Add() = s->nodes->Get(k);
      break;
    case 1:
      s->nodes->DeleteSubrange(k, 1);
      break;
    default:
      s->nodes->SwapElements(k, static_cast<int>(rng.below(s->nodes->size())));
      break;
  }
  return true;
}

// A declared type for a value that had none: rank 0, or a small rank of integers, the facts
// that lead the shape analyses down their rarer paths (a rank-0 shape into a Reshape).
bool edit_value_info(ModelIndex& ix, Rng& rng) {
  std::vector<Scope*> graphs;
  for (Scope& s : ix.scopes) {
    if (s.graph != nullptr && !s.visible.empty()) graphs.push_back(&s);
  }
  Scope* s = rng.pick(graphs);
  if (s == nullptr) return false;
  onnx::ValueInfoProto* v = s->graph->add_value_info();
  v->set_name(s->visible[rng.below(s->visible.size())]);
  onnx::TypeProto_Tensor* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(rng.one_in(2) ? onnx::TensorProto::INT64 : static_cast<int32_t>(rng.below(26)));
  onnx::TensorShapeProto* shape = t->mutable_shape();
  const size_t rank = rng.below(4);
  for (size_t d = 0; d < rank; ++d) set_dim(shape->add_dim(), rng);
  return true;
}

bool edit_once(onnx::ModelProto& m, Rng& rng) {
  ModelIndex ix = index_model(m);
  switch (rng.below(11)) {
    case 0:
      return edit_rank(ix, rng);
    case 1:
      return edit_dim(ix, rng);
    case 2:
    case 3:
      return edit_attribute(ix, rng);
    case 4:
      return edit_op_type(ix, rng);
    case 5:
      return edit_tensor(ix, rng);
    case 6:
      return edit_edge(ix, rng);
    case 7:
      return edit_nesting(ix, rng);
    case 8:
      return edit_versions(m, rng);
    case 9:
      return edit_node_list(ix, rng);
    default:
      return edit_value_info(ix, rng);
  }
}

}  // namespace

bool mutate_model(std::string& bytes, uint64_t seed) {
  onnx::ModelProto m;
  if (!m.ParseFromString(bytes)) return false;
  Rng rng(seed);
  // An edit that does not apply to this model (no attributes to change, ...): try another.
  for (int attempt = 0; attempt < 8; ++attempt) {
    if (edit_once(m, rng)) return m.SerializeToString(&bytes);
  }
  return false;
}

bool cross_over_models(std::string& bytes, const std::string& other, uint64_t seed) {
  onnx::ModelProto into;
  onnx::ModelProto from;
  if (!into.ParseFromString(bytes) || !from.ParseFromString(other)) return false;
  if (!from.has_graph() || from.graph().node_size() == 0) return false;
  Rng rng(seed);
  const onnx::GraphProto& donor = from.graph();
  const int first = static_cast<int>(rng.below(donor.node_size()));
  const int count = 1 + static_cast<int>(rng.below(std::min(8, donor.node_size() - first)));
  onnx::GraphProto* graph = into.mutable_graph();
  std::vector<std::string> read;
  for (int k = first; k < first + count; ++k) {
    *graph->add_node() = donor.node(k);
    read.insert(read.end(), donor.node(k).input().begin(), donor.node(k).input().end());
  }
  for (const onnx::TensorProto& t : donor.initializer()) {
    if (std::find(read.begin(), read.end(), t.name()) != read.end()) *graph->add_initializer() = t;
  }
  return into.SerializeToString(&bytes);
}

size_t custom_mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
  if (seed % 4 != 0) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    if (mutate_model(bytes, uint64_t{seed} * 0x9E3779B97F4A7C15ULL) && !bytes.empty() &&
        bytes.size() <= max_size) {
      std::memcpy(data, bytes.data(), bytes.size());
      return bytes.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

size_t custom_cross_over(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                         uint8_t* out, size_t max_out_size, unsigned seed) {
  std::string bytes(reinterpret_cast<const char*>(data1), size1);
  const std::string other(reinterpret_cast<const char*>(data2), size2);
  if (!cross_over_models(bytes, other, seed) || bytes.size() > max_out_size) return 0;
  std::memcpy(out, bytes.data(), bytes.size());
  return bytes.size();
}

}  // namespace onnxlint::fuzz
