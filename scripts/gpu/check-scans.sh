#!/bin/sh
# Runs examples/barrier_invariants' scans on a real GPU (nvcc, compute-sanitizer): each at
# power-of-two block sizes (gpug: race-free, and the prefix sums exact) and at 768 threads
# (gpug: a defect, an access at index 2^32 - 1 once the offset reaches 0), under racecheck
# (shared-memory hazards) and memcheck (out-of-bounds accesses). Usage, on a machine with
# a GPU: scripts/gpu/check-scans.sh [OUTDIR]
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-/tmp/gpug-gpu}
mkdir -p "$OUT"
D=examples/barrier_invariants
build() { # name, kernel file, kernel, flags...
    name=$1 file=$2 kernel=$3; shift 3
    nvcc -O2 -arch=native -I$D -include scripts/gpu/prelude.h -include $D/$file -DKERNEL=$kernel "$@" \
        scripts/gpu/scans.cu -o "$OUT/$name" \
        2>&1 | grep -v warning || true
}
build kogge_stone kogge_stone.cu kogge_stone -DPER_THREAD=1 -DINCLUSIVE
build kogge_stone_abstract kogge_stone.cu kogge_stone -DPER_THREAD=1 -DINCLUSIVE -DABSTRACT
build blelloch blelloch.cu blelloch -DPER_THREAD=2
build blelloch_abstract blelloch.cu blelloch -DPER_THREAD=2 -DABSTRACT
build brent_kung brent_kung.cu brent_kung -DPER_THREAD=2 -DINCLUSIVE
build brent_kung_abstract brent_kung.cu brent_kung -DPER_THREAD=2 -DINCLUSIVE -DABSTRACT
build brent_kung_swapped brent_kung.cu brent_kung -DPER_THREAD=2 -DINCLUSIVE -DABSTRACT -DSWAPPED
for prog in kogge_stone kogge_stone_abstract blelloch blelloch_abstract brent_kung brent_kung_abstract brent_kung_swapped; do
    [ -x "$OUT/$prog" ] || { echo "$prog: not built"; continue; }
    sizes="256 512 768 1024"
    case $prog in blelloch*|brent_kung*) sizes="256 512 768" ;; esac
    for n in $sizes; do
        echo "== $prog $n"
        "$OUT/$prog" "$n" 2>&1 | tail -4
        for tool in racecheck memcheck; do
            compute-sanitizer --tool $tool "$OUT/$prog" "$n" > "$OUT/$prog.$n.$tool.txt" 2>&1
            summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$OUT/$prog.$n.$tool.txt" | tail -1)
            first=$(grep -m1 -E "Invalid|Race|Hazard|hazard" "$OUT/$prog.$n.$tool.txt")
            echo "   $tool: $summary ${first:+| $first}"
        done
    done
done
