"""onnxlint.fix: the fixed model in memory and its report, as `onnx-lint --fix` makes them."""
from __future__ import annotations

import json

import pytest
from onnx import checker

import onnxlint
from conftest import dynamic_model, run_cli, warning_model


@pytest.mark.parametrize("kind", ["ModelProto", "bytes", "path"])
def test_fix_removes_the_dead_node(kind, tmp_path):
    proto = warning_model()
    path = tmp_path / "m.onnx"
    path.write_bytes(proto.SerializeToString())
    source = {"ModelProto": proto, "bytes": proto.SerializeToString(), "path": path}[kind]
    result = onnxlint.fix(source, config=False)
    fixed = result.model
    assert [n.name for n in fixed.graph.node] == ["relu"]
    checker.check_model(fixed, full_check=True)
    assert [d.rule for d in result.report.diagnostics] == []
    fixing = json.loads(result.report.to_json())["files"][0]["fixing"]
    assert [a["rule"] for a in fixing["applied"]] == ["graph-dead-node"]
    assert fixing["written"] is False
    assert path.read_bytes() == proto.SerializeToString()  # nothing given is modified


def test_findings_say_whether_they_have_a_fix():
    report = onnxlint.lint(warning_model(), config=False)
    (dead,) = [d for d in report.diagnostics if d.rule == "graph-dead-node"]
    assert dead.fix == "safe"
    assert dead.fix_description == "remove the dead node"
    (dynamic,) = [d for d in onnxlint.lint(dynamic_model(), config=False).diagnostics
                  if d.rule == "shape-dynamic-input"]
    assert dynamic.fix is None and dynamic.fix_description is None


def test_rules_say_whether_they_fix():
    fixable = {r.id for r in onnxlint.rules() if r.fixable}
    assert {"graph-dead-node", "shape-foldable", "export-training-mode"} <= fixable
    assert "shape-dynamic-input" not in fixable


def test_fix_dims_make_the_input_static():
    result = onnxlint.fix(dynamic_model(), dims={"batch": 3}, config=False)
    dims = [d.dim_value for d in result.model.graph.input[0].type.tensor_type.shape.dim]
    assert dims == [3, 4]
    assert [d.rule for d in result.report.diagnostics] == []


def test_fix_dims_naming_no_input_dim_is_a_value_error():
    with pytest.raises(ValueError, match="no graph input has a dim named 'height'"):
        onnxlint.fix(dynamic_model(), dims={"height": 3}, config=False)


def test_fix_equals_the_command(tmp_path):
    path = tmp_path / "m.onnx"
    path.write_bytes(warning_model().SerializeToString())
    code, out, err = run_cli("--fix", "--no-config", path)
    assert code == 0, err
    assert "fixed 1 finding in 1 pass" in out
    assert (tmp_path / "m.fixed.onnx").read_bytes() == onnxlint.fix(path, config=False).data
