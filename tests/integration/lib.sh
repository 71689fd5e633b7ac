# Shared helpers for the integration scripts. Usage: source lib.sh ONNX_LINT MAKE_MODELS SRC_DIR
set -euo pipefail

ONNX_LINT=$(readlink -f "$1")
MAKE_MODELS=$(readlink -f "$2")
SRC=$(readlink -f "$3")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnxlint-it.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FAILURES=0
# Checks must run in this shell (not in a subshell) for FAILURES to count: use pushd/popd.

fail() {
  echo "FAIL: $*" >&2
  FAILURES=$((FAILURES + 1))
}

# run EXPECTED_RC CMD... : runs CMD with stdout in $WORK/out and stderr in $WORK/err.
run() {
  local expected=$1
  shift
  local rc=0
  "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  if [[ $rc -ne $expected ]]; then
    fail "exit $rc, expected $expected: $*"
    sed 's/^/  out: /' "$WORK/out" | head -20 >&2 || true
    sed 's/^/  err: /' "$WORK/err" | head -20 >&2 || true
  fi
}

# expect_in FILE TEXT / expect_not_in FILE TEXT (fixed strings)
expect_in() {
  if ! grep -qF -- "$2" "$1"; then
    fail "'$2' not in $(basename "$1")"
    sed 's/^/  | /' "$1" | head -20 >&2 || true
  fi
}
expect_not_in() {
  if grep -qF -- "$2" "$1"; then
    fail "'$2' unexpectedly in $(basename "$1")"
    sed 's/^/  | /' "$1" | head -20 >&2 || true
  fi
}

# A git identity and configuration that ignore the user's own.
setup_git() {
  export HOME="$WORK/home"
  mkdir -p "$HOME"
  export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com
  export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
  git config --global init.defaultBranch main
  git config --global advice.detachedHead false
}

finish() {
  if ((FAILURES)); then
    echo "$FAILURES check(s) failed" >&2
    exit 1
  fi
  echo "all checks passed"
}
