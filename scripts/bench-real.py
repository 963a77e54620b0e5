#!/usr/bin/env python3
"""Time gpug on real programs, file by file, as a user runs it: seconds, queries, max RSS.

Usage:
    scripts/bench-real.py [-g GPUG]... [-r RUNS] [--json OUT] [--limit S] [--filter REGEX]
                          DIR [-- GPUG_ARGS...]

DIR is a checkout of a real program that you fetched yourself (this script never downloads
anything). When DIR is llm.c (it has `dev/cuda/`), the files are `dev/cuda/*.cu` and the
top-level `train_gpt2.cu`, `test_gpt2.cu`, `profile_gpt2.cu`, `train_gpt2_fp32.cu`,
`test_gpt2_fp32.cu`, each run in DIR as

    GPUG --jobs 1 --timeout 20 --json -I dev/cuda -I . FILE [GPUG_ARGS...]

otherwise every `.cu` file below DIR, run in DIR with `-I .`. Each run is stopped after
`--limit` seconds (default 300) and then counts as "killed".

Per file it prints: the wall seconds (the median of RUNS runs, default 1), the kernels and
launches reported by verdict (verified / defect / inconclusive / refused), the queries the
solvers answered (the sum of the JSON's `answered_by`), and the largest resident set of gpug
and its solvers (from wait4's rusage, in MiB); then the median and total seconds and the
largest RSS of all files.

With two binaries (`-g OLD -g NEW`), every file is run with each in turn, run after run (so a
drift in the machine's load touches both alike), and each row shows both medians and the
ratio NEW/OLD; the totals line gives the ratio of the medians and of the sums, and the files
whose verdict counts differ are listed after it. Use RUNS >= 3 for ratios you report.

`--json OUT` writes every run's figures (file, binary, run, seconds, rss_mib, queries, counts,
exit code).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

LLMC_TOP = ["train_gpt2.cu", "test_gpt2.cu", "profile_gpt2.cu", "train_gpt2_fp32.cu", "test_gpt2_fp32.cu"]


def files_of(root):
    """The files to run and the include flags for them."""
    dev = os.path.join(root, "dev", "cuda")
    if os.path.isdir(dev):
        files = sorted(os.path.join("dev", "cuda", f) for f in os.listdir(dev) if f.endswith(".cu"))
        files += [f for f in LLMC_TOP if os.path.isfile(os.path.join(root, f))]
        return files, ["-I", "dev/cuda", "-I", "."]
    files = []
    for d, _, fs in os.walk(root):
        files += [os.path.relpath(os.path.join(d, f), root) for f in fs if f.endswith(".cu")]
    return sorted(files), ["-I", "."]


def run_once(gpug, root, file, includes, extra, limit):
    """One run: seconds, max RSS in MiB, exit code, queries, and verdict counts."""
    args = [gpug, "--jobs", "1", "--timeout", "20", "--json"] + includes + [file] + extra
    start = time.monotonic()
    proc = subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    killed = False
    out = b""
    try:
        out, _ = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        killed = True
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
    seconds = time.monotonic() - start
    # Run in a fresh process (run_isolated), the children's ru_maxrss is this run's: the
    # largest of gpug and the solvers it reaped.
    rss = child_maxrss_mib()
    counts = {"verified": 0, "defect": 0, "inconclusive": 0, "refused": 0}
    queries = 0
    try:
        obj = json.loads(out.decode("utf-8", "replace").strip().splitlines()[-1]) if out.strip() else {}
    except (json.JSONDecodeError, IndexError):
        obj = {}
    if "error" in obj or not obj:
        counts["refused"] += 1
    for k in obj.get("kernels", []):
        v = k.get("verdict", "")
        if v in counts:
            counts[v] += 1
        else:
            counts["inconclusive"] += 1
        queries += sum(k.get("answered_by", {}).values())
    return {
        "seconds": seconds,
        "rss_mib": rss,
        "exit": None if killed else proc.returncode,
        "killed": killed,
        "queries": queries,
        "counts": counts,
    }


def child_maxrss_mib():
    """The largest resident set among this process's reaped descendants so far, in MiB."""
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0


def run_isolated(gpug, root, file, includes, extra, limit):
    """run_once in a fresh Python process, so that its RUSAGE_CHILDREN is this run's alone."""
    code = (
        "import json,sys; import importlib.util as u; "
        "s=u.spec_from_file_location('b', %r); m=u.module_from_spec(s); s.loader.exec_module(m); "
        "print(json.dumps(m.run_once(*json.loads(sys.argv[1]))))"
    ) % os.path.abspath(__file__)
    payload = json.dumps([gpug, root, file, includes, extra, limit])
    out = subprocess.run([sys.executable, "-c", code, payload], stdout=subprocess.PIPE, check=True).stdout
    return json.loads(out)


def summary(counts):
    return "{verified}v {defect}d {inconclusive}i {refused}r".format(**counts)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("-g", "--gpug", action="append", help="gpug binary (twice to compare)")
    ap.add_argument("-r", "--runs", type=int, default=1)
    ap.add_argument("--limit", type=float, default=300.0)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    binaries = [os.path.abspath(g) for g in (a.gpug or ["target/release/gpug"])]
    if len(binaries) > 2:
        ap.error("at most two binaries")
    root = os.path.abspath(a.dir)
    files, includes = files_of(root)
    if a.filter:
        files = [f for f in files if re.search(a.filter, f)]
    if not files:
        ap.error(f"no .cu files in {root}")

    records = []
    rows = []
    for f in files:
        per = {b: [] for b in binaries}
        for r in range(a.runs):
            for b in binaries:
                res = run_isolated(b, root, f, includes, extra, a.limit)
                res.update({"file": f, "binary": b, "run": r})
                records.append(res)
                per[b].append(res)
        cells = []
        for b in binaries:
            runs = per[b]
            med = statistics.median(x["seconds"] for x in runs)
            last = runs[-1]
            mark = " killed" if any(x["killed"] for x in runs) else ""
            cells.append((med, max(x["rss_mib"] for x in runs), last["queries"], summary(last["counts"]), mark))
        line = f"{f:44}"
        for med, rss, q, s, mark in cells:
            line += f" {med:8.2f} s {q:6} q {rss:8.1f} MiB  {s}{mark}"
        if len(cells) == 2:
            line += f"  ratio {cells[1][0] / cells[0][0]:.2f}"
        print(line, flush=True)
        rows.append((f, cells))

    print()
    for i, b in enumerate(binaries):
        secs = [c[i][0] for _, c in rows]
        print(f"{b}: median {statistics.median(secs):.2f} s, total {sum(secs):.1f} s, "
              f"max RSS {max(c[i][1] for _, c in rows):.1f} MiB, over 60 s: "
              f"{sum(1 for s in secs if s > 60)} of {len(secs)} files")
    if len(binaries) == 2:
        m0 = statistics.median(c[0][0] for _, c in rows)
        m1 = statistics.median(c[1][0] for _, c in rows)
        t0 = sum(c[0][0] for _, c in rows)
        t1 = sum(c[1][0] for _, c in rows)
        print(f"ratio new/old: medians {m1 / m0:.2f}, totals {t1 / t0:.2f}")
        changed = [f for f, c in rows if c[0][3] != c[1][3]]
        print("verdict counts differ: " + (", ".join(changed) if changed else "none"))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(records, fh, indent=1)


if __name__ == "__main__":
    main()
