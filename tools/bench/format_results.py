#!/usr/bin/python3
"""Turns the raw measurements of run_benchmarks.sh (OUT/results.tsv, *.hf.json, *.time) into
the Markdown tables of docs/performance.md."""
import glob
import json
import os
import re
import sys

MIB = 1024 * 1024

# DESIGN §9 targets: workload -> (generator arguments, seconds, MiB) for onnx-lint with every
# rule on. A workload made with other arguments (--smoke) gets no verdict.
TARGETS = {
    "weights-1gib": ("weights --matrices 64 --dim 2048", 0.1, 64),
    "chain-200k-plain": ("chain --nodes 200000 --plain", 0.2, 150),
    "chain-200k": ("chain --nodes 200000", 0.2, 150),
    "testdata-j1": ("", 1.0, None),
    "testdata-j2": ("", 1.0, None),
}
DESCRIPTIONS = {
    "testdata-j1": "libonnx-testdata tree, one call, `--jobs 1`",
    "testdata-j2": "libonnx-testdata tree, one call, `--jobs 2`",
}


def describe(r):
    """The workload in words, from the generator arguments it was made with."""
    if r["workload"] in DESCRIPTIONS:
        return DESCRIPTIONS[r["workload"]]
    words = r.get("args", "").split()
    opt = {k: v for k, v in zip(words[1::2], words[2::2]) if k.startswith("--")}
    dynamic = ", dynamic batch + runtime Reshape shapes" if "--dynamic" in words else ""
    if words[:1] == ["weights"]:
        m, d = int(opt.get("--matrices", 64)), int(opt.get("--dim", 2048))
        return (f"`{r['workload']}`: {m} × {d}×{d} float MatMul weights "
                f"({fmt_size(m * d * d * 4)} raw_data){dynamic}")
    if words[:1] == ["chain"]:
        n = int(opt.get("--nodes", r["nodes"]))
        kind = " of plain Relu nodes" if "--plain" in words else ""
        return f"`{r['workload']}`: {n:,}-node chain{kind}".replace(",", " ") + dynamic
    return r["workload"]


def parse_time_v(path):
    """Wall, CPU, peak RSS and exit status from one `/usr/bin/time -v` report."""
    text = open(path).read()
    r = {}
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    r["rss"] = int(m.group(1)) * 1024 if m else None
    m = re.search(r"Exit status: (\d+)", text)
    r["exit"] = int(m.group(1)) if m else None
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text)
    if m:
        parts = [float(p) for p in m.group(1).split(":")]
        r["wall"] = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    m = re.search(r"User time \(seconds\): ([\d.]+)", text)
    r["user"] = float(m.group(1)) if m else 0.0
    m = re.search(r"System time \(seconds\): ([\d.]+)", text)
    r["system"] = float(m.group(1)) if m else 0.0
    m = re.search(r"Major \(requiring I/O\) page faults: (\d+)", text)
    r["major_faults"] = int(m.group(1)) if m else None
    return r


def callgrind_counts(path):
    """Inclusive instruction counts of the program and of the engine's phases."""
    counts = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+)", line)
        if not m:
            continue
        n = int(m.group(1).replace(",", ""))
        for key, pattern in (("total", "PROGRAM TOTALS"), ("load", "onnxlint::load_model("),
                             ("index", "onnxlint::GraphIndex::GraphIndex("),
                             ("lint", "onnxlint::Linter::lint_model(")):
            if pattern in line:
                counts[key] = max(counts.get(key, 0), n)
    return counts


def load(out):
    rows = []
    with open(os.path.join(out, "results.tsv")) as f:
        for line in f:
            name, kind, workload, nodes, size, args = line.rstrip("\n").split("\t")
            r = {"name": name, "kind": kind, "workload": workload, "nodes": int(nodes),
                 "bytes": int(size), "args": args}
            hf = os.path.join(out, name + ".hf.json")
            if os.path.exists(hf):
                res = json.load(open(hf))["results"][0]
                r.update(mean=res["mean"], stddev=res["stddev"] or 0.0, user=res["user"],
                         system=res["system"], runs=len(res["times"]),
                         exit_codes=sorted(set(res.get("exit_codes") or [])))
            tv = os.path.join(out, name + ".time")
            if os.path.exists(tv):
                t = parse_time_v(tv)
                r.update({k: v for k, v in t.items() if k not in ("user", "system")})
                if "mean" not in r:
                    r.update(user=t["user"], system=t["system"])
            runs = sorted(glob.glob(os.path.join(out, name + ".[0-9]*.time")))
            if runs:  # several /usr/bin/time -v runs (the peer)
                ts = [parse_time_v(p) for p in runs]
                walls = [t["wall"] for t in ts]
                mean = sum(walls) / len(walls)
                var = sum((w - mean) ** 2 for w in walls) / max(len(walls) - 1, 1)
                r.update(mean=mean, stddev=var ** 0.5, runs=len(ts),
                         user=sum(t["user"] for t in ts) / len(ts),
                         system=sum(t["system"] for t in ts) / len(ts),
                         rss=max(t["rss"] or 0 for t in ts),
                         exit=max(t["exit"] or 0 for t in ts))
                so = runs[-1][:-len(".time")] + ".stdout"
                if os.path.exists(so):
                    r["stdout"] = open(so).read().strip()
            so = os.path.join(out, name + ".stdout")
            if "stdout" not in r and os.path.exists(so):
                r["stdout"] = open(so).read().strip()
            cg = os.path.join(out, name + ".txt")
            if kind == "callgrind" and os.path.exists(cg):
                r["ir"] = callgrind_counts(cg)
            rows.append(r)
    return {r["name"]: r for r in rows}


def fmt_time(r):
    if r is None or "mean" not in r:
        return "–"
    mean, sd = r["mean"], r["stddev"]
    if r.get("runs") == 1:
        return f"{mean * 1000:.0f} ms (1 run)" if mean < 1 else f"{mean:.2f} s (1 run)"
    if mean < 1:
        return f"{mean * 1000:.0f} ms ± {sd * 1000:.0f}"
    return f"{mean:.2f} s ± {sd:.2f}"


def cpu(r):
    return r["user"] + r["system"]


def fmt_cpu(r):
    if r is None or "user" not in r:
        return "–"
    c = cpu(r)
    return f"{c * 1000:.0f} ms" if c < 1 else f"{c:.2f} s"


def fmt_rss(r):
    if r is None or not r.get("rss"):
        return "–"
    return f"{r['rss'] / MIB:.1f} MiB"


def fmt_size(n):
    if n >= 1 << 30:
        return f"{n / (1 << 30):.2f} GiB"
    if n >= MIB:
        return f"{n / MIB:.1f} MiB"
    return f"{n / 1024:.1f} KiB"


def verdict(workload, r):
    """Target check: time by wall clock and by CPU (on a loaded machine they differ), memory."""
    target = TARGETS.get(workload)
    if target is None or r is None or "mean" not in r or r.get("args", "") != target[0]:
        return ""
    _args, secs, mib = target
    mark = {True: "✅", False: "❌"}
    parts = [f"≤ {secs:g} s: wall {mark[r['mean'] <= secs]} CPU {mark[cpu(r) <= secs]}"]
    if mib is not None:
        parts.append(f"≤ {mib} MiB {mark[(r.get('rss') or 0) <= mib * MIB]}")
    return ", ".join(parts)


def status_note(r):
    if r is None:
        return ""
    if r.get("exit") == 2 or 2 in r.get("exit_codes", []):
        return " ⚠️ exit 2"
    return ""


def main():
    out = sys.argv[1]
    rows = load(out)
    env = open(os.path.join(out, "env.txt")).read().splitlines()
    lines = []
    p = lines.append
    notes = os.path.join(out, "notes.txt")
    if os.path.exists(notes):
        for n in open(notes).read().splitlines():
            p(f"**{n}**")
            p("")
    for e in env:
        if not e.startswith("cold:"):
            p(f"- {e}")
    p("")
    workloads = [r["workload"] for r in rows.values() if r["kind"] == "lint"]
    have_trt = any(r["kind"] == "lint-trt" for r in rows.values())
    have_peer = any(r["kind"] == "peer" for r in rows.values())
    head = ["Workload", "File", "Nodes / models", "onnx-lint wall", "CPU", "peak RSS"]
    if have_trt:
        head += ["`--target tensorrt` wall", "CPU", "peak RSS"]
    if have_peer:
        head += ["peer wall", "peer CPU", "peer peak RSS", "peer CPU / onnx-lint CPU"]
    head += ["target (DESIGN §9)"]
    p("| " + " | ".join(head) + " |")
    p("|" + "---|" * len(head))
    for w in workloads:
        lint = rows.get(w + ".lint")
        cells = [describe(lint), fmt_size(lint["bytes"]), f"{lint['nodes']:,}".replace(",", " "),
                 fmt_time(lint) + status_note(lint), fmt_cpu(lint), fmt_rss(lint)]
        if have_trt:
            trt = rows.get(w + ".lint-trt")
            cells += [fmt_time(trt) + status_note(trt), fmt_cpu(trt), fmt_rss(trt)]
        if have_peer:
            peer_name = "testdata.peer" if w.startswith("testdata") else w + ".peer"
            peer = rows.get(peer_name)
            speed = ""
            if peer and "user" in peer and "user" in lint:
                speed = f"{cpu(peer) / max(cpu(lint), 1e-9):.1f}×"
            cells += [fmt_time(peer), fmt_cpu(peer), fmt_rss(peer), speed]
        cells.append(verdict(w, lint))
        p("| " + " | ".join(cells) + " |")
    p("")
    if have_peer:
        imp = rows.get("python-import.peer")
        if imp and "mean" in imp:
            p(f"Peer start-up alone (`python3 -c 'import onnx'`): {fmt_time(imp)}, {fmt_rss(imp)}.")
        tp = rows.get("testdata.peer")
        if tp and tp.get("stdout"):
            p(f"Peer on the testdata tree: {tp['stdout'].removeprefix('peer: ')}.")
        p("")

    # Linearity: per-node cost between the 200k and 1M chains. CPU time rather than wall time:
    # on a shared machine the wall time mostly measures the other processes.
    tiny = rows.get("tiny.lint")
    base_rss = tiny["rss"] if tiny and tiny.get("rss") else 0
    base_cpu = cpu(tiny) if tiny and "user" in tiny else 0.0
    lin = []
    for small, big in (("chain-200k", "chain-1m"), ("chain-200k-dynamic", "chain-1m-dynamic")):
        a, b = rows.get(small + ".lint"), rows.get(big + ".lint")
        if not a or not b or "user" not in a or "user" not in b:
            continue
        ca, cb = rows.get(small + ".cg"), rows.get(big + ".cg")
        ir = {}
        if ca and cb and ca.get("ir", {}).get("total") and cb.get("ir", {}).get("total"):
            ir = {small: ca["ir"]["total"], big: cb["ir"]["total"]}
        for r in (a, b):
            w = r["workload"]
            lin.append((w, f"{r['nodes']:,}".replace(",", " "),
                        f"{(cpu(r) - base_cpu) / r['nodes'] * 1e6:.1f} µs",
                        f"{ir[w] / r['nodes']:,.0f}".replace(",", " ") if ir else "–",
                        f"{(r['rss'] - base_rss) / r['nodes']:.0f} B",
                        f"{r['bytes'] / r['nodes']:.0f} B"))
        ratio = b["nodes"] / a["nodes"]
        lin.append((f"**ratio {big} / {small}**", f"{ratio:.0f}×",
                    f"{(cpu(b) - base_cpu) / max(cpu(a) - base_cpu, 1e-9):.2f}×",
                    f"{ir[big] / ir[small]:.2f}×" if ir else "–",
                    f"{(b['rss'] - base_rss) / max(a['rss'] - base_rss, 1):.2f}×",
                    f"{b['bytes'] / a['bytes']:.2f}×"))
    if lin:
        p("Per-node cost of onnx-lint, every rule on (the 8-node model's fixed cost subtracted; "
          "linear means the ratios equal the node ratio):")
        p("")
        p("| Workload | Nodes | CPU / node | instructions / node | peak RSS / node | file bytes / node |")
        p("|---|---|---|---|---|---|")
        for row in lin:
            p("| " + " | ".join(row) + " |")
        p("")

    phases = [r for r in rows.values() if r["kind"].startswith("phase-")]
    if phases:
        p("Where the time goes (onnx-lint, same file, narrower rule selections):")
        p("")
        p("| Workload | `--select` | wall | CPU | peak RSS |")
        p("|---|---|---|---|---|")
        for w in dict.fromkeys(r["workload"] for r in phases):
            for kind, label in (("phase-model-ir-version",
                                 "`model-ir-version` (load + walk, one trivial rule)"),
                                ("phase-graph", "`graph` (+ GraphIndex, structural rules)")):
                r = rows.get(f"{w}.{kind}")
                if r:
                    p(f"| {w} | {label} | {fmt_time(r)} | {fmt_cpu(r)} | {fmt_rss(r)} |")
            r = rows.get(f"{w}.lint")
            if r:
                p(f"| {w} | `ALL` | {fmt_time(r)} | {fmt_cpu(r)} | {fmt_rss(r)} |")
        p("")

    cold = rows.get("weights-1gib.lint-cold")
    cold_env = [e for e in env if e.startswith("cold:")]
    warm = rows.get("weights-1gib.lint")
    cat = rows.get("weights-1gib.lint-cat")
    if cold and cold_env or cat:
        p("The 1 GiB model and the page cache (onnx-lint, one run each):")
        p("")
        p("| State of the file's pages | wall | peak RSS | major faults | file bytes cached before → after |")
        p("|---|---|---|---|---|")
        if cold and cold_env and len(cold_env[0].split()) == 3:
            before, after = (int(x) for x in cold_env[0].split()[1:])
            p(f"| evicted (cold) | {cold.get('wall', 0) * 1000:.0f} ms | {fmt_rss(cold)} | "
              f"{cold.get('major_faults')} | {fmt_size(before)} → {fmt_size(after)} |")
        if warm:
            p(f"| warm: what onnx-lint reads is cached (the table above) | {fmt_time(warm)} | "
              f"{fmt_rss(warm)} | {warm.get('major_faults')} | |")
        if cat:
            p(f"| after `cat` of the whole file (2 MiB folios) | {cat.get('wall', 0) * 1000:.0f} ms | "
              f"{fmt_rss(cat)} | {cat.get('major_faults')} | |")
        p("")

    cgs = [r for r in rows.values() if r["kind"] == "callgrind" and r.get("ir")]
    if cgs:
        p("Instructions executed (valgrind callgrind; independent of the machine's load):")
        p("")
        p("| Workload | total | per node | loading / node | GraphIndex / node | lint_model / node |")
        p("|---|---|---|---|---|---|")
        for r in cgs:
            ir, n = r["ir"], r["nodes"]
            def per(key):
                return f"{ir[key] / n:,.0f}".replace(",", " ") if key in ir else "–"
            p(f"| {r['workload']} | {ir.get('total', 0) / 1e9:.2f} G | {per('total')} | "
              f"{per('load')} | {per('index')} | {per('lint')} |")
        p("")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
