#!/usr/bin/env bash
# Symbolic launches with and without `--no-overflow` (issue 21). For each example and each
# solver, runs `gpug` on the flags of the example's FIRST `// expect:` / `// --flags` pair, once
# with `--no-overflow` added and once with it removed, and prints the verdict and the median
# wall-clock seconds of N runs (the whole process: clang, encoding and solver). The `expected`
# column is the verdict of the example's pair with exactly those flags, `-` if it has none.
# A benchmark, not a test: a slow run never fails it, nor does a verdict other than expected;
# it exits 1 if gpug crashes or errs (an exit code other than 0 verified, 1 defect,
# 3 inconclusive) in any run, after printing the whole table. A defect's verdict is `race` or
# `divergence`, after what gpug printed.
#
#   scripts/bench-symbolic.sh [-n N] [EXAMPLE.cu ...]
#
#   -n N        runs per measurement, default 3 (the median is printed; verdicts that differ
#               between runs are all shown, as `race/inconclusive`)
#   EXAMPLE.cu  more examples, after the five of issue 21
#   environment: GPUG=/path/to/gpug skips the build; SOLVERS="z3 cvc5 yices" (default; a solver
#               `gpug solvers` says is not available is skipped with a note); TIMEOUT=20 (gpug's
#               --timeout, seconds per query).
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
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then echo "bench-symbolic: -n wants a positive integer, got '$runs'" >&2; exit 2; fi

examples=(examples/scale_symbolic.cu examples/scale_symbolic_overlap.cu
          examples/matrix_2d_symbolic.cu examples/matrix_2d_symbolic_transposed.cu
          examples/divrem_symbolic.cu "$@")
solvers=(${SOLVERS:-z3 cvc5 yices})
timeout=${TIMEOUT:-20}
if [[ -n "${GPUG:-}" ]]; then gpug="$GPUG"; else cargo build --release --quiet || exit 2; gpug="${CARGO_TARGET_DIR:-$root/target}/release/gpug"; fi

available=()
for s in "${solvers[@]}"; do
    if "$gpug" solvers | awk -v s="$s" '$1 == s && $3 != "not" { found = 1 } END { exit !found }'; then
        available+=("$s")
    else
        echo "note: solver $s is not available (see \`gpug solvers\`): skipped" >&2
    fi
done

# The flags of pair number $2 (0-based) of example $1, one line; fails if there is none.
pair_flags() {
    awk -v want="$2" '
        n == 2 * want + 1 { if (sub(/^\/\/[ \t]*/, "")) { print; found = 1 }; exit }
        n % 2 == 0 && !/^\/\/ expect:/ { exit }
        { n++ }
        END { exit !found }' "$1"
}
# The expectation of pair number $2 of example $1.
pair_expect() {
    awk -v want="$2" 'NR == 2 * want + 1 && /^\/\/ expect:/ { print $3; exit }' "$1"
}
# Words of $1, sorted, on one line: two flag lists compare equal whatever their order.
canonical() { tr -s ' \t' '\n' <<<"$1" | sed '/^$/d' | sort | tr '\n' ' '; }

# The expectation of the pair of example $1 whose flags are the words of $2, else `-`.
expected_for() {
    local want i=0 flags
    want=$(canonical "$2")
    while flags=$(pair_flags "$1" "$i"); do
        if [[ $(canonical "$flags") == "$want" ]]; then pair_expect "$1" "$i"; return; fi
        i=$((i + 1))
    done
    echo -
}

tmp=$(mktemp -d)/gpug
trap 'rm -rf "$(dirname "$tmp")"' EXIT
crashed=0
printf '%-44s %-6s %-13s %-11s %-24s %9s\n' example solver no-overflow expected verdict "median s"
for ex in "${examples[@]}"; do
    if ! first=$(pair_flags "$ex" 0); then
        echo "bench-symbolic: $ex does not start with a \`// expect:\` / \`// --flags\` pair" >&2
        crashed=1
        continue
    fi
    read -ra base <<<"$first"
    without=()
    for f in "${base[@]}"; do [[ $f == --no-overflow ]] || without+=("$f"); done
    for s in "${available[@]}"; do
        for mode in with without; do
            flags=("${without[@]}")
            [[ $mode == with ]] && flags+=(--no-overflow)
            expect=$(expected_for "$ex" "${flags[*]}")
            times=() verdicts=()
            for ((r = 0; r < runs; r++)); do
                start=$(date +%s.%N)
                "$gpug" --solver "$s" --timeout "$timeout" "${flags[@]}" "$ex" >"$tmp.out" 2>"$tmp.err"
                rc=$?
                end=$(date +%s.%N)
                times+=("$(echo "$end - $start" | bc)")
                case $rc in
                    0) v=verified ;;
                    1) if grep -q ' race on ' "$tmp.out"; then v=race
                       elif grep -q 'barrier divergence' "$tmp.out"; then v=divergence
                       else v=defect; fi ;;
                    3) v=inconclusive ;;
                    *) v="error($rc)"; crashed=1
                       echo "bench-symbolic: gpug exited $rc on $ex ($s, $mode --no-overflow): $(tail -n 1 "$tmp.err")" >&2 ;;
                esac
                verdicts+=("$v")
            done
            verdict=$(printf '%s\n' "${verdicts[@]}" | awk '!seen[$0]++' | paste -sd/)
            median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')
            printf '%-44s %-6s %-13s %-11s %-24s %9.3f\n' "$ex" "$s" "$mode" "$expect" "$verdict" "$median"
        done
    done
done
exit $crashed
