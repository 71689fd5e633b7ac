#!/usr/bin/env python3
"""ctest fixture of the ONNX Runtime oracle: installs the pinned onnxruntime-node into DIR.

  install_ort.py DIR [VERSION]

VERSION defaults to the pinned one (tools/ort/ort_common.py); the older releases the
versioned onnxruntime-cpu tables are checked against go into folders of their own.

Runs `npm install --ignore-scripts --no-audit --no-fund onnxruntime-node@VERSION` with DIR as
the npm prefix, unless DIR/node_modules already holds that version. --ignore-scripts: the
package's install script would download GPU extras from outside npm; the CPU build is in the
package itself. Without npm or a reachable registry the tests that need ORT are skipped with a
message (exit 77), except in CI (CI=true), where that is an error.
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tools", "ort"))
import ort_common  # noqa: E402


def give_up(msg):
    if os.environ.get("CI", "").lower() == "true":
        print("error: " + msg, file=sys.stderr)
        return 1
    print("skipped: " + msg + " (the ONNX Runtime comparisons are skipped; CI runs them)")
    return ort_common.SKIP


def main():
    prefix = os.path.abspath(sys.argv[1])
    version = sys.argv[2] if len(sys.argv) > 2 else ort_common.ORT_VERSION
    if ort_common.installed_version(prefix) == version:
        print(f"onnxruntime-node {version} already installed in {prefix}")
        return 0
    if shutil.which("node") is None or shutil.which("npm") is None:
        return give_up("node/npm not found (Debian packages nodejs and npm)")
    os.makedirs(prefix, exist_ok=True)
    cmd = ["npm", "install", "--prefix", prefix, "--ignore-scripts", "--no-audit", "--no-fund",
           "--no-save", "--fetch-retries=1", f"onnxruntime-node@{version}"]
    print(" ".join(cmd), flush=True)
    try:
        r = subprocess.run(cmd, timeout=540)
    except subprocess.TimeoutExpired:
        return give_up("npm install timed out")
    if r.returncode != 0 or ort_common.installed_version(prefix) != version:
        return give_up(f"npm install failed (exit {r.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
