#!/usr/bin/env bash
# Times every gpug process the test suite starts (issue 46: no example run in tests/ may need a
# solver to finish a long query in time). Builds the tests, puts a wrapper in place of
# target/release/gpug that logs each run's wall seconds, exit code and arguments, runs
# `cargo test --release ARGS…`, puts the binary back, and prints the N slowest runs.
# A benchmark, not a test: it never fails on a slow run. The tests of tests/cli.rs that signal
# gpug (SIGINT, SIGKILL) fail under it, as they signal the wrapper: run them without it.
#
#   scripts/time-test-runs.sh [-n N] [-- CARGO_TEST_ARGS…]
#
#   -n N   how many of the slowest runs to print (default 10)
#   e.g.   scripts/time-test-runs.sh -n 20 -- --test examples --test barrier_invariants
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
top=10
while getopts "n:h" opt; do
    case $opt in
        n) top=$OPTARG ;;
        h) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[[ ${1:-} == -- ]] && shift
target="${CARGO_TARGET_DIR:-$root/target}/release"
cargo test --release --no-run --quiet "$@" || exit 2
bin="$target/gpug"
real="$target/gpug.timed-real"
log=$(mktemp)
cp "$bin" "$real"
# A new file, not a write through the old one: cargo hard-links target/release/gpug to its
# copy in deps/, which a write in place would overwrite too.
rm -f "$bin"
cat >"$bin" <<EOF
#!/usr/bin/env bash
start=\$(date +%s.%N)
"$real" "\$@"
code=\$?
end=\$(date +%s.%N)
printf '%s %s %s\n' "\$(awk -v a="\$start" -v b="\$end" 'BEGIN {printf "%.2f", b - a}')" "\$code" "\$*" >>"$log"
exit \$code
EOF
chmod +x "$bin"
restore() { mv -f "$real" "$bin"; }
trap restore EXIT
start=$(date +%s)
cargo test --release "$@"
status=$?
echo "time-test-runs: $(wc -l <"$log") gpug runs in $(($(date +%s) - start)) s; the $top slowest (seconds, exit code, arguments):"
sort -rn "$log" | head -n "$top"
rm -f "$log"
exit $status
