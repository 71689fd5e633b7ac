#!/usr/bin/env python3
"""Resource limits as a contract (issue 28, item 2): for every hostile-size generator in
tests/hostile/generators/*.py, lint its model with every rule, every target and JSON output at
scale k and 2k, each in a fresh process, and check that

- the run ends normally: exit code 0 or 1 (never a signal, never 2);
- user CPU time and peak RSS grow at most 2.5 times when the input doubles (differences under
  0.05 s or 20 MiB are noise on a shared machine and pass). System time is left out of the
  growth: on this kind of VM it is the host's, not the linter's (a process touching fresh memory
  waits while the host hands it back: the same N8 run measured 0.01 to 0.54 s of system time,
  docs/performance.md), and it alone put a linear run over x2.5 in CI;
- the size at which the issue saw the defect (ISSUE_SIZES) is linted within a few seconds.

The contract of a generator module is written in tests/hostile/generators/engine.py. Run by
ctest (tests/hostile/CMakeLists.txt) with ONNX_LINT set to the built binary; GROWTH_ONLY=regex
runs the matching generators only, GROWTH_VERBOSE=1 prints every measurement.
"""
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

BIN = os.environ.get("ONNX_LINT", "onnx-lint")
HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR_DIR = os.path.join(HERE, "generators")

GROWTH = 2.5              # allowed factor for input x 2
TIME_FLOOR = 0.05         # seconds: smaller differences are noise
RSS_FLOOR = 20 << 20      # bytes: likewise
ISSUE_SIZE_SECONDS = 5.0  # the issue's defect sizes must finish within this CPU time
RUN_TIMEOUT = 30          # wall seconds before a run counts as hung (runs take < 2 s)
DEFAULT_SCALE = 2000


def load_generator_modules():
    """Every module of tests/hostile/generators (engine.py, rules.py, io.py, ...)."""
    modules = []
    sys.path.insert(0, GENERATOR_DIR)  # their shared builders, _build.py
    for file in sorted(os.listdir(GENERATOR_DIR)):
        if not file.endswith(".py") or file.startswith("_"):
            continue
        name = "hostile_generators_" + file[:-3]
        spec = importlib.util.spec_from_file_location(name, os.path.join(GENERATOR_DIR, file))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not isinstance(getattr(module, "GENERATORS", None), dict):
            raise AssertionError(f"{file}: no GENERATORS dict")
        modules.append(module)
    return modules


def all_targets():
    out = subprocess.run([BIN, "--list-targets", "--format", "json"], capture_output=True,
                         check=True).stdout
    return [t["id"] for t in json.loads(out)["targets"]]


class Run:
    def __init__(self, code, cpu, user, rss, wall_killed):
        self.code, self.cpu, self.user, self.rss, self.killed = code, cpu, user, rss, wall_killed

    def __repr__(self):
        return (f"exit {self.code}, {self.cpu:.3f} s CPU ({self.user:.3f} user), "
                f"{self.rss / (1 << 20):.1f} MiB")


# Runs one command and prints its exit code, CPU time and peak RSS. It runs in a small Python
# of its own (no onnx imported) and forks the command from there: Linux counts the memory of the
# process a child was forked from, up to its exec, in the child's peak RSS, so forking from
# this test (which holds the generated models) would add that to every measurement.
RUNNER = r"""
import json, os, signal, sys
cwd, timeout, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    try:
        os.chdir(cwd)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
killed = []
def on_alarm(*_):
    killed.append(True)
    os.kill(pid, signal.SIGKILL)
signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(timeout)
_, status, usage = os.wait4(pid, 0)
signal.alarm(0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status),
                  "cpu": usage.ru_utime + usage.ru_stime, "user": usage.ru_utime,
                  "rss": usage.ru_maxrss * 1024, "killed": bool(killed)}))
"""


def measure(args, cwd):
    """Runs onnx-lint once in a fresh process: its own CPU time and peak RSS, and its exit code
    (negative: killed by that signal)."""
    out = subprocess.run([sys.executable, "-I", "-S", "-c", RUNNER, cwd, str(RUN_TIMEOUT), BIN,
                          *args], capture_output=True, check=True).stdout
    r = json.loads(out)
    return Run(r["code"], r["cpu"], r["user"], r["rss"], r["killed"])


def lay_out(built, folder, stem):
    """Writes a generator's output; returns the path to lint."""
    if isinstance(built, (bytes, bytearray)):
        path = os.path.join(folder, stem + ".onnx")
        with open(path, "wb") as f:
            f.write(built)
        return path
    root = os.path.join(folder, stem)
    for rel, data in built.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, (bytes, bytearray)) else data.encode())
    return root


class Growth(unittest.TestCase):
    targets = None
    verbose = os.environ.get("GROWTH_VERBOSE") == "1"

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="onnxlint-growth-")
        cls.targets = []
        for t in all_targets():
            cls.targets += ["--target", t]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def lint(self, name, module, build, scale, repeat=1):
        """Lints the generator's model at `scale` `repeat` times; the run with the least user CPU
        time (a busy machine only ever adds time)."""
        path = lay_out(build(scale), self.dir, f"{re.sub(r'[^A-Za-z0-9_-]', '_', name)}-{scale}")
        args = ["--no-config", "--select", "ALL", "--format", "json", *self.targets,
                *getattr(module, "ARGS", {}).get(name, []), path]
        runs = []
        try:
            for _ in range(repeat):
                run = measure(args, self.dir)
                if self.verbose:
                    print(f"  {name} @ {scale}: {run}", file=sys.stderr)
                self.assertFalse(run.killed, f"{name} @ {scale}: no answer in {RUN_TIMEOUT} s")
                self.assertIn(run.code, (0, 1), f"{name} @ {scale}: {run} (a signal is negative)")
                runs.append(run)
        finally:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        return min(runs, key=lambda r: r.user)

    def check(self, name, module, build):
        k = getattr(module, "SCALES", {}).get(name, DEFAULT_SCALE)
        small = self.lint(name, module, build, k, repeat=3)
        large = self.lint(name, module, build, 2 * k, repeat=3)
        if not (large.user <= GROWTH * small.user or large.user - small.user < TIME_FLOOR):
            # A busy machine (a parallel ctest, a CI neighbour) can add time to one size more
            # than the other: measure both again, more often. Real superlinear growth fails
            # again (quadratic is x4 on doubling); noise seldom does.
            small = min(small, self.lint(name, module, build, k, repeat=5), key=lambda r: r.user)
            large = min(large, self.lint(name, module, build, 2 * k, repeat=5),
                        key=lambda r: r.user)
        summary = f"{name}: {k} -> {small}; {2 * k} -> {large}"
        print(summary, file=sys.stderr)
        self.assertTrue(large.user <= GROWTH * small.user or large.user - small.user < TIME_FLOOR,
                        f"time grows faster than x{GROWTH} on doubling: {summary}")
        self.assertTrue(large.rss <= GROWTH * small.rss or large.rss - small.rss < RSS_FLOOR,
                        f"memory grows faster than x{GROWTH} on doubling: {summary}")
        issue = getattr(module, "ISSUE_SIZES", {}).get(name)
        if issue is not None:
            run = self.lint(name, module, build, issue)
            print(f"{name}: issue size {issue} -> {run}", file=sys.stderr)
            self.assertLess(run.cpu, ISSUE_SIZE_SECONDS,
                            f"{name} at the issue's size {issue}: {run}")


def add_tests():
    only = os.environ.get("GROWTH_ONLY")
    for module in load_generator_modules():
        for name, build in module.GENERATORS.items():
            if only and not re.search(only, name):
                continue

            def test(self, name=name, module=module, build=build):
                self.check(name, module, build)

            setattr(Growth, "test_" + re.sub(r"[^A-Za-z0-9]", "_", name), test)


add_tests()

if __name__ == "__main__":
    unittest.main()
