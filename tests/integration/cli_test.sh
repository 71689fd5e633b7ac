#!/usr/bin/env bash
# Adopting onnx-lint in a repository from the command line: config discovery and errors,
# precedence, --show-config, in-model suppression, baseline, SARIF (schema-validated), GitHub
# annotations, and progress on a terminal only.
# Usage: cli_test.sh ONNX_LINT MAKE_MODELS SOURCE_DIR
source "$(dirname "$0")/lib.sh"

P="$WORK/proj"
mkdir -p "$P/models" "$P/sub/deeper"
"$MAKE_MODELS" "$P/models"
cd "$P"

# --- config discovery and precedence --------------------------------------------------------
cat >onnx-lint.toml <<'TOML'
select = ["graph", "model"]
fail-on = "never"
TOML
run 0 "$ONNX_LINT" models/bad.onnx # fail-on = never from the file
expect_in "$WORK/out" "graph-undefined-value"
run 1 "$ONNX_LINT" --fail-on error models/bad.onnx # the flag wins over the file
pushd sub/deeper >/dev/null # found from a subfolder, upward
run 0 "$ONNX_LINT" ../../models/bad.onnx
popd >/dev/null
run 0 "$ONNX_LINT" --show-config
expect_in "$WORK/out" "# config file: $P/onnx-lint.toml"
expect_in "$WORK/out" 'fail-on = "never"'
expect_not_in "$WORK/out" '"export-'
run 1 "$ONNX_LINT" --no-config models/bad.onnx # built-in defaults: fail-on error

# pyproject.toml in a folder below wins over the onnx-lint.toml above (nearest file).
mkdir -p py/models && cp models/bad.onnx py/models/
printf '[project]\nname = "demo"\n\n[tool.onnx-lint]\nselect = ["graph"]\nfail-on = "error"\n' \
  >py/pyproject.toml
pushd py >/dev/null
run 1 "$ONNX_LINT" models/bad.onnx
popd >/dev/null
pushd py >/dev/null
run 0 "$ONNX_LINT" --show-config
expect_in "$WORK/out" "# config file: $P/py/pyproject.toml"
popd >/dev/null
run 1 "$ONNX_LINT" --config py/pyproject.toml models/bad.onnx # --config wins over discovery

# Errors: exit 2 naming file, line, key and reason.
printf 'select = ["graph"]\nselct = ["model"]\n' >bad1.toml
run 2 "$ONNX_LINT" --config bad1.toml models/clean.onnx
expect_in "$WORK/err" "bad1.toml:2: selct: unknown key (did you mean 'select'?)"
printf 'ignore = ["graph-dead-nodes"]\n' >bad2.toml
run 2 "$ONNX_LINT" --config bad2.toml models/clean.onnx
expect_in "$WORK/err" "bad2.toml:1: ignore: 'graph-dead-nodes' matches no rule id"
printf '[severity]\ngraph = "fatal"\n' >bad3.toml
run 2 "$ONNX_LINT" --config bad3.toml models/clean.onnx
expect_in "$WORK/err" "bad3.toml:2: severity.graph: 'fatal' is not one of"
printf 'targets = ["no-such-runtime"]\n' >bad4.toml
run 2 "$ONNX_LINT" --config bad4.toml models/clean.onnx
expect_in "$WORK/err" "bad4.toml:1: targets: unknown target 'no-such-runtime'"
printf '[tool.onnx-lint]\n[tool.onnx-lint.rules.graph-dead-node]\nlimit = 3\n' >sub/pyproject.toml
pushd sub >/dev/null
run 2 "$ONNX_LINT" ../models/clean.onnx
popd >/dev/null
expect_in "$WORK/err" "pyproject.toml:3: tool.onnx-lint.rules.graph-dead-node.limit: unknown option"
rm sub/pyproject.toml
run 2 "$ONNX_LINT" --config missing.toml models/clean.onnx
expect_in "$WORK/err" "missing.toml: cannot read the config file"

# --show-config is valid config: fed back, it shows the same settings.
cat >onnx-lint.toml <<'TOML'
select = ["graph", "model"]
ignore = ["graph-unused-input"]
fail-on = "warning"
[severity]
"graph-dead-*" = "error"
[[overrides]]
files = ["models/legacy*.onnx"]
ignore = ["graph-undefined-value"]
TOML
"$ONNX_LINT" --show-config >shown.toml
"$ONNX_LINT" --config shown.toml --show-config >shown2.toml
if ! diff <(grep -v '^# config file' shown.toml) <(grep -v '^# config file' shown2.toml) >/dev/null; then
  fail "--show-config output does not reproduce itself"
fi
run 0 "$ONNX_LINT" --show-config models/legacy.onnx
expect_in "$WORK/out" "# for model: models/legacy.onnx ([[overrides]] 0 applied)"
expect_not_in "$WORK/out" '"graph-undefined-value",'
run 0 "$ONNX_LINT" models/legacy.onnx # the override ignores the rule for this file
run 1 "$ONNX_LINT" models/bad.onnx

# --- in-model suppression ---------------------------------------------------------------------
printf 'select = ["graph", "model"]\n' >onnx-lint.toml
run 0 "$ONNX_LINT" models/suppressed.onnx
expect_in "$WORK/out" "1 suppressed in-model"
expect_in "$WORK/out" "'onnx-lint:disable' entry 'graph-dead-nod' names no rule id"
expect_in "$WORK/out" "did you mean 'graph-dead-node'?"
expect_in "$WORK/out" "[model-unused-suppression]"

# --- baseline ---------------------------------------------------------------------------------
run 0 "$ONNX_LINT" --write-baseline .onnx-lint-baseline.json models/legacy.onnx
expect_in "$WORK/err" "wrote 1 finding to .onnx-lint-baseline.json"
expect_in "$WORK/out" "1 in baseline"
expect_in .onnx-lint-baseline.json '"file": "models/legacy.onnx"'
run 0 "$ONNX_LINT" --baseline .onnx-lint-baseline.json models/legacy.onnx
expect_in "$WORK/out" "0 errors"
expect_in "$WORK/out" "1 in baseline"
run 1 "$ONNX_LINT" --baseline .onnx-lint-baseline.json models
expect_in "$WORK/out" "models/bad.onnx: main/Add_bad (Add): error"
expect_not_in "$WORK/out" "Mul_old"
# From another working folder, by absolute path, with the baseline named in the config file.
printf 'select = ["graph", "model"]\nbaseline = ".onnx-lint-baseline.json"\n' >onnx-lint.toml
pushd sub/deeper >/dev/null
run 0 "$ONNX_LINT" "$P/models/legacy.onnx"
expect_in "$WORK/out" "1 in baseline"
popd >/dev/null
run 1 "$ONNX_LINT" --no-baseline models/legacy.onnx
# The checkout moves (another machine): the baseline still matches.
cp -r "$P" "$WORK/moved"
pushd "$WORK/moved" >/dev/null
run 0 "$ONNX_LINT" models/legacy.onnx
popd >/dev/null
# A fixed finding leaves a stale entry: reported on stderr, not an error.
cp models/clean.onnx models/legacy.onnx
run 0 "$ONNX_LINT" models/legacy.onnx
expect_in "$WORK/err" "1 baseline entry matched no finding"
"$MAKE_MODELS" "$P/models"
printf '{"schema_version": 7, "findings": []}\n' >broken-baseline.json
run 2 "$ONNX_LINT" --baseline broken-baseline.json models/clean.onnx
expect_in "$WORK/err" "broken-baseline.json: not a baseline file"

# --- SARIF ------------------------------------------------------------------------------------
run 1 "$ONNX_LINT" --format sarif --output report.sarif models
[[ -s $WORK/out ]] && fail "--output: SARIF also went to stdout"
/usr/bin/python3 - "$SRC/tests/data/sarif-schema-2.1.0.json" report.sarif <<'PY' || fail "SARIF report invalid"
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft4Validator(schema).validate(doc)
results = doc["runs"][0]["results"]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
assert "models/bad.onnx" in uris, uris
assert "models/legacy.onnx" not in uris, "baselined finding in SARIF"
assert all(r["partialFingerprints"]["onnxLint/v1"] for r in results)
assert doc["runs"][0]["properties"]["baselined"] == 1
PY
run 1 "$ONNX_LINT" --format sarif models/bad.onnx
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/out" || fail "SARIF on stdout"

# --- GitHub annotations -----------------------------------------------------------------------
run 1 "$ONNX_LINT" --format github models/bad.onnx
expect_in "$WORK/out" "::error file=models/bad.onnx,title=graph-undefined-value::main/Add_bad (Add): "
[[ $(wc -l <"$WORK/out") -ge 1 ]] || fail "no annotation"

# --- progress ---------------------------------------------------------------------------------
mkdir -p many
for i in 1 2 3 4 5 6 7 8; do cp models/clean.onnx "many/m$i.onnx"; done
if command -v script >/dev/null; then
  # stderr on a terminal (script's pty), stdout to a file.
  script -qec "'$ONNX_LINT' many >'$WORK/tty-out.txt'" /dev/null >"$WORK/tty.txt" </dev/null || true
  expect_in "$WORK/tty.txt" "onnx-lint: 8/8 files"
  expect_not_in "$WORK/tty-out.txt" "files"$'\r'
  expect_in "$WORK/tty-out.txt" "8 files checked"
  script -qec "'$ONNX_LINT' --format json many >'$WORK/tty-json.txt'" /dev/null >"$WORK/tty2.txt" </dev/null || true
  expect_not_in "$WORK/tty2.txt" "8/8 files"
  script -qec "'$ONNX_LINT' many/m1.onnx many/m2.onnx >/dev/null" /dev/null >"$WORK/tty3.txt" </dev/null || true
  expect_not_in "$WORK/tty3.txt" "2/2 files"
else
  fail "util-linux 'script' is needed for the terminal progress test"
fi
run 0 "$ONNX_LINT" many # stderr is a file here: no progress
expect_not_in "$WORK/err" "files"

finish
