"""Model generators for the loading and output defects of issue 28 (N8, N10, N15).

Contract (tests/hostile/growth_test.py discovers every module of this folder): GENERATORS maps a
name to a function of an integer scale that returns the bytes of a serialized ModelProto. The
model's size grows linearly with the scale, and so must onnx-lint's time and peak memory on it
(x <= 2.5 when the scale doubles). Built with onnx.helper (/usr/bin/python3).

The defects that need more than one model file (N9: one config file above many folders; N11: one
weights file under many spellings) have their own growth checks in cli_hostile_test.py, and N14
(a symlink out of the folder walked) its test there and in io_hostile_test.cc.
"""
from onnx import TensorProto, helper


def _model(graph, opset=17):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name="onnxlint-hostile", producer_version="1")
    m.ir_version = 8
    return m.SerializeToString()


def long_dim_name(scale):
    """N10: one input whose dim is named by a long string, and many graph outputs (Identity of
    that input) whose analysed dims and findings echo it. Before the cap each finding, note and
    output signature repeated the whole name: output grew as outputs x name length (quadratic in
    the scale)."""
    name = "N" * (2000 * scale)
    outputs = 100 * scale
    nodes = [helper.make_node("Identity", ["x"], [f"y{i}"], name=f"id{i}") for i in range(outputs)]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [name, 3])],
        [helper.make_tensor_value_info(f"y{i}", TensorProto.FLOAT, None) for i in range(outputs)])
    return _model(graph)


def huge_initializer_count(scale):
    """N8: initializers that declare 2^62 floats (and 2^61 int64, 2^63 / 8 bytes: every width
    times the count wraps to 0 in 64 bits) with empty raw_data, used by a Reshape and an Add
    (so that the rules that read constants look at them). `scale` of them each."""
    inits, nodes, inputs = [], [], []
    for i in range(4 * scale):
        for dtype, dims in ((TensorProto.FLOAT, [1 << 31, 1 << 31]),
                            (TensorProto.INT64, [1 << 30, 1 << 31]),
                            (TensorProto.FLOAT16, [1 << 31, 1 << 32]),
                            (TensorProto.DOUBLE, [1 << 30, 1 << 31])):
            t = TensorProto(name=f"w{i}_{dtype}", data_type=dtype, dims=dims)
            t.raw_data = b""
            inits.append(t)
        nodes.append(helper.make_node("Add", ["x", f"w{i}_{TensorProto.FLOAT}"], [f"a{i}"]))
        nodes.append(helper.make_node("Reshape", [f"a{i}", f"w{i}_{TensorProto.INT64}"],
                                      [f"r{i}"]))
        nodes.append(helper.make_node("Cast", [f"w{i}_{TensorProto.FLOAT16}"], [f"c{i}"],
                                      to=TensorProto.FLOAT))
        inputs.append(f"r{i}")
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in inputs], inits)
    return _model(graph)


# Characters that must never reach a terminal, a log or a CI annotation raw: line breaks (a
# "::" workflow command on a line of its own), ESC, NUL, a bidi override, zero-width and Unicode
# tag characters.
HOSTILE_TEXT = ("a\n::error file=x::forged\r\n\x1b[31mred\x00"
                "\u202e\u200b\u2060\U000E0041\U000E007F\ufeffz")


def hostile_names(scale):
    """N15: node, value and dim names made of characters every format must escape, 20 x scale
    nodes of them."""
    count = 20 * scale
    nodes = [helper.make_node("Relu", ["x" + HOSTILE_TEXT] if i == 0 else [f"v{i - 1}"],
                              [f"v{i}"], name=f"n{i}{HOSTILE_TEXT}") for i in range(count)]
    graph = helper.make_graph(
        nodes, "g" + HOSTILE_TEXT,
        [helper.make_tensor_value_info("x" + HOSTILE_TEXT, TensorProto.FLOAT,
                                       [HOSTILE_TEXT, 3])],
        [helper.make_tensor_value_info(f"v{count - 1}", TensorProto.FLOAT, None)])
    return _model(graph)


GENERATORS = {
    "N8-huge-initializer-count": huge_initializer_count,
    "N10-long-dim-name": long_dim_name,
    "N15-hostile-names": hostile_names,
}

# N10's model grows as the name length plus the outputs (both linear in the scale); what echoed
# the name per output grew as their product. Scale 16 is a 100 KB model, 32 twice that.
SCALES = {"N10-long-dim-name": 16}


if __name__ == "__main__":  # writes each model at scale 1 to the current folder, for a look
    for generator_name, generate in GENERATORS.items():
        with open(generator_name + ".onnx", "wb") as f:
            f.write(generate(1))

