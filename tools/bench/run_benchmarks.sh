#!/usr/bin/env bash
# Reproducible benchmark of onnx-lint against onnx.checker.check_model(path, full_check=True).
#
#   tools/bench/run_benchmarks.sh BUILD_DIR [options]
#
# BUILD_DIR is an existing Release build of this repository with the benchmark tools on
# (ONNXLINT_BUILD_BENCHMARKS, the default for a top-level build):
#   cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build-release onnx-lint onnxlint-bench-gen
# The script builds nothing. It generates the synthetic workloads once into the work folder
# (reused while the generator and its arguments are unchanged), measures each with hyperfine
# (time) and /usr/bin/time -v (peak RSS), and prints Markdown tables (also saved as
# WORK/results.md) ready to paste into docs/performance.md.
#
# Options:
#   --work DIR       where workloads and results go (default: ${TMPDIR:-/tmp}/onnxlint-bench)
#   --runs N         hyperfine runs per onnx-lint measurement (default 10)
#   --peer-runs N    runs per peer measurement (default 2; the peer takes minutes on big models)
#   --no-peer        skip the peer (python3-onnx)
#   --quick          skip the 1 000 000-node workloads
#   --regen          regenerate the workloads even if they look current
#   --perf           also print a flat `perf` profile of onnx-lint on the 200k chain
#   --smoke          tiny versions of every workload (same names, numbers meaningless): checks
#                    that the runner works in a minute
#   --callgrind      also count instructions (valgrind) on the chains: a figure that, unlike
#                    wall time, does not depend on the machine's load (slow: minutes)
#
# Timings are warm-cache. For onnx-lint, "warm" means the pages it reads are cached: each
# model file is evicted from the page cache (per file, dd iflag=nocache, nothing else is
# touched) and hyperfine's warm-up run reads back what onnx-lint needs. That matters for the
# 1 GiB model: after `cat`, the kernel keeps the file in 2 MiB folios and maps a whole folio
# into any process that touches one byte of it, so RSS would count up to 2 MiB per tensor
# header (shared page cache, not memory onnx-lint reads or allocates); the runner shows that
# case on its own row. The peer reads every byte, so its files are simply read once first.
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
  exit 2
}

[[ $# -ge 1 && $1 != -* ]] || usage
BUILD=$(cd "$1" && pwd)
shift
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=${TMPDIR:-/tmp}/onnxlint-bench
RUNS=10
PEER_RUNS=2
PEER=1
QUICK=0
REGEN=0
PERF=0
CALLGRIND=0
SMOKE=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --work) WORK=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --peer-runs) PEER_RUNS=$2; shift 2 ;;
    --no-peer) PEER=0; shift ;;
    --quick) QUICK=1; shift ;;
    --regen) REGEN=1; shift ;;
    --perf) PERF=1; shift ;;
    --callgrind) CALLGRIND=1; shift ;;
    --smoke) SMOKE=1; shift ;;
    -h|--help) usage ;;
    *) echo "run_benchmarks.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

LINT=$BUILD/tools/onnx-lint
GEN=$BUILD/tools/bench/onnxlint-bench-gen
PY=/usr/bin/python3  # Debian's interpreter: python3-onnx is installed for it, not for pyenv
TESTDATA=/usr/share/libonnx-testdata/data

die() { echo "run_benchmarks.sh: $*" >&2; exit 2; }
[[ -x $LINT ]] || die "$LINT not found (build the onnx-lint target)"
[[ -x $GEN ]] || die "$GEN not found (configure with -DONNXLINT_BUILD_BENCHMARKS=ON, build onnxlint-bench-gen)"
command -v hyperfine >/dev/null || die "hyperfine not found (apt-get install hyperfine)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (apt-get install time)"
BUILD_TYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
if [[ $BUILD_TYPE != Release ]]; then
  echo "run_benchmarks.sh: warning: $BUILD is a '${BUILD_TYPE:-unknown}' build, not Release" >&2
fi
if ((PEER)) && ! "$PY" -c 'import onnx' 2>/dev/null; then
  die "$PY cannot import onnx (apt-get install python3-onnx), or use --no-peer"
fi

mkdir -p "$WORK/models" "$WORK/peer" "$WORK/out"
RESULTS=$WORK/out/results.tsv
: >"$RESULTS"
rm -f "$WORK"/out/*.time "$WORK"/out/*.hf.json "$WORK"/out/*.stdout "$WORK"/out/*.stderr \
  "$WORK"/out/*.cg.txt "$WORK"/out/perf.txt "$WORK"/out/notes.txt

# What is measured, recorded before the run (the tree may change while it runs).
{
  echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)," \
    "$(awk '/MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo), $(uname -sr)"
  echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "onnx-lint: $("$LINT" --version 2>/dev/null | head -n 1) ($BUILD_TYPE build of" \
    "$(date -u -r "$LINT" '+%Y-%m-%d %H:%M UTC'); source tree now at" \
    "git $(git -C "$HERE" describe --always --dirty 2>/dev/null || echo unknown))"
  if ((PEER)); then
    echo "peer: python3-onnx $("$PY" -c 'import onnx; print(onnx.__version__)'), $("$PY" --version)"
  fi
} >"$WORK/out/env.txt"

# ---- workloads ---------------------------------------------------------------------------
# name | generator arguments | nodes
WORKLOADS=(
  "tiny|chain --nodes 8|8"
  "weights-1gib|weights --matrices 64 --dim 2048|64"
  "chain-200k-plain|chain --nodes 200000 --plain|200000"
  "chain-200k|chain --nodes 200000|200000"
  "chain-200k-dynamic|chain --nodes 200000 --dynamic|200000"
)
if ((!QUICK)); then
  WORKLOADS+=("chain-1m|chain --nodes 1000000|1000000"
              "chain-1m-dynamic|chain --nodes 1000000 --dynamic|1000000")
fi
if ((SMOKE)); then
  WORKLOADS=(
    "tiny|chain --nodes 8|8"
    "weights-1gib|weights --matrices 4 --dim 256|4"
    "chain-200k-plain|chain --nodes 2000 --plain|2000"
    "chain-200k|chain --nodes 2000|2000"
    "chain-200k-dynamic|chain --nodes 2000 --dynamic|2000"
    "chain-1m|chain --nodes 10000|10000"
    "chain-1m-dynamic|chain --nodes 10000 --dynamic|10000"
  )
fi

generate() {  # name args
  local f=$WORK/models/$1.onnx
  if ((REGEN)) || [[ ! -f $f || ! -f $f.args || $(cat "$f.args") != "$2" || $GEN -nt $f ]]; then
    echo "generating $1 ($2)" >&2
    local kind=${2%% *} options=${2#* }
    # shellcheck disable=SC2086  # the options are words
    "$GEN" "$kind" "$f.tmp" $options >/dev/null
    mv "$f.tmp" "$f"
    echo "$2" >"$f.args"
  fi
}

for w in "${WORKLOADS[@]}"; do
  IFS='|' read -r name args _nodes <<<"$w"
  generate "$name" "$args"
done

# ---- measurement helpers -------------------------------------------------------------------
warm() { cat "$@" >/dev/null; }
evict() { sync "$1"; dd if="$1" iflag=nocache count=0 status=none; }

# hyperfine: mean/stddev wall time and mean user/system CPU time, into NAME.hf.json.
time_it() {  # name runs warmup [hyperfine options...] -- command
  local name=$1 runs=$2 warmup=$3
  shift 3
  local opts=()
  while [[ $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  hyperfine --style none --runs "$runs" --warmup "$warmup" -i "${opts[@]}" \
    --export-json "$WORK/out/$name.hf.json" -- "$*" 2>&1 >/dev/null |
    grep -v -e 'Ignoring non-zero exit code' -e '^ *$' >&2 || true
}

# /usr/bin/time -v: peak RSS and exit status, into NAME.time (command output into NAME.stdout).
rss_it() {  # name command...
  local name=$1
  shift
  /usr/bin/time -v -o "$WORK/out/$name.time" "$@" >"$WORK/out/$name.stdout" 2>"$WORK/out/$name.stderr" || true
}

record() {  # name kind workload nodes bytes
  local args
  args=$(printf '%s\n' "${WORKLOADS[@]}" | awk -F'|' -v n="$3" '$1 == n {print $2}')
  echo -e "$1\t$2\t$3\t$4\t$5\t$args" >>"$RESULTS"
}

lint_cmd() {  # extra args... -- path
  echo "$LINT --select ALL --format json --output /dev/null $*"
}

HAVE_TRT=0
if "$LINT" --list-targets 2>/dev/null | grep -qi tensorrt; then HAVE_TRT=1; fi

measure_lint() {  # name workload-file nodes
  local name=$1 file=$2 nodes=$3 bytes
  bytes=$(stat -c %s "$file")
  evict "$file"
  echo "onnx-lint: $name" >&2
  # shellcheck disable=SC2046
  time_it "$name.lint" "$RUNS" 1 -N -- $(lint_cmd "$file")
  # shellcheck disable=SC2046
  rss_it "$name.lint" $(lint_cmd "$file")
  record "$name.lint" lint "$name" "$nodes" "$bytes"
  if ((HAVE_TRT)); then
    # shellcheck disable=SC2046
    time_it "$name.lint-trt" "$RUNS" 1 -N -- $(lint_cmd --target tensorrt "$file")
    # shellcheck disable=SC2046
    rss_it "$name.lint-trt" $(lint_cmd --target tensorrt "$file")
    record "$name.lint-trt" lint-trt "$name" "$nodes" "$bytes"
  fi
}

# The peer rewrites the file it checks (see peer_check.py): each run gets a fresh copy.
# Runs are timed by /usr/bin/time -v (wall, CPU, peak RSS); hyperfine would add nothing for
# runs this long and would need the copy as a --prepare step anyway.
measure_peer() {  # name source(file or folder) nodes
  local name=$1 src=$2 nodes=$3 dst bytes run
  dst=$WORK/peer/$(basename "$src")
  bytes=$(du -sb "$src" | cut -f1)
  echo "peer: $name ($PEER_RUNS runs)" >&2
  if [[ -d $src ]]; then find "$src" -type f -exec cat {} + >/dev/null; else warm "$src"; fi
  for ((run = 1; run <= PEER_RUNS; run++)); do
    rm -rf "$dst"
    cp -r "$src" "$dst"
    rss_it "$name.peer.$run" "$PY" "$HERE/peer_check.py" "$dst"
  done
  rm -rf "$dst"
  record "$name.peer" peer "$name" "$nodes" "$bytes"
}

# ---- synthetic workloads ------------------------------------------------------------------
for w in "${WORKLOADS[@]}"; do
  IFS='|' read -r name _args nodes <<<"$w"
  measure_lint "$name" "$WORK/models/$name.onnx" "$nodes"
done

# Where the time goes: load + model walk only (one trivial rule), + GraphIndex and the
# structural rules, + everything.
for name in chain-200k chain-1m; do
  f=$WORK/models/$name.onnx
  [[ -f $f ]] || continue
  grep -q "^$name|" <(printf '%s\n' "${WORKLOADS[@]}") || continue
  nodes=$(printf '%s\n' "${WORKLOADS[@]}" | grep "^$name|" | cut -d'|' -f3)
  for phase in "model-ir-version" "graph"; do
    echo "onnx-lint phase: $name --select $phase" >&2
    time_it "$name.phase-$phase" "$RUNS" 1 -N -- \
      "$LINT --select $phase --format json --output /dev/null $f"
    rss_it "$name.phase-$phase" "$LINT" --select "$phase" --format json --output /dev/null "$f"
    record "$name.phase-$phase" "phase-$phase" "$name" "$nodes" "$(stat -c %s "$f")"
  done
done

# Cold cache, 1 GiB model: evict its pages, lint, count the pages now resident. Then the
# same run after `cat` has put the whole file in the page cache (large folios, see above).
W1=$WORK/models/weights-1gib.onnx
COLD_NOTE=""
if command -v fincore >/dev/null; then
  evict "$W1"
  before=$(fincore --bytes --noheadings --output RES "$W1" | tr -d ' ')
  echo "onnx-lint: weights-1gib (cold cache; $before bytes resident before)" >&2
  # shellcheck disable=SC2046
  rss_it "weights-1gib.lint-cold" $(lint_cmd "$W1")
  after=$(fincore --bytes --noheadings --output RES "$W1" | tr -d ' ')
  record "weights-1gib.lint-cold" lint-cold weights-1gib 64 "$(stat -c %s "$W1")"
  COLD_NOTE="$before $after"
fi
warm "$W1"
echo "onnx-lint: weights-1gib (after cat)" >&2
# shellcheck disable=SC2046
rss_it "weights-1gib.lint-cat" $(lint_cmd "$W1")
record "weights-1gib.lint-cat" lint-cat weights-1gib 64 "$(stat -c %s "$W1")"
((SMOKE)) && echo "smoke: SMOKE RUN, reduced sizes: the numbers mean nothing" >>"$WORK/out/notes.txt"

# Instruction counts: independent of the machine's load, so comparable across runs.
if ((CALLGRIND)) && command -v valgrind >/dev/null; then
  for w in "${WORKLOADS[@]}"; do
    IFS='|' read -r name _args nodes <<<"$w"
    [[ $name == chain-* ]] || continue
    f=$WORK/models/$name.onnx
    echo "callgrind: $name" >&2
    # shellcheck disable=SC2046
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out/$name.cg.out" \
      $(lint_cmd "$f") 2>"$WORK/out/$name.cg.log" >/dev/null || true
    callgrind_annotate --inclusive=yes "$WORK/out/$name.cg.out" 2>/dev/null |
      grep -E 'PROGRAM TOTALS|onnxlint::load_model\(|onnxlint::GraphIndex::GraphIndex\(|onnxlint::Linter::lint_model\(' \
      >"$WORK/out/$name.cg.txt" || true
    record "$name.cg" callgrind "$name" "$nodes" "$(stat -c %s "$f")"
  done
fi

# ---- libonnx-testdata: the whole tree in one call ----------------------------------------
if [[ -d $TESTDATA ]]; then
  tree_models=$(find "$TESTDATA" -name '*.onnx' | wc -l)
  tree_bytes=$(du -sb "$TESTDATA" | cut -f1)
  find "$TESTDATA" -type f -exec cat {} + >/dev/null  # onnx-lint reads all of these
  for jobs in 1 2; do
    echo "onnx-lint: testdata --jobs $jobs" >&2
    time_it "testdata-j$jobs.lint" "$RUNS" 1 -N -- \
      "$LINT --select ALL --jobs $jobs --format json --output /dev/null $TESTDATA"
    rss_it "testdata-j$jobs.lint" "$LINT" --select ALL --jobs "$jobs" --format json \
      --output /dev/null "$TESTDATA"
    record "testdata-j$jobs.lint" lint "testdata-j$jobs" "$tree_models" "$tree_bytes"
  done
fi

# ---- the peer ------------------------------------------------------------------------------
if ((PEER)); then
  echo "peer: python3 -c 'import onnx' (start-up)" >&2
  time_it "python-import.peer" 5 1 -N -- "$PY -c 'import onnx'"
  rss_it "python-import.peer" "$PY" -c 'import onnx'
  record "python-import.peer" peer-startup python-import 0 0
  for w in "${WORKLOADS[@]}"; do
    IFS='|' read -r name _args nodes <<<"$w"
    measure_peer "$name" "$WORK/models/$name.onnx" "$nodes"
  done
  if [[ -d $TESTDATA ]]; then
    measure_peer "testdata" "$TESTDATA" "$tree_models"
  fi
fi

# ---- perf profile --------------------------------------------------------------------------
if ((PERF)) && command -v perf >/dev/null; then
  f=$WORK/models/chain-200k.onnx
  # shellcheck disable=SC2046
  perf record -q -F 2000 -o "$WORK/out/perf.data" -- $(lint_cmd "$f") >/dev/null 2>&1 || true
  perf report -i "$WORK/out/perf.data" --stdio --no-children --sort dso,symbol \
    --percent-limit 1 2>/dev/null | grep -v -e '^#' -e '^$' | sed -e 's/[ -]*$//' | cut -c1-160 |
    head -40 >"$WORK/out/perf.txt" || true
fi

# ---- report ----------------------------------------------------------------------------------
{
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "cold: $COLD_NOTE"
} >>"$WORK/out/env.txt"

"$PY" "$HERE/format_results.py" "$WORK/out" | tee "$WORK/results.md"
if [[ -s $WORK/out/perf.txt ]]; then
  echo
  echo "Flat profile, chain-200k (perf, self time, >= 1%):"
  echo
  echo '```'
  cat "$WORK/out/perf.txt"
  echo '```'
fi | tee -a "$WORK/results.md"
