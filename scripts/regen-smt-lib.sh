#!/usr/bin/env bash
# Rebuilds smt-lib/ from examples/: for every examples/<stem>.cu, clears
# smt-lib/<stem>/ and has gpug dump the SMT-LIB2 queries it would send to z3 there,
# as standalone .smt2 scripts (runnable with `z3 FILE`, `cvc5 FILE`, `yices-smt2 FILE`).
#
# Usage: scripts/regen-smt-lib.sh            (from anywhere inside the repository)
# Env:   CARGO_TARGET_DIR is honoured; GPUG=/path/to/gpug skips the build.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [[ -n "${GPUG:-}" ]]; then
    gpug="$GPUG"
else
    cargo build --release --quiet
    gpug="${CARGO_TARGET_DIR:-$root/target}/release/gpug"
fi
[[ -x "$gpug" ]] || { echo "regen-smt-lib: no gpug binary at $gpug" >&2; exit 2; }

shopt -s nullglob
examples=(examples/*.cu)
(( ${#examples[@]} > 0 )) || { echo "regen-smt-lib: no examples/*.cu" >&2; exit 2; }

mkdir -p smt-lib
failed=0
for file in "${examples[@]}"; do
    stem="$(basename "$file" .cu)"
    out="smt-lib/$stem"
    rm -rf "$out"
    mkdir -p "$out"
    # Line 2 holds the flags: "// --blockDim=... --gridDim=... [-DN=...]".
    flags_line="$(sed -n 2p "$file")"
    flags_line="${flags_line#//}"
    read -r -a flags <<<"$flags_line"
    # Exit codes 0 (verified), 1 (defect) and 3 (inconclusive) still produce the queries.
    status=0
    "$gpug" --solver z3 --dump-smt2 "$out/" "${flags[@]}" "$file" >/dev/null || status=$?
    if (( status == 0 || status == 1 || status == 3 )); then
        n=$(find "$out" -name '*.smt2' | wc -l)
        echo "$stem: $n queries (gpug exit $status)"
    else
        echo "$stem: gpug failed with exit $status" >&2
        failed=1
    fi
done
# Drop folders of examples that no longer exist (only if they hold nothing but .smt2 files).
for dir in smt-lib/*/; do
    stem="$(basename "$dir")"
    if [[ ! -e "examples/$stem.cu" ]] && [[ -z "$(find "$dir" -type f ! -name '*.smt2' -print -quit)" ]]; then
        echo "$stem: example gone, removing $dir"
        rm -rf "$dir"
    fi
done
exit "$failed"
