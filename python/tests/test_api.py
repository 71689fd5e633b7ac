"""onnxlint.lint / Linter / Report: inputs, findings, formats (equal to the CLI's), errors."""
from __future__ import annotations

import json
import pathlib

import pytest

import onnxlint
from conftest import (SOURCE_DIR, dynamic_model, error_model, external_data_model, run_cli,
                      warning_model)


# --- what lint accepts -----------------------------------------------------------------------

def test_path_str_and_pathlike_give_the_same_report(model_files):
    as_str = onnxlint.lint(str(model_files["error"]))
    as_path = onnxlint.lint(model_files["error"])
    assert as_str.to_json() == as_path.to_json()
    assert [d.rule for d in as_path.diagnostics] == ["graph-undefined-value"]
    assert as_path.files[0].path == str(model_files["error"])


@pytest.mark.parametrize("kind", ["bytes", "bytearray", "memoryview", "ModelProto"])
def test_in_memory_models(kind):
    proto = error_model()
    data = proto.SerializeToString()
    model = {"bytes": data, "bytearray": bytearray(data), "memoryview": memoryview(data),
             "ModelProto": proto}[kind]
    report = onnxlint.lint(model, config=False)
    assert [(d.rule, d.severity, d.location.file, d.location.anchor) for d in report.diagnostics] \
        == [("graph-undefined-value", "error", "<in-memory model>", "main/add")]
    assert report.files[0].path == "<in-memory model>"
    assert report.model.nodes == 1
    assert report.model.file_bytes == len(data)


def test_memoryview_slice_is_linted_in_place():
    data = b"\x00" * 7 + warning_model().SerializeToString() + b"\x00" * 5
    report = onnxlint.lint(memoryview(data)[7:-5], config=False)
    assert [d.rule for d in report.diagnostics] == ["graph-dead-node"]


def test_non_contiguous_buffer_is_refused():
    view = memoryview(bytearray(b"abcdef"))[::2]
    with pytest.raises(BufferError):
        onnxlint.lint(view, config=False)


def test_unsupported_model_type_is_a_type_error(model_files):
    with pytest.raises(TypeError, match="model: expected a path"):
        onnxlint.lint(42, config=False)
    with pytest.raises(TypeError, match="base_dir and name are for in-memory models"):
        onnxlint.lint(model_files["clean"], base_dir=".")


def test_name_sets_the_path_reports_show():
    report = onnxlint.lint(error_model().SerializeToString(), name="exports/m.onnx", config=False)
    assert report.diagnostics[0].location.file == "exports/m.onnx"
    assert report.files[0].path == "exports/m.onnx"


def test_base_dir_locates_external_data(tmp_path):
    data = external_data_model().SerializeToString()
    missing = onnxlint.lint(data, base_dir=tmp_path, config=False)
    assert [d.rule for d in missing.diagnostics] == ["data-external-missing"]
    (tmp_path / "w.bin").write_bytes(b"\x00" * 64)
    found = onnxlint.lint(data, base_dir=tmp_path, config=False)
    assert found.diagnostics == [] and found.ok
    assert found.model.external_bytes == 64


def test_folder_lints_every_model(model_files):
    report = onnxlint.lint(model_files["clean"].parent)
    assert [pathlib.Path(f.path).name for f in report.files] == \
        ["clean.onnx", "dynamic.onnx", "error.onnx", "warning.onnx"]
    assert report.summary == {"files": 4,
                              "by_severity": {"error": 1, "warning": 1, "info": 2},
                              "by_rule": {"graph-dead-node": 1, "graph-undefined-value": 1,
                                          "shape-dynamic-input": 1, "shape-dynamic-output": 1}}
    with pytest.raises(ValueError, match="the report has 4 models"):
        report.model
    parallel = onnxlint.Linter(jobs=2).lint(model_files["clean"].parent)
    assert parallel.to_json() == report.to_json()


# --- the report ------------------------------------------------------------------------------

def test_diagnostic_fields(model_files):
    (d,) = onnxlint.lint(model_files["error"]).diagnostics
    assert d.rule == "graph-undefined-value"
    assert d.severity == "error"
    assert d.message == ("input 1 'ghost' of add is not a graph input, initializer or output of "
                         "any node in scope")
    loc = d.location
    assert (loc.file, loc.graph, loc.node_index, loc.node_name, loc.op_type, loc.domain,
            loc.value, loc.attribute, loc.byte_offset, loc.anchor) == \
        (str(model_files["error"]), "main", 0, "add", "Add", "", "ghost", "", None, "main/add")
    assert d.target is None
    assert d.related == []
    cli = json.loads(run_cli("--format", "json", model_files["error"])[1])
    (expected,) = cli["files"][0]["diagnostics"]
    assert d.notes == expected["notes"]
    assert d.help == expected.get("help")
    assert d.fingerprint == expected["fingerprint"]


def test_ok_exit_code_and_fail_on(model_files):
    error = onnxlint.lint(model_files["error"])
    assert (error.ok, error.exit_code, error.fail_on) == (False, 1, "error")
    warning = onnxlint.lint(model_files["warning"])
    assert (warning.ok, warning.exit_code) == (True, 0)
    strict = onnxlint.lint(model_files["warning"], fail_on="warning")
    assert (strict.ok, strict.exit_code, strict.fail_on) == (False, 1, "warning")
    never = onnxlint.lint(model_files["error"], fail_on="never")
    assert (never.ok, never.exit_code) == (True, 0)
    clean = onnxlint.lint(model_files["clean"])
    assert (clean.ok, clean.exit_code, clean.diagnostics) == (True, 0, [])
    assert clean.summary == {"files": 1, "by_severity": {"error": 0, "warning": 0, "info": 0},
                             "by_rule": {}}


def test_select_and_ignore(model_files):
    folder = model_files["clean"].parent
    only_graph = onnxlint.lint(folder, select=["graph"])
    assert sorted(d.rule for d in only_graph.diagnostics) == \
        ["graph-dead-node", "graph-undefined-value"]
    single = onnxlint.lint(folder, select="graph-dead-node")  # one string is one selector
    assert [d.rule for d in single.diagnostics] == ["graph-dead-node"]
    ignored = onnxlint.lint(folder, ignore=["shape-*", "graph-dead-node"])
    assert [d.rule for d in ignored.diagnostics] == ["graph-undefined-value"]


def test_targets_and_dynamic_shapes(model_files):
    report = onnxlint.lint(model_files["dynamic"], targets=["tensorrt", "ort-cpu"])
    assert sorted(report.targets) == ["onnxruntime-cpu", "tensorrt"]
    trt = report.targets["tensorrt"]
    assert (trt["target"], trt["verdict"], trt["nodes"], trt["supported_nodes"]) == \
        ("tensorrt", "ok", 1, 1)
    dyn = report.dynamic_shapes
    assert [i["name"] for i in dyn["inputs"]] == ["x"]
    assert dyn["nodes"] == 1
    assert dyn == report.files[0].sections["dynamic_shapes"]
    cli = json.loads(run_cli("--format", "json", "--target", "tensorrt", "--target", "ort-cpu",
                             model_files["dynamic"])[1])
    assert report.files[0].sections == cli["files"][0]["sections"]
    assert onnxlint.lint(model_files["clean"]).targets == {}


def test_require_targets_gate_the_report(model_files):
    # The dynamic model on NNAPI (static shapes only) is not "ok": a requirement fails it.
    loose = onnxlint.lint(model_files["dynamic"], targets=["nnapi"])
    assert loose.targets["onnxruntime-nnapi"]["verdict"] != "ok"
    assert loose.exit_code == 0
    strict = onnxlint.lint(model_files["dynamic"], targets=["nnapi"], require_targets="full")
    assert strict.exit_code == 1 and not strict.ok
    doc = json.loads(strict.to_json())
    assert doc["run"]["required_targets"] == ["full"]
    assert doc["files"][0]["unmet_targets"][0].startswith("onnxruntime-nnapi: ")
    assert onnxlint.lint(model_files["dynamic"], targets=["tensorrt"],
                         require_targets=["tensorrt=full"]).exit_code == 0
    with pytest.raises(ValueError, match="require-target"):
        onnxlint.Linter(require_targets=["tensorrt=sometimes"])


def test_report_text_and_repr(model_files):
    report = onnxlint.lint(model_files["warning"])
    code, out, _ = run_cli("--color", "never", model_files["warning"])
    assert str(report) == report.to_text() == out
    assert report.to_text(style="concise") == run_cli("--format", "concise",
                                                      model_files["warning"])[1]
    assert repr(report) == "<Report files=1 errors=0 warnings=1 infos=0 exit_code=0>"
    with pytest.raises(ValueError, match="style"):
        report.to_text(style="fancy")


# --- to_json / to_sarif are what the CLI writes ----------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "sarif", "github", "gitlab", "junit", "markdown"])
@pytest.mark.parametrize("name", ["clean", "error", "warning", "dynamic"])
def test_formats_equal_the_cli_for_files(model_files, fmt, name):
    report = onnxlint.lint(model_files[name], targets=["tensorrt"])
    _, out, _ = run_cli("--format", fmt, "--target", "tensorrt", model_files[name])
    assert getattr(report, f"to_{fmt}")() == out


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_formats_equal_the_cli_for_buffers(workdir, fmt):
    data = dynamic_model().SerializeToString()
    _, out, _ = run_cli("--format", fmt, "-", stdin=data)
    # Named as the command names its standard input, the reports are the same.
    assert getattr(onnxlint.lint(data, name="-"), f"to_{fmt}")() == out
    # Unnamed, a buffer is "<in-memory model>": SARIF makes it a relative URI, not "stdin".
    unnamed = getattr(onnxlint.lint(data), f"to_{fmt}")()
    assert "<in-memory model>" in unnamed or "%3Cin-memory%20model%3E" in unnamed


def test_json_is_the_documented_schema(model_files):
    import jsonschema
    schema = json.loads((SOURCE_DIR / "docs" / "json-report.schema.json").read_text())
    jsonschema.validate(json.loads(onnxlint.lint(model_files["dynamic"]).to_json()), schema)


# --- unreadable models and errors ------------------------------------------------------------

def test_unreadable_model_is_a_report_not_an_exception(workdir):
    path = workdir / "broken.onnx"
    path.write_bytes(b"not a model at all")
    for model in (path, path.read_bytes()):
        report = onnxlint.lint(model)
        assert [d.rule for d in report.diagnostics] == ["model-unreadable"]
        assert (report.files[0].status, report.model, report.exit_code, report.ok) == \
            ("unreadable", None, 1, False)
    truncated = error_model().SerializeToString()[:-3]
    (d,) = onnxlint.lint(truncated).diagnostics
    assert d.rule == "model-unreadable" and d.location.byte_offset is not None


def test_missing_path_is_file_not_found(workdir):
    with pytest.raises(FileNotFoundError) as err:
        onnxlint.lint(workdir / "nope.onnx")
    assert err.value.filename == str(workdir / "nope.onnx")


def test_unknown_rule_is_a_value_error_naming_it(model_files):
    with pytest.raises(ValueError, match="graph-no-such-rule"):
        onnxlint.lint(model_files["clean"], select=["graph-no-such-rule"])
    with pytest.raises(ValueError, match="nosuchcategory"):
        onnxlint.lint(model_files["clean"], ignore=["nosuchcategory"])
    with pytest.raises(ValueError, match="unknown rule 'graph-no-such-rule'"):
        onnxlint.explain("graph-no-such-rule")


def test_unknown_target_is_a_value_error_naming_it(model_files):
    with pytest.raises(ValueError, match="unknown target 'jetson-nano-9000'"):
        onnxlint.lint(model_files["clean"], targets=["jetson-nano-9000"])


def test_bad_fail_on_is_a_value_error(model_files):
    with pytest.raises(ValueError, match="sometimes"):
        onnxlint.lint(model_files["clean"], fail_on="sometimes")


def test_bad_config_is_a_value_error_naming_file_and_key(model_files, workdir):
    cfg = workdir / "bad.toml"
    cfg.write_text('select = ["graph"]\nfail-onn = "warning"\n')
    with pytest.raises(ValueError, match=r"bad\.toml.*fail-onn"):
        onnxlint.lint(model_files["clean"], config=cfg)
    with pytest.raises(ValueError, match="missing.toml"):
        onnxlint.lint(model_files["clean"], config=workdir / "missing.toml")
    with pytest.raises(TypeError):
        onnxlint.lint(model_files["clean"], config=True)
    with pytest.raises(TypeError, match="select"):
        onnxlint.lint(model_files["clean"], select=[1])


# --- configuration files, as the CLI reads them ----------------------------------------------

def test_config_is_found_from_the_working_folder(model_files, workdir):
    (workdir / "pyproject.toml").write_text(
        '[tool.onnx-lint]\nfail-on = "warning"\nignore = ["shape"]\n')
    found = onnxlint.Linter()
    assert found.config_path == str(workdir / "pyproject.toml")
    assert found.fail_on == "warning"
    assert "shape-dynamic-input" not in found.enabled_rules
    report = onnxlint.lint(model_files["warning"])
    assert (report.fail_on, report.exit_code) == ("warning", 1)
    assert report.to_json() == run_cli("--format", "json", model_files["warning"],
                                       cwd=workdir)[1]
    # the argument wins over the file; config=False reads none
    assert onnxlint.lint(model_files["warning"], fail_on="error").exit_code == 0
    assert onnxlint.Linter(config=False).config_path is None
    assert [d.rule for d in onnxlint.lint(model_files["dynamic"], config=False).diagnostics] == \
        ["shape-dynamic-input", "shape-dynamic-output"]


def test_baseline_accepts_recorded_findings(model_files, workdir):
    baseline = workdir / "baseline.json"
    code, _, _ = run_cli("--write-baseline", baseline, model_files["error"], cwd=workdir)
    assert code == 0
    report = onnxlint.Linter(baseline=baseline).lint(model_files["error"])
    assert (report.diagnostics, report.files[0].baselined, report.ok) == ([], 1, True)


def test_linter_properties():
    linter = onnxlint.Linter(targets=["ort-cpu"], select=["graph-dead-node"], config=False)
    assert linter.targets == ["onnxruntime-cpu"]
    assert linter.enabled_rules == ["graph-dead-node", "internal-error"]
    assert linter.fail_on == "error"
    with pytest.raises(ValueError, match="jobs"):
        onnxlint.Linter(jobs=0)


# --- rules, targets, versions ----------------------------------------------------------------

def test_rules_match_the_cli_list():
    listed = json.loads(run_cli("--list-rules", "--format", "json")[1])["rules"]
    rules = onnxlint.rules()
    assert [(r.id, r.category, r.severity, r.summary) for r in rules] == \
        [(r["id"], r["category"], r["severity"], r["summary"]) for r in listed]
    assert [[(o.name, o.type, o.default, o.description) for o in r.options] for r in rules] == \
        [[(o["name"], o["type"], o["default"], o["description"]) for o in r["options"]]
         for r in listed]
    assert repr(rules[0]) == f"<Rule {rules[0].id}>"


def test_explain_matches_the_cli():
    for rule in ("graph-dead-node", "model-unreadable", "target-unsupported-op"):
        assert onnxlint.explain(rule) == run_cli("--explain", rule)[1]


def test_targets_match_the_cli_list():
    out = run_cli("--list-targets")[1]
    ids = [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    targets = onnxlint.targets()
    assert [t.id for t in targets] == ids
    trt = next(t for t in targets if t.id == "tensorrt")
    assert f"{trt.id:<34} {trt.display_name}" in out.splitlines()
    assert f"    source:  {trt.source}" in out.splitlines()
    ort = next(t for t in targets if t.id == "onnxruntime-cpu")
    assert "ort-cpu" in ort.aliases
    # Runtime versions: a release's own table, named ID@VERSION (docs/targets.md).
    assert (trt.family, trt.version) == ("tensorrt", "10.15")
    trt86 = next(t for t in targets if t.id == "tensorrt@8.6")
    assert (trt86.family, trt86.version, trt86.aliases) == ("tensorrt", "8.6", [])
    assert sorted(t.version for t in targets if t.family == "tensorrt") == \
        sorted(["8.5", "8.6", "10.0", "10.1", "10.15"])


def test_lint_with_a_release_of_a_target(model_files):
    report = onnxlint.lint(model_files["dynamic"], targets=["trt@8.6", "ort@1.18"])
    assert sorted(report.targets) == ["onnxruntime-cpu@1.18", "tensorrt@8.6"]
    assert report.targets["tensorrt@8.6"]["source"]["repo"] == "onnx/onnx-tensorrt"
    with pytest.raises(ValueError, match="unknown version '9' of target 'tensorrt'"):
        onnxlint.lint(model_files["dynamic"], targets=["tensorrt@9"])


def test_version_and_table_versions():
    assert onnxlint.__version__ == run_cli("--version")[1].splitlines()[0].split()[-1]
    versions = onnxlint.table_versions()
    # the facts the operator table was generated from (rules/tables/onnx-operators.json)
    table = json.loads((SOURCE_DIR / "rules" / "tables" / "onnx-operators.json").read_text())
    assert versions["onnx"] == table["onnx_version"]
    assert versions["ir_version"] == table["ir_version"]
    assert versions["opsets"] == {d["name"]: d["max_opset"] for d in table["domains"].values()}
    assert versions["opsets"]["ai.onnx"] >= 27
    assert versions["targets"]["tensorrt"] == \
        next(t.source_version for t in onnxlint.targets() if t.id == "tensorrt")
    assert onnxlint.JSON_SCHEMA_VERSION == 1


def test_lint_of_a_path_equals_the_command_with_per_folder_configs(workdir):
    """onnxlint.lint(path) is `onnx-lint path` (run.h): each model's own configuration file,
    the same findings, verdicts, requirements and exit code."""
    import shutil
    corpus = pathlib.Path(SOURCE_DIR) / "tests" / "data" / "corpus"
    names = ["torch_bool_mask_index_op13.onnx", "torch_mlp_dynamic_batch_op13.onnx",
             "torch_grid_sample_op13_std_symbolic.onnx"]
    configs = {
        "strict": 'targets = ["tensorrt"]\nrequire-target = "full"\n'
                  '[severity]\nshape-dynamic-input = "error"\n',
        "loose": 'ignore = ["shape"]\ntargets = ["nnapi"]\n',
        "plain": None,
    }
    for folder, config in configs.items():
        (workdir / folder).mkdir()
        if config is not None:
            (workdir / folder / "onnx-lint.toml").write_text(config)
        for n in names:
            shutil.copy(corpus / n, workdir / folder / n)
    # The run's own configuration (fail-on, require-target) comes from the working folder.
    (workdir / "onnx-lint.toml").write_text('fail-on = "warning"\n')
    models = sorted(workdir.rglob("*.onnx"))
    assert len(models) == 9
    for model in models:
        report = onnxlint.lint(model)
        code, out, _ = run_cli("--format", "json", model, cwd=workdir)
        cli = json.loads(out)
        mine = json.loads(report.to_json())
        assert mine["files"] == cli["files"], model
        assert mine["run"] == cli["run"], model
        assert report.exit_code == code, model
    # The strict folder's configuration applies: its model with a dynamic batch fails on its
    # shape-dynamic-input error, as on the command line.
    strict = onnxlint.lint(workdir / "strict" / "torch_mlp_dynamic_batch_op13.onnx")
    assert "shape-dynamic-input" in {d.rule for d in strict.diagnostics if d.severity == "error"}
    assert strict.files[0].targets


def test_diagnostic_count_of_findings_grouped_by_cause():
    """A finding standing for repeated structure says how many places it covers, as JSON does."""
    model = pathlib.Path(SOURCE_DIR) / "tests" / "data" / "corpus" / "torchvision_ssd_tiny_op11.onnx"
    report = onnxlint.lint(model, config=False)
    doc = json.loads(report.to_json())
    assert [d.count for d in report.diagnostics] == \
        [d.get("count", 1) for d in doc["files"][0]["diagnostics"]]
    grouped = [d for d in report.diagnostics if d.count > 1]
    assert grouped
    for d in grouped:
        assert sum(1 for r in d.related if r.message == "same cause") == d.count - 1


def test_diagnostic_also_holds_the_findings_folded_into_it():
    """One dynamic input, two targets that want static shapes: one finding, the second target's
    folded into its `also`, as JSON has it."""
    report = onnxlint.lint(dynamic_model(), targets=["nnapi", "qnn"], config=False)
    found = [d for d in report.diagnostics if d.rule == "target-dynamic-shape"]
    assert len(found) == 1
    assert found[0].target == "onnxruntime-nnapi"
    assert [(f.rule, f.target, f.severity) for f in found[0].also] == \
        [("target-dynamic-shape", "onnxruntime-qnn", "warning")]
    doc = json.loads(report.to_json())
    [entry] = [d for d in doc["files"][0]["diagnostics"] if d["rule"] == "target-dynamic-shape"]
    assert entry["also"][0]["message"] == found[0].also[0].message


# --- timings ---------------------------------------------------------------------------------

def test_timings_list_phases_analyses_and_rules_only_when_asked(model_files):
    plain = onnxlint.lint(model_files["error"])
    assert plain.files[0].timings == []
    timed = onnxlint.lint(model_files["error"], timings=True)
    assert timed.to_json() == plain.to_json()  # the report itself is unchanged
    entries = timed.files[0].timings
    kinds = {(t.kind, t.name) for t in entries}
    assert {("phase", "load"), ("phase", "summary"), ("phase", "findings")} <= kinds
    assert ("rule", "graph-undefined-value") in kinds
    assert any(kind == "analysis" for kind, _ in kinds)
    assert all(t.seconds >= 0 and t.calls >= 1 for t in entries)
    assert "TimingEntry(phase load: " in repr(next(t for t in entries if t.name == "load"))
    # An in-memory model and a folder (linted in worker processes) have them too.
    data = pathlib.Path(model_files["error"]).read_bytes()
    assert onnxlint.Linter(timings=True).lint(data).files[0].timings
    folder = onnxlint.lint(pathlib.Path(model_files["error"]).parent, timings=True)
    assert all(f.timings for f in folder.files)
