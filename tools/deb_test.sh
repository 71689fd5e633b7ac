#!/usr/bin/env bash
# Installs a .deb made by `tools/dev.sh deb` with apt-get (which installs its dependencies), checks
# what it installed, then removes it: the command on PATH runs and lints examples/, the man page
# and completions are where Debian looks, and tests/package/consumer builds against the installed
# CMake package and pkg-config file. Run as root (tools/dev.sh deb-test; CI, .ci/run).
# Usage: tools/deb_test.sh build-deb/onnxlint_<version>_<arch>.deb
set -euo pipefail
DEB=$(realpath "$1")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnxlint-deb.XXXXXX")
cleanup() {
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq onnxlint >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "deb test: $*" >&2
  exit 1
}

echo "installing $DEB"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$DEB"
version=$(dpkg-deb -f "$DEB" Version)

# 1. The command: on PATH from /usr/bin, the package's version, and real findings on examples/
#    (exit code 1: two of them are errors).
[[ $(command -v onnx-lint) == /usr/bin/onnx-lint ]] || fail "onnx-lint is not /usr/bin/onnx-lint"
onnx-lint --version | head -1 | tee "$WORK/version.txt"
grep -qx "onnx-lint $version" "$WORK/version.txt" || fail "--version is not $version"
set +e
onnx-lint "$ROOT/examples" >"$WORK/lint.txt"
rc=$?
set -e
[[ $rc -eq 1 ]] || { cat "$WORK/lint.txt" >&2; fail "onnx-lint examples/ exited $rc, not 1"; }
grep -q '\[export-training-mode\]' "$WORK/lint.txt" || fail "no export-training-mode finding"
tail -1 "$WORK/lint.txt"

# 2. What the package holds (dpkg may be configured to skip /usr/share/man when unpacking, so
#    the listing is checked, not the disk).
dpkg-deb -c "$DEB" | awk '{print $6}' | sed 's|^\./|/|' >"$WORK/files.txt"
for f in /usr/bin/onnx-lint /usr/share/man/man1/onnx-lint.1 \
  /usr/share/bash-completion/completions/onnx-lint /usr/share/zsh/site-functions/_onnx-lint \
  /usr/share/fish/vendor_completions.d/onnx-lint.fish /usr/include/onnxlint/onnxlint.h \
  /usr/include/onnxlint/version.h /usr/lib/x86_64-linux-gnu/libonnxlint_core.a \
  /usr/lib/x86_64-linux-gnu/libonnxlint_rules.a \
  /usr/lib/x86_64-linux-gnu/cmake/onnxlint/onnxlint-config.cmake \
  /usr/lib/x86_64-linux-gnu/pkgconfig/onnxlint.pc; do
  grep -qx "$f" "$WORK/files.txt" || fail "the package has no $f"
done

# 3. A downstream project against the installed package: tests/package/consumer (a custom rule
#    on top of the built-in ones), with find_package(onnxlint) from /usr and with pkg-config. Its
#    model has an Add node (the consumer's banned op) with an undefined input (a built-in error).
python3 - "$ROOT/tests/support" "$WORK/bad.onnx" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from onnx_wire import model, node
with open(sys.argv[2], "wb") as f:
    f.write(model([node("Add", ["x", "ghost"], ["y"], "add")]))
PY
cmake -S "$ROOT/tests/package/consumer" -B "$WORK/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$WORK/configure.log" ||
  { cat "$WORK/configure.log" >&2; fail "the consumer does not configure"; }
grep -q "/usr/lib/x86_64-linux-gnu/cmake/onnxlint" "$WORK/consumer/CMakeCache.txt" ||
  fail "find_package(onnxlint) did not find the installed package"
cmake --build "$WORK/consumer" >"$WORK/build.log" || { cat "$WORK/build.log" >&2; fail "build"; }
"$WORK/consumer/consumer" "$WORK/bad.onnx" | tee "$WORK/run.log" | tail -1
grep -q "builtin=1 custom=1" "$WORK/run.log" || fail "the consumer missed a finding"
# shellcheck disable=SC2046
g++ -std=c++20 -o "$WORK/consumer-pc" "$ROOT/tests/package/consumer/main.cc" \
  $(pkg-config --cflags --libs onnxlint)
"$WORK/consumer-pc" "$WORK/bad.onnx" | tail -1

# 4. Removed again, nothing left on PATH.
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq onnxlint
[[ ! -e /usr/bin/onnx-lint ]] || fail "/usr/bin/onnx-lint is still there after apt-get remove"
echo "deb test passed: $(basename "$DEB")"
