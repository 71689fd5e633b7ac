#!/usr/bin/env python3
"""ort.runner: tools/ort/run_model.js against models built here, and the ONNX Runtime facts the
oracle rests on (docs/ort-oracle.md): ORT 1.30 loads opset-6 models (no opset floor), refuses a
node whose since-version has no kernel, and refuses batch-major recurrent layouts.

  runner_test.py ORT_DIR
"""
import os
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "ort"))
import ort_common  # noqa: E402

FAILURES = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def model(nodes, inputs, outputs, opset, path):
    g = helper.make_graph(nodes, "g", inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 7
    onnx.save(m, path)
    return path


def main():
    ort_dir = sys.argv[1]
    ort_common.ort_modules(ort_dir)
    work = tempfile.mkdtemp(prefix="onnxlint-ort-runner-")
    fl = TensorProto.FLOAT
    concat = model([helper.make_node("Concat", ["x", "x"], ["y"], axis=0),
                    helper.make_node("Shape", ["y"], ["s"])],
                   [helper.make_tensor_value_info("x", fl, ["N", 3])],
                   [helper.make_tensor_value_info("y", fl, None),
                    helper.make_tensor_value_info("s", TensorProto.INT64, None)], 13,
                   os.path.join(work, "concat.onnx"))
    nonzero = model([helper.make_node("Greater", ["x", "half"], ["m"]),
                     helper.make_node("NonZero", ["m"], ["i"])],
                    [helper.make_tensor_value_info("x", fl, [100])],
                    [helper.make_tensor_value_info("i", TensorProto.INT64, None)], 13,
                    os.path.join(work, "nonzero.onnx"))
    m = onnx.load(nonzero)
    m.graph.initializer.append(helper.make_tensor("half", fl, [], [0.5]))
    onnx.save(m, nonzero)
    elu6 = model([helper.make_node("Elu", ["x"], ["y"])],
                 [helper.make_tensor_value_info("x", fl, [2])],
                 [helper.make_tensor_value_info("y", fl, [2])], 6, os.path.join(work, "elu6.onnx"))
    add6 = model([helper.make_node("Add", ["x", "x"], ["y"])],
                 [helper.make_tensor_value_info("x", fl, [2])],
                 [helper.make_tensor_value_info("y", fl, [2])], 6, os.path.join(work, "add6.onnx"))
    grus = {}
    for layout in (0, 1):
        grus[layout] = model(
            [helper.make_node("GRU", ["x", "w", "r"], ["y"], hidden_size=2, layout=layout)],
            [helper.make_tensor_value_info("x", fl, [1, 2, 2]),
             helper.make_tensor_value_info("w", fl, [1, 6, 2]),
             helper.make_tensor_value_info("r", fl, [1, 6, 2])],
            [helper.make_tensor_value_info("y", fl, None)], 14,
            os.path.join(work, f"gru{layout}.onnx"))
    feeds = lambda n: {"x": {"type": 1, "dims": [n, 3]}}  # noqa: E731
    nz = lambda seed: {"feeds": {"x": {"type": 1, "dims": [100]}}, "seed": seed}  # noqa: E731
    r = ort_common.run_jobs(ort_dir, [
        {"id": "concat", "model": concat, "runs": [{"feeds": feeds(2)}, {"feeds": feeds(5)}],
         "values": ["s"]},
        {"id": "nonzero", "model": nonzero, "runs": [nz(1), nz(2), nz(1)]},
        {"id": "elu6", "model": elu6},
        {"id": "add6", "model": add6},
        {"id": "gru0", "model": grus[0]},
        {"id": "gru1", "model": grus[1]},
        {"id": "missing", "model": os.path.join(work, "no-such-model.onnx")},
    ])
    c = r["concat"]["runs"]
    check(c[0]["outputs"]["y"]["dims"] == [4, 3] and c[1]["outputs"]["y"]["dims"] == [10, 3],
          f"Concat of x [N, 3] with itself is [2N, 3] at N = 2 and 5: {c}")
    check(c[1]["outputs"]["s"].get("data") == ["10", "3"],
          "the elements of a small integer output are printed exactly")
    counts = [run["outputs"]["i"]["dims"][1] for run in r["nonzero"]["runs"]]
    check(counts[0] == counts[2] and counts[0] != counts[1] and all(0 < n < 100 for n in counts),
          f"random data: one seed reproduces its data, another seed changes it: {counts}")
    check(r["elu6"]["loaded"], "ORT loads an ai.onnx opset-6 model (no opset floor)")
    check(not r["add6"]["loaded"] and "Could not find an implementation for Add(6)"
          in r["add6"]["error"], f"ORT has no Add-6 kernel: {r['add6'].get('error')}")
    check(r["gru0"]["loaded"], "ORT loads GRU with layout=0")
    check(not r["gru1"]["loaded"] and "layout_ == 0" in r["gru1"]["error"],
          f"ORT refuses GRU with layout=1: {r['gru1'].get('error', '')[:120]}")
    check(not r["missing"]["loaded"], "a missing file is a refusal, not a crash")
    print(f"{len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
