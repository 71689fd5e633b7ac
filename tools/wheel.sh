#!/usr/bin/env bash
# The Python wheel (docs/python.md, "Installing the wheel"): builds it, installs it into a fresh
# venv and runs the Python tests against the installed package there.
#   tools/wheel.sh          fetch, build and test (what CI runs)
#   tools/wheel.sh fetch    Debian's protobuf source (apt-get source, into the work folder)
#   tools/wheel.sh build    the wheel, into <work>/dist (python3 -m build --no-isolation --wheel)
#   tools/wheel.sh test     a fresh venv, the wheel installed from <work>/dist, the tests
# The work folder is $ONNXLINT_WHEEL_BUILD_DIR, default build-wheel/. Missing Debian packages
# are installed when run as root, as tools/dev.sh does.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
WORK=${ONNXLINT_WHEEL_BUILD_DIR:-$ROOT/build-wheel}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
export ONNXLINT_WHEEL_BUILD_DIR=$WORK
export ONNXLINT_PROTOBUF_SOURCE=${ONNXLINT_PROTOBUF_SOURCE:-$WORK/protobuf-src}
# Debian's interpreter: its python3-build, python3-onnx and python3-torch (a python3 earlier on
# PATH, such as pyenv's, has none of them).
PYTHON=${ONNXLINT_WHEEL_PYTHON:-/usr/bin/python3}
# An onnx-lint of the ordinary build (tools/dev.sh's build/tools/onnx-lint), optional: the tests
# then check that the wheel's reports of the repository's models are the same as its.
if [[ -n ${ONNXLINT_REFERENCE_CLI:-} ]]; then
  ONNXLINT_REFERENCE_CLI=$(realpath "$ONNXLINT_REFERENCE_CLI")
  export ONNXLINT_REFERENCE_CLI
fi

PACKAGES=(cmake ninja-build g++ dpkg-dev binutils
  libprotobuf-dev protobuf-compiler libonnx-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libtomlplusplus-dev libssl-dev pybind11-dev python3-dev
  python3-build python3-setuptools python3-wheel python3-venv python3-pip
  python3-pytest python3-onnx python3-torch)

# shellcheck source=tools/lib/install_missing.sh
source "$ROOT/tools/lib/install_missing.sh"

# The source of the installed libprotobuf-dev (the same version as protoc), from the Debian
# archive the system's apt already trusts: a deb-src line for the system's first Debian suite
# in a private apt state under the work folder (the system's sources and lists are not
# touched). apt checks the archive's signature and the files' hashes; dpkg-source applies
# Debian's patches.
fetch() {
  local src=$ONNXLINT_PROTOBUF_SOURCE
  if [[ -f $src/src/google/protobuf/stubs/common.h ]]; then
    echo "protobuf source: $src"
    return
  fi
  local version apt_dir
  version=$(dpkg-query -W -f='${source:Version}' libprotobuf-dev)
  apt_dir=$WORK/apt
  rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/download"
  deb_src_lines >"$apt_dir/sources.list"
  local apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
    -o "Dir::Etc::SourceParts=/nonexistent" -o "Dir::State::Lists=$apt_dir/lists"
    -o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=root")
  apt-get -qq "${apt_opts[@]}" update
  (cd "$apt_dir/download" && apt-get -qq "${apt_opts[@]}" source --download-only "protobuf=$version")
  # Extracted next to the downloads (dpkg-source puts a copy of the tarball beside its target).
  dpkg-source --no-check -x "$apt_dir/download/protobuf_${version#*:}.dsc" \
    "$apt_dir/download/protobuf" >/dev/null
  rm -rf "$src" && mkdir -p "$(dirname "$src")" && mv "$apt_dir/download/protobuf" "$src"
  echo "protobuf source: $src (Debian protobuf $version)"
}

# A deb-src line for each Debian archive the system's apt uses (deb822 or one-line sources).
deb_src_lines() {
  "$PYTHON" - <<'EOF'
import glob, re
files = ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*"))
lines = []
default_key = "/usr/share/keyrings/debian-archive-keyring.gpg"
for path in files:
    try:
        text = open(path).read()
    except OSError:
        continue
    for stanza in re.split(r"\n\s*\n", text):  # deb822
        f = dict(re.findall(r"^(\S+):\s*(.*)$", stanza, re.M))
        if "deb" in f.get("Types", "").split():
            for uri in f.get("URIs", "").split():
                for suite in f.get("Suites", "").split():
                    lines.append((uri, suite, f.get("Signed-By", default_key)))
    for line in text.splitlines():  # one-line format
        m = re.match(r"\s*deb\s+(?:\[([^]]*)\]\s+)?(\S+)\s+(\S+)", line)
        if m:
            key = re.search(r"signed-by=(\S+)", m.group(1) or "")
            lines.append((m.group(2), m.group(3), key.group(1) if key else default_key))
lines = [line for line in lines if re.search(r"//[^/]*debian\.org/", line[0])]
if not lines:
    raise SystemExit("no Debian archive in /etc/apt/sources.list*")
for uri, suite, key in dict.fromkeys(lines):
    print(f"deb-src [signed-by={key}] {uri} {suite} main")
EOF
}

build() {
  rm -rf "$WORK/dist"
  (cd "$ROOT/python" && "$PYTHON" -m build --no-isolation --wheel --outdir "$WORK/dist" .)
  ls -l "$WORK"/dist/*.whl
}

# A fresh venv; --system-site-packages only so that Debian's onnx and torch are importable in
# it for the tests. The wheel is installed without an index (it has no dependency).
test_wheel() {
  local venv=$WORK/venv wheel
  wheel=$(ls "$WORK"/dist/onnxlint-*.whl)
  rm -rf "$venv"
  "$PYTHON" -m venv --system-site-packages "$venv"
  "$venv/bin/python" -m pip install --no-index --no-deps --disable-pip-version-check -q "$wheel"
  # Out of the repository (no python/onnxlint on sys.path), with nothing of the build tree:
  # ONNX_LINT is the wheel's console script, which the CLI tests compare `python -m onnxlint` with.
  local run=$WORK/test-run
  rm -rf "$run" && mkdir -p "$run"
  (cd "$run" && env -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 PATH="$venv/bin:$PATH" \
    ONNX_LINT="$venv/bin/onnx-lint" ONNXLINT_SOURCE_DIR="$ROOT" ONNXLINT_WHEEL_VENV="$venv" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir "$run" \
    "$ROOT/python/tests/test_wheel.py" "$ROOT/python/tests/test_api.py" \
    "$ROOT/python/tests/test_cli.py" "$ROOT/python/tests/test_fix.py" \
    "$ROOT/python/tests/test_isolation.py" "$ROOT/python/tests/test_stub.py" \
    "$ROOT/python/tests/test_testing.py" "$ROOT/python/tests/test_threads.py" \
    "$ROOT/python/tests/test_torch.py")
}

case "${1:-all}" in
  fetch) install_missing; fetch ;;
  build) install_missing; build ;;
  test) install_missing; test_wheel ;;
  all) install_missing; fetch; build; test_wheel ;;
  *) echo "usage: tools/wheel.sh [fetch|build|test]" >&2; exit 2 ;;
esac
