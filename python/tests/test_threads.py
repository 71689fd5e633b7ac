"""One Linter shared by several Python threads: the same reports as one thread, in parallel."""
from __future__ import annotations

import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import onnxlint
from conftest import dynamic_model, error_model, warning_model

THREADS = 8
ROUNDS = 25


def test_shared_linter_gives_identical_reports():
    linter = onnxlint.Linter(targets=["tensorrt", "onnxruntime-cpu"], config=False)
    models = [error_model().SerializeToString(), warning_model().SerializeToString(),
              dynamic_model()]
    expected = [linter.lint(m).to_json() for m in models]
    barrier = threading.Barrier(THREADS)

    def work(seed):
        barrier.wait()  # start together, so that the calls overlap
        out = []
        for i in range(ROUNDS):
            k = (seed + i) % len(models)
            out.append((k, linter.lint(models[k]).to_json()))
        return out

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(work, range(THREADS)))
    assert sum(len(r) for r in results) == THREADS * ROUNDS
    for result in results:
        for k, got in result:
            assert got == expected[k]


def test_lint_releases_the_gil():
    # While one thread lints a large model, another Python thread runs. The interpreter never
    # takes the GIL from the linting thread here (a 100 s switch interval), and the ticker gives
    # it back at every step: the ticker advances during lint() only if lint() releases the GIL.
    from onnx import TensorProto, helper
    n = 20000
    nodes = [helper.make_node("Relu", [f"v{i}"], [f"v{i + 1}"], name=f"r{i}") for i in range(n)]
    graph = helper.make_graph(nodes, "g",
                              [helper.make_tensor_value_info("v0", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info(f"v{n}", TensorProto.FLOAT, [1])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="t", producer_version="1")
    data = model.SerializeToString()
    linter = onnxlint.Linter(config=False)
    ticks = []
    started = threading.Event()
    done = threading.Event()

    def ticker():
        started.set()
        while not done.is_set():
            ticks.append(1)
            time.sleep(0)  # gives the GIL back

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        t = threading.Thread(target=ticker)
        t.start()
        started.wait()
        before = len(ticks)
        report = linter.lint(data)
        during = len(ticks) - before
        done.set()
        t.join()
    finally:
        sys.setswitchinterval(interval)
    assert report.model.nodes == n
    assert report.diagnostics == []
    assert during > 0
