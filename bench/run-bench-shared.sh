#!/bin/bash
# run-bench-shared.sh: create-unlink --shared-dir --stat (test ub on one
# rank: Create, Stat, Unlink, in the run directory, names f<10 digits>.0.1)
# against the least a C program can do with the same calls on the same
# names in one directory (bench/baseline_create_unlink.c DIR N shared), on
# a tmpfs. Method (bench/lib.sh): both sides on one CPU, a warm-up round
# of each, then ROUNDS rounds (default 9), interleaved and rotated; per
# side and op the median and p25-p75 of files/s and of CPU time (user +
# system) per file. Then user-space instructions per op from callgrind,
# counted inside the op loops only (pfsbench: a dump before and after each
# run_op; the loop: its three loop functions).
# Targets (issue 30): rate >= 0.95x the loop's, instructions <= 1.25x.
# mdtest, the peer the issue names, is not packaged for Debian: with
# MDTEST=/path/to/mdtest (built from IOR's source, docs/benchmarks.md) the
# bench is bench/run-bench-shared-mdtest.sh instead, against it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -z "${MDTEST:-}" ] || exec bash "$here/run-bench-shared-mdtest.sh"
# shellcheck source=lib.sh
. "$here/lib.sh"
baseline_bench_init

# One round of a side appends "create_us unlink_us create_cpu_us
# unlink_cpu_us stat_us stat_cpu_us", the baseline's order.
pfs_round() {
	local h5=$work/r.h5 out=$work/pfs
	[ "$1" = warm ] && out=/dev/null
	rm -f "$h5"
	on_cpu "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" create-unlink -m "$fs" -f "$FILES" -F 1 -s 1 \
		-t ub --shared-dir --stat --no-drop-caches --progress=never --results "$h5" >/dev/null 2>&1
	"$PFSBENCH" export "$h5" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ w[$c["op"]] = $c["elapsed_us"]; u[$c["op"]] = $c["cpu_us"] }
		END { print w["Create"], w["Unlink"], u["Create"], u["Unlink"], w["Stat"], u["Stat"] }' >>"$out"
}
base_round() {
	local out=$work/base
	[ "$1" = warm ] && out=/dev/null
	mkdir "$fs/b" && on_cpu "$BASELINE" "$fs/b" "$FILES" shared >>"$out" && rmdir "$fs/b"
}
: >"$work/pfs"
: >"$work/base"
rounds "$ROUNDS" base_round pfs_round

shared_ir "$fs" "$work" "$IR_FILES"
ir=$SHARED_IR

# "median p25 p75" of each column: create, unlink, create CPU, unlink
# CPU, stat, stat CPU.
side() { local k; for k in 1 2 3 4 5 6; do stats "$1" "$k"; done | xargs; }
echo "$(side "$work/base") $(side "$work/pfs") $ir" | awk -v n="$FILES" -v irn="$IR_FILES" \
	-v rounds="$ROUNDS" -v cpu="$BENCH_CPU" '{
	for (i = 1; i <= 18; i++) { b[i] = $i; p[i] = $(i + 18) }
	printf "shared-dir benchmark: 1 rank, tmpfs, %d files in one directory, %d interleaved rounds after a warm-up, CPU %s\n", n, rounds, cpu
	printf "rates: median (p25-p75) files/s; CPU: median (p25-p75) us of user + system time per file\n"
	printf "%-9s %-24s %-24s %-24s\n", "", "Create", "Stat", "Unlink"
	# columns of a side: wall 1-3 create, 4-6 unlink, 13-15 stat; CPU 7-9, 10-12, 16-18
	row("C loop", b); row("pfsbench", p)
	printf "%-9s %-24s %-24s %-24s\n", "ratio", sprintf("%.2fx (>= 0.95)", b[1] / p[1]),
		sprintf("%.2fx (>= 0.95)", b[13] / p[13]), sprintf("%.2fx (>= 0.95)", b[4] / p[4])
	printf "%-9s %-24s %-24s %-24s\n", "CPU", sprintf("%.2fx", p[7] / b[7]),
		sprintf("%.2fx", p[16] / b[16]), sprintf("%.2fx", p[10] / b[10])
	printf "\ninstructions per op (callgrind, inside the loops, %d files):\n", irn
	printf "%-9s %10.1f %10.1f %10.1f\n", "C loop", $37 / irn, $38 / irn, $39 / irn
	printf "%-9s %10.1f %10.1f %10.1f   ratio %.2fx, %.2fx, %.2fx (<= 1.25)\n", "pfsbench",
		$40 / irn, $41 / irn, $42 / irn, $40 / $37, $41 / $38, $42 / $39
	ok = b[1] / p[1] >= 0.95 && b[13] / p[13] >= 0.95 && b[4] / p[4] >= 0.95 &&
		$40 / $37 <= 1.25 && $41 / $38 <= 1.25 && $42 / $39 <= 1.25
	print ok ? "bench: within target" : "bench: OUTSIDE TARGET"
}
function rate(us) { return us > 0 ? n * 1e6 / us : 0 }
function row(name, s) {
	printf "%-9s %-24s %-24s %-24s\n", name,
		sprintf("%.0f (%.0f-%.0f)", rate(s[1]), rate(s[3]), rate(s[2])),
		sprintf("%.0f (%.0f-%.0f)", rate(s[13]), rate(s[15]), rate(s[14])),
		sprintf("%.0f (%.0f-%.0f)", rate(s[4]), rate(s[6]), rate(s[5]))
	printf "%-9s %-24s %-24s %-24s\n", "  CPU us",
		sprintf("%.2f (%.2f-%.2f)", s[7] / n, s[8] / n, s[9] / n),
		sprintf("%.2f (%.2f-%.2f)", s[16] / n, s[17] / n, s[18] / n),
		sprintf("%.2f (%.2f-%.2f)", s[10] / n, s[11] / n, s[12] / n)
}'
