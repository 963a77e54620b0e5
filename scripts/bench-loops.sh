#!/usr/bin/env bash
# Thread-count independence of loop handling (issue: loop abstraction). Times `gpug` on the
# grid-stride example and on the tree reduction at --blockDim 32, 1024 and symbolic
# ([*,1,1]: any number of threads in x), each with loops abstracted (--unroll=0) and, for the
# reduction, also with the default unrolling of concrete loops. Prints the median of 5 runs
# (each query limited to 20 s; a run that hits the limit shows about 20 s), and for each
# example and loop mode the ratio of the slowest to the fastest of the three block sizes.
# Usage: scripts/bench-loops.sh [SOLVER]     (default z3); GPUG=/path/to/gpug skips the build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
solver="${1:-z3}"
if [[ -n "${GPUG:-}" ]]; then gpug="$GPUG"; else cargo build --release --quiet; gpug="${CARGO_TARGET_DIR:-$root/target}/release/gpug"; fi

median_time() {
    local times=()
    for _ in 1 2 3 4 5; do
        local start end
        start=$(date +%s.%N)
        "$gpug" --solver "$solver" --timeout 20 "$@" >/dev/null || true
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc)")
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 3p
}

printf '%-34s %-10s %-12s %s\n' example blockDim loops "median s"
declare -A lo hi
for example in grid_stride reduce; do
    for dim in 32 1024 '[*,1,1]'; do
        modes=("--unroll=0")
        [[ $example == reduce ]] && modes+=("--unroll=64")
        for mode in "${modes[@]}"; do
            t=$(median_time "--blockDim=$dim" --gridDim=64 "$mode" "examples/$example.cu")
            printf '%-34s %-10s %-12s %.3f\n' "examples/$example.cu" "$dim" "$mode" "$t"
            key="$example $mode"
            if [[ -z "${lo[$key]:-}" ]] || (( $(echo "$t < ${lo[$key]}" | bc) )); then lo[$key]=$t; fi
            if [[ -z "${hi[$key]:-}" ]] || (( $(echo "$t > ${hi[$key]}" | bc) )); then hi[$key]=$t; fi
        done
    done
done
echo
for key in "${!lo[@]}"; do
    printf '%-34s slowest/fastest over the block sizes: %.2f\n' "$key" "$(echo "${hi[$key]} / ${lo[$key]}" | bc -l)"
done | sort
