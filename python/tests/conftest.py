"""Shared fixtures of the onnxlint Python tests (run by ctest: python/CMakeLists.txt).

ctest sets PYTHONPATH to the build tree's package, ONNX_LINT to the onnx-lint binary and
ONNXLINT_SOURCE_DIR to the repository. Models are built with python3-onnx's helpers.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

ONNX_LINT = os.environ.get("ONNX_LINT", "onnx-lint")
SOURCE_DIR = Path(os.environ.get("ONNXLINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def make_model(nodes, inputs, outputs, initializers=(), opset=17, producer="onnxlint-tests"):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                          producer_name=producer, producer_version="1" if producer else "")
    m.ir_version = 8
    return m


def tensor(name, dims):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, dims)


def clean_model():
    """Relu on a static [1, 4] input: no finding at all."""
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                      [tensor("x", [1, 4])], [tensor("y", [1, 4])])


def error_model():
    """Add with an input defined nowhere: one graph-undefined-value error."""
    return make_model([helper.make_node("Add", ["x", "ghost"], ["y"], name="add")],
                      [tensor("x", [1, 4])], [tensor("y", [1, 4])])


def warning_model():
    """A dead Neg node: one graph-dead-node warning."""
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu"),
                       helper.make_node("Neg", ["x"], ["t"], name="dead")],
                      [tensor("x", [1, 4])], [tensor("y", [1, 4])])


def dynamic_model():
    """Relu on a [batch, 4] input: a dynamic input (warning) and output (info)."""
    return make_model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                      [tensor("x", ["batch", 4])], [tensor("y", ["batch", 4])])


def external_data_model():
    """MatMul with a weight in external data 'w.bin' (16 floats at offset 0)."""
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4, 4])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "w.bin"), ("offset", "0"), ("length", "64")):
        entry = w.external_data.add()
        entry.key, entry.value = k, v
    return make_model([helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
                      [tensor("x", [1, 4])], [tensor("y", [1, 4])], initializers=[w])


def run_cli(*args, stdin=None, cwd=None):
    """onnx-lint's exit code, stdout and stderr."""
    proc = subprocess.run([ONNX_LINT, *map(str, args)], input=stdin, capture_output=True,
                          cwd=cwd, timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """An empty working folder (no onnx-lint.toml above it changes the defaults)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def model_files(workdir):
    """The models above written as files in the working folder: name -> Path."""
    out = {}
    for name, build in (("clean", clean_model), ("error", error_model),
                        ("warning", warning_model), ("dynamic", dynamic_model)):
        path = workdir / f"{name}.onnx"
        onnx.save(build(), str(path))
        out[name] = path
    return out
