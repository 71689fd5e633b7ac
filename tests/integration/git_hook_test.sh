#!/usr/bin/env bash
# The plain git hook (tools/git-hooks/pre-commit) for teams without the pre-commit framework:
# clean models commit, a model with an error is blocked with the finding shown, odd file names
# work, deletions and non-model files pass, ONNX_LINT_ARGS reaches onnx-lint.
# Usage: git_hook_test.sh ONNX_LINT MAKE_MODELS SOURCE_DIR
source "$(dirname "$0")/lib.sh"

setup_git
export ONNX_LINT # the built binary, not whatever is on PATH
"$MAKE_MODELS" "$WORK/models"

R="$WORK/repo"
mkdir -p "$R/models"
cd "$R"
git init -q
cp "$SRC/tools/git-hooks/pre-commit" .git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
printf 'select = ["graph", "model"]\n' >onnx-lint.toml
git add onnx-lint.toml
run 0 git commit -m "config" # no models staged: the hook does nothing

cp "$WORK/models/clean.onnx" "models/clean model, v1.onnx"
git add models
run 0 git commit -m "clean"

cp "$WORK/models/bad.onnx" models/bad.onnx
git add models/bad.onnx
before=$(git rev-list --count HEAD)
run 1 git commit -m "bad"
expect_in "$WORK/err" "models/bad.onnx: main/Add_bad (Add): error:" # git sends hook output to stderr
expect_in "$WORK/err" "commit blocked"
[[ $(git rev-list --count HEAD) == "$before" ]] || fail "the broken model was committed"

# Extra arguments reach onnx-lint.
ONNX_LINT_ARGS="--fail-on never" run 0 git commit -m "bad, accepted for now"

# A deletion and a non-model change pass without linting the deleted model.
git rm -q models/bad.onnx
echo x >notes.txt
git add notes.txt
run 0 git commit -m "remove bad"

# A model whose external-data file is not staged is blocked, naming both; staged, it commits.
mkdir -p "models/with weights"
cp "$WORK/models/external.onnx" "$WORK/models/external.bin" "models/with weights/"
git add "models/with weights/external.onnx"
run 1 git commit -m "model without its weights"
expect_in "$WORK/err" "models/with weights/external.onnx: external-data file 'models/with weights/external.bin' is not in the git index"
expect_in "$WORK/err" "commit blocked"
git add "models/with weights/external.bin"
run 0 git commit -m "model with its weights"
# An external-data file that is a Git LFS pointer is named as such.
printf 'version https://git-lfs.github.com/spec/v1\noid sha256:0123\nsize 16\n' >"models/with weights/external.bin"
cp "models/with weights/external.onnx" "models/with weights/copy.onnx" # same external.bin
git add "models/with weights"
run 1 git commit -m "weights as an LFS pointer"
expect_in "$WORK/err" "external-data file 'models/with weights/external.bin' is a Git LFS pointer"
git reset -q --hard

# A model naming an external-data file whose name holds an escape sequence and a bidi override
# (not staged): the hook names it visibly, never raw (issue 28, N15).
mkdir -p models/evil
/usr/bin/python3 - "models/evil/m.onnx" <<'PY'
import sys
from onnx import TensorProto, helper
t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[1],
                data_location=TensorProto.EXTERNAL)
entry = t.external_data.add()
entry.key, entry.value = "location", "w\x1b[31m\u202e.bin"
graph = helper.make_graph([helper.make_node("Relu", ["w"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [t])
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
open(sys.argv[1], "wb").write(m.SerializeToString())
PY
printf 'abcd' >$'models/evil/w\e[31m\xe2\x80\xae.bin'
git add models/evil/m.onnx
run 1 git commit -m "model naming an odd file"
expect_in "$WORK/err" "external-data file '\$'models/evil/w\\E[31m\\342\\200\\256.bin'' is not in the git index"
expect_not_in "$WORK/err" $'\e'
expect_not_in "$WORK/err" $'\xe2\x80\xae'
git reset -q --hard
rm -rf models/evil

# A missing binary blocks with a clear message instead of passing silently.
cp "$WORK/models/clean.onnx" models/again.onnx
git add models/again.onnx
ONNX_LINT=/nonexistent/onnx-lint run 1 git commit -m "no linter"
expect_in "$WORK/err" "'/nonexistent/onnx-lint' not found"

finish
