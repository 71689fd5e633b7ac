// Small models shared by the shape-*, flow-* and export-unrolled-loop rule tests.
#pragma once

#include <string>
#include <vector>

#include "support/model_builder.h"

namespace onnxlint::testing::shape_flow {

/// x[batch, 16] -> Shape -> Gather(0) -> Unsqueeze -> Concat([4, 4]) -> Reshape(Relu(x)): the
/// pattern torch emits for x.view(x.size(0), 4, 4) under dynamic_axes. `batch` fixed: static.
inline ModelBuilder dynamic_reshape(DimSpec batch = std::string("batch")) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {batch, 16}).output("y", kFloat, {batch, 4, 4});
  g.node("Shape", {"x"}, {"s"}, "Shape_0");
  g.constant_i64("zero", {0}, {});
  g.node("Gather", {"s", "zero"}, {"b"}, "Gather_2");
  g.constant_i64("ax", {0});
  g.node("Unsqueeze", {"b", "ax"}, {"b1"}, "Unsqueeze_4");
  g.constant_i64("rest", {4, 4});
  attr_int(g.node("Concat", {"b1", "rest"}, {"target"}, "Concat_6"), "axis", 0);
  g.node("Relu", {"x"}, {"h"}, "Relu_7");
  g.node("Reshape", {"h", "target"}, {"y"}, "Reshape_8");
  return m;
}

/// y = x[x > 0]: Greater -> NonZero -> Transpose -> GatherND. With `constant_mask` the mask is
/// an initializer (a NonZero that folds).
inline ModelBuilder nonzero_model(bool constant_mask = false) {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4, 5}).output("y", kFloat, {std::string("n")});
  if (constant_mask) {
    onnx::TensorProto t;
    t.set_name("mask");
    t.set_data_type(onnx::TensorProto::BOOL);
    for (int i = 0; i < 20; ++i) t.add_int32_data(i % 3 == 0);
    t.add_dims(4);
    t.add_dims(5);
    g.initializer(t);
  } else {
    g.initializer(make_tensor_f32("zero", {}, {0.f}));
    g.node("Greater", {"x", "zero"}, {"mask"}, "Greater_1");
  }
  g.node("NonZero", {"mask"}, {"nz"}, "NonZero_2");
  attr_ints(g.node("Transpose", {"nz"}, {"idx"}, "Transpose_3"), "perm", {1, 0});
  g.node("GatherND", {"x", "idx"}, {"y"}, "GatherND_4");
  return m;
}

/// Reshape(x, Concat(Unsqueeze(n), [-1])) with `n` a graph input: a shape set by a value.
inline ModelBuilder reshape_by_value() {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4, 6}).input("n", kInt64, {}).output("y", kFloat, {}, false);
  g.constant_i64("ax", {0});
  g.node("Unsqueeze", {"n", "ax"}, {"n1"}, "Unsqueeze_1");
  g.constant_i64("rest", {-1});
  attr_int(g.node("Concat", {"n1", "rest"}, {"shape"}, "Concat_3"), "axis", 0);
  g.node("Reshape", {"x", "shape"}, {"y"}, "Reshape_4");
  return m;
}

/// Loop_9(n, true, x) { acc_out = acc + x; c_out = ...; slice = acc_out[0] }.
/// trip: "input" (a graph input), "const" (5), "dim" (x.shape[0] with x[steps, 3]).
/// data_condition: the body computes c_out = ReduceSum(acc_out) < 10, else c_out = c.
inline ModelBuilder loop_model(const std::string& trip, bool data_condition) {
  ModelBuilder m(13);
  auto& g = m.graph();
  if (trip == "dim") {
    g.input("x", kFloat, {std::string("steps"), 3});
    g.node("Shape", {"x"}, {"xs"}, "Shape_0");
    g.constant_i64("zero", {0}, {});
    g.node("Gather", {"xs", "zero"}, {"n"}, "Gather_1");
  } else {
    g.input("x", kFloat, {2, 3});
    if (trip == "input") {
      g.input("n", kInt64, {});
    } else {
      g.initializer(make_tensor_i64("n", {}, {5}));
    }
  }
  g.initializer(make_tensor_bool("true", true));
  g.output("acc_final", kFloat, {}, false).output("stacked", kFloat, {}, false);

  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("i", kInt64, {}).input("c", kBool, {}).input("acc", kFloat, {}, false);
  b.output("c_out", kBool, {}).output("acc_out", kFloat, {}, false);
  b.output("slice", kFloat, {}, false);
  b.node("Add", {"acc", "x"}, {"acc_out"}, "Add_b0");
  if (data_condition) {
    b.node("ReduceSum", {"acc_out"}, {"total"}, "ReduceSum_b1");
    b.initializer(make_tensor_f32("limit", {}, {10.f}));
    b.node("Less", {"total", "limit"}, {"c_out"}, "Less_b2");
  } else {
    b.node("Identity", {"c"}, {"c_out"}, "Identity_b1");
  }
  b.constant_i64("row", {0}, {});
  b.node("Gather", {"acc_out", "row"}, {"slice"}, "Gather_b3");
  attr_graph(g.node("Loop", {"n", "true", "x"}, {"acc_final", "stacked"}, "Loop_9"), "body", body);
  return m;
}

/// If_2(cond) { Neg(x) } else { Abs(x) } with cond: "data" (ReduceSum(x) > 0), "const" (an
/// initializer), "dim" (Shape(x)[0] > 1 with x[batch, 3]).
inline ModelBuilder if_model(const std::string& cond) {
  ModelBuilder m(13);
  auto& g = m.graph();
  if (cond == "dim") {
    g.input("x", kFloat, {std::string("batch"), 3}).output("y", kFloat, {}, false);
    g.node("Shape", {"x"}, {"s"}, "Shape_0");
    g.constant_i64("zero", {0}, {});
    g.node("Gather", {"s", "zero"}, {"b"}, "Gather_1");
    g.constant_i64("one", {1}, {});
    g.node("Greater", {"b", "one"}, {"cond"}, "Greater_1");
  } else {
    g.input("x", kFloat, {2, 3}).output("y", kFloat, {2, 3});
    if (cond == "data") {
      g.node("ReduceSum", {"x"}, {"s"}, "ReduceSum_0");
      g.initializer(make_tensor_f32("zero", {}, {0.f}));
      g.node("Greater", {"s", "zero"}, {"cond"}, "Greater_1");
    } else {
      g.initializer(make_tensor_bool("cond", false));
    }
  }
  onnx::GraphProto then_g, else_g;
  GraphBuilder t(&then_g), e(&else_g);
  t.output("ty", kFloat, {}, false);
  t.node("Neg", {"x"}, {"ty"}, "Neg_t0");
  e.output("ey", kFloat, {}, false);
  e.node("Abs", {"x"}, {"ey"}, "Abs_e0");
  auto& n = g.node("If", {"cond"}, {"y"}, "If_2");
  attr_graph(n, "then_branch", then_g);
  attr_graph(n, "else_branch", else_g);
  return m;
}

/// A model-local function local::Mask(v) = v[v > 0] called on input x [4]; with `twice`, also
/// called (as call_1 → yc) on a constant initializer w [4].
inline ModelBuilder function_model(bool twice = false) {
  ModelBuilder m(13);
  m.opset("local", 1);
  auto& g = m.graph();
  g.input("x", kFloat, {4}).output("y", kFloat, {}, false);
  g.node("Mask", {"x"}, {"y"}, "call_0", "local");
  if (twice) {
    g.initializer(make_tensor_f32("w", {4}, {1.f, -1.f, 1.f, 1.f}));
    g.output("yc", kFloat, {}, false);
    g.node("Mask", {"w"}, {"yc"}, "call_1", "local");
  }
  onnx::FunctionProto* f = m.proto().add_functions();
  f->set_name("Mask");
  f->set_domain("local");
  f->add_input("v");
  f->add_output("picked");
  auto* imp = f->add_opset_import();
  imp->set_domain("");
  imp->set_version(13);
  auto add = [&](const std::string& op, std::vector<std::string> in, const std::string& out,
                 const std::string& name) {
    onnx::NodeProto* n = f->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& i : in) n->add_input(i);
    n->add_output(out);
    return n;
  };
  onnx::NodeProto* c = add("Constant", {}, "zero", "Const_f0");
  onnx::AttributeProto* at = c->add_attribute();
  at->set_name("value");
  at->set_type(onnx::AttributeProto::TENSOR);
  *at->mutable_t() = make_tensor_f32("", {}, {0.f});
  add("Greater", {"v", "zero"}, "mask", "Greater_f1");
  add("NonZero", {"mask"}, "nz", "NonZero_f2");
  add("GatherND", {"v", "nz"}, "picked", "GatherND_f3");
  return m;
}

/// torch's opset-11 squeeze of `t = kept[:, [0]]` after boolean-mask indexing: t is [K, 1]
/// with K set by NonZero, and the squeeze tests Shape(t)[axis] == 1 in If_sq. `axis` 1 reads
/// the fixed dim (the If is constant), 0 reads K (the If depends on data).
inline ModelBuilder squeeze_after_mask(int64_t axis) {
  ModelBuilder m(11);
  auto& g = m.graph();
  g.input("boxes", kFloat, {std::string("n"), 5});
  g.output("first", kFloat, {}, false);
  g.initializer(make_tensor_f32("half", {}, {0.5f}));
  g.constant_i64("col", {4}, {});
  attr_int(g.node("Gather", {"boxes", "col"}, {"score"}, "Gather_score"), "axis", 1);
  g.node("Greater", {"score", "half"}, {"mask"}, "Greater_mask");
  g.node("NonZero", {"mask"}, {"nz"}, "NonZero_mask");
  attr_ints(g.node("Transpose", {"nz"}, {"idx"}, "Transpose_idx"), "perm", {1, 0});
  g.node("GatherND", {"boxes", "idx"}, {"kept"}, "GatherND_kept");
  g.constant_i64("first_col", {0}, {1});
  attr_int(g.node("Gather", {"kept", "first_col"}, {"t"}, "Gather_t"), "axis", 1);
  g.node("Shape", {"t"}, {"st"}, "Shape_t");
  g.constant_i64("which", {axis}, {});
  g.node("Gather", {"st", "which"}, {"d"}, "Gather_d");
  g.constant_i64("one", {1}, {});
  g.node("Equal", {"d", "one"}, {"cond"}, "Equal_cond");
  onnx::GraphProto then_g, else_g;
  GraphBuilder tb(&then_g), eb(&else_g);
  tb.output("sq", kFloat, {}, false);
  attr_ints(tb.node("Squeeze", {"t"}, {"sq"}, "Squeeze_then"), "axes", {axis});
  eb.output("id", kFloat, {}, false);
  eb.node("Identity", {"t"}, {"id"}, "Identity_else");
  auto& iff = g.node("If", {"cond"}, {"first"}, "If_sq");
  attr_graph(iff, "then_branch", then_g);
  attr_graph(iff, "else_branch", else_g);
  return m;
}

/// `while data: parts.append(x)` (a Loop whose body grows a sequence and recomputes its
/// condition from data), then n = len(parts) ("n") and cat(parts) ("all").
inline ModelBuilder sequence_grown_by_data_loop() {
  ModelBuilder m(13);
  auto& g = m.graph();
  g.input("x", kFloat, {4});
  g.output("n", kInt64, {});
  g.output("all", kFloat, {int64_t{-1}});
  g.node("SequenceEmpty", {}, {"empty"});
  g.initializer(make_tensor_bool("go", true));
  onnx::GraphProto body;
  GraphBuilder b(&body);
  b.input("i", kInt64, {}).input("c_in", kBool, {}).input("seq_in", kFloat, {}, false);
  b.output("c_out", kBool, {}).output("seq_out", kFloat, {}, false);
  b.node("SequenceInsert", {"seq_in", "x"}, {"seq_out"});
  b.node("ReduceSum", {"x"}, {"total"});
  b.initializer(make_tensor_f32("lim", {}, {1.f}));
  b.node("Greater", {"total", "lim"}, {"c_out"});
  attr_graph(g.node("Loop", {"", "go", "empty"}, {"seq"}, "Loop_grow"), "body", body);
  g.node("SequenceLength", {"seq"}, {"n"}, "SequenceLength_n");
  attr_int(g.node("ConcatFromSequence", {"seq"}, {"all"}, "ConcatFromSequence_all"), "axis", 0);
  return m;
}

}  // namespace onnxlint::testing::shape_flow
