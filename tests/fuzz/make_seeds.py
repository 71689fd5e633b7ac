#!/usr/bin/env python3
"""Writes the hand-made seeds of tests/fuzz/seeds/ (committed; rerun after changing them).
Models are protobuf wire bytes written by hand: several are what protobuf's own classes cannot
write (repeated singular fields). The real-model seeds are tests/data/corpus itself."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


sys.path.insert(0, os.path.join(HERE, "..", "support"))
from onnx_wire import field as f, int_field as i, node, value_info as vi, varint  # noqa: E402,F401


def graph(nodes, ins=("x",), outs=("y",), extra=b""):
    return f(7, b"".join(f(1, n) for n in nodes) + b"".join(f(11, vi(x)) for x in ins)
             + b"".join(f(12, vi(x)) for x in outs) + extra)


def model(graph_fields, extra=b""):
    return i(1, 8) + f(2, "seed") + f(3, "1") + graph_fields + f(8, f(1, "") + i(2, 17)) + extra


def chain(n):
    fns = b""
    for k in range(n):
        body = node("F%d" % (k + 1), ["x"], ["y"], "c", "local") if k + 1 < n else node(
            "Relu", ["x"], ["y"], "r")
        fns += f(25, f(1, "F%d" % k) + f(4, "x") + f(5, "y") + f(7, body)
                 + f(9, f(1, "") + i(2, 17)) + f(10, "local"))
    return model(graph([node("F0", ["x"], ["y"], "top", "local")]),
                 f(8, f(1, "local") + i(2, 1)) + fns)


def subgraph_attr(name, nodes, outs):
    return f(5, f(1, name) + i(20, 5) + f(6, b"".join(f(1, n) for n in nodes)
                                         + b"".join(f(12, vi(o)) for o in outs)))


SEEDS = {
    "relu.onnx": model(graph([node("Relu", ["x"], ["y"], "relu")])),
    "two_graph_fields.onnx": model(graph([node("Relu", ["x"], ["a"], "r")], outs=())
                                   + graph([node("Neg", ["a"], ["y"], "n")], ins=())),
    "if_two_g.onnx": model(graph([node("If", ["c"], ["y"], "if", attrs=(
        f(5, f(1, "then_branch") + i(20, 5) + f(6, f(1, node("Neg", ["x"], ["t"], "a")))
          + f(6, f(1, node("Relu", ["t"], ["u"], "b")) + f(12, vi("u"))))
        + subgraph_attr("else_branch", [node("Identity", ["x"], ["e"], "i")], ["e"])))],
        ins=("c", "x"))),
    "loop.onnx": model(graph([node("Loop", ["", "", "x"], ["y"], "loop", attrs=subgraph_attr(
        "body", [node("Identity", ["c"], ["c2"], "i"), node("Relu", ["v"], ["v2"], "r")],
        ["c2", "v2"]))])),
    "chain.onnx": chain(40),
    "injection.onnx": model(graph([node("Relu", ["x"], ["y"], "x\n::error::owned\x1b[2J\u202e")])),
    "disable.onnx": model(graph([node("Relu", ["x"], ["y"], "relu")]),
                          f(14, f(1, "onnx-lint:disable") + f(2, "graph-dead-node, bogus, shape*"))),
    "initializer.onnx": model(graph([node("Add", ["x", "w"], ["y"], "add")], extra=f(5, (
        i(1, 1) + i(2, 1) + f(8, "w") + f(9, b"\0\0\x80?"))))),
    "external.onnx": model(graph([node("Add", ["x", "w"], ["y"], "add")], extra=f(5, (
        i(1, 4) + i(2, 1) + f(8, "w") + f(13, f(1, "location") + f(2, "../w.bin"))
        + f(13, f(1, "length") + f(2, "16")) + i(14, 1))))),
    "empty_nodes.onnx": model(f(7, b"\x0a\x00" * 64)),
}

CONFIGS = {
    "full.toml": b"""select = ["ALL"]
ignore = ["graph-dead-node"]
targets = ["onnxruntime-cpu"]
fail-on = "warning"
baseline = "baseline.json"
in-model-suppressions = false
[severity]
"shape-*" = "error"
[rules.model-too-large]
max-bytes = 1000
[[overrides]]
files = ["exports/**", "**/legacy/*.onnx", "./a/b"]
ignore = ["shape"]
""",
    "pyproject.toml": b"""[project]
name = "x"
[tool.onnx-lint]
select = ["graph", "model"]
[[tool.onnx-lint.overrides]]
files = ["**/*.onnx"]
extend-select = ["data"]
""",
    "baseline.json": b"""{"schema_version": 1, "tool": "onnx-lint", "findings": [
 {"fingerprint": "abc", "rule": "graph-dead-node", "file": "m.onnx", "location": "main/n"}]}
""",
    "glob.txt": b"**/x/**/*.onnx\na/x/b/c.onnx",
}

for sub, items in (("model", SEEDS), ("config", CONFIGS)):
    os.makedirs(os.path.join(HERE, "seeds", sub), exist_ok=True)
    for name, data in items.items():
        with open(os.path.join(HERE, "seeds", sub, name), "wb") as out:
            out.write(data)
