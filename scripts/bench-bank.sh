#!/bin/sh
# Times `gpug bank` on every example of examples/bank/ with each solver (flags from line 2 of
# each example) and prints one line per example: wall-clock seconds per solver, exit code.
# Usage: scripts/bench-bank.sh [GPUG] [SOLVERS...]   (default: target/release/gpug; z3 cvc5 yices)
set -eu
cd "$(dirname "$0")/.."
GPUG=${1:-target/release/gpug}
[ $# -gt 0 ] && shift
SOLVERS=${*:-z3 cvc5 yices}
printf '%-24s' example
for s in $SOLVERS; do printf '%10s' "$s"; done
printf '\n'
for f in examples/bank/*.cu; do
    flags=$(sed -n 2p "$f" | sed 's|^//||')
    printf '%-24s' "$(basename "$f")"
    for s in $SOLVERS; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        code=0; "$GPUG" bank --solver "$s" $flags "$f" >/dev/null 2>&1 || code=$?
        end=$(date +%s.%N)
        printf '%8.2fs%s' "$(awk "BEGIN { print $end - $start }")" "$([ "$code" -le 1 ] && echo ' ' || echo '!')"
    done
    printf '\n'
done
echo "(! after a figure: exit code 2 or 3)"
