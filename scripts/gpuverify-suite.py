#!/usr/bin/env python3
"""Run gpug over GPUVerify's CUDA or OpenCL test suite and compare with the suite's expectations.

Usage:
    scripts/gpuverify-suite.py SUITE_DIR GPUG [--json OUT] [-j N] [--timeout S]
                               [--forward FLAG]... [--all-flags] [--gpug-arg ARG]...
                               [--filter REGEX] [--symbolic] [--compare ARG]... [--conditions]

SUITE_DIR is a checked-out GPUVerify `testsuite/CUDA` or `testsuite/OpenCL` directory (this
script never downloads anything); GPUG is the gpug binary. Every `kernel.cu` or `kernel.cl`
below SUITE_DIR starts with

    //pass                       or  //xfail:NOT_ALL_VERIFIED  (or //xfail:BUGLE_ERROR, ...)
    //--blockDim=... --gridDim=... [-DWIDTH=...] [GPUVerify-only flags]
    (OpenCL: --local_size=... --num_groups=... or --global_size=..., --global_offset=...)

and is run as `GPUG --timeout S <flags> kernel.cu` (in the kernel's folder, with a 60 s limit
on the whole process). Of line 2, `--blockDim`, `--gridDim`, OpenCL's `--local_size`,
`--num_groups`, `--global_size` and `--global_offset`, `-D...`, `-I...` and `--warp-sync` are
passed on (`${KERNEL_DIR}` expanded); other GPUVerify flags (`--no-inline`,
`--equality-abstraction`, ...) are dropped and listed in the table, unless named with
`--forward` or `--all-flags` is given.

Outcomes, from the expectation and gpug's exit code (0 verified, 1 defect, 2 unsupported
input / usage error, 3 inconclusive):

    agreed         pass & 0, NOT_ALL_VERIFIED & 1, BUGLE_ERROR/CLANG_ERROR/COMMAND_LINE_ERROR & 2
    missed         NOT_ALL_VERIFIED & 0          (a missed race/defect: must be 0)
                   (a kernel in ERRATA is judged by the expectation given there, with the
                   proof; the totals name it)
    false alarm    pass & 1
    unsupported    2 (when not agreed)
    over limits    2 because line 2 asks for a launch beyond CUDA's limits (`--blockDim=2048`:
                   GPUVerify does not check them, gpug refuses such a launch, issue 22)
    inconclusive   3
    beyond         BUGLE_ERROR/CLANG_ERROR & 0 or 1 (a verdict where GPUVerify's front end
                   gives none: neither agreed nor wrong; check it by reading the kernel)
    other          anything else: timeouts, crashes, other exit codes or expectations

The script prints one row per kernel and the totals (counts, median and total wall time, and
with -j 1 median and total CPU time), and exits with 1 if any defect was missed. CPU time is
that of the processes gpug waited for: a kernel killed at the 60 s limit counts 60 s of wall
time but only the CPU of what it had already reaped (its running solver is not counted).

--conditions   runs gpug with --json and, after the totals, prints per run the five most common
               launch-contract items, conditions of findings (witness values dropped) and
               suggested --assume expressions, with the number of kernels having any, and the
               number of benign races (issue 11); the rows of --json keep them per kernel.
--symbolic     drops `--blockDim` and `--gridDim` of line 2, so every launch dimension is left
               symbolic (gpug's default without them); -D, -I and the other flags are kept as
               without it.
--compare ARG  (repeatable) runs the suite twice in one invocation: once as without the flag,
               and once more with every ARG added to gpug's arguments, e.g.
               `--symbolic --compare=--no-overflow`, or `--compare=--solver --compare=cvc5`
               (write ARG after `=` when it starts with `-`).
               Each kernel is run with the first set of arguments, then at once with the second
               (so a drift in the machine's speed touches both runs alike). Each row then shows
               both runs' exit code, time and outcome; the totals of the two runs are printed
               as two lines side by side (agreed, missed, false alarms, unsupported,
               inconclusive, timeouts/other, median and total wall, median and total CPU),
               followed by the kernels whose exit code or outcome differs between the runs
               and the (at most 5) kernels whose wall time changed most.
               --json then holds the first run at its top level, as without the flag (so tools
               reading one run read the first), and the second under "compare": its extra
               arguments, totals, kernels and the list of differences. The exit status is 1
               if either run missed a defect.
"""

import argparse
import json
import os
import resource
import re
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

PROCESS_TIMEOUT_S = 60
PASSED_PREFIXES = ("--blockDim", "--gridDim", "--local_size", "--num_groups", "--global_size",
                   "--global_offset", "-D", "-I", "--warp-sync")
GEOMETRY_FLAGS = ("--blockDim", "--gridDim", "--local_size", "--num_groups", "--global_size")
FRONTEND_ERRORS = ("BUGLE_ERROR", "CLANG_ERROR", "COMMAND_LINE_ERROR")

# Kernels whose line-1 expectation records a bug of GPUVerify's rather than a defect of the
# kernel, each proved here by reading it: (suite folder, kernel folder) -> (the right
# expectation, why). They are judged against the right one and listed apart in the totals
# ("expectations corrected"), so a reader can check each proof; nothing else is changed.
ERRATA = {
    ("OpenCL", "reducedstrengthnonloopbug"): (
        "pass",
        "//xfail records a GPUVerify bug (its name: reduced-strength analysis outside loops); "
        "the kernel `foo` is empty, and `notInvoked`, never called, writes dst[i] at "
        "i = get_local_id(0) + k*get_local_size(0), distinct for distinct work-items of a "
        "group, into __local memory private to the group: no race exists",
    ),
}
OUTCOMES = ("agreed", "missed", "false alarm", "unsupported", "over limits", "inconclusive", "beyond",
            "other")


def parse_header(path):
    """Returns (expectation, flags) from the first two lines of a suite kernel."""
    with open(path, encoding="utf-8", errors="replace") as f:
        line1 = f.readline().strip()
        line2 = f.readline().strip()
    m = re.match(r"^//\s*(pass|xfail\s*:\s*(\S+))\s*$", line1, re.IGNORECASE)
    if m is None:
        expect = "unknown:" + line1
    elif m.group(2) is None:
        expect = "pass"
    else:
        expect = m.group(2).upper()
    flags = line2[2:].split() if line2.startswith("//") else []
    return expect, flags


def select_flags(flags, kernel_dir, forward, all_flags, symbolic=False):
    """Splits line-2 flags into (passed, dropped), expanding ${KERNEL_DIR}.

    With `symbolic`, `--blockDim`/`--gridDim` (and their values) are left out of both lists:
    gpug then leaves every launch dimension symbolic.
    """
    passed, dropped = [], []
    skip_value = False
    for flag in flags:
        if skip_value:
            skip_value = False
            continue
        flag = flag.replace("${KERNEL_DIR}", kernel_dir)
        name = flag.split("=", 1)[0]
        if symbolic and name in GEOMETRY_FLAGS:
            skip_value = "=" not in flag  # `--blockDim 64`: the value is the next word
            continue
        if all_flags or flag.startswith(PASSED_PREFIXES) or name in forward:
            passed.append(flag)
        else:
            dropped.append(flag)
    return passed, dropped


def classify(expect, code, stderr=""):
    if code is None:
        return "other"
    if code == 2 and "CUDA's launch limits" in stderr:
        return "over limits"
    if (expect == "pass" and code == 0) or (expect == "NOT_ALL_VERIFIED" and code == 1):
        return "agreed"
    if expect in FRONTEND_ERRORS and code == 2:
        return "agreed"
    if expect in FRONTEND_ERRORS and code in (0, 1):
        return "beyond"
    if expect == "NOT_ALL_VERIFIED" and code == 0:
        return "missed"
    if expect == "pass" and code == 1:
        return "false alarm"
    if code == 2:
        return "unsupported"
    if code == 3:
        return "inconclusive"
    return "other"


def children_cpu():
    """User + system CPU seconds of this process's finished (waited-for) descendants."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_kernel(path, suite, args, extra=()):
    """Runs gpug on one suite kernel (with `extra` arguments after --gpug-arg's) into a row."""
    kernel_dir = os.path.dirname(path)
    expect, flags = parse_header(path)
    erratum = ERRATA.get((os.path.basename(os.path.normpath(suite)), os.path.basename(kernel_dir)))
    if erratum is not None:
        expect = erratum[0]
    passed, dropped = select_flags(flags, kernel_dir, set(args.forward), args.all_flags,
                                   args.symbolic)
    report = ["--json"] if args.conditions else []
    cmd = [args.gpug, "--timeout", str(args.timeout), *report, *args.gpug_arg, *extra, *passed, path]
    start = time.monotonic()
    cpu_start = children_cpu()
    note = ""
    try:
        proc = subprocess.run(
            cmd,
            cwd=kernel_dir,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=PROCESS_TIMEOUT_S,
        )
        code = proc.returncode
        if code < 0:
            note = f"killed by signal {-code}"
            code = None
        stderr = proc.stderr
    except subprocess.TimeoutExpired as e:
        code = None
        note = f"timed out after {PROCESS_TIMEOUT_S} s"
        stderr = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    except OSError as e:
        code = None
        note = f"could not run: {e}"
        stderr = ""
    elapsed = time.monotonic() - start
    # CPU seconds of gpug and the clang and solver processes it waited for: exact only when
    # kernels run one at a time (-j 1), where it holds under load as wall time does not.
    cpu = round(children_cpu() - cpu_start, 3) if args.jobs == 1 else None
    last_err = next((l.strip() for l in reversed(stderr.splitlines()) if l.strip()), "")
    contract = contract_of(proc.stdout) if args.conditions and code is not None else {}
    return {
        **contract,
        "kernel": os.path.relpath(kernel_dir, suite),
        "expected": expect,
        "exit": code,
        "time_s": round(elapsed, 3),
        "cpu_s": cpu,
        "outcome": classify(expect, code, stderr),
        "note": note,
        "flags": passed,
        "dropped_flags": dropped,
        "stderr_last_line": last_err[:300],
        "erratum": erratum[1] if erratum is not None else None,
    }


WITNESS_RX = re.compile(r" \(its witness: [^)]*\)")


def contract_of(stdout):
    """The launch-contract data of gpug's JSON report (--conditions): each kernel's contract
    items, the conditions of its excluded findings and of its findings (witness values
    dropped, so equal conditions count together), its suggested --assume expressions and its
    number of benign races."""
    try:
        report = json.loads(stdout)
    except ValueError:
        return {}
    out = {"contract": [], "conditions": [], "suggestions": [], "benign": 0}
    for k in report.get("kernels", []):
        out["contract"] += k.get("contract", [])
        for f in k.get("excluded", []) + k.get("findings", []):
            if f.get("condition"):
                out["conditions"].append(WITNESS_RX.sub("", f["condition"]))
        out["suggestions"] += k.get("suggestions", [])
        out["benign"] += len(k.get("benign", []))
    return out


def print_conditions(rows, label=""):
    """The most common contract items, conditions and suggestions of a run (--conditions)."""
    from collections import Counter
    for key, what in [("contract", "contract items"), ("conditions", "conditions of findings"),
                      ("suggestions", "suggested --assume")]:
        tally = Counter(c for r in rows for c in r.get(key, []))
        kernels = sum(1 for r in rows if r.get(key))
        print(f"{label}{what} ({kernels} kernels):")
        for text, n in tally.most_common(5):
            print(f"  {n:4d}  {text}")
    print(f"{label}benign races: {sum(r.get('benign', 0) for r in rows)} in "
          f"{sum(1 for r in rows if r.get('benign'))} kernels")


def find_kernels(suite, filter_rx):
    """Every `kernel.cu` or `kernel.cl` below `suite`, sorted, keeping those whose folder matches
    `filter_rx`."""
    kernels = []
    for dirpath, dirnames, filenames in os.walk(suite):
        dirnames.sort()
        for name in ("kernel.cu", "kernel.cl"):
            if name in filenames:
                kernels.append(os.path.join(dirpath, name))
    kernels.sort()
    if filter_rx:
        rx = re.compile(filter_rx)
        kernels = [k for k in kernels if rx.search(os.path.relpath(os.path.dirname(k), suite))]
    return kernels


def row_notes(r, with_error):
    """The parenthesized notes of a row: gpug's fate, dropped flags, stderr's last line."""
    extra = []
    if r["note"]:
        extra.append(r["note"])
    if r["dropped_flags"]:
        extra.append("dropped " + " ".join(r["dropped_flags"]))
    if with_error and r["outcome"] != "agreed" and r["stderr_last_line"]:
        extra.append(r["stderr_last_line"][:120])
    return extra


def exit_text(r):
    return "-" if r["exit"] is None else str(r["exit"])


def print_table(rows):
    """One row per kernel: expectation, exit code, wall time, outcome and notes."""
    width = max(len(r["kernel"]) for r in rows)
    print(f"{'kernel':<{width}}  {'expected':<18} {'exit':>4} {'time':>8}  outcome")
    for r in rows:
        extra = row_notes(r, True)
        tail = f"  ({'; '.join(extra)})" if extra else ""
        print(f"{r['kernel']:<{width}}  {r['expected']:<18} {exit_text(r):>4} {r['time_s']:>7.2f}s  "
              f"{r['outcome']}{tail}")


def print_pair_table(rows_a, rows_b, compare):
    """One row per kernel with both runs' exit code, time and outcome (B: with `compare`)."""
    width = max(len(r["kernel"]) for r in rows_a)
    print(f"run A: as given; run B: adds {' '.join(compare)}")
    print(f"{'kernel':<{width}}  {'expected':<18} {'A exit':>6} {'time':>8}  {'outcome':<13}"
          f" {'B exit':>6} {'time':>8}  outcome")
    for a, b in zip(rows_a, rows_b):
        extra = row_notes(a, True)
        extra += ["B: " + e for e in row_notes(b, b["outcome"] != a["outcome"])
                  if not e.startswith("dropped ")]
        tail = f"  ({'; '.join(extra)})" if extra else ""
        print(f"{a['kernel']:<{width}}  {a['expected']:<18} {exit_text(a):>6} {a['time_s']:>7.2f}s "
              f" {a['outcome']:<13} {exit_text(b):>6} {b['time_s']:>7.2f}s  {b['outcome']}{tail}")


def summarize(rows):
    """Counts per outcome, kernels, and median and total wall (and, with -j 1, CPU) seconds."""
    totals = {o: sum(1 for r in rows if r["outcome"] == o) for o in OUTCOMES}
    cpus = [r["cpu_s"] for r in rows if r["cpu_s"] is not None]
    totals.update({
        "kernels": len(rows),
        "median_time_s": statistics.median(r["time_s"] for r in rows),
        "median_cpu_s": statistics.median(cpus) if cpus else None,
        "total_time_s": round(sum(r["time_s"] for r in rows), 3),
        "total_cpu_s": round(sum(cpus), 3) if cpus else None,
        "errata": [(r["kernel"], r["erratum"]) for r in rows if r.get("erratum")],
    })
    return totals


def print_totals(totals):
    """The totals block of one run."""
    print(f"kernels:                 {totals['kernels']}")
    print(f"agreed:                  {totals['agreed']}")
    print(f"missed races/defects:    {totals['missed']}   (must be 0)")
    print(f"false alarms:            {totals['false alarm']}")
    print(f"unsupported (exit 2):    {totals['unsupported']}")
    print(f"over CUDA's limits:      {totals['over limits']}   (exit 2: the flags ask for a launch CUDA cannot make)")
    print(f"inconclusive (exit 3):   {totals['inconclusive']}")
    print(f"verdict, GPUVerify none: {totals['beyond']}   (its front end refuses the kernel)")
    print(f"others:                  {totals['other']}")
    for kernel, why in totals.get("errata", []):
        print(f"expectation corrected:   {kernel} judged as pass (ERRATA: {why})")
    print(f"median time per kernel:  {totals['median_time_s']:.2f} s")
    print(f"total time:              {totals['total_time_s']:.2f} s   (wall, all kernels)")
    if totals["median_cpu_s"] is not None:
        print(f"median CPU per kernel:   {totals['median_cpu_s']:.2f} s   "
              "(gpug, clang and solvers; -j 1)")
        print(f"total CPU:               {totals['total_cpu_s']:.2f} s")


def run_label(args, extra):
    """A short name for a run: symbolic or fixed launches, and its extra arguments."""
    words = ["symbolic" if args.symbolic else "suite flags", *extra]
    return " ".join(words)


SIDE_COLUMNS = (
    ("agreed", "agreed", "d"), ("missed", "missed", "d"), ("false al.", "false alarm", "d"),
    ("unsupp.", "unsupported", "d"), ("limits", "over limits", "d"), ("inconcl.", "inconclusive", "d"),
    ("beyond", "beyond", "d"), ("timeout/oth", "other", "d"),
    ("med wall", "median_time_s", "s"), ("tot wall", "total_time_s", "s"),
    ("med CPU", "median_cpu_s", "s"), ("tot CPU", "total_cpu_s", "s"),
)


def fmt_total(value, kind):
    if value is None:
        return "-"
    return str(value) if kind == "d" else f"{value:.2f}s"


def print_totals_side_by_side(runs):
    """One totals line per (label, totals), in aligned columns."""
    width = max(len("run"), *(len(label) for label, _ in runs))
    cells = [[fmt_total(t[key], kind) for _, key, kind in SIDE_COLUMNS] for _, t in runs]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, (h, _, _) in enumerate(SIDE_COLUMNS)]
    print(f"{'run':<{width}}  " + " ".join(f"{h:>{w}}" for (h, _, _), w in zip(SIDE_COLUMNS, widths)))
    for (label, _), row in zip(runs, cells):
        print(f"{label:<{width}}  " + " ".join(f"{c:>{w}}" for c, w in zip(row, widths)))


def differences(rows_a, rows_b):
    """The kernels whose exit code or outcome differs between two runs, with both."""
    diffs = []
    for a, b in zip(rows_a, rows_b):
        if (a["exit"], a["outcome"]) != (b["exit"], b["outcome"]):
            diffs.append({"kernel": a["kernel"], "expected": a["expected"],
                          "a": {k: a[k] for k in ("exit", "outcome", "time_s", "note")},
                          "b": {k: b[k] for k in ("exit", "outcome", "time_s", "note",
                                                  "stderr_last_line")}})
    return diffs


def print_differences(diffs):
    """The short list of kernels whose outcome differs between run A and run B."""
    if not diffs:
        print("no kernel's outcome differs between the two runs")
        return
    print(f"{len(diffs)} kernels differ (A -> B):")
    width = max(len(d["kernel"]) for d in diffs)
    for d in diffs:
        a, b = d["a"], d["b"]
        why = b["note"] or b["stderr_last_line"]
        tail = f"  ({why[:100]})" if why else ""
        print(f"  {d['kernel']:<{width}}  {d['expected']:<16} "
              f"{a['outcome']} (exit {exit_text(a)}, {a['time_s']:.2f}s) -> "
              f"{b['outcome']} (exit {exit_text(b)}, {b['time_s']:.2f}s){tail}")


def print_time_changes(rows_a, rows_b, count=5, least_s=0.5):
    """The `count` kernels whose wall time changed most between run A and run B (by more
    than `least_s` seconds), whatever their outcome: where B's extra arguments cost or save."""
    changes = sorted(((b["time_s"] - a["time_s"], a, b) for a, b in zip(rows_a, rows_b)
                      if abs(b["time_s"] - a["time_s"]) > least_s),
                     key=lambda c: -abs(c[0]))[:count]
    if not changes:
        return
    print(f"largest wall-time changes (A -> B, over {least_s} s):")
    width = max(len(a["kernel"]) for _, a, _ in changes)
    for delta, a, b in changes:
        print(f"  {a['kernel']:<{width}}  {a['time_s']:>7.2f}s -> {b['time_s']:>7.2f}s  "
              f"({delta:+.2f}s, {b['outcome']})")


def main():
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", help="GPUVerify testsuite/CUDA directory (already checked out)")
    ap.add_argument("gpug", help="path to the gpug binary")
    ap.add_argument("--json", metavar="OUT", help="write the per-kernel rows and totals to OUT")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="kernels run at once (default 1; more skews the times)")
    ap.add_argument("--timeout", type=int, default=10, help="gpug's --timeout (default 10)")
    ap.add_argument("--forward", action="append", default=[], metavar="FLAG",
                    help="also pass this GPUVerify flag on, e.g. --forward=--equality-abstraction")
    ap.add_argument("--all-flags", action="store_true", help="pass every flag of line 2 on")
    ap.add_argument("--gpug-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for gpug, e.g. --gpug-arg=--solver --gpug-arg=cvc5")
    ap.add_argument("--filter", metavar="REGEX", help="only kernels whose folder matches")
    ap.add_argument("--symbolic", action="store_true",
                    help="drop --blockDim/--gridDim of line 2: every launch dimension symbolic")
    ap.add_argument("--compare", action="append", default=[], metavar="ARG",
                    help="run the suite a second time with this extra gpug argument "
                         "(repeatable), e.g. --compare=--no-overflow, and compare the runs")
    ap.add_argument("--conditions", action="store_true",
                    help="read gpug's JSON report and print the five most common launch-contract "
                         "items, conditions of findings and suggested --assume expressions "
                         "(issue 11) after the totals")
    args = ap.parse_args()

    suite = os.path.abspath(args.suite)
    if not os.path.isdir(suite):
        sys.exit(f"gpuverify-suite: {args.suite} is not a directory")
    args.gpug = os.path.abspath(args.gpug)
    if not (os.path.isfile(args.gpug) and os.access(args.gpug, os.X_OK)):
        sys.exit(f"gpuverify-suite: {args.gpug} is not an executable file")
    kernels = find_kernels(suite, args.filter)
    if not kernels:
        sys.exit(f"gpuverify-suite: no kernel.cu or kernel.cl under {suite}")

    def run_both(k):
        row = run_kernel(k, suite, args)
        return row, (run_kernel(k, suite, args, args.compare) if args.compare else None)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        pairs = list(pool.map(run_both, kernels))
    rows = [a for a, _ in pairs]

    if args.symbolic:
        print("(--symbolic: --blockDim/--gridDim of line 2 dropped, every launch dimension "
              "symbolic)")
    if args.compare:
        rows_b = [b for _, b in pairs]
        print_pair_table(rows, rows_b, args.compare)
    else:
        rows_b = None
        print_table(rows)

    totals = summarize(rows)
    print()
    if not args.compare:
        print_totals(totals)
    result = {"suite": suite, "gpug": args.gpug, "timeout": args.timeout,
              "symbolic": args.symbolic, "totals": totals, "kernels": rows}
    missed = totals["missed"]
    if rows_b is not None:
        totals_b = summarize(rows_b)
        diffs = differences(rows, rows_b)
        print(f"kernels: {len(rows)}; missed races/defects must be 0; "
              "CPU counted with -j 1 only")
        print_totals_side_by_side(
            [(run_label(args, []), totals), (run_label(args, args.compare), totals_b)])
        print()
        print_differences(diffs)
        print_time_changes(rows, rows_b)
        result["compare"] = {"args": args.compare, "totals": totals_b, "kernels": rows_b,
                             "differences": diffs}
        missed += totals_b["missed"]

    if args.conditions:
        print()
        print_conditions(rows, "" if rows_b is None else f"[{run_label(args, [])}] ")
        if rows_b is not None:
            print_conditions(rows_b, f"[{run_label(args, args.compare)}] ")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
