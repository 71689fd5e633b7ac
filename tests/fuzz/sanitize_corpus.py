#!/usr/bin/env python3
"""The sanitized run (docs/security.md#the-sanitized-run): the fuzz build's onnx-lint (clang,
ASan+UBSan, _GLIBCXX_ASSERTIONS) lints every model of the given folders with every rule and
every target, then a sample in every output format. Any sanitizer report, assertion, signal,
internal-error finding or exit code other than 0/1 fails it.

usage: sanitize_corpus.py ONNX_LINT WORK_DIR FOLDER...
(folders without any *.onnx file are skipped: a regressions folder may be empty.)
"""
import json
import os
import shutil
import subprocess
import sys
import time

# What ASan, LeakSanitizer, UBSan and libstdc++'s assertions print (halt_on_error=1 stops at
# the first; an assertion is an abort, which the exit code shows as well).
REPORT_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:",
                  "SUMMARY: UndefinedBehaviorSanitizer", "Assertion '", "internal error")

FORMATS = ["text", "concise", "summary", "json", "sarif", "github", "gitlab", "junit", "markdown"]


def has_model(folder):
    for _, _, files in os.walk(folder):
        if any(f.endswith(".onnx") for f in files):
            return True
    return False


def models_in(folder):
    out = []
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".onnx")]
    return out


failures = []


def run(args, what, out_file=None):
    """Runs onnx-lint; records a failure unless it exits 0 or 1 without a sanitizer report."""
    start = time.monotonic()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seconds = time.monotonic() - start
    err = p.stderr.decode("utf-8", "replace")
    bad = [m for m in REPORT_MARKERS if m in err]
    if p.returncode not in (0, 1) or bad:
        failures.append(what)
        print(f"FAIL {what}: exit {p.returncode}; stderr:\n{err[-6000:]}", flush=True)
    else:
        print(f"ok   {what}: exit {p.returncode}, {seconds:.1f} s", flush=True)
    return p, seconds


def check_json(path, what):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    files = report.get("files", [])
    internal = [(f.get("path"), d.get("message")) for f in files for d in f.get("diagnostics", [])
                if d.get("rule") == "internal-error"]
    if internal:
        failures.append(what + ": internal-error findings")
        for path, message in internal[:50]:
            print(f"FAIL {what}: internal-error in {path}: {message}", flush=True)
    return len(files)


def sanitizer_environment():
    """ASan and UBSan exit with 1 by default, which is also onnx-lint's "findings" code: give
    them their own (the stderr check would catch the report anyway), and make sure leaks are
    looked for and UBSan stops at the first report."""
    for var, extra in (("ASAN_OPTIONS", "detect_leaks=1:exitcode=99"),
                       ("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=99")):
        os.environ[var] = ":".join(filter(None, [os.environ.get(var, ""), extra]))


def main():
    sanitizer_environment()
    lint, work, folders = sys.argv[1], sys.argv[2], [f for f in sys.argv[3:] if has_model(f)]
    os.makedirs(work, exist_ok=True)
    started = time.monotonic()
    listed = subprocess.run([lint, "--list-targets", "--format", "json"], check=True,
                            stdout=subprocess.PIPE).stdout
    targets = [t["id"] for t in json.loads(listed)["targets"]]
    target_args = [a for t in targets for a in ("--target", t)]
    # --no-config: the same rules everywhere (a folder's own onnx-lint.toml may ignore some);
    # --select ALL then enables every rule. -j 2: the CI machine has two cores.
    common = [lint, "--no-config", "--select", "ALL", "--fail-on", "never"] + target_args

    # 1. Every model, every rule, every target, with --hash (reads all external data).
    out = os.path.join(work, "all.json")
    before = len(failures)
    run(common + ["--hash", "-j", "2", "--format", "json", "-o", out] + folders,
        f"all models, {len(targets)} targets, json")
    n = check_json(out, "all models") if os.path.exists(out) else 0
    if len(failures) > before:
        # halt_on_error stops at the first report: lint each model alone to name every one.
        models = [m for f in folders for m in models_in(f)]
        print(f"linting the {len(models)} models one by one to name each failing one", flush=True)
        n = len(models)
        for m in models:
            p = subprocess.run(common + ["--hash", "--format", "json", "-o", os.devnull, m],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode not in (0, 1) or any(k in err for k in REPORT_MARKERS):
                first = next((line for line in err.splitlines()
                              if any(k in line for k in REPORT_MARKERS)), f"exit {p.returncode}")
                failures.append(m)
                print(f"FAIL {m}: {first[:300]}", flush=True)

    # 2. Every output format on the folders of fewer than 300 models (the hand-made seeds, whose
    #    names test escaping, the regressions, the test corpus and examples/; not the thousand
    #    single-op models of libonnx-testdata), with the flags that change the text.
    sample = [f for f in folders if len(models_in(f)) < 300]
    for fmt in FORMATS:
        extra = ["--color", "always", "--statistics", "--show-infos"] if fmt == "text" else []
        path = os.path.join(work, "sample." + fmt)
        run(common + ["-j", "2", "--format", fmt, "-o", path] + extra + sample, f"sample, {fmt}")
    # Model Explorer takes one model per run: a few from each folder.
    for folder in folders:
        for model in models_in(folder)[:3]:
            run(common + ["--format", "model-explorer", "-o", os.path.join(work, "me.json"),
                          model], f"model-explorer, {os.path.relpath(model, folder)}")
    # 3. Fix mode (docs/fixes.md): every model through the whole lint-apply loop, unsafe fixes
    #    too, written nowhere (--diff); then copies of the sample folders fixed and written.
    run(common + ["--fix", "--unsafe-fixes", "--diff", "--format", "json", "-o",
                  os.path.join(work, "fix.json")] + folders,
        "all models, --fix --unsafe-fixes --diff")
    copies = os.path.join(work, "fix-copies")
    shutil.rmtree(copies, ignore_errors=True)
    for i, folder in enumerate(sample):
        shutil.copytree(folder, os.path.join(copies, str(i)))
    run(common + ["--fix", "--unsafe-fixes", "--format", "json", "-o",
                  os.path.join(work, "fixed.json"), copies], "sample copies, --fix --unsafe-fixes")
    # Per-file configuration discovery as the CLI does it by default (no --no-config).
    run([lint, "--format", "concise", "-j", "2"] + sample, "sample, discovered configs")

    print(f"{n} models linted with {len(targets)} targets; "
          f"{time.monotonic() - started:.0f} s in all; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
