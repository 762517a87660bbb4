#!/bin/bash
# run-bench-all.sh: every benchmark, one after another (make bench-all):
# each one's whole output in OUT/NAME.txt (OUT: BENCH_ALL_OUT, default
# bench/out-all in the build tree), and here one line per benchmark: its
# exit status, its minutes, and the lines that carry its verdict (targets
# met or not, a column slower or faster than its peer, a difference in
# system calls). docs/benchmarks.md says what each measures; the figures
# it quotes come from these files. Run it on a quiet machine: a benchmark
# reports the load it ran at, and a busy machine widens every spread.
# Usage: BENCHES="bench-create-unlink bench-tree ..." run-bench-all.sh
# (make bench-all passes the whole list; any subset works the same way).
# At the end, the one table (bench-table's rounds, with bench-calls' calls
# per item when both ran) in OUT/table.md, and printed.
set -uo pipefail
out=${BENCH_ALL_OUT:-bench/out-all}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
export TABLE_OUT=$out/bench-table.raw
rm -f "$TABLE_OUT" "$out/table.md"
: "${BENCHES:?BENCHES lists the make targets to run}"
: "${MAKE:=make}"
start_all=$SECONDS
failed=0
printf '%-22s %6s %7s  %s\n' benchmark exit minutes "verdict lines"
for b in $BENCHES; do
	start=$SECONDS
	$MAKE --no-print-directory "$b" >"$out/$b.txt" 2>&1
	rc=$?
	[ $rc -eq 0 ] || failed=$((failed + 1))
	printf '%-22s %6s %7.1f\n' "$b" "$rc" "$(awk -v s=$((SECONDS - start)) 'BEGIN { print s / 60 }')"
	grep -E '^bench:|OUTSIDE|within target|FASTER|SLOWER|DIFF|check like for like|^table:' "$out/$b.txt" |
		head -n 8 | sed 's/^/    /'
done
if [ -s "$TABLE_OUT" ]; then
	calls=()
	[ -s "$out/bench-calls.txt" ] && calls=("$out/bench-calls.txt")
	/usr/bin/python3 "$here/table.py" "$TABLE_OUT" "${calls[@]}" >"$out/table.md" && cat "$out/table.md"
fi
printf 'all: %d benchmarks, %d failed, %.1f minutes; outputs in %s\n' "$(wc -w <<<"$BENCHES")" \
	"$failed" "$(awk -v s=$((SECONDS - start_all)) 'BEGIN { print s / 60 }')" "$out"
[ "$failed" -eq 0 ]
