"""onnxlint.torch.export: a real torch.onnx.export (Debian python3-torch), linted in one call.

In CI (CI=true) a missing torch fails the suite instead of skipping it.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

if os.environ.get("CI") == "true":
    import torch  # noqa: F401  (must be installed in CI: tools/dev.sh installs python3-torch)
else:
    torch = pytest.importorskip("torch")

import onnxlint
import onnxlint.torch
from conftest import run_cli


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        return torch.relu(self.drop(self.fc(x)))


def small():
    torch.manual_seed(0)
    return Small().eval()


X = (torch.ones(2, 4),)


def test_export_into_memory_lints_the_model(workdir):
    report = onnxlint.torch.export(small(), X, opset_version=13, input_names=["x"],
                                   output_names=["y"])
    assert report.ok and report.exit_code == 0
    assert report.diagnostics == []
    assert report.files[0].path == "<Small export>"
    info = report.model
    assert (info.producer_name, info.opset_imports["ai.onnx"]) == ("pytorch", 13)
    assert info.nodes == 2  # Gemm, Relu: the eval-mode Dropout is gone
    assert not list(workdir.iterdir())  # nothing written


def test_export_to_a_file_equals_the_cli(workdir):
    path = workdir / "small.onnx"
    report = onnxlint.torch.export(small(), X, path, targets=["tensorrt"], opset_version=13,
                                   input_names=["x"], dynamic_axes={"x": {0: "batch"}})
    assert path.is_file()
    assert report.files[0].path == str(path)
    assert report.to_json() == run_cli("--format", "json", "--target", "tensorrt", path)[1]
    assert report.targets["tensorrt"]["verdict"] == "ok"
    # dynamic_axes made the batch dim symbolic: a dynamic input, seen in the summary too
    assert [d.rule for d in report.diagnostics if d.location.value == "x"] == \
        ["shape-dynamic-input"]
    assert report.dynamic_shapes["inputs"][0]["name"] == "x"
    assert "batch" in json.dumps(report.dynamic_shapes["dims"])


def test_export_into_a_bytesio_keeps_the_model_in_it():
    buffer = io.BytesIO()
    buffer.write(b"header")
    report = onnxlint.torch.export(small(), X, buffer, opset_version=13)
    data = buffer.getvalue()[len("header"):]
    assert report.model.file_bytes == len(data)
    assert report.to_json() == onnxlint.lint(data, name="<Small export>").to_json()
    buffer.write(b"more")  # the buffer was released: it can grow again


def test_training_mode_export_raises_lint_error():
    module = small().train()
    with pytest.raises(onnxlint.LintError) as err:
        onnxlint.torch.export(module, X, opset_version=13,
                              training=torch.onnx.TrainingMode.TRAINING,
                              do_constant_folding=False)
    report = err.value.report
    assert isinstance(report, onnxlint.Report)
    assert "export-training-mode" in [d.rule for d in report.diagnostics if d.severity == "error"]
    assert str(err.value) == report.to_text()
    assert report.exit_code == 1


def test_raise_on_never_returns_the_report():
    report = onnxlint.torch.export(small().train(), X, opset_version=13, raise_on="never",
                                   training=torch.onnx.TrainingMode.TRAINING,
                                   do_constant_folding=False)
    assert report.fail_on == "never" and report.ok
    assert "export-training-mode" in [d.rule for d in report.diagnostics]


def test_raise_on_warning_and_ignore(workdir):
    with pytest.raises(onnxlint.LintError) as err:
        onnxlint.torch.export(small(), X, raise_on="info", opset_version=13,
                              input_names=["x"], dynamic_axes={"x": {0: "batch"}})
    assert {d.rule for d in err.value.report.diagnostics} >= {"shape-dynamic-input"}
    report = onnxlint.torch.export(small(), X, raise_on="info", ignore=["shape"],
                                   opset_version=13, input_names=["x"],
                                   dynamic_axes={"x": {0: "batch"}})
    assert report.diagnostics == []


def test_bad_raise_on_is_a_value_error_before_exporting(workdir):
    with pytest.raises(ValueError, match="raise_on"):
        onnxlint.torch.export(small(), X, workdir / "m.onnx", raise_on="sometimes")
    assert not (workdir / "m.onnx").exists()


def test_torch_is_imported_lazily():
    code = ("import sys, onnxlint, onnxlint.torch, onnxlint.testing; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out == "False\n"
