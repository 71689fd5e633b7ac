#!/usr/bin/env python3
"""End-to-end tests of the onnx-lint command line (foundation flags).

Run by ctest (tests/cli/CMakeLists.txt) with ONNX_LINT set to the built binary and
ONNXLINT_SOURCE_DIR to the repository. Models are written here as protobuf wire bytes, so the
tests need no onnx Python package; the JSON report is validated with python3-jsonschema.
"""
import hashlib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")
SRC = os.environ.get("ONNXLINT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(SRC, "tests", "data", "corpus")
SCHEMA = os.path.join(SRC, "docs", "json-report.schema.json")

FOUNDATION_RULES = [
    "model-unreadable", "model-ir-version", "model-missing-producer", "model-too-large",
    "graph-undefined-value", "graph-duplicate-value", "graph-unsorted-nodes",
    "graph-missing-output", "graph-dead-node", "graph-unused-initializer", "graph-unused-input",
    "graph-initializer-as-input", "graph-duplicate-node-name", "data-external-missing",
    "data-external-out-of-bounds", "data-external-path-escape", "data-size-mismatch",
    "internal-error",
]


# --- protobuf wire bytes -------------------------------------------------------------------

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import onnx_wire  # noqa: E402
from onnx_wire import field, int_field, model, node, value_info, varint  # noqa: E402,F401


CLEAN = model([node("Relu", ["x"], ["y"], "relu")])
# One warning (graph-dead-node) and one info (model-missing-producer).
WARN_AND_INFO = model([node("Relu", ["x"], ["y"], "relu"), node("Neg", ["x"], ["t"], "dead")],
                      producer=("", ""))
# One error (graph-undefined-value).
ERROR = model([node("Add", ["x", "ghost"], ["y"], "add")])


# Runs start in an empty folder, so no onnx-lint.toml / pyproject.toml above the build folder
# changes the defaults under test.
NEUTRAL_CWD = tempfile.mkdtemp(prefix="onnxlint-cli-cwd-")


def run(*args, stdin=None, cwd=None):
    proc = subprocess.run([BIN, *args], input=stdin, capture_output=True,
                          cwd=cwd or NEUTRAL_CWD, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8",
                                                                                      "replace")


class TempModels(onnx_wire.TempModels):
    prefix = "onnxlint-cli-"


class ExitCodes(TempModels):
    def test_text_lines_stay_readable_on_the_corpus(self):
        # Reason chains, detector help and verdict lines are cut or kept short: no line of the
        # default text over the corpus (torchvision detectors included) passes 500 characters.
        models = sorted(glob.glob(os.path.join(CORPUS, "*.onnx")))
        self.assertGreater(len(models), 10)
        _, out, _ = run("--no-config", "--target", "tensorrt", "--target", "nnapi", "--target",
                        "coreml", *models)
        longest = max(out.splitlines(), key=len)
        self.assertLessEqual(len(longest), 500, longest[:200])

    def test_fail_on_thresholds(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        sel = "--select=graph-dead-node,model-missing-producer"
        self.assertEqual(run(sel, path)[0], 0)  # default --fail-on error
        self.assertEqual(run(sel, "--fail-on", "error", path)[0], 0)
        self.assertEqual(run(sel, "--fail-on", "warning", path)[0], 1)
        self.assertEqual(run(sel, "--fail-on", "info", path)[0], 1)
        self.assertEqual(run(sel, "--fail-on", "never", path)[0], 0)
        info_only = "--select=model-missing-producer"
        self.assertEqual(run(info_only, "--fail-on", "warning", path)[0], 0)
        self.assertEqual(run(info_only, "--fail-on", "info", path)[0], 1)

    def test_errors(self):
        path = self.write("m.onnx", ERROR)
        self.assertEqual(run("--select", "graph", path)[0], 1)
        self.assertEqual(run("--select", "graph", "--fail-on", "never", path)[0], 0)
        self.assertEqual(run("--select", "graph", "--ignore", "graph-undefined-value", path)[0], 0)

    def test_clean_model(self):
        path = self.write("m.onnx", CLEAN)
        code, out, _ = run("--select", "graph,model,data", "--fail-on", "info", path)
        self.assertEqual(code, 0, out)
        self.assertIn("1 file checked: 0 errors, 0 warnings, 0 info", out)

    def test_unknown_rule_in_select_names_it(self):
        path = self.write("m.onnx", CLEAN)
        code, out, err = run("--select", "graph-dead-node,graph-no-such-rule", path)
        self.assertEqual(code, 2)
        self.assertIn("graph-no-such-rule", err)
        self.assertEqual(out, "")
        code, _, err = run("--ignore", "nonsense-*", path)
        self.assertEqual(code, 2)
        self.assertIn("nonsense-*", err)

    def test_unknown_target(self):
        path = self.write("m.onnx", CLEAN)
        code, _, err = run("--target", "no-such-runtime", path)
        self.assertEqual(code, 2)
        self.assertIn("no-such-runtime", err)
        self.assertNotIn("did you mean", err)
        # A misspelling gets a suggestion, for --target and --explain alike.
        code, _, err = run("--target", "tensort", path)
        self.assertEqual(code, 2)
        self.assertIn("unknown target 'tensort' (did you mean 'tensorrt'?)", err)
        code, _, err = run("--explain", "export-baked-shap")
        self.assertEqual(code, 2)
        self.assertIn("(did you mean 'export-baked-shape'?)", err)

    def test_missing_path(self):
        # Exit 2 (an input error) with the path named; the report is still written (issue 16).
        missing = os.path.join(self.dir, "nope.onnx")
        code, out, err = run(missing)
        self.assertEqual(code, 2)
        self.assertEqual(err, f"onnx-lint: {missing}: no such file or folder\n")
        self.assertEqual(out.splitlines(),
                         ["0 files checked: 0 errors, 0 warnings, 0 info, 1 path without a model"])

    def test_usage_errors(self):
        path = self.write("m.onnx", CLEAN)
        self.assertEqual(run()[0], 2)  # no model
        self.assertEqual(run("--format", "xml", path)[0], 2)
        self.assertEqual(run("--fail-on", "sometimes", path)[0], 2)
        self.assertEqual(run("--jobs", "0", path)[0], 2)
        self.assertEqual(run("--no-such-flag", path)[0], 2)
        code, _, err = run("--explain", "graph-no-such-rule")
        self.assertEqual(code, 2)
        self.assertIn("graph-no-such-rule", err)

    def test_truncated_model_is_unreadable_exit_1(self):
        path = self.write("cut.onnx", CLEAN[: len(CLEAN) - 5])
        code, out, _ = run(path)
        self.assertEqual(code, 1, out)
        self.assertIn("[model-unreadable]", out)
        self.assertIn("(at byte ", out)
        self.assertIn("1 unreadable", out)
        # Linting goes on with the next file.
        good = self.write("good.onnx", CLEAN)
        code, out, _ = run("--format", "json", path, good)
        self.assertEqual(code, 1)
        report = json.loads(out)
        self.assertEqual([f["status"] for f in report["files"]], ["unreadable", "ok"])
        self.assertEqual(run("--fail-on", "never", path)[0], 0)

    def test_unreadable_fails_whatever_the_selection(self):
        path = self.write("cut.onnx", CLEAN[: len(CLEAN) - 5])
        code, out, _ = run("--select", "graph-dead-node", "--ignore", "model", path)
        self.assertEqual(code, 1, out)
        self.assertIn("[model-unreadable]", out)
        code, out, _ = run("--fail-on", "info", "--min-severity", "error", path)
        self.assertEqual(code, 1, out)
        # The JSON report describes the rule of every finding, enabled or not.
        code, out, _ = run("--select", "graph-dead-node", "--format", "json", path)
        self.assertEqual(code, 1)
        self.assertIn("model-unreadable", [r["id"] for r in json.loads(out)["rules"]])

    def test_git_lfs_pointer(self):
        path = self.write("lfs.onnx", b"version https://git-lfs.github.com/spec/v1\n"
                          b"oid sha256:0123\nsize 77731928\n")
        code, out, _ = run(path)
        self.assertEqual(code, 1, out)
        self.assertIn("this is a Git LFS pointer, not the model", out)
        self.assertIn("git lfs pull", out)
        self.assertNotIn("wire type", out)

    def test_min_severity_does_not_change_the_exit_code(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        sel = "--select=graph-dead-node,model-missing-producer"
        code, out, _ = run(sel, "--fail-on", "warning", "--min-severity", "error", path)
        self.assertEqual(code, 1)
        self.assertNotIn("[graph-dead-node]", out)
        self.assertIn("2 below --min-severity not shown", out)
        code, out, _ = run(sel, "--format", "json", "--min-severity", "warning", path)
        self.assertEqual(code, 0)
        rules = [d["rule"] for d in json.loads(out)["files"][0]["diagnostics"]]
        self.assertEqual(rules, ["graph-dead-node"])
        self.assertEqual(run("--min-severity", "never", path)[0], 2)

    def test_dynamic_batch_torch_export_passes_fail_on_warning(self):
        # The issue-15 acceptance check: `dynamic_axes={"x": {0: "batch"}}` is intent.
        code, out, _ = run("--fail-on", "warning",
                           os.path.join(CORPUS, "torch_mlp_dynamic_batch_op13.onnx"))
        self.assertEqual(code, 0, out)
        self.assertIn("info: input 'x' [batch, 16] has dynamic dim: 0 'batch'", out)



class Formats(TempModels):
    def test_text_lines_notes_and_summary(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, _ = run("--select", "graph-dead-node,model-missing-producer", path)
        self.assertEqual(code, 0)
        lines = out.splitlines()
        self.assertIn(f"{path}: main/dead (Neg): warning: dead (Neg) computes 't' but nothing "
                      f"uses it [graph-dead-node]", lines)
        self.assertIn(f"{path}: info: producer_name and producer_version are empty "
                      f"[model-missing-producer]", lines)
        self.assertTrue(any(line.startswith("    help: ") for line in lines))
        self.assertEqual(lines[-1], "1 file checked: 0 errors, 1 warning, 1 info")
        self.assertNotIn("\x1b[", out)  # not a TTY: no color

    def test_color_always(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        _, out, _ = run("--color", "always", "--select", "graph-dead-node", path)
        self.assertIn("\x1b[", out)

    def test_concise_summary_and_quiet_keep_verdicts_that_are_not_ok(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        sel = "--select=graph-dead-node,model-missing-producer,target-unsupported-op"
        code, out, _ = run(sel, "--target", "tensorrt", "--format", "concise", path)
        self.assertEqual(code, 0)
        self.assertNotIn("    help:", out)
        self.assertIn(f"{path}: main/dead (Neg): warning: ", out)
        self.assertNotIn("tensorrt (TensorRT", out)  # ok: nothing to say
        self.assertTrue(out.splitlines()[-1].startswith("1 file checked"))
        _, out, _ = run(sel, "--target", "tensorrt", "--format", "concise", "-v", path)
        self.assertIn("tensorrt (TensorRT", out)  # -v shows every verdict
        _, out, _ = run(sel, "--target", "tensorrt", "--target", "nnapi", "--quiet", path)
        self.assertNotIn("tensorrt (TensorRT", out)
        self.assertNotIn("file checked", out)
        self.assertNotIn("support table", out)
        # A clean model with ok verdicts prints nothing in the quiet forms.
        good = self.write("quiet/good.onnx", CLEAN)
        for quiet in (["--quiet"], ["--min-severity", "warning", "--quiet"]):
            code, out, _ = run(sel, "--target", "tensorrt", *quiet, good)
            self.assertEqual((code, out), (0, ""), quiet)
        _, out, _ = run(sel, "--target", "tensorrt", "--min-severity", "warning", good)
        self.assertEqual(out.splitlines()[-1], "1 file checked: 0 errors, 0 warnings, 0 info")
        self.assertNotIn("targets:", out)
        os.remove(good)
        good = self.write("good.onnx", CLEAN)
        _, out, _ = run(sel, "--target", "tensorrt", "--format", "summary", self.dir)
        self.assertEqual(out.splitlines(), [
            f"{good}: ok; tensorrt ok",
            f"{path}: 0 errors, 1 warning, 1 info; tensorrt ok",
            "2 files checked: 0 errors, 1 warning, 1 info"])

    def test_quiet_and_statistics(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        sel = "--select=graph-dead-node,model-missing-producer"
        _, out, _ = run(sel, "--quiet", path)
        self.assertNotIn("file checked", out)
        self.assertIn("[graph-dead-node]", out)
        _, out, _ = run(sel, "--statistics", path)
        self.assertRegex(out, r"(?m)^\s+1  graph-dead-node$")
        self.assertRegex(out, r"(?m)^\s+1  model-missing-producer$")

    def test_json(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, _ = run("--format", "json", "--select=graph-dead-node,model-missing-producer",
                           path)
        self.assertEqual(code, 0)
        report = json.loads(out)
        self.assertEqual(report["schema_version"], 1)
        self.assertEqual(report["tool"]["name"], "onnx-lint")
        [f] = report["files"]
        self.assertEqual(f["path"], path)
        self.assertEqual(f["status"], "ok")
        self.assertEqual(f["model"]["ir_version"], 8)
        self.assertEqual(f["model"]["opset_imports"], {"ai.onnx": 17})
        self.assertEqual(f["model"]["nodes"], 2)
        # Whole-model findings (no graph) sort first.
        self.assertEqual([d["rule"] for d in f["diagnostics"]],
                         ["model-missing-producer", "graph-dead-node"])
        self.assertEqual(f["diagnostics"][0]["location"], {"file": path, "graph": ""})
        dead = f["diagnostics"][1]
        self.assertEqual(dead["severity"], "warning")
        self.assertEqual(dead["location"]["graph"], "main")
        self.assertEqual(dead["location"]["node"],
                         {"index": 1, "name": "dead", "op_type": "Neg", "domain": ""})
        self.assertRegex(dead["fingerprint"], r"^[0-9a-f]{16}$")
        self.assertEqual(f["counts"], {"error": 0, "warning": 1, "info": 1})
        self.assertEqual(report["summary"]["by_rule"],
                         {"graph-dead-node": 1, "model-missing-producer": 1})
        self.assertEqual(report["summary"]["by_severity"], {"error": 0, "warning": 1, "info": 1})
        self.assertEqual(sorted(r["id"] for r in report["rules"]),
                         ["graph-dead-node", "internal-error", "model-missing-producer"])

    def test_output_file(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        out_path = os.path.join(self.dir, "report.json")
        code, out, _ = run("--format", "json", "--output", out_path, "--select", "graph", path)
        self.assertEqual(code, 0)
        self.assertEqual(out, "")
        with open(out_path, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["summary"]["by_rule"], {"graph-dead-node": 1})
        code, _, err = run("--output", os.path.join(self.dir, "no", "such", "dir", "r.txt"), path)
        self.assertEqual(code, 2)
        self.assertIn("cannot write", err)

    def test_deterministic(self):
        first = run("--format", "json", CORPUS)[1]
        second = run("--format", "json", CORPUS)[1]
        self.assertEqual(first, second)


class Timings(TempModels):
    ROW = re.compile(r"^(phase|analysis|rule) (\S+) +(\d+\.\d{3}) +(\d+\.\d)% +(\d+)$")

    def rows(self, err):
        return {(m.group(1), m.group(2)): (float(m.group(3)), int(m.group(5)))
                for m in map(self.ROW.match, err.splitlines()) if m}

    def test_the_table_goes_to_stderr_and_the_report_is_unchanged(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, plain, _ = run("--format", "json", path)
        code_t, out, err = run("--format", "json", "--timings", path)
        self.assertEqual((code, code_t), (0, 0))
        self.assertEqual(json.loads(out), json.loads(plain))  # stdout: the report only
        self.assertRegex(err, r"^onnx-lint timings: 1 file, \d+\.\d ms measured \(self times\)\n")
        rows = self.rows(err)
        for phase in ("load", "summary", "findings", "free", "report"):
            self.assertIn(("phase", phase), rows)
            self.assertEqual(rows[("phase", phase)][1], 1)
        self.assertIn(("analysis", "GraphIndex"), rows)
        self.assertIn(("rule", "graph-dead-node"), rows)
        # Slowest first.
        times = [t for t, _ in rows.values()]
        self.assertEqual(times, sorted(times, reverse=True))

    def test_files_linted_in_workers_are_summed(self):
        a = self.write("d/a.onnx", WARN_AND_INFO)
        self.write("d/b.onnx", CLEAN)
        code, _, err = run("--timings", "--jobs", "2", os.path.dirname(a))
        self.assertEqual(code, 0)
        self.assertIn("onnx-lint timings: 2 files,", err)
        self.assertEqual(self.rows(err)[("phase", "load")][1], 2)

    def test_nothing_without_the_flag(self):
        path = self.write("m.onnx", CLEAN)
        _, _, err = run(path)
        self.assertNotIn("timings", err)


class RequireTarget(TempModels):
    """--require-target and the config's require-target: verdicts that gate the run."""

    def test_levels_targets_and_formats(self):
        # Boolean-mask indexing: ONNX Runtime's CPU EP runs every node (ok); NNAPI does not.
        path = os.path.join(CORPUS, "torch_bool_mask_index_op13.onnx")
        targets = ["--no-config", "--target", "onnxruntime-cpu", "--target", "nnapi"]
        code, out, _ = run(*targets, "-q", path)
        self.assertEqual(code, 0, out)  # a verdict alone never fails the run
        code, _, _ = run(*targets, "--require-target", "ort-cpu=full", path)
        self.assertEqual(code, 0)
        code, out, _ = run(*targets, "--require-target", "full", "-q", path)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"error: required target verdict not met: onnxruntime-nnapi: "
                              r"(partial|unsupported), required full")
        code, out, _ = run(*targets, "--require-target", "nnapi=full", "--format", "json", path)
        self.assertEqual(code, 1)
        report = json.loads(out)
        validate_json_schema(self, report, SCHEMA)
        self.assertEqual(report["run"]["required_targets"], ["onnxruntime-nnapi=full"])
        [f] = report["files"]
        self.assertEqual(f["verdict"], "fail")
        self.assertEqual(len(f["unmet_targets"]), 1)
        self.assertTrue(f["unmet_targets"][0].startswith("onnxruntime-nnapi: "))
        _, md, _ = run(*targets, "--require-target", "full", "--format", "markdown", path)
        self.assertIn("| Targets |", md)
        self.assertIn("`onnxruntime-cpu` ok", md)
        _, gh, _ = run(*targets, "--require-target", "full", "--format", "github", path)
        self.assertIn("title=onnx-lint require-target::onnxruntime-nnapi", gh)
        self.assertIn("title=onnx-lint targets::onnxruntime-cpu", gh)
        _, xml, _ = run(*targets, "--require-target", "full", "--format", "junit", path)
        validate_junit(self, xml)
        self.assertIn('classname="onnx-lint.target"', xml)
        self.assertIn('type="require-target"', xml)
        self.assertIn('<property name="require-target" value="full"/>', xml)

    def test_config_and_bad_values(self):
        path = os.path.join(CORPUS, "torch_bool_mask_index_op13.onnx")
        cfg = self.write("cfg/onnx-lint.toml",
                         b'targets = ["nnapi"]\nrequire-target = {nnapi = "full"}\n')
        code, out, err = run("--config", cfg, "-q", path)
        self.assertEqual(code, 1, err)
        self.assertIn("required target verdict not met", out)
        # The command line replaces the config's requirement.
        code, _, _ = run("--config", cfg, "--require-target", "partial", "-q", path)
        self.assertEqual(code, 0)
        for bad in ("bogus", "tensorrt=maybe", "nosuchtarget=full", "unsupported"):
            code, _, err = run("--no-config", "--require-target", bad, path)
            self.assertEqual(code, 2, bad)
            self.assertIn("--require-target", err)
        bad_cfg = self.write("bad/onnx-lint.toml", b'require-target = {tensorrt = "most"}\n')
        code, _, err = run("--config", bad_cfg, path)
        self.assertEqual(code, 2)
        self.assertIn("require-target", err)

    def test_a_model_the_runtime_rejects_is_not_ok(self):
        # GridSample at opset 13: the model's own schema check fails; ORT refuses to load it.
        path = os.path.join(CORPUS, "torch_grid_sample_op13_std_symbolic.onnx")
        code, out, _ = run("--no-config", "--target", "onnxruntime-cpu", "--format", "json", path)
        [f] = json.loads(out)["files"]
        [v] = f["sections"]["targets"]
        self.assertEqual(v["verdict"], "unsupported")
        self.assertEqual(v["load_error_count"], 1)
        self.assertEqual(v["load_errors"][0]["rule"], "opset-too-low")
        _, text, _ = run("--no-config", "--target", "onnxruntime-cpu", "-q", path)
        self.assertIn("the runtime rejects the model at load", text)


class Inputs(TempModels):
    def test_stdin(self):
        code, out, _ = run("--format", "json", "--select", "graph", "-", stdin=WARN_AND_INFO)
        self.assertEqual(code, 0)
        report = json.loads(out)
        self.assertEqual(report["files"][0]["path"], "-")
        self.assertEqual(report["files"][0]["diagnostics"][0]["rule"], "graph-dead-node")
        code, out, _ = run("-", stdin=CLEAN[:10])
        self.assertEqual(code, 1)
        # The byte offset once, in the message (not also as "@N" in the location).
        self.assertRegex(out, r"(?m)^-: error: cannot read the model: .* \(at byte \d+\) "
                              r"\[model-unreadable\]$")
        code, out, _ = run("-", stdin=b"")
        self.assertEqual(code, 1)
        self.assertIn("-: error: cannot read the model: file is empty (at byte 0)", out)

    def test_folder_recursion(self):
        self.write("b.onnx", CLEAN)
        self.write("a/z.onnx", CLEAN)
        self.write("a/deeper/m.onnx", ERROR)
        self.write("a/notes.txt", b"not a model")
        self.write("a/m.onnx.data", b"\x00" * 8)
        self.write("c.ONNX.bak", CLEAN)
        code, out, _ = run("--format", "json", "--select", "graph", self.dir)
        self.assertEqual(code, 1)
        paths = [os.path.relpath(f["path"], self.dir) for f in json.loads(out)["files"]]
        self.assertEqual(paths, ["a/deeper/m.onnx", "a/z.onnx", "b.onnx"])

    def test_files_folders_and_stdin_keep_argument_order(self):
        b = self.write("b.onnx", CLEAN)
        self.write("dir/a.onnx", CLEAN)
        code, out, _ = run("--format", "json", b, os.path.join(self.dir, "dir"), "-",
                           stdin=CLEAN)
        self.assertEqual(code, 0)
        paths = [f["path"] for f in json.loads(out)["files"]]
        self.assertEqual(paths, [b, os.path.join(self.dir, "dir", "a.onnx"), "-"])

    def test_empty_folder(self):
        # A gate must not pass on nothing (issue 19): exit 2 with a message; the report has the
        # folder as an entry with its error (issue 16).
        code, out, err = run("--format", "json", self.dir)
        self.assertEqual(code, 2)
        self.assertEqual(err, f"onnx-lint: {self.dir}: no model (*.onnx file) in this folder\n")
        [entry] = json.loads(out)["files"]
        self.assertEqual((entry["path"], entry["status"], entry["error"]),
                         (self.dir, "error", "no model (*.onnx file) in this folder"))


class PathErrors(TempModels):
    """A path that yields no model is an entry of the report, never an aborted run (issue 16)."""

    def setUp(self):
        super().setUp()
        self.first = self.write("first.onnx", WARN_AND_INFO)
        self.missing = os.path.join(self.dir, "deleted.onnx")
        self.last = self.write("last.onnx", ERROR)
        self.paths = [self.first, self.missing, self.last]
        self.err = f"onnx-lint: {self.missing}: no such file or folder\n"

    def test_json_has_the_entry_in_its_place_and_the_others_are_linted(self):
        for jobs in ("1", "3"):
            code, out, err = run("--format", "json", "--jobs", jobs, *self.paths)
            self.assertEqual((code, err), (2, self.err))
            report = json.loads(out)
            validate(self, report)
            files = report["files"]
            self.assertEqual([(f["path"], f["status"]) for f in files],
                             [(self.first, "ok"), (self.missing, "error"), (self.last, "ok")])
            self.assertEqual(files[1], {
                "path": self.missing, "status": "error", "verdict": "fail", "unmet_targets": [],
                "config_file": None, "error": "no such file or folder", "model": None, "diagnostics": [],
                "counts": {"error": 0, "warning": 0, "info": 0}, "counts_by_rule": {},
                "suppressed": 0, "baselined": 0, "hidden": 0, "capped": {}, "sections": {}})
            self.assertNotIn("error", files[0])
            self.assertIn("graph-dead-node", [d["rule"] for d in files[0]["diagnostics"]])
            self.assertIn("graph-undefined-value", [d["rule"] for d in files[2]["diagnostics"]])
            self.assertEqual((report["summary"]["files"], report["summary"]["path_errors"]), (2, 1))

    def test_exit_2_whatever_the_findings_and_fail_on(self):
        for args in ((), ("--fail-on", "never"), ("--select", "graph-dead-node")):
            self.assertEqual(run(*args, self.first, self.missing)[0], 2, args)
        self.assertEqual(run("--fail-on", "never", self.first)[0], 0)  # the control

    def test_text_reports_the_others_and_names_the_path_on_stderr(self):
        code, out, err = run("--format", "concise", *self.paths)
        self.assertEqual((code, err), (2, self.err))
        self.assertIn(f"{self.first}: main/dead (Neg): warning: ", out)
        self.assertIn(f"{self.last}: main/add (Add): error: ", out)
        self.assertNotIn(self.missing, out)
        self.assertTrue(out.splitlines()[-1].endswith(", 1 path without a model"), out)
        code, out, err = run("--format", "summary", *self.paths)
        self.assertEqual((code, err), (2, self.err))
        self.assertEqual(len(out.splitlines()), 3)  # two files and the summary line

    def test_sarif_notification(self):
        code, out, err = run("--format", "sarif", *self.paths)
        self.assertEqual((code, err), (2, self.err))
        log = json.loads(out)
        validate_sarif(self, log)
        [run_] = log["runs"]
        [invocation] = run_["invocations"]
        self.assertFalse(invocation["executionSuccessful"])
        [note] = invocation["toolExecutionNotifications"]
        self.assertEqual(note["level"], "error")
        self.assertEqual(note["message"]["text"], f"{self.missing}: no such file or folder")
        self.assertEqual(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                         "file://" + self.missing)
        self.assertEqual(run_["properties"]["pathErrors"], 1)
        self.assertEqual(run_["properties"]["files"], 2)
        self.assertTrue(run_["results"])  # the other files' findings
        _, out, _ = run("--format", "sarif", self.first)
        self.assertEqual(json.loads(out)["runs"][0]["invocations"],
                         [{"executionSuccessful": True}])

    def test_github_annotation(self):
        code, out, err = run("--format", "github", *self.paths)
        self.assertEqual((code, err), (2, self.err))
        self.assertIn(f"::error file={self.missing.replace(':', '%3A')},title=onnx-lint::"
                      "no such file or folder\n", out)

    def test_output_file_is_written_before_exit_2(self):
        report_path = os.path.join(self.dir, "report.json")
        code, out, err = run("--format", "json", "-o", report_path, *self.paths)
        self.assertEqual((code, out, err), (2, "", self.err))
        with open(report_path, encoding="utf-8") as f:
            self.assertEqual(len(json.load(f)["files"]), 3)

    def test_empty_folder_among_models(self):
        empty = os.path.join(self.dir, "empty")
        os.makedirs(empty)
        code, out, err = run("--format", "json", self.first, empty)
        self.assertEqual(code, 2)
        self.assertEqual(err, f"onnx-lint: {empty}: no model (*.onnx file) in this folder\n")
        self.assertEqual([f["status"] for f in json.loads(out)["files"]], ["ok", "error"])

    def test_baseline_entries_of_a_missing_model_are_not_stale(self):
        baseline = os.path.join(self.dir, "baseline.json")
        self.assertEqual(run("--write-baseline", baseline, self.first)[0], 0)
        os.remove(self.first)
        code, _, err = run("--baseline", baseline, self.first)
        self.assertEqual(code, 2)
        self.assertEqual(err, f"onnx-lint: {self.first}: no such file or folder\n")


class Fix(TempModels):
    """--fix and its flags (docs/fixes.md): beside the input, never over it, exit codes."""

    def sha(self, path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    def test_writes_beside_the_input_and_leaves_it_as_it_was(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        before = self.sha(path)
        code, out, err = run("--fix", "--no-config", path)
        self.assertEqual((code, err), (0, ""))
        fixed = os.path.join(self.dir, "m.fixed.onnx")
        self.assertEqual(self.sha(path), before)
        self.assertTrue(os.path.exists(fixed))
        self.assertIn(f"{path}: fixed 1 finding in 1 pass, wrote {fixed}", out)
        self.assertIn("fixed: main/dead (Neg): remove the dead node [graph-dead-node]", out)
        # The report is the written model's: the dead node is gone.
        self.assertNotIn("[graph-dead-node]\n    help", out)
        code, out, _ = run("--no-config", "--format", "json", fixed)
        self.assertEqual([d["rule"] for d in json.loads(out)["files"][0]["diagnostics"]],
                         ["model-missing-producer"])

    def test_json_says_what_was_fixed(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, _ = run("--fix", "--diff", "--no-config", "--format", "json", path)
        self.assertEqual(code, 0)
        doc = json.loads(out)
        validate(self, doc)
        fixing = doc["files"][0]["fixing"]
        self.assertEqual((fixing["written"], fixing["dry_run"], fixing["output"]),
                         (False, True, None))
        self.assertEqual([a["rule"] for a in fixing["applied"]], ["graph-dead-node"])
        self.assertFalse(os.path.exists(os.path.join(self.dir, "m.fixed.onnx")))
        # Without --fix, the finding says its fix is there.
        _, out, _ = run("--no-config", "--format", "json", path)
        (dead,) = [d for d in json.loads(out)["files"][0]["diagnostics"]
                   if d["rule"] == "graph-dead-node"]
        self.assertEqual(dead["fix"], {"safety": "safe", "description": "remove the dead node"})

    def test_sarif_results_carry_fixes(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        _, out, _ = run("--no-config", "--format", "sarif", path)
        log = json.loads(out)
        validate_sarif(self, log)
        (dead,) = [r for r in log["runs"][0]["results"] if r["ruleId"] == "graph-dead-node"]
        self.assertEqual(dead["fixes"][0]["description"]["text"],
                         "remove the dead node (safe: onnx-lint --fix)")

    def test_refuses_the_input_as_output(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        before = self.sha(path)
        code, _, err = run("--fix", "--fix-output", path, path)
        self.assertEqual(code, 2)
        self.assertIn("--fix-output", err)
        self.assertEqual(self.sha(path), before)

    def test_usage_errors(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        other = self.write("n.onnx", CLEAN)
        for args, says in ((("--unsafe-fixes", path), "go with --fix"),
                           (("--fix", "--fix-output", os.path.join(self.dir, "o.onnx"), path,
                             other), "one model"),
                           (("--fix-dims", "batch", path), "NAME=SIZE"),
                           (("--fix-dims", "batch=0", path), "at least 1")):
            code, _, err = run(*args)
            self.assertEqual(code, 2, args)
            self.assertIn(says, err, args)

    def test_unknown_fix_dim_is_exit_2_and_writes_nothing(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, _ = run("--fix", "--fix-dims", "batch=1", "--no-config", path)
        self.assertEqual(code, 2)
        self.assertIn("not fixed: --fix-dims: no graph input has a dim named 'batch'", out)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "m.fixed.onnx")))

    def test_folder_fixes_each_model_beside_itself(self):
        self.write("a/m.onnx", WARN_AND_INFO)
        self.write("a/clean.onnx", CLEAN)
        code, out, _ = run("--fix", "--no-config", os.path.join(self.dir, "a"))
        self.assertEqual(code, 0)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "a", "m.fixed.onnx")))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "a", "clean.fixed.onnx")))
        self.assertIn("clean.onnx: nothing to fix, nothing written", out)

    def fix_dims_report(self, dims, model):
        code, out, err = run("--no-config", "--fix", "--diff", "--fix-dims", dims, "--target",
                             "onnxruntime-nnapi", "--format", "json", model)
        self.assertIn(code, (0, 1), err)
        return json.loads(out)["files"][0]

    def test_fix_dims_make_a_dynamic_cnn_static_for_nnapi(self):
        # torch export with dynamic_axes N, H, W: at fixed sizes nothing dynamic is left.
        f = self.fix_dims_report("N=1,H=32,W=32",
                                 os.path.join(CORPUS, "torch_cnn_dynamic_nhw_op13.onnx"))
        self.assertEqual(f["fixing"]["fixed_dims"], ["H=32", "N=1", "W=32"])
        self.assertEqual(f["diagnostics"], [])
        (before,) = f["fixing"]["verdicts_before"]
        self.assertEqual(before["target"], "onnxruntime-nnapi")
        self.assertIn("dynamic input shapes", before["line"])

    def test_fix_dims_leave_a_detector_only_its_data_dependent_shapes(self):
        # torchvision's SSD exported with dynamic height and width: every shape computation is
        # folded; what NonZero (score threshold, NMS) makes data-dependent stays.
        f = self.fix_dims_report("height=64,width=64", os.path.join(
            SRC, "tests", "data", "fixes", "torchvision_ssd_tiny_dynamic_op11.onnx"))
        rules = [d["rule"] for d in f["diagnostics"]]
        self.assertNotIn("shape-foldable", rules)
        self.assertNotIn("shape-dynamic-input", rules)
        left = [d for d in f["diagnostics"] if d["rule"] == "target-dynamic-shape"]
        self.assertEqual(len(left), 1)
        self.assertIn("depend on tensor values", left[0]["message"])

    def test_explain_shows_the_fix(self):
        code, out, _ = run("--explain", "graph-dead-node")
        self.assertEqual(code, 0)
        self.assertIn("### Fix", out)


class WriteErrors(TempModels):
    """A report that did not reach its destination is exit 2 with a message, never 0."""

    def test_output_to_a_full_disk(self):
        path = self.write("m.onnx", WARN_AND_INFO)  # a finding: every format writes something
        for fmt in ("text", "json", "sarif", "github"):
            code, out, err = run("--format", fmt, "-o", "/dev/full", path)
            self.assertEqual((code, out), (2, ""), fmt)
            self.assertEqual(err, "onnx-lint: cannot write the report to '/dev/full': "
                                  "No space left on device\n", fmt)

    def run_to(self, stdout, *args):
        proc = subprocess.run([BIN, *args], stdout=stdout, stderr=subprocess.PIPE,
                              cwd=NEUTRAL_CWD, timeout=120)
        return proc.returncode, proc.stderr.decode()

    def test_standard_output_full(self):
        path = self.write("m.onnx", CLEAN)
        full_msg = "onnx-lint: cannot write to standard output: No space left on device\n"
        with open("/dev/full", "wb") as full:
            for args in ((path,), ("--format", "json", path), ("--list-rules",),
                         ("--list-targets", "--format", "json"), ("--version",),
                         ("--explain", "graph-dead-node"), ("--show-config",)):
                self.assertEqual(self.run_to(full, *args), (2, full_msg), args)

    def test_standard_output_closed(self):
        path = self.write("m.onnx", CLEAN)
        proc = subprocess.run(["sh", "-c", 'exec "$0" "$@" >&-', BIN, "--format", "json", path],
                              stderr=subprocess.PIPE, cwd=NEUTRAL_CWD, timeout=120)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr.decode(),
                         "onnx-lint: cannot write to standard output: Bad file descriptor\n")

    def test_write_baseline_unwritable(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, _, err = run("--write-baseline", "/dev/full", path)
        self.assertEqual(code, 2)
        self.assertEqual(err, "onnx-lint: /dev/full: cannot write the baseline: "
                              "No space left on device\n")
        nowhere = os.path.join(self.dir, "no", "such", "folder", "b.json")
        code, _, err = run("--write-baseline", nowhere, path)
        self.assertEqual(code, 2)
        self.assertEqual(err, f"onnx-lint: {nowhere}: cannot write the baseline: "
                              "No such file or directory\n")

    def test_a_good_destination_is_exit_0(self):  # the control
        path = self.write("m.onnx", CLEAN)
        self.assertEqual(run("-o", os.path.join(self.dir, "r.txt"), path)[0], 0)
        with open(os.devnull, "wb") as null:
            self.assertEqual(self.run_to(null, "--format", "json", path), (0, ""))


class ListAndExplain(unittest.TestCase):
    def test_list_rules_json(self):
        code, out, _ = run("--list-rules", "--format", "json")
        self.assertEqual(code, 0)
        listing = json.loads(out)
        self.assertEqual(listing["schema_version"], 1)
        ids = [r["id"] for r in listing["rules"]]
        self.assertEqual(ids, sorted(ids))
        self.assertEqual(len(ids), len(set(ids)))
        for rule in FOUNDATION_RULES:
            self.assertIn(rule, ids)
        for r in listing["rules"]:
            self.assertIn(r["severity"], ["error", "warning", "info"])
            self.assertTrue(r["id"].startswith(r["category"] + "-"), r["id"])
            self.assertTrue(r["summary"] and not r["summary"].endswith("."), r["id"])
            self.assertEqual(r["doc"], f"docs/rules/{r['id']}.md")
        fixable = {r["id"] for r in listing["rules"] if r["fixable"]}
        self.assertIn("graph-dead-node", fixable)
        self.assertNotIn("shape-dynamic-input", fixable)
        # A rule that declares fixes documents them (docs/fixes.md, its page's "### Fix").
        for rule in fixable:
            with open(os.path.join(SRC, "docs", "rules", rule + ".md")) as page:
                self.assertIn("### Fix", page.read(), rule)

    def test_list_rules_text_matches_json(self):
        _, text, _ = run("--list-rules")
        _, js, _ = run("--list-rules", "--format", "json")
        text_ids = [line.split()[0] for line in text.splitlines() if line.strip()]
        self.assertEqual(text_ids, [r["id"] for r in json.loads(js)["rules"]])

    def test_list_rules_sarif(self):
        code, out, err = run("--list-rules", "--format", "sarif")
        self.assertEqual((code, err), (0, ""))
        log = json.loads(out)
        validate_sarif(self, log)
        [run_] = log["runs"]
        self.assertEqual(run_["results"], [])
        rules = run_["tool"]["driver"]["rules"]
        listing = json.loads(run("--list-rules", "--format", "json")[1])["rules"]
        self.assertEqual([r["id"] for r in rules], [r["id"] for r in listing])
        dead = next(r for r in rules if r["id"] == "graph-dead-node")
        self.assertEqual(dead["shortDescription"]["text"],
                         "Node whose outputs never reach a graph output")
        self.assertEqual(dead["defaultConfiguration"], {"level": "warning"})

    def test_list_targets_json(self):
        code, out, err = run("--list-targets", "--format", "json")
        self.assertEqual((code, err), (0, ""))
        listing = json.loads(out)
        self.assertEqual(sorted(listing), ["schema_version", "targets"])
        self.assertEqual(listing["schema_version"], 1)
        ids = [t["id"] for t in listing["targets"]]
        self.assertEqual(ids, sorted(ids))
        text_ids = [line.split()[0] for line in run("--list-targets")[1].splitlines()
                    if line and not line.startswith(" ")]
        self.assertEqual(ids, text_ids)
        trt = next(t for t in listing["targets"] if t["id"] == "tensorrt")
        with open(os.path.join(SRC, "rules", "tables", "targets", "tensorrt.json"),
                  encoding="utf-8") as f:
            table = json.load(f)
        self.assertEqual(sorted(trt), ["aliases", "display_name", "family", "id", "runtime",
                                       "runtime_version", "source", "version"])
        self.assertEqual((trt["family"], trt["version"]), ("tensorrt", "10.15"))
        # An older release: its own table and source, named through the family's aliases.
        trt86 = next(t for t in listing["targets"] if t["id"] == "tensorrt@8.6")
        self.assertEqual((trt86["family"], trt86["version"], trt86["aliases"]),
                         ("tensorrt", "8.6", []))
        self.assertEqual(trt86["source"]["repo"], "onnx/onnx-tensorrt")
        self.assertIn("(branch 8.6-GA)", trt86["source"]["version"])
        self.assertIn("trt@8.6", run("--list-targets")[1])
        self.assertEqual((trt["runtime"], trt["runtime_version"]),
                         (table["runtime"], table["runtime_version"]))
        self.assertEqual(sorted(trt["source"]), ["path", "repo", "version"])
        self.assertIn("trt", trt["aliases"])

    def test_explain_json(self):
        code, out, err = run("--explain", "graph-dead-node", "--format", "json")
        self.assertEqual((code, err), (0, ""))
        doc = json.loads(out)
        self.assertEqual(sorted(doc), ["documentation", "rule", "schema_version"])
        with open(os.path.join(SRC, "docs", "rules", "graph-dead-node.md"), encoding="utf-8") as f:
            self.assertEqual(doc["documentation"], f.read())
        listing = json.loads(run("--list-rules", "--format", "json")[1])["rules"]
        self.assertEqual(doc["rule"], next(r for r in listing if r["id"] == "graph-dead-node"))
        code, out, err = run("--explain", "graph-no-such-rule", "--format", "json")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("graph-no-such-rule", err)

    def test_formats_that_do_not_apply_are_refused(self):
        for args, flag in ((("--list-targets", "--format", "sarif"), "--list-targets"),
                           (("--explain", "graph-dead-node", "--format", "sarif"), "--explain"),
                           (("--version", "--format", "sarif"), "--version"),
                           (("--list-rules", "--format", "github"), "--list-rules")):
            code, out, err = run(*args)
            self.assertEqual((code, out), (2, ""), args)
            self.assertIn(f"onnx-lint: {flag} prints text or JSON", err)

    def test_version(self):
        code, out, err = run("--version")
        self.assertEqual((code, err), (0, ""))
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^onnx-lint \d+\.\d+\.\d+$")
        code, js, _ = run("--version", "--format", "json")
        self.assertEqual(code, 0)
        info = json.loads(js)
        self.assertEqual(sorted(info), ["onnx", "schema_version", "targets", "tool"])
        self.assertEqual(lines[0], f"onnx-lint {info['tool']['version']}")
        with open(os.path.join(SRC, "rules", "tables", "onnx-operators.json"),
                  encoding="utf-8") as f:
            onnx_release = json.load(f)["onnx_version"]
        self.assertEqual(info["onnx"]["release"], onnx_release)
        self.assertGreaterEqual(info["onnx"]["opsets"]["ai.onnx"], 21)
        self.assertRegex(lines[1], rf"^ONNX operator table: ONNX {re.escape(onnx_release)} "
                                   rf"\(IR version \d+; max opset ai\.onnx "
                                   rf"{info['onnx']['opsets']['ai.onnx']}, ")
        targets_dir = os.path.join(SRC, "rules", "tables", "targets")
        table_ids = sorted(n[:-5] for n in os.listdir(targets_dir)
                           if n.endswith(".json") and n != "extra_facts.json")
        self.assertEqual(sorted(info["targets"]), table_ids)
        with open(os.path.join(targets_dir, "tensorrt.json"), encoding="utf-8") as f:
            trt = json.load(f)["runtime_version"]
        self.assertEqual(info["targets"]["tensorrt"]["runtime_version"], trt)
        self.assertIn(f"  tensorrt{' ' * 24} {trt}", lines)

    def test_explain_prints_the_doc_page(self):
        for rule in FOUNDATION_RULES:
            code, out, _ = run("--explain", rule)
            self.assertEqual(code, 0, rule)
            with open(os.path.join(SRC, "docs", "rules", rule + ".md"), encoding="utf-8") as f:
                self.assertEqual(out, f.read(), rule)


def validate_sarif(test, log):
    import jsonschema
    with open(os.path.join(SRC, "tests", "data", "sarif-schema-2.1.0.json"),
              encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft4Validator(schema).validate(log)


def validate(test, report):
    try:
        import jsonschema
    except ImportError:  # Debian's python3-jsonschema is a test dependency (tools/dev.sh)
        test.fail("python3-jsonschema is not installed for " + sys.executable)
    with open(SCHEMA, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.validators.validator_for(schema).check_schema(schema)
    jsonschema.validate(report, schema, cls=jsonschema.validators.validator_for(schema))


class Schema(TempModels):
    def test_corpus_report_is_schema_valid(self):
        code, out, _ = run("--format", "json", CORPUS)
        self.assertIn(code, (0, 1))
        report = json.loads(out)
        self.assertGreater(len(report["files"]), 30)
        validate(self, report)

    def test_unreadable_stdin_and_empty_reports_are_schema_valid(self):
        cut = self.write("cut.onnx", CLEAN[:7])
        _, out, _ = run("--format", "json", cut, "-", stdin=WARN_AND_INFO)
        report = json.loads(out)
        self.assertIsNone(report["files"][0]["model"])
        validate(self, report)
        # An empty folder is exit 2 (issue 19), with the folder as an entry (issue 16).
        empty = os.path.join(self.dir, "empty")
        os.makedirs(empty)
        code, out, _ = run("--format", "json", empty)
        self.assertEqual(code, 2)
        report = json.loads(out)
        validate(self, report)
        self.assertEqual(report["summary"]["files"], 0)

    def test_run_header_and_verdicts(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, _ = run("--format", "json", "--target", "trt", "--fail-on", "warning",
                           "--min-severity", "error", "--no-config", path)
        self.assertEqual(code, 1)
        report = json.loads(out)
        validate(self, report)
        header = report["run"]
        self.assertEqual((header["targets"], header["fail_on"], header["config_file"],
                          header["baseline_file"], header["hash"]),
                         (["tensorrt"], "warning", None, None, False))
        self.assertEqual(sorted(header["tables"]), ["onnx", "tensorrt"])
        f = report["files"][0]
        # The warning fails the file although --min-severity hides it from the list.
        self.assertEqual((f["verdict"], f["diagnostics"], f["counts_by_rule"]), ("fail", [], {}))
        self.assertGreater(f["hidden"], 0)
        self.assertEqual((report["summary"]["failed"], report["summary"]["passed"]), (1, 0))
        self.assertNotIn("sha256", f["model"])
        _, out, _ = run("--format", "json", "--hash", "--fail-on", "never", path)
        report = json.loads(out)
        with open(path, "rb") as model:
            self.assertEqual(report["files"][0]["model"]["sha256"],
                             hashlib.sha256(model.read()).hexdigest())
        self.assertEqual((report["files"][0]["verdict"], report["run"]["hash"]), ("pass", True))

    def test_schema_rejects_broken_reports(self):
        import jsonschema
        _, out, _ = run("--format", "json", "--select", "graph", "-", stdin=WARN_AND_INFO)
        good = json.loads(out)
        validate(self, good)
        for mutate in (
                lambda r: r.pop("schema_version"),
                lambda r: r.__setitem__("schema_version", 2),
                lambda r: r["files"][0].__setitem__("status", "fine"),
                lambda r: r["files"][0]["diagnostics"][0].__setitem__("severity", "fatal"),
                lambda r: r["files"][0]["diagnostics"][0].pop("location"),
                lambda r: r["files"][0]["diagnostics"][0].__setitem__("unexpected", 1),
                lambda r: r["summary"].pop("by_rule"),
                lambda r: r["files"][0]["counts"].__setitem__("error", -1),
                lambda r: r["files"][0].__setitem__("error", "an error on a linted file"),
                lambda r: r["summary"].__setitem__("path_errors", -1),
        ):
            broken = json.loads(out)
            mutate(broken)
            with self.assertRaises(jsonschema.ValidationError):
                validate(self, broken)
        # Sections are open: other features add their own.
        extended = json.loads(out)
        extended["files"][0]["sections"]["my_feature"] = {"anything": [1, 2]}
        validate(self, extended)
        # ... but the dynamic_shapes section is described: a malformed one is rejected.
        broken = json.loads(out)
        broken["files"][0]["sections"]["dynamic_shapes"] = {"anything": [1, 2]}
        with self.assertRaises(jsonschema.ValidationError):
            validate(self, broken)


def toml_blocks(markdown_path):
    """The ```toml blocks of a Markdown file, in order."""
    with open(markdown_path, encoding="utf-8") as f:
        return re.findall(r"(?ms)^```toml\n(.*?)^```", f.read())


class DocsConfig(unittest.TestCase):
    """Every TOML example in the docs is a configuration the real loader accepts."""

    def check_block(self, block):
        # A block that shows a pyproject.toml is read as one (its [tool.onnx-lint] table).
        name = "pyproject.toml" if "[tool.onnx-lint]" in block else "onnx-lint.toml"
        with tempfile.TemporaryDirectory(prefix="onnxlint-docs-") as d:
            path = os.path.join(d, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(block)
            return run("--show-config", "--config", path, cwd=d)

    def test_every_toml_block_loads(self):
        docs = os.path.join(SRC, "docs")
        pages = [os.path.join(docs, "configuration.md"), os.path.join(docs, "pre-commit.md"),
                 os.path.join(docs, "rules", "shape-dynamic-input.md")]
        blocks = {page: toml_blocks(page) for page in pages}
        self.assertGreaterEqual(len(blocks[pages[0]]), 5)  # the extraction finds them
        for page, found in blocks.items():
            self.assertTrue(found, page)
            for block in found:
                code, out, err = self.check_block(block)
                self.assertEqual((code, err), (0, ""), f"{page}:\n{block}")
                self.assertIn("fail-on", out)

    def test_a_wrong_option_is_caught(self):
        # What docs/configuration.md showed before issue 16: graph-unused-initializer has no
        # options, so the block is rejected naming the key.
        code, out, err = self.check_block("[rules.graph-unused-initializer]\nmin-bytes = 1024\n")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("min-bytes", err)


def external_model(location):
    """A model whose initializer W (float[2]) is stored in the external file `location`."""
    tensor = (int_field(1, 2) + int_field(2, 1) + field(8, "W")
              + field(13, field(1, "location") + field(2, location))
              + field(13, field(1, "length") + field(2, "8")) + int_field(14, 1))
    graph = field(1, node("Add", ["x", "W"], ["y"], "add")) + field(2, "g") + field(5, tensor)
    graph += field(11, value_info("x")) + field(12, value_info("y"))
    return (int_field(1, 8) + field(2, "t") + field(3, "1") + field(7, graph)
            + field(8, int_field(2, 17)))


class ConfigDiscovery(TempModels):
    """Each model uses the nearest onnx-lint.toml / pyproject.toml above it
    (docs/configuration.md)."""

    def setUp(self):
        super().setUp()
        # root: warnings only from graph-dead-node, and the run fails on warnings.
        self.write("onnx-lint.toml", b'select = ["graph-dead-node"]\nfail-on = "warning"\n')
        # sub: its own selection and fail-on (fail-on is the run's: not used).
        self.write("sub/onnx-lint.toml",
                   b'select = ["model-missing-producer"]\nfail-on = "never"\n'
                   b'[[overrides]]\nfiles = ["legacy"]\nignore = ["ALL"]\n')
        # other: a pyproject.toml without [tool.onnx-lint] is skipped (root's applies).
        self.write("other/pyproject.toml", b"[tool.black]\nline-length = 100\n")
        # py: a pyproject.toml with the table.
        self.write("py/pyproject.toml", b'[tool.onnx-lint]\nselect = ["graph-unused-input"]\n')
        for m in ("m.onnx", "sub/m.onnx", "sub/legacy/m.onnx", "other/m.onnx", "py/m.onnx",
                  "legacy/m.onnx"):
            self.write(m, WARN_AND_INFO)

    def rules(self, *args, cwd=None, stdin=None):
        code, out, err = run("--format", "json", *args, cwd=cwd or self.dir, stdin=stdin)
        self.assertIn(code, (0, 1), err)
        report = json.loads(out)
        return code, {f["path"]: sorted(d["rule"] for d in f["diagnostics"])
                      for f in report["files"]}

    def test_nested_configs(self):
        code, found = self.rules("m.onnx", "sub/m.onnx", "sub/legacy/m.onnx", "other/m.onnx",
                                 "py/m.onnx", "legacy/m.onnx")
        self.assertEqual(found, {
            "m.onnx": ["graph-dead-node"],
            "sub/m.onnx": ["model-missing-producer"],
            "sub/legacy/m.onnx": [],  # sub's [[overrides]], relative to sub/
            "other/m.onnx": ["graph-dead-node"],
            "py/m.onnx": [],  # graph-unused-input: x is used
            "legacy/m.onnx": ["graph-dead-node"],  # not under sub/legacy
        })
        self.assertEqual(code, 1)  # the run's fail-on (root: warning), not sub's "never"

    def test_folder_argument_and_outside_working_directory(self):
        # From a neutral working directory: no run config, each model still finds its own.
        code, found = self.rules(os.path.join(self.dir, "sub"), cwd=NEUTRAL_CWD)
        self.assertEqual(found, {os.path.join(self.dir, "sub", "m.onnx"):
                                 ["model-missing-producer"],
                                 os.path.join(self.dir, "sub", "legacy", "m.onnx"): []})
        self.assertEqual(code, 0)  # default fail-on error: an info does not fail

    def test_config_flag_overrides_every_file(self):
        cfg = self.write("elsewhere/lint.toml", b'select = ["graph-unused-input"]\n')
        _, found = self.rules("--config", cfg, "m.onnx", "sub/m.onnx")
        self.assertEqual(found, {"m.onnx": [], "sub/m.onnx": []})
        _, found = self.rules("--no-config", "--select", "graph-dead-node,model-missing-producer",
                              "sub/m.onnx")
        self.assertEqual(found, {"sub/m.onnx": ["graph-dead-node", "model-missing-producer"]})

    def test_command_line_wins(self):
        _, found = self.rules("--extend-select", "graph-dead-node", "sub/m.onnx")
        self.assertEqual(found, {"sub/m.onnx": ["graph-dead-node", "model-missing-producer"]})

    def test_bad_nested_config_is_exit_2(self):
        self.write("bad/onnx-lint.toml", b'select = ["graph-dead-nod"]\n')
        self.write("bad/m.onnx", CLEAN)
        code, _, err = run("m.onnx", "bad/m.onnx", cwd=self.dir)
        self.assertEqual(code, 2)
        self.assertIn("bad/onnx-lint.toml", err)
        self.assertIn("did you mean 'graph-dead-node'", err)

    def test_show_config_per_path(self):
        code, out, _ = run("--show-config", "m.onnx", "sub/legacy/m.onnx", cwd=self.dir)
        self.assertEqual(code, 0)
        first, second = out.split("\n\n# onnx-lint effective configuration")
        self.assertIn("# config file: " + os.path.join(self.dir, "onnx-lint.toml"), first)
        self.assertIn("# config file: " + os.path.join(self.dir, "sub", "onnx-lint.toml"), second)
        self.assertIn("[[overrides]] 0 applied", second)
        self.assertIn('fail-on = "warning"', second)  # the run's

    def test_stdin_filename(self):
        with open(os.path.join(self.dir, "sub", "m.onnx"), "rb") as f:
            data = f.read()
        _, found = self.rules("--stdin-filename", "sub/m.onnx", "-", stdin=data)
        self.assertEqual(found, {"sub/m.onnx": ["model-missing-producer"]})
        _, found = self.rules("--stdin-filename", "sub/legacy/x.onnx", "-", stdin=data)
        self.assertEqual(found, {"sub/legacy/x.onnx": []})
        # Without a name, stdin is "-" and uses the working directory's config.
        _, found = self.rules("-", stdin=data)
        self.assertEqual(found, {"-": ["graph-dead-node"]})
        # In the text report, under its name, in argument order among other files.
        code, out, _ = run("--stdin-filename", "sub/m.onnx", "m.onnx", "-", cwd=self.dir,
                           stdin=data)
        self.assertRegex(out, r"(?s)^m\.onnx: .*\nsub/m\.onnx: ")
        code, _, err = run("--stdin-filename", "x.onnx", "m.onnx", cwd=self.dir)
        self.assertEqual(code, 2)
        self.assertIn("--stdin-filename", err)

    def test_stdin_filename_resolves_external_data_in_its_folder(self):
        self.write("ext/w.bin", b"\x00" * 8)
        data = external_model("w.bin")
        sel = ("--no-config", "--select", "data")
        _, found = self.rules(*sel, "--stdin-filename", "ext/m.onnx", "-", stdin=data)
        self.assertEqual(found, {"ext/m.onnx": []})
        _, found = self.rules(*sel, "-", stdin=data)  # "." has no w.bin
        self.assertEqual(found, {"-": ["data-external-missing"]})


class CrashIsolation(TempModels):
    """Issue 28 items 3 and N12: a crash while linting one file (forced with the test-only
    switch ONNXLINT_TEST_CRASH_RULE=<rule>:<how>[:<path part>]) is that file's internal-error
    finding when several files are linted (isolated), and exit 3 with a line naming the rule and
    the file for one file; the other files' reports are those of a run without the crash."""

    SWITCH = "ONNXLINT_TEST_CRASH_RULE"

    def run_env(self, switch, *args, limit_address_space=None):
        env = dict(os.environ)
        env.pop(self.SWITCH, None)
        if switch:
            env[self.SWITCH] = switch

        def limit():
            if limit_address_space:
                import resource
                resource.setrlimit(resource.RLIMIT_AS, (limit_address_space, limit_address_space))
        proc = subprocess.run([BIN, "--no-config", *args], capture_output=True, env=env,
                              cwd=NEUTRAL_CWD, timeout=120, preexec_fn=limit)
        return (proc.returncode, proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"))

    def folder(self):
        self.write("models/a.onnx", WARN_AND_INFO)
        self.write("models/b_crash.onnx", WARN_AND_INFO)
        self.write("models/c.onnx", ERROR)
        return os.path.join(self.dir, "models")

    def test_a_crash_in_a_folder_is_that_files_internal_error(self):
        folder = self.folder()
        code, clean, _ = self.run_env(None, "--format", "json", folder)
        self.assertEqual(code, 1)
        expected = json.loads(clean)["files"]
        code, out, err = self.run_env("graph-dead-node:segv:crash", "--format", "json", folder)
        self.assertEqual(code, 2, err)
        report = json.loads(out)
        validate(self, report)
        files = report["files"]
        self.assertEqual([f["path"] for f in files], [f["path"] for f in expected])
        self.assertEqual([files[0], files[2]], [expected[0], expected[2]])
        crashed = files[1]
        self.assertEqual((crashed["status"], crashed["model"], crashed["verdict"]),
                         ("ok", None, "fail"))
        self.assertEqual([(d["rule"], d["severity"], d["message"]) for d in crashed["diagnostics"]],
                         [("internal-error", "error",
                           "onnx-lint crashed with SIGSEGV (segmentation fault) while running "
                           "rule 'graph-dead-node'; nothing else is reported for this file")])

    def test_fix_skips_a_file_whose_lint_crashed_and_fixes_the_others(self):
        folder = self.folder()
        code, out, err = self.run_env("graph-dead-node:segv:crash", "--fix", "--format", "json",
                                      folder)
        self.assertEqual(code, 2, err)
        files = json.loads(out)["files"]
        self.assertEqual(files[1]["fixing"]["not_fixable"],
                         "its lint failed (internal-error), so it is not fixed")
        self.assertTrue(files[0]["fixing"]["written"])
        self.assertTrue(os.path.exists(os.path.join(folder, "a.fixed.onnx")))
        self.assertFalse(os.path.exists(os.path.join(folder, "b_crash.fixed.onnx")))

    def test_every_fatal_signal_and_the_out_of_memory_killer(self):
        folder = self.folder()
        for how, what in (("abort", "crashed with SIGABRT (abort)"),
                          ("bus", "crashed with SIGBUS (bus error)"),
                          ("fpe", "crashed with SIGFPE (arithmetic exception)"),
                          ("ill", "crashed with SIGILL (illegal instruction)"),
                          ("stack", "crashed with SIGSEGV (segmentation fault)"),
                          ("kill", "'s worker process was killed (SIGKILL, most likely by the "
                                   "kernel's out-of-memory killer)")):
            code, out, err = self.run_env(f"graph-dead-node:{how}:crash", "--format", "concise",
                                          folder)
            self.assertEqual(code, 2, (how, err))
            sep = "" if what.startswith("'") else " "
            self.assertIn(f"b_crash.onnx: error: onnx-lint{sep}{what} while running rule "
                          "'graph-dead-node'; nothing else is reported for this file "
                          "[internal-error]", out, how)
            self.assertIn("c.onnx: main/add (Add): error:", out, how)  # the others are linted
            self.assertIn("3 files checked", out, how)

    def test_one_file_crash_exits_3_naming_the_rule_and_the_file(self):
        path = self.write("m.onnx", WARN_AND_INFO)
        for how, signal in (("segv", "SIGSEGV (segmentation fault)"), ("stack",
                            "SIGSEGV (segmentation fault)"), ("abort", "SIGABRT (abort)"),
                            ("fpe", "SIGFPE (arithmetic exception)")):
            code, out, err = self.run_env(f"graph-dead-node:{how}", path)
            self.assertEqual(code, 3, how)
            self.assertEqual(out, "")
            self.assertEqual(err, f"onnx-lint: internal error while running rule "
                                  f"'graph-dead-node' on {path}: {signal}\n")
        # --isolate for one file: the finding instead, exit 2.
        code, out, _ = self.run_env("graph-dead-node:segv", "--isolate", path)
        self.assertEqual(code, 2)
        self.assertIn("onnx-lint crashed with SIGSEGV", out)
        # --no-isolate with a folder: the first crash ends the run, exit 3.
        code, _, err = self.run_env("graph-dead-node:segv:crash", "--no-isolate", self.folder())
        self.assertEqual(code, 3)
        self.assertIn("b_crash.onnx: SIGSEGV", err)
        self.assertEqual(self.run_env(None, "--isolate", "--no-isolate", path)[0], 2)

    def test_loading_and_summary_phases_are_named(self):
        folder = self.folder()
        single = os.path.join(folder, "b_crash.onnx")
        for phase, words in (("@loading", "loading the model"),
                             ("@summary", "computing the model summary")):
            code, out, _ = self.run_env(f"{phase}:segv:crash", "--format", "concise", folder)
            self.assertEqual(code, 2, phase)
            self.assertIn(f"b_crash.onnx: error: onnx-lint crashed with SIGSEGV (segmentation "
                          f"fault) while {words}; nothing else is reported", out)
            code, out, _ = self.run_env(f"{phase}:oom", "--format", "concise", single)
            self.assertEqual(code, 2, phase)
            self.assertIn(f"onnx-lint ran out of memory while {words}", out)
        code, _, err = self.run_env("@loading:segv", single)
        self.assertEqual((code, err), (3, f"onnx-lint: internal error while loading {single}: "
                                          "SIGSEGV (segmentation fault)\n"))

    def test_out_of_memory_is_a_finding(self):
        """N12: mimalloc's operator new aborted (SIGABRT) on out of memory; now it throws and the
        rule's internal-error finding says so, with or without isolation, and under an
        address-space limit (RLIMIT_AS) too."""
        folder = self.folder()
        single = os.path.join(folder, "b_crash.onnx")
        message = "rule 'graph-dead-node' failed: out of memory [internal-error]"
        for args, limit in ((["--isolate", folder], None), (["--no-isolate", folder], None),
                            ([single], None), ([folder], 2 << 30), ([single], 2 << 30)):
            code, out, err = self.run_env("graph-dead-node:oom:crash", "--format", "concise",
                                          *args, limit_address_space=limit)
            self.assertEqual(code, 2, (args, limit, err))
            self.assertIn(message, out, (args, limit))
            self.assertIn("graph-dead-node", out)

    def test_a_hung_file_times_out_and_the_others_are_reported(self):
        """A worker that hangs (ONNXLINT_TEST_CRASH_RULE=<rule>:hang, an endless loop) is killed
        after --file-timeout: its file's internal-error finding says it timed out and in which
        rule or phase, the others' reports are intact, exit 2 as for a crash, and the run takes
        about the limit."""
        folder = self.folder()
        code, clean, _ = self.run_env(None, "--format", "json", folder)
        expected = json.loads(clean)["files"]
        for switch, words in (("graph-dead-node:hang:crash", "running rule 'graph-dead-node'"),
                              ("graph-dead-node:stuck:crash", "running rule 'graph-dead-node'"),
                              ("@loading:hang:crash", "loading the model"),
                              ("@summary:hang:crash", "computing the model summary")):
            start = time.monotonic()
            code, out, err = self.run_env(switch, "--format", "json", "--file-timeout", "1",
                                          folder)
            took = time.monotonic() - start
            self.assertEqual(code, 2, (switch, err))
            self.assertGreaterEqual(took, 1.0, switch)
            self.assertLess(took, 10.0, switch)
            report = json.loads(out)
            validate(self, report)
            files = report["files"]
            self.assertEqual([files[0], files[2]], [expected[0], expected[2]], switch)
            self.assertEqual(files[1]["model"], None)
            self.assertEqual(
                [(d["rule"], d["severity"], d["message"]) for d in files[1]["diagnostics"]],
                [("internal-error", "error", f"onnx-lint timed out after 1 s while {words}; "
                  "nothing else is reported for this file")], switch)

    def test_file_timeout_option(self):
        """--file-timeout given for one file isolates it (only a worker can be stopped); with
        --no-isolate it is a usage error; fractions of a second are kept; 0 means no limit."""
        path = self.write("m.onnx", WARN_AND_INFO)
        code, out, err = self.run_env("graph-dead-node:hang", "--format", "concise",
                                      "--file-timeout", "0.5", path)
        self.assertEqual(code, 2, err)
        self.assertIn("m.onnx: error: onnx-lint timed out after 0.5 s while running rule "
                      "'graph-dead-node'; nothing else is reported for this file "
                      "[internal-error]", out)
        code, _, err = self.run_env(None, "--file-timeout", "1", "--no-isolate", path)
        self.assertEqual(code, 2)
        self.assertIn("--file-timeout", err)
        for bad in ("-1", "abc", "1e8", "nan", "inf"):
            self.assertEqual(self.run_env(None, "--file-timeout", bad, path)[0], 2, bad)
        # 0: no limit (and for one file no isolation: the default for one file).
        plain = self.run_env(None, "--format", "json", path)
        self.assertEqual(self.run_env(None, "--format", "json", "--file-timeout", "0", path),
                         plain)
        self.assertEqual(self.run_env(None, "--format", "json", "--file-timeout", "30", path),
                         plain)

    def test_reports_identical_with_and_without_isolation(self):
        for fmt in ("json", "text", "sarif"):
            plain = self.run_env(None, "--format", fmt, "--no-isolate", "--target", "tensorrt",
                                 CORPUS)
            for jobs in ("1", "2"):
                isolated = self.run_env(None, "--format", fmt, "--isolate", "--jobs", jobs,
                                        "--target", "tensorrt", CORPUS)
                self.assertEqual(plain, isolated, (fmt, jobs))


class Jobs(unittest.TestCase):
    def test_parallel_output_is_identical(self):
        for fmt in ("text", "json"):
            serial = run("--format", fmt, "--jobs", "1", CORPUS)
            parallel = run("--format", fmt, "--jobs", "2", CORPUS)
            self.assertEqual(serial, parallel, fmt)
            self.assertIn(serial[0], (0, 1))


EXAMPLES = os.path.join(SRC, "examples")
DATA = os.path.join(SRC, "tests", "data")


def validate_json_schema(test, doc, schema_file, each_item=False):
    import jsonschema
    with open(os.path.join(DATA, schema_file), encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    for item in (doc if each_item else [doc]):
        cls(schema).validate(item)


def validate_junit(test, xml_text):
    with tempfile.NamedTemporaryFile("w", suffix=".xml", encoding="utf-8", delete=False) as f:
        f.write(xml_text)
    try:
        proc = subprocess.run(["xmllint", "--noout", "--schema",
                               os.path.join(DATA, "junit-10.xsd"), f.name],
                              capture_output=True, text=True)
        test.assertEqual(proc.returncode, 0, proc.stderr)
    finally:
        os.unlink(f.name)


class ReportFormats(TempModels):
    """GitLab Code Quality, JUnit, Markdown and Model Explorer output of the real CLI on the
    bundled example models and a path without a model, validated against their schemas."""

    def setUp(self):
        super().setUp()
        self.examples = sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES)
                               if f.endswith(".onnx"))
        self.missing = os.path.join(self.dir, "deleted.onnx")

    def lint(self, fmt, *paths):
        return run("--no-config", "--format", fmt, *paths)

    def test_gitlab(self):
        code, out, err = self.lint("gitlab", *self.examples, self.missing)
        self.assertEqual(code, 2, err)
        issues = json.loads(out)
        validate_json_schema(self, issues, "gitlab-codeclimate.json", each_item=True)
        validate_json_schema(self, issues, "gitlab-code-quality-report.schema.json")
        fingerprints = [i["fingerprint"] for i in issues]
        self.assertEqual(len(fingerprints), len(set(fingerprints)))
        self.assertEqual({i["location"]["lines"]["begin"] for i in issues}, {1})
        self.assertIn({"type": "issue", "check_name": "onnx-lint",
                       "description": f"{self.missing}: no such file or folder",
                       "fingerprint": issues[-1]["fingerprint"], "severity": "blocker",
                       "location": {"path": self.missing, "lines": {"begin": 1}}}, issues)
        self.assertIn("export-python-op", {i["check_name"] for i in issues})
        self.assertEqual(self.lint("gitlab", *self.examples, self.missing)[1], out)  # stable

    def test_junit(self):
        code, out, err = self.lint("junit", *self.examples, self.missing)
        self.assertEqual(code, 2, err)
        validate_junit(self, out)
        self.assertEqual(out.count("<testcase "), len(self.examples) + 1)
        self.assertIn('<error type="path-error" message="no such file or folder">', out)
        self.assertIn('<failure type="export-python-op"', out)
        # Findings below --fail-on are not failures; at --fail-on info every finding is one.
        _, at_info, _ = self.lint("junit", "--fail-on", "info", *self.examples)
        validate_junit(self, at_info)
        self.assertNotIn("<system-out>", at_info)
        self.assertGreater(at_info.count("<failure "), out.count("<failure "))

    def test_junit_escapes_names_from_the_model(self):
        bad = model([node("Relu", ["x"], ["y"], "relu"),
                     node("Neg", ["x"], ["t"], "</failure>\x01&\uffff\u202e")])
        path = self.write("bad.onnx", bad)
        code, out, err = self.lint("junit", "--fail-on", "warning", path)
        self.assertEqual(code, 1, err)
        validate_junit(self, out)
        self.assertIn("&lt;/failure&gt;\\x01&amp;\\u{FFFF}\\u{202E}", out)

    def test_markdown(self):
        code, out, err = self.lint("markdown", *self.examples, self.missing)
        self.assertEqual(code, 2, err)
        self.assertTrue(out.startswith("## \u274c onnx-lint: "), out[:80])
        self.assertIn("| File | Errors | Warnings | Infos | Verdict |\n", out)
        table = [line for line in out.splitlines() if line.startswith("| ") and "File" not in line]
        self.assertEqual(len(table), len(self.examples) + 1)
        self.assertIn("| \u274c no such file or folder |", out)
        self.assertLess(len(out), 65536)

    def test_model_explorer(self):
        example = os.path.join(EXAMPLES, "torch_bool_mask_index_op13.onnx")
        code, out, err = self.lint("model-explorer", example)
        self.assertEqual((code, err), (0, ""))
        data = json.loads(out)
        validate_json_schema(self, data, "model-explorer-node-data.schema.json")
        self.assertEqual(data["torch_jit"]["results"], {"/NonZero": {"value": 2}})
        code, out, err = self.lint("model-explorer", *self.examples[:2])
        self.assertEqual((code, out), (2, ""))
        self.assertIn("node data is for one model", err)
        with open(example, "rb") as f:
            code, _, err = run("--no-config", "--format", "model-explorer", "-", stdin=f.read())
        self.assertEqual(code, 2)
        self.assertIn("not stdin", err)

    def test_information_flags_refuse_these_formats(self):
        for fmt in ("gitlab", "junit", "markdown", "model-explorer"):
            code, out, err = run("--list-targets", "--format", fmt)
            self.assertEqual((code, out), (2, ""), fmt)
            self.assertIn(f"not --format {fmt}", err)

    def test_sarif_on_the_examples(self):
        code, out, err = self.lint("sarif", *self.examples, self.missing)
        self.assertEqual(code, 2, err)
        log = json.loads(out)
        validate_sarif(self, log)
        for result in log["runs"][0]["results"]:
            self.assertEqual(sorted(result["partialFingerprints"]), ["onnxLint/v1"])



@unittest.skipUnless(shutil.which("git"), "git is not installed")
class BaselineMoves(TempModels):
    """Issue 29, item 7: a baseline follows a model that `git mv` moved without changing it, and
    says which entries a model that moved and changed (or was deleted) left behind."""

    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                       cwd=self.dir, check=True, capture_output=True, timeout=60)

    def lint(self, *args):
        return run(*args, cwd=self.dir)

    def test_git_mv_keeps_the_baseline_and_an_edit_says_which_entries_are_stale(self):
        self.git("init", "-q")
        self.write("models/a.onnx", ERROR)
        self.git("add", ".")
        self.git("commit", "-q", "-m", "a model")
        # The control: the model's error fails a run without a baseline.
        self.assertEqual(self.lint("models/a.onnx")[0], 1)

        code, _, err = self.lint("--write-baseline", "baseline.json", "models/a.onnx")
        self.assertEqual(code, 0, err)
        with open(os.path.join(self.dir, "baseline.json"), encoding="utf-8") as f:
            written = json.load(f)
        self.assertEqual(written["schema_version"], 1)
        self.assertEqual(written["files"],
                         {"models/a.onnx": {"sha256": hashlib.sha256(ERROR).hexdigest()}})
        entries = len(written["findings"])
        self.assertGreater(entries, 0)
        self.git("add", "baseline.json")
        self.git("commit", "-q", "-m", "baseline")

        self.git("mv", "models/a.onnx", "models/b.onnx")
        code, out, err = self.lint("--baseline", "baseline.json", "--format", "json",
                                   "models/b.onnx")
        self.assertEqual(code, 0, err)
        report = json.loads(out)  # the notice is on stderr: the report stays valid
        validate(self, report)
        [f] = report["files"]
        self.assertEqual((f["path"], f["diagnostics"], f["baselined"]),
                         ("models/b.onnx", [], entries))
        plural = "entry still applies" if entries == 1 else "entries still apply"
        self.assertEqual(err, f"onnx-lint: baseline baseline.json: models/a.onnx is now "
                              f"models/b.onnx (the same bytes): its {entries} {plural}\n"
                              "onnx-lint: refresh the baseline over all the models it covers: "
                              "onnx-lint --write-baseline baseline.json MODEL...\n")
        # SARIF stays valid too.
        code, out, err = self.lint("--baseline", "baseline.json", "--format", "sarif",
                                   "models/b.onnx")
        self.assertEqual(code, 0, err)
        validate_sarif(self, json.loads(out))

        # Moved and edited: other bytes, so a new model whose findings are new; the notice names
        # the entries the old path left behind.
        self.write("models/b.onnx", model([node("Add", ["x", "ghost"], ["y"], "add")],
                                          producer=("edited", "2")))
        code, out, err = self.lint("--baseline", "baseline.json", "models/b.onnx")
        self.assertEqual(code, 1, err)
        self.assertIn("graph-undefined-value", out)
        plural = "entry is" if entries == 1 else "entries are"
        self.assertEqual(err, "onnx-lint: baseline baseline.json: models/a.onnx no longer exists "
                              f"and no model linted has its bytes: its {entries} {plural} "
                              "stale\n"
                              "onnx-lint: refresh the baseline over all the models it covers: "
                              "onnx-lint --write-baseline baseline.json MODEL...\n")
        # --quiet prints no notice.
        self.assertEqual(self.lint("-q", "--baseline", "baseline.json", "models/b.onnx")[2], "")

        # The refresh the notice names, over the repository's models: the baseline is current.
        tracked = subprocess.run(["git", "ls-files", "*.onnx"], cwd=self.dir, check=True,
                                 capture_output=True, text=True).stdout.split()
        self.assertEqual(tracked, ["models/b.onnx"])
        code, _, err = self.lint("--write-baseline", "baseline.json", *tracked)
        self.assertEqual(code, 0, err)
        self.assertEqual(self.lint("--baseline", "baseline.json", *tracked)[::2], (0, ""))


if __name__ == "__main__":
    try:
        unittest.main()
    finally:
        shutil.rmtree(NEUTRAL_CWD, ignore_errors=True)
