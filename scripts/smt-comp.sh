#!/usr/bin/env bash
# Runs every installed SMT solver on every .smt2 file of a corpus, one query per process with
# a wall-clock limit (as SMT-COMP's single-query track does), and prints per family and
# solver: solved (sat or unsat), unsolved (timeout, unknown, error), wrong (an answer against
# the file's `(set-info :status …)`), and the total wall-clock time; then every file on which
# two solvers disagree (one sat, one unsat) and every wrong answer.
#
# Usage: scripts/smt-comp.sh [-j N] [-o FILE] [-s K/M] CORPUS [LIMIT]
#        scripts/smt-comp.sh -t FILE…
#   CORPUS  a folder searched for *.smt2 (gen-corpus.sh's output, or smt-lib/)
#   LIMIT   seconds per query and solver, default 60
#   -j N    queries at once (default 1; each its own process)
#   -o FILE also keep the raw results, one line per run: family, solver, answer, seconds,
#           status, file (tab-separated)
#   -s K/M  only the K-th of every M queries in path order (1/3: the 1st, 4th, 7th, …): a
#           deterministic subset, or one of M parts whose raw results -t puts together
#   -t FILE… print the table of raw results written by -o (several: one table of all; the
#           limit they ran under, for the summary line, from LIMIT=…, default 60)
# Env:    SOLVERS="z3 cvc5 yices-smt2" (default: those of the three on PATH; a path works
#         too). A solver that refuses a file's logic (yices on QF_FP and the like) is counted
#         unsolved, as an error; the table says how many errors each had.
#
# A family is the part of a file's path below CORPUS that names its benchmark set: the
# `<date>-gpug-<family>` folder of gen-corpus.sh's layout (shown as <family>), else the
# file's first folder below CORPUS. Uses the solvers as installed, nothing else: no
# download, no network.
set -uo pipefail

# One run: `smt-comp.sh --run LIMIT SOLVER FILE` prints "answer<TAB>seconds".
if [[ "${1:-}" == "--run" ]]; then
    limit=$2 solver=$3 file=$4
    start=$(date +%s.%N)
    out=$(timeout -k 5 "$limit" "$solver" "$file" 2>&1)
    code=$?
    end=$(date +%s.%N)
    first=$(printf '%s\n' "$out" | grep -m 1 -xE 'sat|unsat|unknown' || true)
    if [[ -n "$first" ]]; then
        answer=$first
    elif (( code == 124 || code == 137 )); then
        answer=timeout
    else
        answer=error
    fi
    printf '%s\t%.2f\n' "$answer" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
    exit 0
fi

jobs=1
raw=""
shard=1/1
table=""
while getopts "j:o:s:th" opt; do
    case $opt in
        j) jobs=$OPTARG ;;
        o) raw=$OPTARG ;;
        s) shard=$OPTARG ;;
        t) table=1 ;;
        h) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))

# table LIMIT RAW…: the table of raw results.
table() {
    local limit=$1
    shift
    cat "$@" | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2 | awk -F'\t' -v limit="$limit" '
    {
        key = $1 SUBSEP $2
        if (!(key in n)) { nk++; keys[nk] = key; kf[nk] = $1; ks[nk] = $2 }
        if (!($2 in solvers)) { nsol++; sl[nsol] = $2 }
        solvers[$2] = 1
        n[key]++; t[key] += $4
        if ($3 == "sat" || $3 == "unsat") {
            solved[key]++
            if (($5 == "sat" || $5 == "unsat") && $3 != $5) { wrong[key]++; wrongs = wrongs "  " $2 " answered " $3 " on " $6 " (status " $5 ")\n" }
            said[$6] = said[$6] " " $2 "=" $3
            if ($3 == "sat") sat[$6] = 1; else unsat[$6] = 1
        } else {
            unsolved[key]++
            if ($3 == "error") errors[key]++
        }
        file_unsolved[$6] += ($3 != "sat" && $3 != "unsat")
        files[$6] = 1
    }
    END {
        printf "%-28s %-12s %7s %8s %6s %6s %10s\n", "family", "solver", "solved", "unsolved", "(err)", "wrong", "time (s)"
        for (i = 1; i <= nk; i++) {
            key = keys[i]; s = ks[i]
            printf "%-28s %-12s %7d %8d %6d %6d %10.1f\n", kf[i], s, solved[key], unsolved[key], errors[key], wrong[key], t[key]
            tot_s[s] += solved[key]; tot_u[s] += unsolved[key]; tot_e[s] += errors[key]; tot_w[s] += wrong[key]; tot_t[s] += t[key]
        }
        for (j = 1; j <= nsol; j++)
            printf "%-28s %-12s %7d %8d %6d %6d %10.1f\n", "ALL", sl[j], tot_s[sl[j]], tot_u[sl[j]], tot_e[sl[j]], tot_w[sl[j]], tot_t[sl[j]]
        nfiles = 0; some = 0
        for (f in files) { nfiles++; if (file_unsolved[f] > 0) some++ }
        printf "\n%d queries; %d (%.1f%%) unsolved by at least one solver within %d s\n", nfiles, some, 100 * some / nfiles, limit
        printf "\nDisagreements (one solver sat, another unsat):\n"
        d = 0
        for (f in files) if ((f in sat) && (f in unsat)) { printf "  %s:%s\n", f, said[f]; d++ }
        if (d == 0) printf "  none\n"
        printf "\nWrong answers (against :status):\n%s", (wrongs == "" ? "  none\n" : wrongs)
    }'
}

if [[ -n "$table" ]]; then
    (( $# > 0 )) || { echo "smt-comp: -t wants raw result files" >&2; exit 2; }
    table "${LIMIT:-60}" "$@"
    exit 0
fi
if ! [[ $shard =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] || (( BASH_REMATCH[1] > BASH_REMATCH[2] )); then
    echo "smt-comp: -s wants K/M with 1 <= K <= M" >&2
    exit 2
fi
shard_k=${BASH_REMATCH[1]} shard_m=${BASH_REMATCH[2]}
corpus=${1:-}
limit=${2:-60}
if [[ -z "$corpus" || ! -d "$corpus" ]]; then
    echo "usage: scripts/smt-comp.sh [-j N] [-o FILE] CORPUS [LIMIT]" >&2
    exit 2
fi
if ! [[ $jobs =~ ^[1-9][0-9]*$ && $limit =~ ^[1-9][0-9]*$ ]]; then
    echo "smt-comp: -j and LIMIT want positive integers" >&2
    exit 2
fi

solvers=()
for s in ${SOLVERS:-z3 cvc5 yices-smt2}; do
    if command -v "$s" >/dev/null 2>&1; then
        solvers+=("$s")
    else
        echo "smt-comp: solver $s not found: skipped" >&2
    fi
done
(( ${#solvers[@]} > 0 )) || { echo "smt-comp: no solver installed" >&2; exit 2; }

corpus=${corpus%/}
mapfile -t files < <(find "$corpus" -name '*.smt2' -type f | LC_ALL=C sort |
    awk -v k="$shard_k" -v m="$shard_m" '(NR - 1) % m == k - 1')
(( ${#files[@]} > 0 )) || { echo "smt-comp: no .smt2 file under $corpus" >&2; exit 2; }

family_of() {
    local rel=${1#"$corpus"/}
    local part
    IFS=/ read -r -a parts <<<"$rel"
    for part in "${parts[@]}"; do
        if [[ $part =~ ^[0-9]{8}-gpug-(.+)$ ]]; then
            echo "${BASH_REMATCH[1]}"
            return
        fi
    done
    if (( ${#parts[@]} > 1 )); then echo "${parts[0]}"; else echo "."; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Results go straight to -o's file, so that a stopped run keeps what it finished.
results=${raw:-$tmp/results}
# The task list: family, solver, status, file.
for f in "${files[@]}"; do
    fam=$(family_of "$f")
    status=$(grep -m 1 -oE '^\(set-info :status (sat|unsat|unknown)\)' "$f" | awk '{ print $3 }' | tr -d ')')
    for s in "${solvers[@]}"; do
        printf '%s\t%s\t%s\t%s\n' "$fam" "$s" "${status:-unknown}" "$f"
    done
done >"$tmp/tasks"
echo "smt-comp: ${#files[@]} queries x ${#solvers[@]} solvers (${solvers[*]}), limit ${limit} s, $jobs at once" >&2

# Each task's result line: family, solver, answer, seconds, status, file.
self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
export self limit
# shellcheck disable=SC2016
tr '\n' '\0' <"$tmp/tasks" | xargs -0 -P "$jobs" -n 1 bash -c '
    IFS=$'"'"'\t'"'"' read -r fam solver status file <<<"$1"
    r=$("$self" --run "$limit" "$solver" "$file")
    printf "%s\t%s\t%s\t%s\t%s\n" "$fam" "$solver" "$r" "$status" "$file"
' _ >"$results"
table "$limit" "$results"
