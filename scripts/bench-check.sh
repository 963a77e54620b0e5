#!/usr/bin/env bash
# Times `gpug check` (canonical serialization, after the race check) for bitonic sort, tree
# reduction and scalar product at 2, 4 and 8 threads (THREADS="8 16 32" for others), with each
# solver on PATH, as PUG's
# assertion-checking table did (PUG paper, §7; PUG timed out, > 300 s, at 8 threads for three of
# them). Not a test: run it by hand.
#
#   scripts/bench-check.sh [path/to/gpug] [solvers...]
#
# A solver may be a portfolio (`portfolio`, `z3,yices`). JOBS="1 2" (default: 1 and 2) gives
# the --jobs values: a kernel's queries on that many solver processes at once.
# Prints one line per (kernel, threads, solver, jobs): the verdict and the wall-clock seconds.
set -u
cd "$(dirname "$0")/.."
GPUG=${1:-target/release/gpug}
shift || true
SOLVERS=${*:-z3 cvc5 yices}
TIMEOUT=${TIMEOUT:-300}
printf '%-16s %7s  %-16s %4s %-12s %8s\n' kernel threads solver jobs verdict seconds
for ex in bitonic reduce scalar_product; do
  for n in ${THREADS:-2 4 8}; do
    for s in $SOLVERS; do
      for j in ${JOBS:-1 2}; do
        start=$(date +%s.%N)
        "$GPUG" check "examples/check/$ex.cu" --blockDim=$n --gridDim=1 -DN=$n --solver "$s" \
          --jobs "$j" --timeout "$TIMEOUT" >/dev/null 2>&1
        rc=$?
        end=$(date +%s.%N)
        case $rc in 0) v=holds ;; 1) v=fails ;; 3) v=inconclusive ;; *) v="error($rc)" ;; esac
        printf '%-16s %7s  %-16s %4s %-12s %8.2f\n' "$ex" "$n" "$s" "$j" "$v" "$(echo "$end - $start" | bc)"
      done
    done
  done
done
