#!/usr/bin/env bash
# Generates gpug's SMT-LIB benchmark families for solver developers (issue 45): each query a
# standalone non-incremental benchmark with SMT-LIB's submission header, laid out as SMT-LIB's
# benchmark-submission repository wants it:
#
#   OUTDIR/non-incremental/<LOGIC>/<YYYYMMDD>-gpug-<family>/<parameter>/<query>.smt2
#
# gpug writes each query (`--dump-smt2`) with the header already in place: the smallest logic
# its terms need, `:source` (gpug and its version, the command, the kernel's launch, the query,
# the application and the publications), `:license` CC BY 4.0, `:category "industrial"`. This
# script adds the date and the family to `:source` and decides `:status`: `sat` or `unsat`
# only when two solvers give that answer within LIMIT seconds each (and none the other one),
# else `unknown`. Solvers are tried cheapest first (yices, cvc5, z3; cvc5 and z3 for
# floating point, which yices lacks); a third is asked only when exactly one of the first two
# answered. The families, each scaling in one parameter (see docs/smt-lib.md), are in `families` below.
#
# Usage: scripts/gen-corpus.sh [-j N] [-l LIMIT] [-f FAMILY[,FAMILY…]] OUTDIR
#   -j N       status decisions at once (default 1)
#   -l LIMIT   seconds each solver gets to decide a status (default 10)
#   -f LIST    only these families (default: all), or instances as FAMILY:PARAMETER
#              (`check-reduce:n4`); names as in `families`
# Env: GPUG=/path/to/gpug skips the build; MAX_BYTES (default 20000000): larger queries are
#      left out (SMT-LIB asks to be told of files over 50 MB), and counted.
# Prints one line per instance (family, parameter, queries kept), the number of queries per
# family and logic, the statuses, and any solver disagreement; writes the same summary to
# OUTDIR/gpug-corpus.txt. Needs the solvers as installed; downloads nothing.
set -euo pipefail

# `gen-corpus.sh --decide LIMIT FILE`: decides FILE's status in place; prints "status<TAB>by".
if [[ "${1:-}" == "--decide" ]]; then
    limit=$2 file=$3
    logic=$(grep -m 1 -oE '^\(set-logic [A-Z_]+\)' "$file" | tr -d '()' | cut -d' ' -f2)
    case $logic in
        *FP*) order=(cvc5 z3) ;;
        *) order=(yices-smt2 cvc5 z3) ;;
    esac
    avail=()
    for s in "${order[@]}"; do command -v "$s" >/dev/null 2>&1 && avail+=("$s"); done
    ask() { timeout -k 5 "$limit" "$1" "$file" 2>/dev/null | grep -m 1 -xE 'sat|unsat' || true; }
    declare -A said=()
    status=unknown by="" n=0
    for s in "${avail[@]}"; do
        n=$((n + 1))
        # A third solver only settles a status when exactly one of the first two answered.
        if (( n == 3 )) && [[ -z "${said[${avail[0]}]}${said[${avail[1]}]}" ]]; then break; fi
        said[$s]=$(ask "$s")
        answers=()
        for t in "${!said[@]}"; do [[ -n "${said[$t]}" ]] && answers+=("${said[$t]}:$t"); done
        sats=$(printf '%s\n' "${answers[@]}" | grep -c '^sat:' || true)
        unsats=$(printf '%s\n' "${answers[@]}" | grep -c '^unsat:' || true)
        if (( sats > 0 && unsats > 0 )); then
            status=unknown by="disagreement: ${answers[*]}"
            break
        fi
        if (( sats >= 2 || unsats >= 2 )); then
            status=$( (( sats >= 2 )) && echo sat || echo unsat)
            by=$(printf '%s\n' "${answers[@]}" | cut -d: -f2 | LC_ALL=C sort | paste -sd, -)
            break
        fi
        (( n == 2 )) && [[ -z "${said[${avail[0]}]}${said[${avail[1]}]}" ]] && break
    done
    if [[ $status == unknown ]]; then
        [[ -z $by ]] && by="no two solvers agreed within ${limit} s"
        note="Status: unknown ($by)"
    else
        note="Status: $status, the answer of $by, each within ${limit} s"
    fi
    sed -i -e "s/^(set-info :status [a-z]*)\$/(set-info :status $status)/" \
        -e "/^Query: /i $note" "$file"
    printf '%s\t%s\t%s\n' "$status" "$by" "$file"
    exit 0
fi

jobs=1 limit=10 only=""
while getopts "j:l:f:h" opt; do
    case $opt in
        j) jobs=$OPTARG ;;
        l) limit=$OPTARG ;;
        f) only=",$OPTARG," ;;
        h) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=${1:-}
[[ -n "$out" ]] || { echo "usage: scripts/gen-corpus.sh [-j N] [-l LIMIT] [-f FAMILIES] OUTDIR" >&2; exit 2; }
if ! [[ $jobs =~ ^[1-9][0-9]*$ && $limit =~ ^[1-9][0-9]*$ ]]; then
    echo "gen-corpus: -j and -l want positive integers" >&2
    exit 2
fi
max_bytes=${MAX_BYTES:-20000000}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
self="$root/scripts/$(basename "${BASH_SOURCE[0]}")"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"
if [[ -n "${GPUG:-}" ]]; then
    gpug="$GPUG"
else
    cargo build --release --quiet
    gpug="${CARGO_TARGET_DIR:-$root/target}/release/gpug"
fi
[[ -x "$gpug" ]] || { echo "gen-corpus: no gpug binary at $gpug" >&2; exit 2; }

date=$(date +%Y%m%d)
today=$(date +%F)
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/kept"
: >"$tmp/instances"

# instance FAMILY PARAM SELECT DESCRIPTION -- GPUG-ARGS…: runs gpug (its own solver with a 1 s
# limit: only the dumps matter; 10 s when the solver did not even start within 1 s) and keeps the dumped queries whose file name matches the
# extended regular expression SELECT.
instance() {
    local fam=$1 param=$2 select=$3 desc=$4
    shift 5
    [[ -n "$only" && "$only" != *",$fam,"* && "$only" != *",$fam:$param,"* ]] && return 0
    local dump="$tmp/dump"
    rm -rf "$dump"
    local code=0
    "$gpug" "$@" --timeout 1 --dump-smt2 "$dump" >/dev/null 2>"$tmp/stderr" || code=$?
    if (( code == 2 )) && grep -q 'did not answer the SMT-LIB prologue' "$tmp/stderr"; then
        # A solver slow to start on a loaded machine: once more with time to start.
        rm -rf "$dump"
        code=0
        "$gpug" "$@" --timeout 10 --dump-smt2 "$dump" >/dev/null 2>"$tmp/stderr" || code=$?
    fi
    if (( code != 0 && code != 1 && code != 3 )); then
        echo "gen-corpus: $fam $param: gpug exit $code: $(head -c 300 "$tmp/stderr")" >&2
        return 0
    fi
    local kept=0 big=0 f name logic dest
    while IFS= read -r f; do
        name=$(basename "$f")
        [[ $name =~ $select ]] || continue
        if (( $(stat -c %s "$f") > max_bytes )); then
            big=$((big + 1))
            continue
        fi
        logic=$(grep -m 1 -oE '^\(set-logic [A-Z_]+\)' "$f" | tr -d '()' | cut -d' ' -f2)
        dest="$out/non-incremental/$logic/$date-gpug-$fam/$param"
        mkdir -p "$dest"
        sed -e "/^Generator: gpug/a Generated on: $today" \
            -e "/^Query: /i Family: $fam, $desc; this instance: $param" "$f" >"$dest/$name"
        printf '%s\t%s\t%s\n' "$fam" "$logic" "$dest/$name" >>"$tmp/kept"
        kept=$((kept + 1))
    done < <(find "$dump" -name '*.smt2' -type f 2>/dev/null | LC_ALL=C sort)
    rm -rf "$dump"
    printf '%-22s %-26s %4d kept%s\n' "$fam" "$param" "$kept" \
        "$( (( big > 0 )) && echo ", $big over $max_bytes bytes left out")" | tee -a "$tmp/instances"
}

B=examples/barrier_invariants
families() {
    local n k sc op m extra launch
    # gpug check (PUG's assertion checking): every thread explicit, the race checks first.
    for n in 4 8 16 32; do
        # Beyond 8 threads, the assertion queries of threads 1, 2, 4, … and the last.
        local sel='.'
        (( n > 8 )) && sel="\\.(race\\.|assert\\..*\\.t(1|2|4|8|16|$((n - 1)))(-[0-9]+)?\\.smt2$)"
        instance check-bitonic "n$n" "$sel" "bitonic sort of N elements by N threads (PUG Fig. 1), assertions and races; scales with N" \
            -- check examples/check/bitonic.cu --blockDim=$n --gridDim=1 -DN=$n
    done
    for k in reduce scalar_product; do
        for n in 4 8 16 32 64 128; do
            # The sequential loop runs N times: above 64 (gpug's default bound) say so.
            local unroll=()
            (( n > 64 )) && unroll=(--unroll "$n")
            instance "check-${k//_/-}" "n$n" '.' "gpug check of examples/check/$k.cu at N threads (tree sum against a sequential loop), assertions and races; scales with N" \
                -- check examples/check/$k.cu --blockDim=$n --gridDim=1 -DN=$n "${unroll[@]}"
        done
    done
    # Every interleaving of the threads' steps (schedule IDs), 2 to 4 threads.
    for k in bitonic reduce scalar_product; do
        for n in 2 3 4; do
            instance check-all-schedules "$k-n$n" '.' "gpug check --all-schedules (every schedule of N threads, not one serialization); scales with N" \
                -- check examples/check/$k.cu --blockDim=$n --gridDim=1 -DN=$n --all-schedules
        done
    done
    # Floating point (IEEE 754 single precision): tree sum against the sequential sum.
    for n in 2 4 8 16 32; do
        instance check-float-sum "n$n" 'assert' "gpug check --float ieee of a tree sum of N floats against the sequential sum (not associative: sat); scales with N" \
            -- check examples/check/float_sum.cu --blockDim=$n --gridDim=1 -DN=$n --float ieee
    done
    # Barrier invariants of the scans (GPUVerify's OOPSLA 2013 paper): the invariant queries
    # themselves (not their access or uniformity side conditions, not the race queries).
    # + beyond 16 threads (Kogge-Stone: 64) gives queries of 80 MB and more, above what
    # SMT-LIB takes: those sizes are left out. The abstract operator's queries grow slowly
    # (Brent-Kung: 3.6 MB at 64 threads, 4.7 MB at 256), so they go on to 256.
    for op in add abstract; do
        extra=""
        [[ $op == abstract ]] && extra=-DABSTRACT
        for sc in kogge_stone blelloch brent_kung; do
            local sizes="8 16 32 64 128 256"
            [[ $op == add ]] && sizes="8 16"
            [[ $op == add && $sc == kogge_stone ]] && sizes="8 16 32 64"
            for n in $sizes; do
                m=$((2 * n))
                [[ $sc == kogge_stone ]] && m=$n
                instance "scan-invariants-$op" "${sc//_/-}-n$n" '\.barrier_invariant\.L[0-9]+\.smt2$' \
                    "barrier invariants of the $sc scan with $( [[ $op == add ]] && echo "+ on 32-bit integers" || echo "the abstract associative operator of summation intervals") at N threads; scales with N" \
                    -- $B/$sc.cu --blockDim=$n --gridDim=1 -DN=$m -DINVARIANTS $extra
            done
        done
    done
    # Symbolic launches under --no-overflow: each race query exact (products of launch
    # dimensions as bvmul) and its linear relaxation, side by side.
    for k in scale_symbolic matrix_2d_symbolic matrix_2d_symbolic_transposed divrem_symbolic; do
        for launch in 1 32 256 '*'; do
            local b="[$launch,1,1]" g='[*,1,1]'
            [[ $k == matrix_2d* ]] && b="[$launch,*,1]" g='[*,*,1]'
            instance symbolic-launch "${k//_/-}-b${launch/\*/any}" '.' "race queries of a symbolic launch with --no-overflow, exact products and their linear relaxation side by side; scales with blockDim.x (1, 32, 256, any)" \
                -- examples/$k.cu "--blockDim=$b" "--gridDim=$g" --no-overflow
        done
    done
    # Shared-memory bank conflicts: for each access, is there a conflict of degree k? Banks
    # conflict within a warp, so beyond 32 threads a block most kernels repeat one warp's
    # queries (near copies, which SMT-LIB asks submitters not to send: at 256 threads, 26
    # of them, all easy); the reductions' loops grow with the block, so they also run at 64.
    for f in examples/bank/*.cu; do
        local sizes=32
        [[ $f == */reduce_* ]] && sizes="32 64"
        for n in $sizes; do
            instance bank-conflicts "$(basename "$f" .cu)-b$n" '.' "gpug bank: shared-memory bank-conflict degree queries of $(basename "$f") at N threads a block; scales with N" \
                -- bank "$f" --blockDim=$n --gridDim=1
        done
    done
}
families

echo "gen-corpus: deciding statuses ($jobs at once, ${limit} s a solver)" >&2
cut -f3 "$tmp/kept" | tr '\n' '\0' | xargs -0 -r -P "$jobs" -n 1 "$self" --decide "$limit" >"$tmp/decided"

{
    echo "gpug corpus, generated $today by scripts/gen-corpus.sh in $(( $(date +%s) - start )) s ($(nproc) processors, -j $jobs, status limit ${limit} s)"
    echo
    echo "Instances:"
    cat "$tmp/instances"
    echo
    echo "Queries per family and logic:"
    cut -f1,2 "$tmp/kept" | LC_ALL=C sort | uniq -c | awk '{ printf "  %-26s %-10s %5d\n", $2, $3, $1 }'
    echo "  total: $(wc -l <"$tmp/kept")"
    echo
    echo "Statuses per family:"
    awk -F'\t' 'NR == FNR { fam[$3] = $1; next } { print fam[$3] "\t" $1 }' "$tmp/kept" "$tmp/decided" |
        LC_ALL=C sort | uniq -c | awk '{ printf "  %-26s %-8s %5d\n", $2, $3, $1 }'
    echo
    echo "Disagreements:"
    grep -P '\tdisagreement' "$tmp/decided" | sed 's/^/  /' || echo "  none"
} | tee "$out/gpug-corpus.txt"
