#!/usr/bin/env bash
# Times runs over many files (issue 15): for each directory, `gpug DIR` with --jobs 1 and
# --jobs 2 (files at once) with $SOLVER, and with --jobs 1 --solver portfolio (every solver
# installed, racing each query), each the median of N runs of the whole process, printing the
# total wall-clock seconds, the median of the files' own seconds (from --json), the verdict
# counts, and the ratio of each total to the first row's. A benchmark, not a test: a slow run
# never fails it; it exits 1 if a run's verdict counts differ from the first row's.
#
#   scripts/bench-suite.sh [-n N] [DIR ...]
#
#   -n N   runs per measurement, default 3
#   DIR    directories of kernels; default examples/ (add GPUVerify's testsuite/CUDA by path)
#   environment: GPUG=/path/to/gpug skips the build; SOLVER=z3 (default); TIMEOUT=60;
#   SOLVERS="z3 cvc5 yices /opt/z3/bin/z3" compares solvers instead (issue 46): each directory
#   with --jobs 1 and each solver in turn (a name of `gpug solvers`, or a path to a z3, cvc5 or
#   yices-smt2 binary, run through --solver-cmd with that solver's interactive flags), printing
#   per solver the total, the median file, how many kernels it decided (verified or defect),
#   the verdict counts, and the kernels whose verdict differs from the first solver's.
# `gpug check` on bitonic sort, tree reduction and scalar product at 8, 16 and 32 threads:
#   THREADS="8 16 32" scripts/bench-check.sh
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs=3
while getopts "n:h" opt; do
    case $opt in
        n) runs=$OPTARG ;;
        h) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then echo "bench-suite: -n wants a positive integer, got '$runs'" >&2; exit 2; fi
dirs=("$@")
[[ ${#dirs[@]} -eq 0 ]] && dirs=(examples)
solver=${SOLVER:-z3}
timeout=${TIMEOUT:-60}
if [[ -n "${GPUG:-}" ]]; then gpug="$GPUG"; else cargo build --release --quiet || exit 2; gpug="${CARGO_TARGET_DIR:-$root/target}/release/gpug"; fi

# gpug's solver arguments for a SOLVERS entry: a name, or a path run with its flags.
solver_args() {
    case $1 in
        */*z3*) echo "--solver-cmd" "$1 -in -smt2" ;;
        */*cvc5*) echo "--solver-cmd" "$1 --incremental --lang=smt2 --quiet" ;;
        */*yices*) echo "--solver-cmd" "$1 --incremental" ;;
        *) echo "--solver" "$1" ;;
    esac
}

# One run: prints "WALL MEDIAN_FILE COUNTS" (counts: verified/defect/inconclusive/error);
# with a 4th argument, also writes "FILE KERNEL VERDICT" lines to that file.
one_run() {
    local dir=$1 jobs=$2 with=$3 verdicts=${4:-/dev/null} out start end flag value
    read -r flag value < <(solver_args "$with")
    out=$(mktemp)
    start=$(date +%s.%N)
    "$gpug" "$dir" --json --jobs "$jobs" "$flag" "$value" --timeout "$timeout" >"$out" 2>/dev/null
    end=$(date +%s.%N)
    python3 - "$out" "$start" "$end" "$verdicts" <<'PY'
import json, statistics, sys
path, start, end, verdicts = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
secs, counts = [], {"verified": 0, "defect": 0, "inconclusive": 0, "error": 0}
rows = []
for line in open(path):
    o = json.loads(line)
    secs.append(o.get("seconds", 0.0))
    if "error" in o:
        counts["error"] += 1
        rows.append(f"{o['file']} - error")
    for k in o.get("kernels", []):
        counts[k["verdict"]] += 1
        rows.append(f"{o['file']} {k['name']} {k['verdict']}")
with open(verdicts, "w") as f:
    f.write("".join(r + "\n" for r in rows))
med = statistics.median(secs) if secs else 0.0
print(f"{end - start:.3f} {med:.3f} {counts['verified']}/{counts['defect']}/{counts['inconclusive']}/{counts['error']}")
PY
    rm -f "$out"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

status=0
if [[ -n "${SOLVERS:-}" ]]; then
    read -r -a solvers <<<"$SOLVERS"
    printf '%-36s %-28s %9s %12s %8s %8s  %s\n' directory solver "total s" "median file" ratio decided "verified/defect/inconclusive/error"
    for dir in "${dirs[@]}"; do
        base="" first=""
        for with in "${solvers[@]}"; do
            walls=() meds=() counts=""
            verdicts=$(mktemp)
            for ((r = 0; r < runs; r++)); do
                read -r wall med c < <(one_run "$dir" 1 "$with" "$verdicts")
                walls+=("$wall"); meds+=("$med"); counts=$c
            done
            wall=$(printf '%s\n' "${walls[@]}" | median)
            med=$(printf '%s\n' "${meds[@]}" | median)
            [[ -z $base ]] && base=$wall
            IFS=/ read -r v d _ _ <<<"$counts"
            ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN {printf "%.3f", a / b}')
            printf '%-36s %-28s %9.3f %12.3f %8s %8s  %s\n' "$dir" "$with" "$wall" "$med" "$ratio" "$((v + d))" "$counts"
            if [[ -z $first ]]; then
                first=$verdicts
            else
                diff <(sort "$first") <(sort "$verdicts") | sed -n 's/^> /    differs from the first solver: /p'
                rm -f "$verdicts"
            fi
        done
        rm -f "$first"
    done
    exit 0
fi
printf '%-40s %-22s %10s %12s %8s  %s\n' directory "jobs, solver" "total s" "median file" ratio "verified/defect/inconclusive/error"
for dir in "${dirs[@]}"; do
    base=""
    first_counts=""
    for config in "1 $solver" "2 $solver" "1 portfolio"; do
        read -r jobs with <<<"$config"
        walls=() meds=() counts=""
        for ((r = 0; r < runs; r++)); do
            read -r wall med c < <(one_run "$dir" "$jobs" "$with")
            walls+=("$wall"); meds+=("$med"); counts=$c
        done
        wall=$(printf '%s\n' "${walls[@]}" | median)
        med=$(printf '%s\n' "${meds[@]}" | median)
        [[ -z $base ]] && base=$wall
        [[ -z $first_counts ]] && first_counts=$counts
        [[ $counts != "$first_counts" ]] && status=1
        ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN {printf "%.3f", a / b}')
        printf '%-40s %-22s %10.3f %12.3f %8s  %s\n' "$dir" "$jobs, $with" "$wall" "$med" "$ratio" "$counts"
    done
done
exit $status
