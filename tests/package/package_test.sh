#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a downstream consumer against it, with
# find_package(onnxlint) and with pkg-config; the consumer adds a custom rule and must get both
# built-in and custom findings. A second program links onnxlint::core alone. The consumer sets no
# C++ standard of its own (the package requires C++20).
# Usage: package_test.sh BUILD_DIR CONSUMER_SRC MAKE_MODELS CXX CMAKE
set -euo pipefail
BUILD=$1 CONSUMER=$2 MAKE_MODELS=$3 CXX=$4 CMAKE=$5
WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnxlint-pkg.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"

"$CMAKE" --install "$BUILD" --prefix "$PREFIX" >"$WORK/install.log"
"$MAKE_MODELS" "$WORK/models"
for f in include/onnxlint/onnxlint.h include/onnxlint/config.h include/onnxlint/baseline.h bin/onnx-lint \
  share/bash-completion/completions/onnx-lint share/zsh/site-functions/_onnx-lint \
  share/fish/vendor_completions.d/onnx-lint.fish share/man/man1/onnx-lint.1; do
  [[ -e $PREFIX/$f ]] || { echo "not installed: $f" >&2; exit 1; }
done
# The installed completion and man page are the ones the installed binary generates.
for pair in completion-bash:bash-completion/completions/onnx-lint man:man/man1/onnx-lint.1; do
  cmp -s <("$PREFIX/bin/onnx-lint" --generate "${pair%%:*}") "$PREFIX/share/${pair#*:}" ||
    { echo "installed ${pair#*:} differs from --generate ${pair%%:*}" >&2; exit 1; }
done
cfg=$(find "$PREFIX" -name onnxlint-config.cmake)
[[ -n $cfg ]] || { echo "onnxlint-config.cmake not installed" >&2; exit 1; }
[[ -e $(dirname "$cfg")/onnxlint-config-version.cmake ]] || { echo "no version file" >&2; exit 1; }

check_output() {
  grep -q "graph-undefined-value" "$1" && grep -q "\[house-banned-op\]" "$1" &&
    grep -q "builtin=1 custom=1" "$1" || { echo "unexpected consumer output:" >&2; cat "$1" >&2; exit 1; }
}

# 1. CMake: find_package(onnxlint) from the prefix only (no build tree, no source tree).
"$CMAKE" -S "$CONSUMER" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$WORK/configure.log"
"$CMAKE" --build "$WORK/build" >"$WORK/build.log" || { cat "$WORK/build.log" >&2; exit 1; }
"$WORK/build/consumer" "$WORK/models/bad.onnx" >"$WORK/run.log" || { cat "$WORK/run.log" >&2; exit 1; }
check_output "$WORK/run.log"
# The clean model has no built-in finding: the consumer must notice.
if "$WORK/build/consumer" "$WORK/models/clean.onnx" >"$WORK/clean.log"; then
  echo "consumer passed without findings" >&2
  exit 1
fi

# onnxlint::core alone links and runs (its own rule, the engine's tables).
"$WORK/build/core_only" "$WORK/models/clean.onnx" >"$WORK/core.log" ||
  { echo "core_only failed:" >&2; cat "$WORK/core.log" >&2; exit 1; }

# docs/library.md shows main.cc verbatim (between its consumer:main.cc markers).
DOC="$CONSUMER/../../../docs/library.md"
if [[ -f $DOC ]]; then
  sed -n '/^<!-- consumer:main.cc -->$/,/^<!-- \/consumer:main.cc -->$/p' "$DOC" | sed '1,2d;$d' | sed '$d' >"$WORK/doc-main.cc"
  diff -u "$CONSUMER/main.cc" "$WORK/doc-main.cc" >&2 ||
    { echo "docs/library.md's worked example differs from $CONSUMER/main.cc" >&2; exit 1; }
fi

# 2. The version file: a newer major version is refused.
if "$CMAKE" -S "$CONSUMER" -B "$WORK/build-v9" -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DONNXLINT_MIN_VERSION=9.0 >"$WORK/v9.log" 2>&1; then
  echo "find_package(onnxlint 9.0) accepted version $(grep -o 'VERSION [0-9.]*' "$cfg" || true)" >&2
  exit 1
fi

# 3. pkg-config, also from the prefix only.
if ! command -v pkg-config >/dev/null; then
  echo "package test passed; pkg-config part SKIPPED (install pkg-config to run it)"
  exit 0
fi
pc=$(find "$PREFIX" -name onnxlint.pc)
[[ -n $pc ]] || { echo "onnxlint.pc not installed" >&2; exit 1; }
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs onnxlint)
# shellcheck disable=SC2086
"$CXX" -std=c++20 -o "$WORK/consumer-pc" "$CONSUMER/main.cc" $flags
# A shared build's libraries are found through the .pc file's libdir (no rpath from pkg-config).
libdir=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=libdir onnxlint)
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$WORK/consumer-pc" "$WORK/models/bad.onnx" \
  >"$WORK/run-pc.log" || { cat "$WORK/run-pc.log" >&2; exit 1; }
check_output "$WORK/run-pc.log"
echo "package test passed"
