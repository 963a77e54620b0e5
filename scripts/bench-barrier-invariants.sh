#!/bin/sh
# Issue 14's benchmark (Chong et al. (OOPSLA 2013) section 5, Figures 10 and 11): the time gpug takes to prove
# the scans' barrier invariants, and stream compaction's race check, one solver per column.
#
#   scan rows:    examples/barrier_invariants/{kogge_stone,blelloch,brent_kung}.cu with
#                 -DINVARIANTS at 8, 16, 32, 64, 128 threads (Blelloch and Brent-Kung: 2
#                 elements a thread), + on 32-bit integers ("add32") and the abstract
#                 associative operator of scan.h's summation intervals ("abstract");
#                 --split-invariants.
#   compaction:   examples/barrier_invariants/stream_compaction.cu's race stage (-DSPEC,
#                 --no-overflow) at 32, 1024 and 2^20 threads and a symbolic launch.
#
# Each cell: wall-clock seconds of one gpug run, then `v` verified, `x` a defect, `?`
# inconclusive (a query over --timeout), `T` stopped at the cell limit; `-` not run, since the
# same row and solver went over the limit at fewer threads. Usage:
#   scripts/bench-barrier-invariants.sh [GPUG] [SOLVERS...]
# Environment: LIMIT (seconds a cell may take, default 300), TIMEOUT (gpug's --timeout per
# query, default 120), SIZES (default "8 16 32 64 128").
set -eu
cd "$(dirname "$0")/.."
GPUG=${1:-target/release/gpug}
[ $# -gt 0 ] && shift
SOLVERS=${*:-z3 cvc5 yices}
LIMIT=${LIMIT:-300}
TIMEOUT=${TIMEOUT:-120}
SIZES=${SIZES:-8 16 32 64 128}
D=examples/barrier_invariants

cell() { # solver, then gpug's arguments
    s=$1; shift
    start=$(date +%s.%N)
    code=0; timeout "$LIMIT" "$GPUG" --solver "$s" --timeout "$TIMEOUT" "$@" >/dev/null 2>&1 || code=$?
    end=$(date +%s.%N)
    case $code in 0) mark=v ;; 1) mark=x ;; 3) mark='?' ;; 124) mark=T ;; *) mark="!$code" ;; esac
    printf '%9.2fs %-2s' "$(awk "BEGIN { print $end - $start }")" "$mark"
}

# A scan row's cell for each solver, skipping a solver that went over LIMIT on this row at
# fewer threads. Arguments: row name (a shell word), then gpug's arguments.
row() {
    name=$1; shift
    for s in $SOLVERS; do
        if eval "[ -n \"\${over_${name}_${s}:-}\" ]"; then
            printf '%13s' '- '
            continue
        fi
        c=$(cell "$s" "$@")
        printf '%s' "$c"
        case $c in *T*) eval "over_${name}_${s}=1" ;; esac
    done
    printf '\n'
}

header() {
    printf '%-34s' "$1"
    for s in $SOLVERS; do printf '%13s' "$s"; done
    printf '\n'
}

header "scan, operator, threads"
for n in $SIZES; do
    for op in add32 abstract; do
        extra=""; [ $op = abstract ] && extra=-DABSTRACT
        printf '%-34s' "kogge_stone $op $n"
        # shellcheck disable=SC2086
        row "kogge_stone_$op" $D/kogge_stone.cu --blockDim=$n --gridDim=1 -DN=$n -DINVARIANTS \
            --split-invariants $extra
        for scan in blelloch brent_kung; do
            printf '%-34s' "$scan $op $n"
            # shellcheck disable=SC2086
            row "${scan}_$op" $D/$scan.cu --blockDim=$n --gridDim=1 -DN=$((2 * n)) -DINVARIANTS \
                --split-invariants $extra
        done
    done
done

printf '\n'
header "stream compaction race check"
for launch in "32 --blockDim=32 --gridDim=1" "1024 --blockDim=1024 --gridDim=1" \
    "2^20 --blockDim=1024 --gridDim=1024" "symbolic --blockDim=[*,1,1] --gridDim=[*,1,1]"; do
    name=${launch%% *}; flags=${launch#* }
    printf '%-34s' "compaction $name"
    for s in $SOLVERS; do
        # shellcheck disable=SC2086
        cell "$s" $D/stream_compaction.cu $flags '--assume=(blockDim.x&(blockDim.x-1))==0' --no-overflow -DSPEC
    done
    printf '\n'
done
echo "(v verified, x defect, ? inconclusive, T over LIMIT=${LIMIT}s)"
