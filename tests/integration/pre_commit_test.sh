#!/usr/bin/env bash
# A repository adopts onnx-lint with a pyproject.toml section and a pre-commit entry that uses
# this repository's .pre-commit-hooks.yaml (cloned from a local path: no network), accepts its
# legacy findings with a baseline, then: a clean model commits, a model with an error is blocked
# with the finding shown. Needs Debian's pre-commit package.
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
cp "$SRC/tools/git-hooks/check-external-data" "$HOOKS/tools/git-hooks/"
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

# 6. CI: the same run as SARIF for code scanning.
run 1 onnx-lint --format sarif --output onnx-lint.sarif models
/usr/bin/python3 - "$SRC/tests/data/sarif-schema-2.1.0.json" onnx-lint.sarif <<'PY' || fail "SARIF invalid"
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft4Validator(schema).validate(doc)
rules = [r["ruleId"] for r in doc["runs"][0]["results"]]
assert rules == ["graph-undefined-value"], rules  # bad.onnx only; legacy is baselined
PY

finish
