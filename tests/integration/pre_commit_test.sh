#!/usr/bin/env bash
# A repository adopts onnx-lint with a pyproject.toml section and a pre-commit entry that uses
# this repository's .pre-commit-hooks.yaml (cloned from a local path: no network), accepts its
# legacy findings with a baseline, then: a clean model commits, a model with an error is blocked
# with the finding shown, and a crashed or killed onnx-lint blocks the commit too (the hook's
# entry script; ONNXLINT_TEST_CRASH_RULE forces the crash). Needs Debian's pre-commit package.
# Usage: pre_commit_test.sh ONNX_LINT MAKE_MODELS SOURCE_DIR
source "$(dirname "$0")/lib.sh"

command -v pre-commit >/dev/null || { echo "pre-commit is not installed" >&2; exit 1; }
setup_git
export PRE_COMMIT_HOME="$WORK/pre-commit-cache"
export PATH="$(dirname "$ONNX_LINT"):$PATH" # the hook's entry is plain `onnx-lint`
"$MAKE_MODELS" "$WORK/models"

# The hook repository: this project's manifest, committed.
HOOKS="$WORK/onnx-lint-hooks"
mkdir -p "$HOOKS/tools/git-hooks"
cp "$SRC/.pre-commit-hooks.yaml" "$HOOKS/"
cp "$SRC/tools/git-hooks/check-external-data" "$SRC/tools/git-hooks/onnx-lint-hook" \
  "$HOOKS/tools/git-hooks/"
git -C "$HOOKS" init -q
git -C "$HOOKS" add .pre-commit-hooks.yaml tools
git -C "$HOOKS" commit -qm "hooks"
REV=$(git -C "$HOOKS" rev-parse HEAD)

# The adopting repository.
R="$WORK/repo"
mkdir -p "$R/models"
cd "$R"
git init -q
cat >pyproject.toml <<'TOML'
[project]
name = "demo-models"
version = "1.0"

[tool.onnx-lint]
select = ["graph", "model"]
fail-on = "error"
baseline = ".onnx-lint-baseline.json"
TOML
cat >.pre-commit-config.yaml <<YAML
repos:
  - repo: $HOOKS
    rev: $REV
    hooks:
      - id: onnx-lint
      - id: onnx-lint-external-data
YAML
run 0 pre-commit install
git add pyproject.toml .pre-commit-config.yaml
run 0 git commit -m "adopt onnx-lint"

# 1. A legacy model with an error, accepted with a baseline.
cp "$WORK/models/legacy.onnx" models/
run 1 onnx-lint --no-baseline models/legacy.onnx # fails before it is accepted
run 0 onnx-lint --write-baseline .onnx-lint-baseline.json models/legacy.onnx
git add models/legacy.onnx .onnx-lint-baseline.json
run 0 git commit -m "legacy model, findings accepted"
# git passes the hook's output on stderr.
expect_in "$WORK/err" "onnx-lint"
expect_in "$WORK/err" "Passed"

# 2. A clean model commits.
cp "$WORK/models/clean.onnx" models/
git add models/clean.onnx
run 0 git commit -m "clean model"
expect_in "$WORK/err" "Passed"

# 3. A model with an error is blocked, and the finding is shown.
cp "$WORK/models/bad.onnx" models/
git add models/bad.onnx
before=$(git rev-list --count HEAD)
run 1 git commit -m "broken model"
expect_in "$WORK/err" "Failed"
expect_in "$WORK/err" "models/bad.onnx: main/Add_bad (Add): error:"
expect_in "$WORK/err" "[graph-undefined-value]"
expect_not_in "$WORK/err" "matched no finding" # legacy.onnx was not linted: not stale
[[ $(git rev-list --count HEAD) == "$before" ]] || fail "the broken model was committed"

# 4. Only .onnx files reach the hook.
git reset -q models/bad.onnx
echo "notes" >README.md
git add README.md
run 0 git commit -m "docs only"
expect_in "$WORK/err" "(no files to check)"

# 5. A model whose external-data file is not staged is blocked, naming both.
cp "$WORK/models/external.onnx" "$WORK/models/external.bin" models/
git add models/external.onnx
run 1 git commit -m "model without its weights"
expect_in "$WORK/err" "models/external.onnx: external-data file 'models/external.bin' is not in the git index"
git add models/external.bin
run 0 git commit -m "model with its weights"
git rm -q models/external.onnx models/external.bin
run 0 git commit -m "remove the external-data model"

# 6. pre-commit cannot pass a crash. The framework folds its batches' exit codes with
# max(0, ...), so an onnx-lint ended by a signal would show "Passed": the hook's entry script
# turns that into exit 3, and onnx-lint itself turns a crash into exit 3 (one file) or the file's
# internal-error finding (several files, isolated).
cp "$WORK/models/clean.onnx" models/crash1.onnx
cp "$WORK/models/clean.onnx" models/crash2.onnx
git add models/crash1.onnx
before=$(git rev-list --count HEAD)
# Killed (SIGKILL: what the out-of-memory killer sends; nothing can catch it).
ONNXLINT_TEST_CRASH_RULE=graph-dead-node:kill run 1 git commit -m "killed"
expect_in "$WORK/err" "Failed"
expect_in "$WORK/err" "onnx-lint-hook: onnx-lint was ended by signal 9 (SIGKILL)"
# A fatal signal in one file: the crash handler names the rule and the file, exit 3.
ONNXLINT_TEST_CRASH_RULE=graph-dead-node:segv run 1 git commit -m "crashed"
expect_in "$WORK/err" "Failed"
expect_in "$WORK/err" "- exit code: 3"
expect_in "$WORK/err" "onnx-lint: internal error while running rule 'graph-dead-node' on models/crash1.onnx: SIGSEGV"
# Several files: each runs isolated; the crashed one is an internal-error finding (exit 2) and
# the other is still linted.
git add models/crash2.onnx
ONNXLINT_TEST_CRASH_RULE=graph-dead-node:segv:crash2 run 1 git commit -m "one of two crashed"
expect_in "$WORK/err" "Failed"
expect_in "$WORK/err" "- exit code: 2"
expect_in "$WORK/err" "models/crash2.onnx: error: onnx-lint crashed with SIGSEGV (segmentation fault) while running rule 'graph-dead-node'"
expect_in "$WORK/err" "2 files checked: 1 error"
[[ $(git rev-list --count HEAD) == "$before" ]] || fail "a crashed lint let the commit in"
# Without a crash the same models commit.
run 0 git commit -m "the models, linted"
expect_in "$WORK/err" "Passed"
git rm -q models/crash1.onnx models/crash2.onnx
run 0 git commit -m "remove the crash models"

# 7. CI: the same run as SARIF for code scanning.
run 1 onnx-lint --format sarif --output onnx-lint.sarif models
/usr/bin/python3 - "$SRC/tests/data/sarif-schema-2.1.0.json" onnx-lint.sarif <<'PY' || fail "SARIF invalid"
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft4Validator(schema).validate(doc)
rules = [r["ruleId"] for r in doc["runs"][0]["results"]]
assert rules == ["graph-undefined-value"], rules  # bad.onnx only; legacy is baselined
PY

finish
