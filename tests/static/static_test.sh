#!/usr/bin/env bash
# The static onnx-lint links no shared library: ldd says it is not a dynamic executable, and its
# ELF headers have no program interpreter and no dynamic section. Then it runs where no library
# could be loaded (an empty LD_LIBRARY_PATH is not enough: ld.so is not involved at all) and
# lints examples/ with targets and hashes (libcrypto's SHA-256), in the report formats.
# Usage: static_test.sh ONNX_LINT EXAMPLES_DIR
set -euo pipefail
BIN=$1 EXAMPLES=$2
fail() {
  echo "static test: $*" >&2
  exit 1
}

out=$(ldd "$BIN" 2>&1 || true)
[[ $out == *"not a dynamic executable"* ]] || fail "ldd $BIN: $out"
headers=$(readelf -l -d "$BIN")
! grep -q 'INTERP' <<<"$headers" || fail "$BIN has a program interpreter"
grep -q 'There is no dynamic section' <<<"$headers" || fail "$BIN has a dynamic section"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnxlint-static.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
"$BIN" --version | head -1 | grep -q '^onnx-lint ' || fail "--version"
for format in text concise json sarif github gitlab junit markdown; do
  set +e
  "$BIN" --format "$format" --hash --target tensorrt --target onnxruntime-cpu "$EXAMPLES" \
    >"$WORK/out" 2>"$WORK/err"
  rc=$?
  set -e
  [[ $rc -eq 1 ]] || { cat "$WORK/err" >&2; fail "--format $format exited $rc"; }
done
# The last JSON report has the hashes (libcrypto's SHA-256) and both targets' verdicts.
"$BIN" --format json --hash --target tensorrt "$EXAMPLES" >"$WORK/report.json" || true
grep -q '"sha256": *"[0-9a-f]\{64\}"' "$WORK/report.json" || fail "no SHA-256 in the JSON report"
grep -q '"tensorrt"' "$WORK/report.json" || fail "no tensorrt verdict in the JSON report"
echo "static test passed: $("$BIN" --version | head -1), not a dynamic executable"
