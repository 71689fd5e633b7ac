// Hand-made hostile models, written as protobuf wire bytes (protobuf's own classes cannot write
// repeated singular fields), and the node listing used by the differential test against
// protobuf. Shared by tests/hostile and the fuzz seed generator.
#pragma once

#include <google/protobuf/unknown_field_set.h>
#include <onnx/onnx_pb.h>
#include <onnxlint/loader.h>
#include <onnxlint/model.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loader/wire_writer.h"

namespace onnxlint::testing::hostile_models {

using wire_writer::varint;
inline std::string len(uint32_t field, std::string_view payload) {
  return wire_writer::len_field(field, std::string(payload));
}
inline std::string num(uint32_t field, uint64_t v) {
  return varint(uint64_t{field} << 3) + varint(v);
}

inline std::string node(std::string_view op, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs, std::string_view name,
                        std::string_view domain = "", const std::string& attributes = "") {
  std::string n;
  for (const auto& i : ins) n += len(1, i);
  for (const auto& o : outs) n += len(2, o);
  n += len(3, name) + len(4, op);
  if (!domain.empty()) n += len(7, domain);
  return n + attributes;
}
// A float tensor value info with a shape [1].
inline std::string value_info(std::string_view name) {
  const std::string shape = len(1, num(1, 1));
  return len(1, name) + len(2, len(1, num(1, 1) + len(2, shape)));
}
inline std::string opset(std::string_view domain, int64_t version) {
  return len(8, len(1, domain) + num(2, static_cast<uint64_t>(version)));
}
// ModelProto: ir_version 8, `graph_fields` (each a whole field 7), opset 17 + `extra` fields.
inline std::string model(const std::string& graph_fields, const std::string& extra = "") {
  return num(1, 8) + len(2, "hostile") + len(3, "1") + graph_fields + opset("", 17) + extra;
}
inline std::string graph(const std::vector<std::string>& nodes, const std::string& rest) {
  std::string g;
  for (const auto& n : nodes) g += len(1, n);
  return len(7, g + rest);
}
inline std::string io(const std::vector<std::string>& ins, const std::vector<std::string>& outs) {
  std::string s;
  for (const auto& i : ins) s += len(11, value_info(i));
  for (const auto& o : outs) s += len(12, value_info(o));
  return s;
}

// main calls F0 (domain "local"), F0 calls F1, ... F(n-1) applies Relu.
inline std::string function_chain(int n) {
  std::string fns;
  for (int i = 0; i < n; ++i) {
    const std::string body = i + 1 < n
                                 ? node("F" + std::to_string(i + 1), {"x"}, {"y"}, "call", "local")
                                 : node("Relu", {"x"}, {"y"}, "relu");
    fns += len(25, len(1, "F" + std::to_string(i)) + len(4, "x") + len(5, "y") + len(7, body) +
                       len(9, len(1, "") + num(2, 17)) + len(9, len(1, "local") + num(2, 1)) +
                       len(10, "local"));
  }
  return model(graph({node("F0", {"x"}, {"y"}, "top", "local")}, io({"x"}, {"y"})),
               opset("local", 1) + fns);
}

// `n` functions F0 -> F1 -> ..., each body an If nested `depth` deep whose innermost
// then_branch calls the next: call depth and subgraph depth multiply in recursive walks.
inline std::string deep_calls(int n, int depth) {
  const std::string simple =
      len(1, node("Identity", {"x"}, {"y"}, "id")) + len(12, value_info("y"));
  std::string fns;
  for (int k = 0; k < n; ++k) {
    const std::string inner =
        k + 1 < n ? node("F" + std::to_string(k + 1), {"x", "c"}, {"y"}, "call", "local")
                  : node("Relu", {"x"}, {"y"}, "r");
    std::string g = len(1, inner) + len(12, value_info("y"));
    std::string iff;
    for (int d = 0; d < depth; ++d) {
      iff = node("If", {"c"}, {"y"}, "if" + std::to_string(d), "",
                 len(5, len(1, "then_branch") + num(20, 5) + len(6, g)) +
                     len(5, len(1, "else_branch") + num(20, 5) + len(6, simple)));
      g = len(1, iff) + len(12, value_info("y"));
    }
    fns += len(25, len(1, "F" + std::to_string(k)) + len(4, "x") + len(4, "c") + len(5, "y") +
                       len(7, iff) + len(9, len(1, "") + num(2, 17)) + len(10, "local"));
  }
  return model(graph({node("F0", {"x", "c"}, {"y"}, "top", "local")}, io({"x", "c"}, {"y"})),
               opset("local", 1) + fns);
}

// `n` one-node functions, each called once from the main graph (a chain of Fi nodes).
inline std::string many_functions(int n) {
  std::string fns;
  std::vector<std::string> nodes;
  for (int i = 0; i < n; ++i) {
    const std::string f = "F" + std::to_string(i);
    fns += len(25, len(1, f) + len(4, "a") + len(5, "b") + len(7, node("Relu", {"a"}, {"b"}, "r")) +
                       len(9, len(1, "") + num(2, 17)) + len(10, "local"));
    nodes.push_back(node(f, {i == 0 ? "x" : "v" + std::to_string(i - 1)},
                         {i + 1 == n ? "y" : "v" + std::to_string(i)}, "n" + std::to_string(i),
                         "local"));
  }
  return model(graph(nodes, io({"x"}, {"y"})), opset("local", 1) + fns);
}

// Two `graph` fields: protobuf merges them into one graph of 8 nodes. The second part's nodes
// (never seen before the fix: "ok: 1/1 nodes") include an Add of an undefined value.
inline std::string two_graph_fields() {
  const std::string first = graph({node("Relu", {"x"}, {"a"}, "visible")}, io({"x"}, {}));
  std::vector<std::string> hidden;
  for (int i = 0; i < 6; ++i) {
    hidden.push_back(node("Neg", {i == 0 ? "a" : "h" + std::to_string(i - 1)},
                          {"h" + std::to_string(i)}, "hidden" + std::to_string(i)));
  }
  hidden.push_back(node("Add", {"h5", "ghost"}, {"y"}, "hidden_add"));
  return model(first + graph(hidden, io({}, {"y"})));
}

inline std::string graph_attribute(uint32_t field, std::string_view name,
                                   const std::vector<std::string>& nodes, const std::string& rest) {
  std::string g;
  for (const auto& n : nodes) g += len(1, n);
  return len(1, name) + len(field, g + rest);
}

// An If whose then_branch is given twice (two `g` fields in one attribute): one subgraph.
inline std::string two_g_attributes() {
  std::string then_attr =
      len(1, "then_branch") + num(20, 5) +
      len(6, len(1, node("Neg", {"x"}, {"t"}, "neg")) + len(2, "then")) +
      len(6, len(1, node("Relu", {"t"}, {"u"}, "relu")) + len(12, value_info("u")));
  std::string else_attr =
      len(1, "else_branch") + num(20, 5) +
      len(6, len(1, node("Identity", {"x"}, {"e"}, "id")) + len(12, value_info("e")));
  const std::string iff = node("If", {"c"}, {"y"}, "if", "", len(5, then_attr) + len(5, else_attr));
  return model(graph({iff}, len(11, len(1, "c") + len(2, len(1, num(1, 9)))) + io({"x"}, {"y"})));
}

// A graph input whose `type` is given twice: the element type first, the shape second.
inline std::string two_type_fields() {
  const std::string shape = len(1, num(1, 3)) + len(1, num(1, 7));
  const std::string vi = len(1, "x") + len(2, len(1, num(1, 1))) + len(2, len(1, len(2, shape)));
  return model(graph({node("Relu", {"x"}, {"y"}, "relu")}, len(11, vi) + len(12, value_info("y"))));
}

// A Constant whose `value` tensor attribute is given twice.
inline std::string two_t_attributes() {
  const std::string t1 = num(2, 1) + len(8, "a") + len(9, std::string(4, '\0'));
  const std::string t2 = num(1, 1) + num(1, 1);
  const std::string attr = len(1, "value") + num(20, 4) + len(5, t1) + len(5, t2);
  return model(graph({node("Constant", {}, {"y"}, "c", "", len(5, attr))}, io({}, {"y"})));
}

// `n` NodeProtos without a single field (2 bytes each).
inline std::string empty_nodes(size_t n) {
  std::string g;
  g.reserve(2 * n + 64);
  for (size_t i = 0; i < n; ++i) g += std::string("\x0a\x00", 2);
  return model(len(7, g + io({"x"}, {"y"})));
}

// One node with a `name_bytes`-byte name and `n` empty subgraphs in a graphs attribute.
inline std::string subgraphs_under_long_name(int n, size_t name_bytes) {
  std::string attr = len(1, "branches") + num(20, 10);
  for (int i = 0; i < n; ++i) attr += len(11, "");
  const std::string big =
      node("Custom", {"x"}, {"y"}, std::string(name_bytes, 'n'), "vendor", len(5, attr));
  return model(graph({big}, io({"x"}, {"y"})), opset("vendor", 1));
}

// `bytes` of `onnx-lint:disable` entries that name no rule.
inline std::string bogus_disables(size_t bytes) {
  std::string v;
  for (int i = 0; v.size() < bytes; ++i) v += "bogus-rule-" + std::to_string(i) + ", ";
  return model(graph({node("Relu", {"x"}, {"y"}, "relu")}, io({"x"}, {"y"})),
               len(14, len(1, "onnx-lint:disable") + len(2, v)));
}

// Node names and a graph input made to steer terminals and GitHub Actions' log parser.
inline std::string injection_names() {
  const std::string evil1 = "x\n::error file=PWNED.py,line=1::owned\n::add-mask::secret";
  const std::string evil2 = "\x1b[2J\x1b[32mOK all good\x1b[0m\r";
  const std::string evil3 =
      "abc\xe2\x80\xae"
      "cod.exe";
  return model(graph(
      {node("Relu", {"x"}, {"a"}, evil1), node("Neg", {"a"}, {"b"}, evil2),
       node("Neg", {"x"}, {"dead"}, evil3), node("Add", {"b", "g\x1b]0;t\x07"}, {"y"}, "add")},
      io({"x"}, {"y"})));
}

inline std::vector<std::pair<std::string, std::string>> all_hostile_models() {
  return {{"function_chain", function_chain(100)},
          {"many_functions", many_functions(100)},
          {"deep_calls", deep_calls(5, 10)},
          {"two_graph_fields", two_graph_fields()},
          {"two_g_attributes", two_g_attributes()},
          {"two_type_fields", two_type_fields()},
          {"two_t_attributes", two_t_attributes()},
          {"empty_nodes", empty_nodes(100)},
          {"subgraphs_under_long_name", subgraphs_under_long_name(10, 1000)},
          {"bogus_disables", bogus_disables(1000)},
          {"injection_names", injection_names()}};
}

// --- the differential view: "<graph path> <op> <domain> <name>" per node, in walk order ----

inline std::string node_line(const std::string& path, std::string_view op, std::string_view domain,
                             std::string_view name) {
  return path + " " + std::string(op) + " " + std::string(domain) + " " + std::string(name);
}

inline void list_graph(const onnx::GraphProto& g, const std::string& path,
                       std::vector<std::string>& out) {
  std::vector<std::pair<const onnx::GraphProto*, std::string>> subs;
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    out.push_back(node_line(path, n.op_type(), n.domain(), n.name()));
    const std::string display = n.name().empty() ? n.op_type() + "#" + std::to_string(i) : n.name();
    for (const onnx::AttributeProto& a : n.attribute()) {
      const std::string prefix = subgraph_path(path, display, a.name());
      if (a.has_g()) subs.emplace_back(&a.g(), prefix);
      for (int k = 0; k < a.graphs_size(); ++k) {
        subs.emplace_back(&a.graphs(k), prefix + "[" + std::to_string(k) + "]");
      }
    }
  }
  for (const auto& [sub, p] : subs) list_graph(*sub, p, out);
}

inline std::vector<std::string> nodes_by_path(const onnx::ModelProto& m) {
  std::vector<std::string> out;
  list_graph(m.graph(), "main", out);
  for (const onnx::FunctionProto& f : m.functions()) {
    std::string path =
        "fn:" + graph_path_component(f.domain()) + "::" + graph_path_component(f.name());
    // FunctionProto.overload (13) is newer than Debian's onnx.proto: an unknown field there.
    std::string overload;
    const google::protobuf::UnknownFieldSet& unknown = f.GetReflection()->GetUnknownFields(f);
    for (int k = 0; k < unknown.field_count(); ++k) {
      if (unknown.field(k).number() == 13 &&
          unknown.field(k).type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) {
        overload = unknown.field(k).length_delimited();
      }
    }
    if (!overload.empty()) path += ":" + graph_path_component(overload);
    for (const onnx::NodeProto& n : f.node()) {
      out.push_back(node_line(path, n.op_type(), n.domain(), n.name()));
    }
    // (Subgraphs inside function bodies are listed by the loader too; compare them as well.)
    for (int i = 0; i < f.node_size(); ++i) {
      const onnx::NodeProto& n = f.node(i);
      const std::string display =
          n.name().empty() ? n.op_type() + "#" + std::to_string(i) : n.name();
      for (const onnx::AttributeProto& a : n.attribute()) {
        const std::string prefix = subgraph_path(path, display, a.name());
        if (a.has_g()) list_graph(a.g(), prefix, out);
        for (int k = 0; k < a.graphs_size(); ++k) {
          list_graph(a.graphs(k), prefix + "[" + std::to_string(k) + "]", out);
        }
      }
    }
  }
  return out;
}

// The same listing from onnx-lint's view. Order: per graph, its nodes; graphs in the loader's
// order (main and its subgraphs depth first, then each function body and its subgraphs).
inline std::vector<std::string> nodes_by_path(const Model& m) {
  std::vector<std::string> out;
  for (const Graph* g : m.all_graphs()) {
    for (const Node& n : g->nodes())
      out.push_back(node_line(g->path(), n.op_type(), n.domain(), n.name()));
  }
  return out;
}

}  // namespace onnxlint::testing::hostile_models
