#!/usr/bin/python3
"""onnx-lint against the peer, pairwise: the ratio the performance target is stated in.

    tools/bench/pairwise_peer.py ONNX_LINT MODEL [--pairs 7] [-- ONNX_LINT_ARGS...]

Each pair runs `ONNX_LINT --select ALL --format json --output /dev/null MODEL` and then the
peer, `onnx.checker.check_model(path, full_check=True)` in a fresh Debian python3 process
(tools/bench/peer_check.py), on a fresh copy of the model (the peer rewrites the file it
checks). Both are timed from outside, wall clock, process start to exit, with the same page
cache. Prints every pair, then the median of each side and of the ratios. Run it on an idle
machine: both sides feel the load of anything else running.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        sys.exit(f"pairwise_peer.py: {cmd[0]} exited {proc.returncode}: "
                 f"{proc.stderr.decode(errors='replace')[:400]}")
    return took


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("onnx_lint")
    ap.add_argument("model")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("extra", nargs="*", help="more onnx-lint arguments (after --)")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="onnxlint-pairwise-")
    try:
        ours = [args.onnx_lint, "--select", "ALL", "--format", "json", "--output", os.devnull,
                *args.extra, args.model]
        timed(ours)  # warm-up: the model's pages in the cache for both sides
        rows = []
        for i in range(args.pairs):
            a = timed(ours)
            copy = os.path.join(work, f"peer-{i}.onnx")
            shutil.copyfile(args.model, copy)
            b = timed(["/usr/bin/python3", os.path.join(HERE, "peer_check.py"), copy])
            os.remove(copy)
            rows.append((a, b))
            print(f"pair {i + 1}: onnx-lint {a:.3f} s, peer {b:.3f} s, {b / a:.1f}x", flush=True)
        med_a = statistics.median(a for a, _ in rows)
        med_b = statistics.median(b for _, b in rows)
        med_r = statistics.median(b / a for a, b in rows)
        print(f"median of {len(rows)} pairs: onnx-lint {med_a:.3f} s, peer {med_b:.3f} s, "
              f"ratio {med_r:.1f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
