#!/bin/bash
# run-bench.sh: pfsbench's Create and Unlink phases against the least a C
# program can do (bench/baseline_create_unlink.c), 1 rank, on a tmpfs.
# Method (bench/lib.sh): both sides on one CPU, a warm-up round of each
# side, then ROUNDS rounds (default 9), interleaved and rotated; per side
# the median and p25-p75 of
# files/s and of CPU time (user + system) per file, which varies far less
# than wall time on a shared machine. Then user-space instructions per op
# (one create, or one unlink) from valgrind --tool=callgrind, counted inside
# the op loops only: the baseline's two loop functions, pfsbench's two
# run_op calls (a callgrind dump before and after each). pfsbench is
# counted three ways: as it runs by default, with --latency (every item
# timed into a histogram), and the share of its engine's clock (progress
# ticks, stop polls) in the default run.
# Targets: rate >= 0.95x the loop's, instructions <= 1.25x.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
baseline_bench_init

# One round of a side appends "create_us unlink_us create_cpu_us unlink_cpu_us".
pfs_run() { # ROUND OUT [pfsbench options]
	local h5=$work/r.h5 out=$2 round=$1
	shift 2
	[ "$round" = warm ] && out=/dev/null
	rm -f "$h5"
	on_cpu "$MPIRUN" --bind-to none -np 1 "$PFSBENCH" create-unlink -m "$fs" -f "$FILES" -F 1 -s 1 -t ua \
		--no-drop-caches --progress=never --results "$h5" "$@" >/dev/null 2>&1
	"$PFSBENCH" export "$h5" --csv | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["op"] == "Create" { cw = $c["elapsed_us"]; cc = $c["cpu_us"] }
		$c["op"] == "Unlink" { uw = $c["elapsed_us"]; uc = $c["cpu_us"] }
		END { print cw, uw, cc, uc }' >>"$out"
}
pfs_round() { pfs_run "$1" "$work/pfs"; }
lat_round() { pfs_run "$1" "$work/lat" --latency; }
base_round() {
	local out=$work/base
	[ "$1" = warm ] && out=/dev/null
	mkdir "$fs/b" && on_cpu "$BASELINE" "$fs/b" "$FILES" >>"$out" && rmdir "$fs/b"
}
: >"$work/pfs"
: >"$work/lat"
: >"$work/base"
rounds "$ROUNDS" base_round pfs_round lat_round

# Instructions: callgrind dumps around each run_op call of pfsbench (parts
# 2 and 4 are Create and Unlink), and counts inside the baseline's loops.
ir_pfs() { # OUT [pfsbench options]
	local out=$1
	shift
	"$MPIRUN" -np 1 valgrind --tool=callgrind --callgrind-out-file="$work/$out" \
		--dump-before=cu_run_op --dump-after=cu_run_op "$PFSBENCH" create-unlink -m "$fs" \
		-f "$IR_FILES" -F 1 -s 1 -t ua --no-drop-caches --progress=never \
		--results "$work/$out.h5" "$@" >/dev/null 2>"$work/$out.err"
}
part_total() { awk '/^totals:/ { print $2 }' "$1"; }
# Inclusive instructions of pfs_engine_tick within a dump: the engine's clock.
tick_ir() { callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
	awk '/pfs_engine_tick/ && !seen { gsub(",", "", $1); print $1; seen = 1 }'; }
ir_pfs cg.pfs
ir_pfs cg.lat --latency
mkdir "$fs/b"
WARM_MS=0 valgrind --tool=callgrind --callgrind-out-file="$work/cg.base" --collect-atstart=no \
	--toggle-collect=create_all --dump-after=create_all --toggle-collect=unlink_all \
	"$BASELINE" "$fs/b" "$IR_FILES" >/dev/null 2>"$work/vg.base"
rmdir "$fs/b"
# The dump after create_all holds Create; the final one, Unlink.
ib_c=$(part_total "$work/cg.base.1") ib_u=$(part_total "$work/cg.base")
ip_c=$(part_total "$work/cg.pfs.2") ip_u=$(part_total "$work/cg.pfs.4")
il_c=$(part_total "$work/cg.lat.2") il_u=$(part_total "$work/cg.lat.4")
it_c=$(tick_ir "$work/cg.pfs.2") it_u=$(tick_ir "$work/cg.pfs.4")

read -r bcw bcw25 bcw75 <<<"$(stats "$work/base" 1)"
read -r buw buw25 buw75 <<<"$(stats "$work/base" 2)"
read -r bcc bcc25 bcc75 <<<"$(stats "$work/base" 3)"
read -r buc buc25 buc75 <<<"$(stats "$work/base" 4)"
read -r pcw pcw25 pcw75 <<<"$(stats "$work/pfs" 1)"
read -r puw puw25 puw75 <<<"$(stats "$work/pfs" 2)"
read -r pcc pcc25 pcc75 <<<"$(stats "$work/pfs" 3)"
read -r puc puc25 puc75 <<<"$(stats "$work/pfs" 4)"
read -r lcw lcw25 lcw75 <<<"$(stats "$work/lat" 1)"
read -r luw luw25 luw75 <<<"$(stats "$work/lat" 2)"
read -r lcc lcc25 lcc75 <<<"$(stats "$work/lat" 3)"
read -r luc luc25 luc75 <<<"$(stats "$work/lat" 4)"

awk -v n="$FILES" -v irn="$IR_FILES" -v rounds="$ROUNDS" -v cpu="$BENCH_CPU" \
	-v bcw="$bcw" -v bcw25="$bcw25" -v bcw75="$bcw75" -v buw="$buw" -v buw25="$buw25" -v buw75="$buw75" \
	-v bcc="$bcc" -v bcc25="$bcc25" -v bcc75="$bcc75" -v buc="$buc" -v buc25="$buc25" -v buc75="$buc75" \
	-v pcw="$pcw" -v pcw25="$pcw25" -v pcw75="$pcw75" -v puw="$puw" -v puw25="$puw25" -v puw75="$puw75" \
	-v pcc="$pcc" -v pcc25="$pcc25" -v pcc75="$pcc75" -v puc="$puc" -v puc25="$puc25" -v puc75="$puc75" \
	-v lcw="$lcw" -v lcw25="$lcw25" -v lcw75="$lcw75" -v luw="$luw" -v luw25="$luw25" -v luw75="$luw75" \
	-v lcc="$lcc" -v lcc25="$lcc25" -v lcc75="$lcc75" -v luc="$luc" -v luc25="$luc25" -v luc75="$luc75" \
	-v ibc="$ib_c" -v ibu="$ib_u" -v ipc="$ip_c" -v ipu="$ip_u" -v ilc="$il_c" -v ilu="$il_u" \
	-v itc="${it_c:-0}" -v itu="${it_u:-0}" 'BEGIN {
	printf "create-unlink benchmark: 1 rank, tmpfs, %d files, %d interleaved rounds after a warm-up, CPU %s\n", n, rounds, cpu
	printf "rates: median (p25-p75) files/s; CPU: median (p25-p75) us of user + system time per file\n"
	printf "%-9s %-26s %-26s %-18s %-18s\n", "", "Create files/s", "Unlink files/s", "Create CPU us/f", "Unlink CPU us/f"
	row("C loop", bcw, bcw75, bcw25, buw, buw75, buw25, bcc, bcc25, bcc75, buc, buc25, buc75)
	row("pfsbench", pcw, pcw75, pcw25, puw, puw75, puw25, pcc, pcc25, pcc75, puc, puc25, puc75)
	row("--latency", lcw, lcw75, lcw25, luw, luw75, luw25, lcc, lcc25, lcc75, luc, luc25, luc75)
	rc = bcw / pcw; ru = buw / puw
	printf "%-9s %-26s %-26s %-18s %-18s\n", "ratio", sprintf("%.2fx (>= 0.95)", rc), \
		sprintf("%.2fx (>= 0.95)", ru), sprintf("%.2fx", pcc / bcc), sprintf("%.2fx", puc / buc)
	printf "%-9s %-26s %-26s %-18s %-18s\n", "--latency", sprintf("%.2fx", bcw / lcw), \
		sprintf("%.2fx", buw / luw), sprintf("%.2fx", lcc / bcc), sprintf("%.2fx", luc / buc)
	printf "\ninstructions per op (callgrind, inside the loops, %d files):\n", irn
	printf "%-30s %10s %10s\n", "", "Create", "Unlink"
	printf "%-30s %10.1f %10.1f\n", "C loop", ibc / irn, ibu / irn
	printf "%-30s %10.1f %10.1f   ratio %.2fx, %.2fx (<= 1.25)\n", "pfsbench", ipc / irn, ipu / irn, ipc / ibc, ipu / ibu
	printf "%-30s %10.1f %10.1f\n", "  of which the engine'\''s clock", itc / irn, itu / irn
	printf "%-30s %10.1f %10.1f   ratio %.2fx, %.2fx\n", "pfsbench --latency", ilc / irn, ilu / irn, ilc / ibc, ilu / ibu
	ok = rc >= 0.95 && ru >= 0.95 && ipc / ibc <= 1.25 && ipu / ibu <= 1.25
	print ok ? "bench: within target" : "bench: OUTSIDE TARGET"
}
function row(name, cw, cw_lo, cw_hi, uw, uw_lo, uw_hi, cc, cc25, cc75, uc, uc25, uc75) {
	printf "%-9s %-26s %-26s %-18s %-18s\n", name, \
		sprintf("%.0f (%.0f-%.0f)", n * 1e6 / cw, n * 1e6 / cw_lo, n * 1e6 / cw_hi), \
		sprintf("%.0f (%.0f-%.0f)", n * 1e6 / uw, n * 1e6 / uw_lo, n * 1e6 / uw_hi), \
		sprintf("%.2f (%.2f-%.2f)", cc / n, cc25 / n, cc75 / n), \
		sprintf("%.2f (%.2f-%.2f)", uc / n, uc25 / n, uc75 / n)
}'
