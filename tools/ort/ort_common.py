"""Shared helpers of the ONNX Runtime oracle scripts (tools/ort/*.py, docs/ort-oracle.md).

ONNX Runtime runs in Node (npm onnxruntime-node, CPU execution provider) through run_model.js:
one Node process per batch of models, so start-up is paid once.
"""
import json
import os
import subprocess
import sys
import tempfile

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_model.js")
ORT_VERSION = "1.30.0"  # the pinned onnxruntime-node (tests/ort/CMakeLists.txt installs it)
SKIP = 77  # ctest SKIP_RETURN_CODE of the tests/ort tests


SPATIAL = {"h", "w", "height", "width"}


def load_sizes(path):
    """--sizes: {model file name: {input dim name: export size}} (tests/ort/export_sizes.json)."""
    if not path:
        return {}
    with open(path) as f:
        return json.load(f)["models"]


def export_size(name, sizes):
    """The size a symbolic input dim runs at first: the export size when known, else 2 (64 for
    spatial dims)."""
    if name in sizes:
        return sizes[name]
    return 64 if name.lower() in SPATIAL else 2


def second_size(name, value):
    """The second size: one more, or 33 more for spatial dims (odd sizes test the rounding)."""
    return value + 33 if name.lower() in SPATIAL else value + 1


def size_plan(model, path, sizes_of):
    """(graph inputs, [export-size binding, second-size binding]) of a model's symbolic input
    dims: {dim name: size}; the list is empty when no input dim is symbolic."""
    inits = {t.name for t in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in inits]
    names = sorted({d.dim_param for i in inputs for d in i.type.tensor_type.shape.dim
                    if d.dim_param})
    if not names:
        return inputs, []
    export = sizes_of.get(os.path.basename(path), {})
    first = {n: export_size(n, export) for n in names}
    return inputs, [first, {n: second_size(n, v) for n, v in first.items()}]


def feeds(inputs, env, unnamed=2):
    """run_model.js feeds for `inputs` with the symbolic dims bound by `env` (a dynamic dim
    without a name, or a name `env` lacks, gets `unnamed`)."""
    return {i.name: {"type": i.type.tensor_type.elem_type,
                     "dims": [d.dim_value if d.HasField("dim_value") else
                              env.get(d.dim_param, unnamed)
                              for d in i.type.tensor_type.shape.dim]} for i in inputs}


def model_files(paths):
    """Every *.onnx under the given files and folders, sorted, each once."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                out += [os.path.join(root, f) for f in files if f.endswith(".onnx")]
        else:
            out.append(p)
    return sorted(set(out))


def installed_version(ort_dir):
    """The version of the onnxruntime-node in ort_dir/node_modules, or None."""
    pkg = os.path.join(os.path.abspath(ort_dir), "node_modules", "onnxruntime-node",
                       "package.json")
    try:
        with open(pkg) as f:
            return json.load(f).get("version")
    except (OSError, ValueError):
        return None


def ort_modules(ort_dir, version=ORT_VERSION):
    """The node_modules folder holding onnxruntime-node `version` under ort_dir; exits when it is
    missing: with SKIP outside CI (a developer machine without npm access), with 1 in CI
    (CI=true)."""
    modules = os.path.join(os.path.abspath(ort_dir), "node_modules")
    found = installed_version(ort_dir)
    if found == version:
        return modules
    msg = (f"onnxruntime-node {version} is not installed in {modules} (found: {found}); "
           "the ort.install test installs it with npm (docs/ort-oracle.md)")
    if os.environ.get("CI", "").lower() == "true":
        print("error: " + msg, file=sys.stderr)
        sys.exit(1)
    print("skipped: " + msg)
    sys.exit(SKIP)


def run_jobs(ort_dir, jobs, version=ORT_VERSION):
    """Runs run_model.js on `jobs` (see its header) and returns {job id: result}. A job that
    kills Node (a native crash, e.g. SIGFPE in an integer kernel) gets the result
    {"loaded": false, "crashed": true, "error": ...}; the jobs after it run in a new process."""
    env = dict(os.environ, NODE_PATH=ort_modules(ort_dir, version))
    out = {}
    todo = list(jobs)
    with tempfile.TemporaryDirectory(prefix="onnxlint-ort-") as work:
        while todo:
            spec = os.path.join(work, "spec.json")
            with open(spec, "w") as f:
                json.dump({"jobs": todo}, f)
            r = subprocess.run(["node", RUNNER, spec], capture_output=True, text=True, env=env)
            for line in r.stdout.splitlines():
                if line.startswith("{"):
                    d = json.loads(line)
                    out[d["id"]] = d
            todo = [j for j in todo if j["id"] not in out]
            if r.returncode == 0:
                break
            if not todo:
                raise RuntimeError(f"run_model.js exited {r.returncode}: {r.stderr[-500:]}")
            out[todo[0]["id"]] = {"id": todo[0]["id"], "loaded": False, "crashed": True,
                                  "error": f"run_model.js crashed (exit {r.returncode})"}
            todo = todo[1:]
    missing = [j["id"] for j in jobs if j["id"] not in out]
    if missing:
        raise RuntimeError(f"run_model.js printed no result for {missing[:5]}")
    return out


def lint_json(tool, paths, *args):
    """onnx-lint's JSON report on `paths` (no config file), as {model path: file entry}."""
    r = subprocess.run([tool, "--no-config", "--format", "json", "-j", "2", *args, *paths],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError(f"onnx-lint exited {r.returncode}: {r.stderr.strip()[-500:]}")
    return {f["path"]: f for f in json.loads(r.stdout)["files"]}
