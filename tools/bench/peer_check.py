#!/usr/bin/python3
"""The benchmark's peer: onnx.checker.check_model(path, full_check=True) over files or folders.

Run with Debian's interpreter (/usr/bin/python3, which has python3-onnx), in one process for
all the models given, e.g. the whole libonnx-testdata tree.

Careful: with a *path* and full_check=True, onnx 1.12's check_model calls
onnx.shape_inference.infer_shapes_path(path), which REWRITES THE MODEL FILE IN PLACE with the
inferred shapes. So this script only runs on copies (run_benchmarks.sh copies the workloads
before each run) and refuses paths under /usr.
"""
import os
import sys

import onnx


def model_paths(args):
    for arg in args:
        if os.path.isdir(arg):
            found = []
            for root, _dirs, files in os.walk(arg):
                found.extend(os.path.join(root, f) for f in files if f.endswith(".onnx"))
            yield from sorted(found)
        else:
            yield arg


def main():
    if len(sys.argv) < 2:
        print("usage: peer_check.py MODEL_OR_FOLDER...", file=sys.stderr)
        return 2
    for arg in sys.argv[1:]:
        if os.path.realpath(arg).startswith("/usr/"):
            print(f"peer_check.py: refusing {arg}: check_model(path, full_check=True) rewrites "
                  "the file; run it on a copy", file=sys.stderr)
            return 2
    checked = failed = 0
    for path in model_paths(sys.argv[1:]):
        checked += 1
        try:
            onnx.checker.check_model(path, full_check=True)
        except Exception as e:  # the checker raises several exception types
            failed += 1
            if os.environ.get("PEER_VERBOSE"):
                print(f"{path}: {type(e).__name__}: {str(e).splitlines()[0][:200]}",
                      file=sys.stderr)
    print(f"peer: checked {checked} models, {failed} rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
