"""isolate=: a crash while linting one model is that model's internal-error finding, and the
interpreter (this pytest run) goes on; file_timeout=: so is a model whose lint hangs.
ONNXLINT_TEST_CRASH_RULE=<rule>:<how>[:<path part>] is the test-only switch that makes a rule
crash or hang (docs/security.md, "Crash isolation")."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import onnx
import pytest

import onnxlint
from conftest import clean_model, error_model, warning_model

SWITCH = "ONNXLINT_TEST_CRASH_RULE"


def segv_message(rule):
    return (f"onnx-lint crashed with SIGSEGV (segmentation fault) while running rule '{rule}'; "
            "nothing else is reported for this file")


@pytest.fixture
def folder(workdir):
    """Three models; the middle one's name holds "crash"."""
    d = workdir / "models"
    d.mkdir()
    for name, build in (("a", error_model), ("b_crash", warning_model), ("c", clean_model)):
        onnx.save(build(), str(d / f"{name}.onnx"))
    return d


def file_entries(report):
    return json.loads(report.to_json())["files"]


def test_a_folder_is_isolated_by_default(folder, monkeypatch):
    expected = onnxlint.lint(folder, config=False)
    monkeypatch.setenv(SWITCH, "graph-dead-node:segv:crash")
    report = onnxlint.lint(folder, config=False)
    crashed = report.files[1]
    assert crashed.path.endswith("b_crash.onnx")
    assert [(d.rule, d.severity, d.message) for d in crashed.diagnostics] == [
        ("internal-error", "error", segv_message("graph-dead-node"))]
    assert crashed.model is None
    assert report.exit_code == 2 and not report.ok
    # The other models' reports are exactly those of a run without the crash.
    got, want = file_entries(report), file_entries(expected)
    assert [got[0], got[2]] == [want[0], want[2]]


def test_isolate_true_for_one_file_and_for_a_buffer(folder, monkeypatch):
    path = folder / "b_crash.onnx"
    data = path.read_bytes()
    clean_file = onnxlint.lint(path, config=False, isolate=True)
    assert clean_file.to_json() == onnxlint.lint(path, config=False).to_json()
    clean_buffer = onnxlint.lint(data, name="b_crash.onnx", config=False, isolate=True)
    assert clean_buffer.to_json() == onnxlint.lint(data, name="b_crash.onnx",
                                                   config=False).to_json()
    monkeypatch.setenv(SWITCH, "graph-dead-node:segv")
    for report in (onnxlint.lint(path, config=False, isolate=True),
                   onnxlint.lint(data, name="b_crash.onnx", config=False, isolate=True)):
        assert [d.message for d in report.diagnostics] == [segv_message("graph-dead-node")]
        assert report.exit_code == 2


def test_a_killed_worker_names_the_out_of_memory_killer(folder, monkeypatch):
    monkeypatch.setenv(SWITCH, "graph-dead-node:kill:crash")
    report = onnxlint.lint(folder, config=False)
    assert [d.message for d in report.files[1].diagnostics] == [
        "onnx-lint's worker process was killed (SIGKILL, most likely by the kernel's "
        "out-of-memory killer) while running rule 'graph-dead-node'; nothing else is reported "
        "for this file"]


@pytest.mark.parametrize("isolate", [False, True])
def test_out_of_memory_is_a_finding(folder, monkeypatch, isolate):
    monkeypatch.setenv(SWITCH, "graph-dead-node:oom:crash")
    report = onnxlint.lint(folder, config=False, isolate=isolate)
    internal = [d.message for d in report.files[1].diagnostics if d.rule == "internal-error"]
    assert internal == ["rule 'graph-dead-node' failed: out of memory"]
    assert [d.rule for d in report.files[0].diagnostics] == ["graph-undefined-value"]


def test_a_hung_model_times_out_and_the_others_are_reported(folder, monkeypatch):
    """file_timeout=: a worker that hangs (an endless loop in a rule) is killed after the limit;
    the model's report says it timed out and in which rule, the others are intact, and the call
    returns after about the limit instead of never."""
    expected = onnxlint.lint(folder, config=False)
    monkeypatch.setenv(SWITCH, "graph-dead-node:hang:crash")
    start = time.monotonic()
    report = onnxlint.lint(folder, config=False, file_timeout=1)
    took = time.monotonic() - start
    assert 1.0 <= took < 10.0
    assert [(d.rule, d.severity, d.message) for d in report.files[1].diagnostics] == [
        ("internal-error", "error", "onnx-lint timed out after 1 s while running rule "
         "'graph-dead-node'; nothing else is reported for this file")]
    assert report.exit_code == 2
    got, want = file_entries(report), file_entries(expected)
    assert [got[0], got[2]] == [want[0], want[2]]


def test_a_hung_buffer_times_out(folder, monkeypatch):
    data = (folder / "a.onnx").read_bytes()
    monkeypatch.setenv(SWITCH, "@summary:hang")
    linter = onnxlint.Linter(config=False, file_timeout=0.5)
    report = linter.lint(data, name="a.onnx", isolate=True)
    assert [d.message for d in report.diagnostics] == [
        "onnx-lint timed out after 0.5 s while computing the model summary; nothing else is "
        "reported for this file"]


def test_file_timeout_must_be_a_number_of_seconds(folder):
    for bad, error in ((-1, ValueError), (float("nan"), ValueError), (1e8, ValueError),
                       ("1", TypeError), (True, TypeError)):
        with pytest.raises(error, match="file_timeout"):
            onnxlint.lint(folder, config=False, file_timeout=bad)
    # 0: no limit; the report of a model that finishes is the same with any limit.
    assert (onnxlint.lint(folder, config=False, file_timeout=0).to_json()
            == onnxlint.lint(folder, config=False, file_timeout=30).to_json())


def test_isolate_must_be_a_bool_or_none(folder):
    with pytest.raises(TypeError, match="isolate: expected a bool or None"):
        onnxlint.lint(folder, config=False, isolate="yes")


def test_without_isolation_a_crash_ends_the_interpreter(folder):
    """What isolate= protects against: the same crash in-process kills Python by the signal."""
    code = ("import onnxlint, sys; onnxlint.lint(sys.argv[1], config=False, isolate=False); "
            "print('survived')")
    env = dict(__import__("os").environ, **{SWITCH: "graph-dead-node:segv:crash"})
    proc = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True,
                          env=env, timeout=120)
    assert proc.returncode == -signal.SIGSEGV
    assert b"survived" not in proc.stdout


def test_python_m_onnxlint_single_file_crash_exits_3(folder):
    """`python3 -m onnxlint` installs the command's crash handler: exit 3 and what ran."""
    env = dict(__import__("os").environ, **{SWITCH: "graph-dead-node:segv"})
    path = folder / "a.onnx"
    proc = subprocess.run([sys.executable, "-m", "onnxlint", "--no-config", str(path)],
                          capture_output=True, env=env, timeout=120)
    assert proc.returncode == 3
    assert proc.stderr.decode() == (
        f"onnx-lint: internal error while running rule 'graph-dead-node' on {path}: "
        "SIGSEGV (segmentation fault)\n")
