"""Hostile-size models for the dataflow engine (issue 28: N1, N2, N3, N4, N6, N13, N17).

The contract every module of this folder follows (tests/hostile/growth_test.py discovers them):

- GENERATORS: {name: build}, where build(scale) returns the model's bytes (a serialized
  ModelProto, linted as one file), or a dict {relative path: bytes or str} of files laid out
  in a fresh folder that is then linted as a whole (models, configs, external data...). The
  size of what build(scale) returns grows linearly with `scale`.
- Every model is linted with `--no-config --select ALL --format json` and every target.
- SCALES (optional): {name: k}, the scale the growth test runs at k and 2k (default 2000).
  Pick k so that one run takes a few tenths of a second: above the noise of a shared machine,
  well within the test's time.
- ISSUE_SIZES (optional): {name: n}, the size at which the issue saw the defect; that model
  must be linted within a few seconds.
- ARGS (optional): {name: [extra onnx-lint arguments]}.

Names start with the issue's defect id ("N3-add-self-chain"), or "engine-" for a defect found
while fixing them, so a failure names the defect.
"""
from onnx import TensorProto, helper

from _build import i64, model, tensor

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


# N1: Range with a delta of -1 from INT64_MIN divided INT64_MIN by -1 (SIGFPE). `scale` Range
# nodes over the extremes of int64.
def range_extremes(scale):
    bounds = [(0, INT64_MIN, -1), (INT64_MIN, INT64_MAX, 1), (INT64_MAX, INT64_MIN, -1),
              (INT64_MIN, 0, INT64_MIN), (0, INT64_MAX, INT64_MIN), (INT64_MAX, 0, INT64_MAX)]
    inits, nodes, outs = [], [], []
    for i, (start, limit, delta) in enumerate(bounds):
        inits += [i64(f"start{i}", [start], []), i64(f"limit{i}", [limit], []),
                  i64(f"delta{i}", [delta], [])]
    for k in range(scale):
        i = k % len(bounds)
        nodes.append(helper.make_node("Range", [f"start{i}", f"limit{i}", f"delta{i}"],
                                      [f"r{k}"], name=f"Range_{k}"))
        outs.append(tensor(f"r{k}", TensorProto.INT64, None))
    return model(nodes, [], outs, inits, opset=11)


# N2: s = Add(s, Shape(X)) `scale` times: a symbolic expression `scale` operations deep.
def shape_add_chain(scale):
    nodes = [helper.make_node("Shape", ["X"], ["sx"], name="Shape_X")]
    prev = "sx"
    for k in range(scale):
        nodes.append(helper.make_node("Add", [prev, "sx"], [f"s{k}"], name=f"Add_{k}"))
        prev = f"s{k}"
    nodes.append(helper.make_node("ConstantOfShape", [prev], ["Y"], name="Fill"))
    return model(nodes, [tensor("X", TensorProto.FLOAT, ["N"])],
                  [tensor("Y", TensorProto.FLOAT, None)])


# N3: s = Add(s, s) `scale` times: an expression DAG of `scale` nodes and 2^scale leaves.
def add_self_chain(scale):
    nodes = [helper.make_node("Shape", ["X"], ["s"], name="Shape_X")]
    prev = "s"
    for k in range(scale):
        nodes.append(helper.make_node("Add", [prev, prev], [f"s{k}"], name=f"Add_{k}"))
        prev = f"s{k}"
    nodes.append(helper.make_node("ConstantOfShape", [prev], ["Y"], name="Fill"))
    return model(nodes, [tensor("X", TensorProto.FLOAT, ["N"])],
                  [tensor("Y", TensorProto.FLOAT, None)])


# N4: Loops nested `depth` deep. Each loop carries its own copy of the static input X and grows
# it by the rows of D (dynamic: [n, 4]), so its carried class changes on the first pass: every
# run of a body needs two fixed-point passes, and nesting multiplies them. `width` extra nodes
# per body.
def _nested_loops(depth, width):
    def body(level):
        # inputs: iteration count, condition, carried t; outputs: condition, t
        inner = []
        cur = f"t{level}"
        if level + 1 < depth:
            inner.append(helper.make_node(
                "Loop", ["M", "", "X"], [f"u{level}"], name=f"Loop_{level + 1}",
                body=body(level + 1)))
            inner.append(helper.make_node("Add", [cur, f"u{level}"], [f"v{level}"],
                                          name=f"Mix_{level}"))
            cur = f"v{level}"
        for w in range(width):
            inner.append(helper.make_node("Relu", [cur], [f"w{level}_{w}"],
                                          name=f"Relu_{level}_{w}"))
            cur = f"w{level}_{w}"
        inner.append(helper.make_node("Concat", [cur, "D"], [f"grown{level}"],
                                      name=f"Grow_{level}", axis=0))
        inner.append(helper.make_node("Identity", [f"c_in{level}"], [f"c_out{level}"],
                                      name=f"Cond_{level}"))
        return helper.make_graph(
            inner, f"body{level}",
            [tensor(f"i{level}", TensorProto.INT64, []),
             tensor(f"c_in{level}", TensorProto.BOOL, []),
             tensor(f"t{level}", TensorProto.FLOAT, None)],
            [tensor(f"c_out{level}", TensorProto.BOOL, []),
             tensor(f"grown{level}", TensorProto.FLOAT, None)])

    nodes = [helper.make_node("Loop", ["M", "", "X"], ["Y"], name="Loop_0", body=body(0))]
    return model(nodes, [tensor("X", TensorProto.FLOAT, [1, 4]),
                          tensor("D", TensorProto.FLOAT, ["n", 4])],
                  [tensor("Y", TensorProto.FLOAT, None)], [i64("M", [3], [])])


def nested_loops(scale):
    # The loader refuses subgraphs nested deeper than 64.
    return _nested_loops(min(scale, 60), 1)


def nested_loops_wide(scale):
    return _nested_loops(40, max(1, scale))


# N6: a Concat of `scale` untyped inputs (each brings its own input-dim name "xK.shape").
def concat_untyped(scale):
    names = [f"x{k}" for k in range(scale)]
    nodes = [helper.make_node("Concat", names, ["Y"], name="Concat_all", axis=0)]
    return model(nodes, [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                          for n in names],
                  [tensor("Y", TensorProto.FLOAT, None)])


# N6: s = Add(s, xK) over `scale` untyped inputs: name sets of size 1, 2, ..., scale.
def add_chain_untyped(scale):
    nodes, prev = [], "x0"
    for k in range(1, scale):
        nodes.append(helper.make_node("Add", [prev, f"x{k}"], [f"s{k}"], name=f"Add_{k}"))
        prev = f"s{k}"
    nodes.append(helper.make_node("Identity", [prev], ["Y"], name="Out"))
    return model(nodes, [helper.make_tensor_value_info(f"x{k}", TensorProto.FLOAT, None)
                          for k in range(scale)],
                  [tensor("Y", TensorProto.FLOAT, None)])


# N13: the signed-overflow sites of the dim arithmetic, `scale` nodes cycling through them.
# Each would give a wrong "proven" dim if the arithmetic wrapped (Tile([2^62], [4]) -> [0]).
def overflow_sites(scale):
    big = 2**62
    inits = [i64("reps4", [4]), i64("pads_big", [INT64_MAX, INT64_MAX]),
             i64("start_min", [INT64_MIN]), i64("end_max", [INT64_MAX]),
             i64("step_min", [INT64_MIN]), i64("axes0", [0]),
             i64("shape_big", [big, 4]), i64("minus1", [-1]), i64("two", [2]),
             helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 1], [1.0])]
    inputs = [tensor("big", TensorProto.FLOAT, [big]), tensor("X", TensorProto.FLOAT, [1, 1, 8]),
              tensor("huge2", TensorProto.FLOAT, [big, big])]
    makers = [
        lambda k: helper.make_node("Tile", ["big", "reps4"], [f"o{k}"], name=f"Tile_{k}"),
        lambda k: helper.make_node("Pad", ["big", "pads_big"], [f"o{k}"], name=f"Pad_{k}"),
        lambda k: helper.make_node("Slice", ["big", "start_min", "end_max", "axes0", "step_min"],
                                   [f"o{k}"], name=f"Slice_{k}"),
        lambda k: helper.make_node("Conv", ["X", "w"], [f"o{k}"], name=f"Conv_{k}",
                                   pads=[INT64_MAX, INT64_MAX], dilations=[INT64_MAX],
                                   kernel_shape=[3]),
        lambda k: helper.make_node("MaxPool", ["X"], [f"o{k}"], name=f"Pool_{k}",
                                   kernel_shape=[INT64_MAX], strides=[INT64_MAX],
                                   pads=[INT64_MIN, INT64_MIN], ceil_mode=1),
        lambda k: helper.make_node("ConvTranspose", ["X", "w"], [f"o{k}"], name=f"ConvT_{k}",
                                   strides=[INT64_MAX], output_padding=[INT64_MAX],
                                   pads=[INT64_MIN, INT64_MIN]),
        lambda k: helper.make_node("Reshape", ["huge2", "minus1"], [f"o{k}"],
                                   name=f"Reshape_{k}"),
        lambda k: helper.make_node("Flatten", ["huge2"], [f"o{k}"], name=f"Flatten_{k}", axis=0),
        lambda k: helper.make_node("DepthToSpace", ["huge4"], [f"o{k}"], name=f"D2S_{k}",
                                   blocksize=2**40),
        lambda k: helper.make_node("TfIdfVectorizer", ["ids"], [f"o{k}"], name=f"TfIdf_{k}",
                                   ngram_indexes=[INT64_MAX], mode="TF", min_gram_length=1,
                                   max_gram_length=1, max_skip_count=0, ngram_counts=[0],
                                   pool_int64s=[1]),
        lambda k: helper.make_node("Resize", ["X", "", "scales_huge"], [f"o{k}"],
                                   name=f"Resize_{k}"),
        lambda k: helper.make_node("MaxUnpool", ["X", "idx"], [f"o{k}"], name=f"Unpool_{k}",
                                   kernel_shape=[INT64_MAX], strides=[INT64_MAX],
                                   pads=[INT64_MIN, INT64_MIN]),
    ]
    inputs += [tensor("huge4", TensorProto.FLOAT, [1, 4, big, big]),
               tensor("ids", TensorProto.INT64, [3]),
               tensor("idx", TensorProto.INT64, [1, 1, 8])]
    inits.append(helper.make_tensor("scales_huge", TensorProto.FLOAT, [3], [1.0, 1.0, 1e30]))
    nodes, outs = [], []
    for k in range(scale):
        nodes.append(makers[k % len(makers)](k))
        outs.append(tensor(f"o{k}", TensorProto.FLOAT, None))
    return model(nodes, inputs, outs, inits, opset=13)


# N17: a rank set by attributes: Reshape-1 with a `shape` attribute of `scale` ones, then
# Unsqueeze-1 with `scale` axes, and consumers that copy the dims.
def attribute_rank(scale):
    nodes = [helper.make_node("Reshape", ["X"], ["r"], name="Reshape_attr", shape=[1] * scale),
             helper.make_node("Unsqueeze", ["r"], ["u"], name="Unsqueeze_attr",
                              axes=list(range(scale))),
             helper.make_node("Unsqueeze", ["X"], ["v"], name="Unsqueeze_X",
                              axes=list(range(scale)))]
    prev = "u"
    for k in range(64):
        nodes.append(helper.make_node("Relu", [prev], [f"a{k}"], name=f"Relu_{k}"))
        prev = f"a{k}"
    nodes.append(helper.make_node("Add", [prev, "v"], ["Y"], name="Sum"))
    return model(nodes, [tensor("X", TensorProto.FLOAT, [1])],
                  [tensor("Y", TensorProto.FLOAT, None)], opset=4)


# Hash flooding: the expression table's keys were a fixed function of the constants, so `scale`
# Adds with constants chosen to fill consecutive keys, then `scale` Muls whose keys start inside
# that run, made every Mul probe through it (quadratic). The keys are now mixed with a seed
# chosen per process. Constants for the fixed mix of main at 8c2933b.
def hash_flood_constants(scale):
    mod, golden, prime = 2**64, 0x9E3779B97F4A7C15, 0x100000001B3
    inverse = pow(golden * prime % mod, -1, mod)
    dim_key = (1 << 8) | 1  # the key of input dim N (set 1, symbolic)

    def constant_for(key, op):  # the c whose expression N op c had `key`
        c = ((key - op - dim_key * 31 * prime) * inverse) % mod
        return c - mod if c >= 2**63 else c

    nodes = [helper.make_node("Shape", ["X"], ["s"], name="Shape_X")]
    inits, k = [], 0
    for op_name, op in (("Add", 1), ("Mul", 3)):
        for i in range(scale):
            inits.append(i64(f"c{k}", [constant_for((1 << 40) + i, op)]))
            nodes.append(helper.make_node(op_name, ["s", f"c{k}"], [f"a{k}"], name=f"{op_name}_{k}"))
            k += 1
    return model(nodes, [tensor("X", TensorProto.FLOAT, ["N"])],
                  [tensor(f"a{k - 1}", TensorProto.INT64, None)], inits)


# DimPins: `scale` broadcasts of a deep expression of H (20 stride-2 convolutions, near the
# expression leaf cap) against tables, each an equality to solve; the tables' row counts cycle
# through 40 values, so most equalities repeat an earlier one.
def pin_flood(scale):
    nodes, inits = [], [helper.make_tensor("w", TensorProto.FLOAT, [1, 1, 3, 1], [0.0] * 3)]
    prev = "X"
    for k in range(20):
        nodes.append(helper.make_node("Conv", [prev, "w"], [f"c{k}"], name=f"Conv_{k}",
                                      strides=[2, 1], pads=[1, 0, 1, 0], kernel_shape=[3, 1]))
        prev = f"c{k}"
    outs = []
    for r in range(40):
        inits.append(helper.make_tensor(f"t{r}", TensorProto.FLOAT, [1, 1, r + 2, 1],
                                        [0.0] * (r + 2)))
    for k in range(scale):
        nodes.append(helper.make_node("Add", [prev, f"t{k % 40}"], [f"y{k}"], name=f"Add_{k}"))
        outs.append(tensor(f"y{k}", TensorProto.FLOAT, None))
    return model(nodes, [tensor("X", TensorProto.FLOAT, [1, 1, "H", 1])], outs, inits)


GENERATORS = {
    "N1-range-extremes": range_extremes,
    "N2-shape-add-chain": shape_add_chain,
    "N3-add-self-chain": add_self_chain,
    "N4-nested-loops": nested_loops,
    "N4-nested-loops-wide": nested_loops_wide,
    "N6-concat-untyped": concat_untyped,
    "N6-add-chain-untyped": add_chain_untyped,
    "N13-overflow-sites": overflow_sites,
    "N17-attribute-rank": attribute_rank,
    "engine-hash-flood-constants": hash_flood_constants,
    "engine-pin-flood": pin_flood,
}

SCALES = {
    "N1-range-extremes": 10000,
    "N2-shape-add-chain": 20000,
    "N3-add-self-chain": 20000,
    "N4-nested-loops": 24,  # 24 and 48 levels: under the loader's nesting limit of 64
    "N4-nested-loops-wide": 400,
    "N6-concat-untyped": 20000,
    "N6-add-chain-untyped": 10000,
    "N13-overflow-sites": 5000,
    "N17-attribute-rank": 100000,
    "engine-hash-flood-constants": 8000,
    "engine-pin-flood": 5000,
}

ISSUE_SIZES = {
    "N1-range-extremes": 1,
    "N2-shape-add-chain": 20000,
    "N3-add-self-chain": 40,
    "N4-nested-loops": 40,
    "N6-concat-untyped": 50000,
    "N6-add-chain-untyped": 12000,
    "N13-overflow-sites": 12,
    "N17-attribute-rank": 200000,
}
