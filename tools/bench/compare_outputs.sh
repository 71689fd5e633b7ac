#!/bin/bash
# Runs two onnx-lint binaries over the same models in every output format and compares the
# outputs byte for byte: the check behind "outputs unchanged" for layout and performance work.
#
#   tools/bench/compare_outputs.sh OLD_BINARY NEW_BINARY [MODEL_OR_FOLDER ...]
#
# Default models: the bundled examples, tests/data/corpus and libonnx-testdata (when present).
# Each set is linted once per configuration: JSON with --hash, JSON with every target, text with
# two targets, SARIF with one. Exit status 0 when every output is identical, 1 otherwise.
set -uo pipefail
if [[ $# -lt 2 ]]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY [MODEL_OR_FOLDER ...]" >&2
  exit 2
fi
OLD=$1 NEW=$2
shift 2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [[ $# -gt 0 ]]; then
  inputs=("$@")
else
  inputs=("$ROOT/examples" "$ROOT/tests/data/corpus")
  [[ -d /usr/share/libonnx-testdata ]] && inputs+=(/usr/share/libonnx-testdata)
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
find "${inputs[@]}" -name '*.onnx' -type f | sort > "$WORK/models.txt"
targets=$("$NEW" --list-targets --format json |
  python3 -c 'import json,sys; print(" ".join("--target " + t["id"] for t in json.load(sys.stdin)["targets"]))')
run() {  # run BINARY OUTDIR
  local bin=$1 out=$2
  mkdir -p "$out"
  xargs -a "$WORK/models.txt" "$bin" --format json --hash > "$out/default.json" 2>&1
  # shellcheck disable=SC2086  # one word per target option
  xargs -a "$WORK/models.txt" "$bin" --format json $targets > "$out/targets.json" 2>&1
  xargs -a "$WORK/models.txt" "$bin" --format text --target tensorrt --target onnxruntime-nnapi \
    > "$out/text.txt" 2>&1
  xargs -a "$WORK/models.txt" "$bin" --format sarif --target openvino > "$out/report.sarif" 2>&1
}
run "$OLD" "$WORK/old"
run "$NEW" "$WORK/new"
status=0
for f in default.json targets.json text.txt report.sarif; do
  if cmp -s "$WORK/old/$f" "$WORK/new/$f"; then
    echo "same      $f"
  else
    echo "DIFFERENT $f"
    diff <(head -c 2000000 "$WORK/old/$f") <(head -c 2000000 "$WORK/new/$f") | head -20
    status=1
  fi
done
echo "$(wc -l < "$WORK/models.txt") models"
exit $status
