#!/usr/bin/env python3
"""Run gpug over GPUVerify's CUDA test suite and compare with the suite's expectations.

Usage:
    scripts/gpuverify-suite.py SUITE_DIR GPUG [--json OUT] [-j N] [--timeout S]
                               [--forward FLAG]... [--all-flags] [--gpug-arg ARG]...

SUITE_DIR is a checked-out GPUVerify `testsuite/CUDA` directory (this script never downloads
anything); GPUG is the gpug binary. Every `kernel.cu` below SUITE_DIR starts with

    //pass                       or  //xfail:NOT_ALL_VERIFIED  (or //xfail:BUGLE_ERROR, ...)
    //--blockDim=... --gridDim=... [-DWIDTH=...] [GPUVerify-only flags]

and is run as `GPUG --timeout S <flags> kernel.cu` (in the kernel's folder, with a 60 s limit
on the whole process). Of line 2, `--blockDim`, `--gridDim`, `-D...` and `-I...` are passed on
(`${KERNEL_DIR}` expanded); other GPUVerify flags (`--no-inline`, `--warp-sync=32`, ...) are
dropped and listed in the table, unless named with `--forward` or `--all-flags` is given.

Outcomes, from the expectation and gpug's exit code (0 verified, 1 defect, 2 unsupported
input / usage error, 3 inconclusive):

    agreed         pass & 0, NOT_ALL_VERIFIED & 1, BUGLE_ERROR/CLANG_ERROR & 2
    missed         NOT_ALL_VERIFIED & 0          (a missed race/defect: must be 0)
    false alarm    pass & 1
    unsupported    2 (when not agreed)
    inconclusive   3
    beyond         BUGLE_ERROR/CLANG_ERROR & 0 or 1 (a verdict where GPUVerify's front end
                   gives none: neither agreed nor wrong; check it by reading the kernel)
    other          anything else: timeouts, crashes, other exit codes or expectations

The script prints one row per kernel and the totals, and exits with 1 if any defect was missed.
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
PASSED_PREFIXES = ("--blockDim", "--gridDim", "-D", "-I")
FRONTEND_ERRORS = ("BUGLE_ERROR", "CLANG_ERROR")
OUTCOMES = ("agreed", "missed", "false alarm", "unsupported", "inconclusive", "beyond", "other")


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


def select_flags(flags, kernel_dir, forward, all_flags):
    """Splits line-2 flags into (passed, dropped), expanding ${KERNEL_DIR}."""
    passed, dropped = [], []
    for flag in flags:
        flag = flag.replace("${KERNEL_DIR}", kernel_dir)
        name = flag.split("=", 1)[0]
        if all_flags or flag.startswith(PASSED_PREFIXES) or name in forward:
            passed.append(flag)
        else:
            dropped.append(flag)
    return passed, dropped


def classify(expect, code):
    if code is None:
        return "other"
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


def run_kernel(path, suite, args):
    kernel_dir = os.path.dirname(path)
    expect, flags = parse_header(path)
    passed, dropped = select_flags(flags, kernel_dir, set(args.forward), args.all_flags)
    cmd = [args.gpug, "--timeout", str(args.timeout), *args.gpug_arg, *passed, path]
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
    return {
        "kernel": os.path.relpath(kernel_dir, suite),
        "expected": expect,
        "exit": code,
        "time_s": round(elapsed, 3),
        "cpu_s": cpu,
        "outcome": classify(expect, code),
        "note": note,
        "flags": passed,
        "dropped_flags": dropped,
        "stderr_last_line": last_err[:300],
    }


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
                    help="also pass this GPUVerify flag on, e.g. --forward=--warp-sync")
    ap.add_argument("--all-flags", action="store_true", help="pass every flag of line 2 on")
    ap.add_argument("--gpug-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for gpug, e.g. --gpug-arg=--solver --gpug-arg=cvc5")
    ap.add_argument("--filter", metavar="REGEX", help="only kernels whose folder matches")
    args = ap.parse_args()

    suite = os.path.abspath(args.suite)
    if not os.path.isdir(suite):
        sys.exit(f"gpuverify-suite: {args.suite} is not a directory")
    args.gpug = os.path.abspath(args.gpug)
    if not (os.path.isfile(args.gpug) and os.access(args.gpug, os.X_OK)):
        sys.exit(f"gpuverify-suite: {args.gpug} is not an executable file")

    kernels = []
    for dirpath, dirnames, filenames in os.walk(suite):
        dirnames.sort()
        if "kernel.cu" in filenames:
            kernels.append(os.path.join(dirpath, "kernel.cu"))
    kernels.sort()
    if args.filter:
        rx = re.compile(args.filter)
        kernels = [k for k in kernels if rx.search(os.path.relpath(os.path.dirname(k), suite))]
    if not kernels:
        sys.exit(f"gpuverify-suite: no kernel.cu under {suite}")

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(lambda k: run_kernel(k, suite, args), kernels))

    width = max(len(r["kernel"]) for r in rows)
    print(f"{'kernel':<{width}}  {'expected':<18} {'exit':>4} {'time':>8}  outcome")
    for r in rows:
        code = "-" if r["exit"] is None else str(r["exit"])
        extra = []
        if r["note"]:
            extra.append(r["note"])
        if r["dropped_flags"]:
            extra.append("dropped " + " ".join(r["dropped_flags"]))
        if r["outcome"] != "agreed" and r["stderr_last_line"]:
            extra.append(r["stderr_last_line"][:120])
        tail = f"  ({'; '.join(extra)})" if extra else ""
        print(f"{r['kernel']:<{width}}  {r['expected']:<18} {code:>4} {r['time_s']:>7.2f}s  "
              f"{r['outcome']}{tail}")

    totals = {o: sum(1 for r in rows if r["outcome"] == o) for o in OUTCOMES}
    median = statistics.median(r["time_s"] for r in rows)
    print()
    print(f"kernels:                 {len(rows)}")
    print(f"agreed:                  {totals['agreed']}")
    print(f"missed races/defects:    {totals['missed']}   (must be 0)")
    print(f"false alarms:            {totals['false alarm']}")
    print(f"unsupported (exit 2):    {totals['unsupported']}")
    print(f"inconclusive (exit 3):   {totals['inconclusive']}")
    print(f"verdict, GPUVerify none: {totals['beyond']}   (its front end refuses the kernel)")
    print(f"others:                  {totals['other']}")
    print(f"median time per kernel:  {median:.2f} s")
    cpus = [r["cpu_s"] for r in rows if r["cpu_s"] is not None]
    median_cpu = statistics.median(cpus) if cpus else None
    if median_cpu is not None:
        print(f"median CPU per kernel:   {median_cpu:.2f} s   (gpug, clang and solvers; -j 1)")

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"suite": suite, "gpug": args.gpug, "timeout": args.timeout,
                       "totals": {**totals, "kernels": len(rows), "median_time_s": median,
                                  "median_cpu_s": median_cpu},
                       "kernels": rows}, f, indent=2)
            f.write("\n")
    return 1 if totals["missed"] else 0


if __name__ == "__main__":
    sys.exit(main())
