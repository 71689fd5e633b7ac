#!/usr/bin/env bash
# Developer entry point (the README's quick start). Installs missing Debian packages (as root),
# then builds and either lints the example models or runs the whole test suite.
#   tools/dev.sh example   build, then lint examples/ (shows real findings)
#   tools/dev.sh test      build, then run every test with ctest (the tests/ort fixture installs
#                          npm onnxruntime-node into the build folder; docs/ort-oracle.md)
#   tools/dev.sh fuzz      installs clang, builds the libFuzzer targets (ASan+UBSan,
#                          _GLIBCXX_ASSERTIONS), then runs their smoke run from the seeds (every
#                          real model of the test tree; docs/security.md#fuzzing)
#   tools/dev.sh sanitize  the same build's onnx-lint lints every real model with every rule and
#                          target, and a sample in every format (docs/security.md#the-sanitized-run)
#   tools/dev.sh tidy      installs clang-tidy, builds, then runs the checks of .clang-tidy over
#                          lib/ and rules/ (any finding fails)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BUILD=${ONNXLINT_BUILD_DIR:-$ROOT/build}

PACKAGES=(cmake ninja-build g++ python3 git pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libtomlplusplus-dev libssl-dev libgtest-dev libgmock-dev libbenchmark-dev libmimalloc-dev
  python3-jsonschema libxml2-utils python3-onnx libonnx-testdata pre-commit nodejs npm
  zsh fish groff-base
  pybind11-dev python3-dev python3-pytest python3-torch python3-torchvision)

# Present when their command is: NodeSource's nodejs, for one, bundles npm and conflicts with
# Debian's npm package, which apt would otherwise try to install in its place.
declare -A COMMAND_OF=([nodejs]=node [npm]=npm)

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    if [[ -n ${COMMAND_OF[$p]:-} ]] && command -v "${COMMAND_OF[$p]}" >/dev/null 2>&1; then
      continue
    fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    if [[ $(id -u) -ne 0 ]]; then
      echo "missing Debian packages: ${missing[*]} (run as root to install them)" >&2
      exit 2
    fi
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

build() {
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${ONNXLINT_BUILD_TYPE:-Release}" \
    ${ONNXLINT_CMAKE_ARGS:-}
  cmake --build "$BUILD" -j "$(nproc)"
}

case "${1:-}" in
  example)
    install_missing
    build
    set +e
    "$BUILD/tools/onnx-lint" "$ROOT/examples"
    rc=$?
    echo "(onnx-lint exit code: $rc — 1 means it found errors, as it should on these examples)"
    [[ $rc -le 1 ]]
    ;;
  test)
    install_missing
    build
    ctest --test-dir "$BUILD" -j "$(nproc)" --output-on-failure
    ;;
  fuzz | sanitize)
    # clang with its sanitizer and libFuzzer runtimes (Debian 12: clang 14). One build serves
    # both: the fuzz targets and the sanitized onnx-lint (ONNXLINT_FUZZ instruments everything).
    PACKAGES+=(clang libclang-rt-14-dev)
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
    PACKAGES+=(clang-tidy)
    install_missing
    build  # compile_commands.json, and the generated sources the checks compile
    mapfile -t files < <(git ls-files 'lib/*.cc' 'rules/*.cc')
    run-clang-tidy -quiet -p "$BUILD" -j "$(nproc)" "${files[@]/#/$ROOT/}"
    ;;
  *)
    echo "usage: tools/dev.sh example|test|fuzz|sanitize|tidy" >&2
    exit 2
    ;;
esac
