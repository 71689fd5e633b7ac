"""onnxlint.testing.assert_clean: passes on clean models, fails with the text report."""
from __future__ import annotations

import pytest

import onnxlint
from onnxlint.testing import assert_clean
from conftest import clean_model, dynamic_model, error_model, run_cli, warning_model


def test_clean_model_passes(model_files):
    report = assert_clean(model_files["clean"])
    assert report.ok and report.diagnostics == []
    assert assert_clean(clean_model(), config=False).ok


def test_failure_message_is_the_text_report(model_files):
    with pytest.raises(AssertionError) as err:
        assert_clean(model_files["error"])
    _, text, _ = run_cli("--color", "never", model_files["error"])
    assert str(err.value) == "onnx-lint found problems at or above 'error':\n" + text


def test_allow_accepts_findings(model_files):
    with pytest.raises(AssertionError, match=r"\[graph-undefined-value\]"):
        assert_clean(error_model(), config=False)
    report = assert_clean(error_model(), config=False, allow=["graph-undefined-value"])
    assert report.diagnostics == []
    assert assert_clean(model_files["warning"], fail_on="warning",
                        allow="graph-dead-node").diagnostics == []


def test_fail_on_warning_and_targets(model_files):
    assert assert_clean(warning_model(), config=False).ok  # warnings pass by default
    with pytest.raises(AssertionError, match=r"(?s)at or above 'warning'.*\[graph-dead-node\]"):
        assert_clean(warning_model(), config=False, fail_on="warning")
    report = assert_clean(dynamic_model(), config=False, targets=["tensorrt"])
    assert report.targets["tensorrt"]["verdict"] == "ok"


def test_unreadable_model_always_fails():
    with pytest.raises(AssertionError, match=r"\[model-unreadable\]"):
        assert_clean(b"garbage", config=False, allow=["model-unreadable"])


def test_unknown_allowed_rule_is_a_value_error():
    with pytest.raises(ValueError, match="graph-nothing"):
        assert_clean(clean_model(), config=False, allow=["graph-nothing"])
    assert onnxlint.testing.__all__ == ["assert_clean"]
