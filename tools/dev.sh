#!/usr/bin/env bash
# Developer entry point (the README's quick start). Installs missing Debian packages (as root),
# then builds and either lints the example models or runs the whole test suite.
#   tools/dev.sh example   the library and the onnx-lint command only (no tests, benchmarks or
#                          Python module; the packages of BASE_PACKAGES), then lint examples/
#   tools/dev.sh test      build everything, then run every test with ctest (the tests/ort
#                          fixture installs npm onnxruntime-node into the build folder;
#                          docs/ort-oracle.md)
#   tools/dev.sh fuzz      installs clang, builds the libFuzzer targets (ASan+UBSan,
#                          _GLIBCXX_ASSERTIONS), then runs their smoke run from the seeds (every
#                          real model of the test tree; docs/security.md#fuzzing)
#   tools/dev.sh sanitize  the same build's onnx-lint lints every real model with every rule and
#                          target, and a sample in every format (docs/security.md#the-sanitized-run)
#   tools/dev.sh tidy      installs clang-tidy, builds, then runs the checks of .clang-tidy over
#                          lib/ and rules/ (any finding fails)
#   tools/dev.sh static    onnx-lint as one static executable (ONNXLINT_STATIC_CLI) in
#                          build-static/, then the static.*, cli.* and docs.* tests against it
#                          (docs/install.md)
#   tools/dev.sh deb       the .deb package (CPack) of the command, library, headers and CMake
#                          package, in build-deb/ (docs/install.md)
#   tools/dev.sh deb-test  builds the .deb, installs it with apt-get, checks the installed
#                          command and a find_package(onnxlint) consumer, then removes it (root)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${ONNXLINT_BUILD_DIR:-$ROOT/build}

# What the library and the command need to build and run (tools/dev.sh example).
BASE_PACKAGES=(cmake ninja-build g++ python3
  libprotobuf-dev protobuf-compiler libonnx-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libtomlplusplus-dev libssl-dev libmimalloc-dev)
# What the command's end-to-end tests (tests/cli, tests/docs) need on top: configuring tests/
# finds GoogleTest; completion_test runs bash, zsh and fish, and renders the man page.
CLI_TEST_PACKAGES=(git pkg-config libgtest-dev libgmock-dev python3-jsonschema libxml2-utils
  zsh fish groff-base)
# The rest of the test suite: benchmarks, the Python module and its tests, the ONNX test data,
# PyTorch exports, ONNX Runtime (npm) and the pre-commit hook.
TEST_PACKAGES=("${CLI_TEST_PACKAGES[@]}" libbenchmark-dev python3-onnx libonnx-testdata
  pre-commit nodejs npm pybind11-dev python3-dev python3-pytest python3-torch
  python3-torchvision)
PACKAGES=("${BASE_PACKAGES[@]}")

# Present when their command is (tools/lib/install_missing.sh).
declare -A COMMAND_OF=([nodejs]=node [npm]=npm)
# shellcheck source=tools/lib/install_missing.sh
source "$ROOT/tools/lib/install_missing.sh"

# build: everything in $BUILD. The options `example` turns off go back to their defaults (-U),
# so a `test` after an `example` in the same folder builds and runs the whole suite.
build() {
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${ONNXLINT_BUILD_TYPE:-Release}" \
    -UONNXLINT_BUILD_TESTS -UONNXLINT_BUILD_BENCHMARKS -UONNXLINT_PYTHON ${ONNXLINT_CMAKE_ARGS:-}
  cmake --build "$BUILD" -j "$(nproc)"
}

# build_cli: the library and the command alone, in the same $BUILD.
build_cli() {
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${ONNXLINT_BUILD_TYPE:-Release}" \
    -DONNXLINT_BUILD_TESTS=OFF -DONNXLINT_BUILD_BENCHMARKS=OFF -DONNXLINT_PYTHON=OFF \
    ${ONNXLINT_CMAKE_ARGS:-}
  cmake --build "$BUILD" -j "$(nproc)" --target onnx-lint
}

# The .deb (CPack, cmake/onnxlint_cpack.cmake): a build installed under /usr, without the tests,
# benchmarks and Python module; dpkg-shlibdeps (dpkg-dev) computes its library dependencies.
DEB_BUILD=${ONNXLINT_DEB_BUILD_DIR:-$ROOT/build-deb}
build_deb() {
  PACKAGES+=(dpkg-dev)
  install_missing
  cmake -S "$ROOT" -B "$DEB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/usr -DONNXLINT_BUILD_TESTS=OFF -DONNXLINT_BUILD_BENCHMARKS=OFF \
    -DONNXLINT_PYTHON=OFF ${ONNXLINT_CMAKE_ARGS:-}
  cmake --build "$DEB_BUILD" -j "$(nproc)"
  rm -f "$DEB_BUILD"/onnxlint_*.deb
  (cd "$DEB_BUILD" && cpack -G DEB)
  DEB=$(echo "$DEB_BUILD"/onnxlint_*.deb)
  [[ -f $DEB ]] || { echo "cpack made no onnxlint_*.deb in $DEB_BUILD" >&2; exit 1; }
  dpkg-deb --info "$DEB"
}

case "${1:-}" in
  example)
    install_missing
    build_cli
    set +e
    "$BUILD/tools/onnx-lint" "$ROOT/examples"
    rc=$?
    echo "(onnx-lint exit code: $rc — 1 means it found errors, as it should on these examples)"
    [[ $rc -le 1 ]]
    ;;
  test)
    PACKAGES+=("${TEST_PACKAGES[@]}")
    install_missing
    build
    ctest --test-dir "$BUILD" -j "$(nproc)" --output-on-failure
    ;;
  fuzz | sanitize)
    # clang with its sanitizer and libFuzzer runtimes (Debian 12: clang 14). One build serves
    # both: the fuzz targets and the sanitized onnx-lint (ONNXLINT_FUZZ instruments everything).
    PACKAGES+=("${TEST_PACKAGES[@]}" clang libclang-rt-14-dev)
    install_missing
    FUZZ_BUILD=${ONNXLINT_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
    cmake -S "$ROOT" -B "$FUZZ_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ -DONNXLINT_FUZZ=ON -DONNXLINT_BUILD_TESTS=OFF \
      -DONNXLINT_BUILD_TOOLS=ON -DONNXLINT_BUILD_BENCHMARKS=OFF -DONNXLINT_INSTALL=OFF \
      ${ONNXLINT_CMAKE_ARGS:-}
    cmake --build "$FUZZ_BUILD" -j "$(nproc)" \
      --target onnx-lint fuzz_model fuzz_config fuzz_differential fuzz_cli fuzz_mutator_check
    if [[ $1 == fuzz ]]; then
      # One process per target, each single-threaded: two at a time on two cores.
      ctest --test-dir "$FUZZ_BUILD" -R '^fuzz\.' -j "$(nproc)" --output-on-failure
    else
      ctest --test-dir "$FUZZ_BUILD" -R '^sanitize\.' --output-on-failure
    fi
    ;;
  tidy)
    PACKAGES+=("${TEST_PACKAGES[@]}" clang-tidy)
    install_missing
    build  # compile_commands.json, and the generated sources the checks compile
    mapfile -t files < <(git ls-files 'lib/*.cc' 'rules/*.cc')
    run-clang-tidy -quiet -p "$BUILD" -j "$(nproc)" "${files[@]/#/$ROOT/}"
    ;;
  static)
    # The test folders configure with the rest (GoogleTest is found), but only the command is
    # built: its end-to-end tests run against it. cli.Detector skips itself without PyTorch.
    PACKAGES+=("${CLI_TEST_PACKAGES[@]}")
    install_missing
    STATIC_BUILD=${ONNXLINT_STATIC_BUILD_DIR:-$ROOT/build-static}
    cmake -S "$ROOT" -B "$STATIC_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DONNXLINT_STATIC_CLI=ON -DONNXLINT_BUILD_BENCHMARKS=OFF ${ONNXLINT_CMAKE_ARGS:-}
    cmake --build "$STATIC_BUILD" -j "$(nproc)" --target onnx-lint onnx-lint-completions
    ctest --test-dir "$STATIC_BUILD" -R '^(static|cli|docs)\.' -j "$(nproc)" --output-on-failure
    ;;
  deb)
    build_deb
    ;;
  deb-test)
    if [[ $(id -u) -ne 0 ]]; then
      echo "tools/dev.sh deb-test installs the package: run it as root" >&2
      exit 2
    fi
    if dpkg-query -W -f='${Status}' onnxlint 2>/dev/null | grep -q "install ok installed"; then
      echo "the onnxlint package is installed already; deb-test would remove it" >&2
      exit 2
    fi
    PACKAGES+=(pkg-config)  # the consumer also builds with pkg-config
    build_deb
    tools/deb_test.sh "$DEB"
    ;;
  *)
    echo "usage: tools/dev.sh example|test|fuzz|sanitize|tidy|static|deb|deb-test" >&2
    exit 2
    ;;
esac
