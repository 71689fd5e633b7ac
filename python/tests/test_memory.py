"""Zero copy: linting a 1 GiB in-memory model adds almost nothing to the process's peak memory.

Each measurement runs in a fresh interpreter so that the peak (VmHWM) belongs to it alone. The
model is a MatMul with a 1 GiB float initializer (16384 x 16384), written straight into one
bytearray whose payload pages are all touched first, so the buffer itself is in the peak
before linting starts; the peak is then reset to the current size (/proc/self/clear_refs), so
that no earlier transient can hide what the call adds.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from conftest import SOURCE_DIR

GIB = 1 << 30
ALLOWED_GROWTH = 8 << 20  # "a few MiB"

SCRIPT = textwrap.dedent(r"""
    import json, sys, time
    from onnx import TensorProto, helper
    sys.path.insert(0, %(support)r)
    from onnx_wire import varint

    def vm(key):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
        raise KeyError(key)

    N = 16384
    payload = N * N * 4
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, N])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, N])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="t", producer_version="1")
    model.ir_version = 8
    head = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[N, N]).SerializeToString()
    tensor_head = head + varint(9 << 3 | 2) + varint(payload)        # raw_data
    init_head = varint(5 << 3 | 2) + varint(len(tensor_head) + payload)  # GraphProto.initializer
    graph_bytes = model.graph.SerializeToString()
    model.ClearField("graph")
    graph_len = len(graph_bytes) + len(init_head) + len(tensor_head) + payload
    prefix = (model.SerializeToString() + varint(7 << 3 | 2) + varint(graph_len) + graph_bytes
              + init_head + tensor_head)

    buf = bytearray(len(prefix) + payload)
    buf[:len(prefix)] = prefix
    view = memoryview(buf)
    chunk = b"\x01" * (1 << 20)
    for at in range(len(prefix), len(buf), len(chunk)):
        view[at:at + len(chunk)] = chunk[:len(buf) - at]
    del chunk

    import onnxlint
    linter = onnxlint.Linter(config=False)
    linter.lint(b"")  # loads everything the first call needs, outside the measurement
    try:  # the peak so far becomes the current size (Linux >= 4.0), dropping transients
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    before = vm("VmHWM")
    start = time.perf_counter()
    report = linter.lint(%(source)s)
    seconds = time.perf_counter() - start
    after = vm("VmHWM")
    print(json.dumps({"size": len(buf), "before": before, "after": after, "seconds": seconds,
                      "rules": [d.rule for d in report.diagnostics],
                      "file_bytes": report.model.file_bytes,
                      "initializer_bytes": report.model.initializer_bytes}))
""")


def measure(source):
    env = dict(os.environ)
    script = SCRIPT % {"source": source, "support": str(SOURCE_DIR / "tests" / "support")}
    proc = subprocess.run([sys.executable, "-c", script],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_1gib_buffer_is_linted_without_a_copy():
    m = measure("buf")
    assert m["size"] > GIB
    assert m["before"] > GIB  # the buffer is resident: its pages count in the peak
    assert m["file_bytes"] == m["size"]
    assert m["initializer_bytes"] == GIB
    assert m["rules"] == []
    growth = m["after"] - m["before"]
    print(f"1 GiB buffer ({m['size']} bytes): peak {m['before'] / 2**20:.1f} -> "
          f"{m['after'] / 2**20:.1f} MiB (+{growth / 2**20:.2f} MiB), "
          f"lint {m['seconds'] * 1000:.1f} ms")
    assert growth <= ALLOWED_GROWTH


def test_the_measurement_sees_a_copy():
    # The control: the same lint of a copy made in the call's argument adds the whole GiB.
    m = measure("bytes(buf)")
    assert m["rules"] == []
    print(f"copy of it: peak {m['before'] / 2**20:.1f} -> {m['after'] / 2**20:.1f} MiB "
          f"(+{(m['after'] - m['before']) / 2**20:.2f} MiB), lint {m['seconds'] * 1000:.1f} ms")
    assert m["after"] - m["before"] >= GIB - ALLOWED_GROWTH
