#!/bin/bash
# run-bench-compare.sh: how often `pfsbench compare` calls out a change that
# is not there (error), and how often it calls out one that is (power), in
# real runs (make bench-compare; root: a tmpfs and a cgroup of its own).
# Every run is create-unlink on a tmpfs, NODES (4) simulated nodes of one
# rank each (PFSBENCH_NODENAME per MPMD context), -f FILES (12000: each
# node's se Create and Unlink steps about 20 ms on the 2-core development
# machine) -F 4 -s 4k -t TESTS (se,pa) --no-drop-caches.
#
# Error: PAIRS pairs of runs of one configuration (default 60, odd pairs
# quiet, even ones under one busy loop that runs through both runs of the
# pair), for each -i in ITERS (default "1 3"); every pair compared (1 run
# against 1), and every 3 pairs of one condition as 3 runs against 3.
# Counted: lines called out, comparisons with any, lines said busy or
# short, and the runs whose slow_nodes name a node (none is slowed).
#
# Power: TRIALS (5) trials of each scenario, each 3 runs a side, unslowed
# against slowed, alternating: (a) SLOW_NODE (node3) 2x slower at se Unlink,
# (b) 2x slower at pa Unlink, (c) SLOW_NODE capped at 20 % of a CPU (a cgroup
# holding only that rank's process), (d) every node 1.25x slower at se
# Unlink, 5 runs a side. The slowdowns are sleeps of the test-only fault
# injector (tests/fault): an unlink on a tmpfs takes about 2 us and one sleep
# at least 60-90 us (the timer slack and a wake-up), so a delay on every
# unlink cannot make a node 2x slower; instead DELAYS (8) unlinks spread
# over each iteration of the node's step sleep D each. D is calibrated
# first: (factor - 1) x the per-unlink time of 3 unslowed runs (elapsed_us /
# items of the node's rows) x FILES / DELAYS, less a sleep's own overshoot
# measured here, then corrected by rounds of slowed runs against unslowed
# ones (refine, below). In the trials the factor achieved is measured, not
# assumed: the slowed node's own time an item, slowed runs against
# unslowed, from their rows; and what that factor makes of the line's rate.
#
# Output in DIR (default bench/out-compare/TIME; new or empty, git ignores it):
# summary.md (the tables, load and date), error-lines.csv, error-runs.csv,
# power.csv (a row per trial and slowed line), calibration.csv, and every
# run's results file (about 1.5 MB; KEEP_RUNS=0 removes them at the end)
# and rows in runs/ and compare's JSON in json/, so that another compare
# (PFSBENCH=...) can be pointed at the same runs.
# Environment: PFSBENCH (default src/pfsbench), PFSFAULT, MPIRUN, PAIRS,
# TRIALS, ITERS, P_ITERS (-i of the power runs, 1), FILES, TESTS (se,pa
# first), SCENARIOS ("a b c d"), DELAYS, MARGIN (compare's --margin, when
# set), RUN_TIMEOUT (300 s a run), CAL_ROUNDS, CAL_RUNS (refine),
# BENCH_HOLD_REPORTING (lib.sh's hold_page_reporting: on by default). A smoke
# run: PAIRS=4 TRIALS=1 ITERS=1 (about 1.5 minutes here).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
PFSBENCH=$(realpath "${PFSBENCH:-$here/../src/pfsbench}")
PFSFAULT=$(realpath "${PFSFAULT:-$here/../tests/fault/libpfsfault.so}")
MPIRUN=${MPIRUN:-mpirun}
PY=/usr/bin/python3 # the system's: python3 on PATH may be another
TALLY=$here/compare-tally.py
PAIRS=${PAIRS:-60} TRIALS=${TRIALS:-5} ITERS=${ITERS:-1 3} P_ITERS=${P_ITERS:-1}
FILES=${FILES:-12000} NODES=${NODES:-4} SLOW_NODE=${SLOW_NODE:-node3} TESTS=${TESTS:-se,pa}
SCENARIOS=${SCENARIOS:-a b c d} DELAYS=${DELAYS:-8} RUN_TIMEOUT=${RUN_TIMEOUT:-300} MARGIN=${MARGIN:-}
KEEP_RUNS=${KEEP_RUNS:-1}
out=$(realpath -m "${1:-$here/out-compare/$(date -u +%Y%m%dT%H%M%SZ)}")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

[ "$(id -u)" -eq 0 ] || { echo "SKIP: bench-compare needs root (a tmpfs and a cgroup)"; exit 77; }
[ -x "$PFSBENCH" ] || { echo "bench-compare: no pfsbench at '$PFSBENCH'"; exit 1; }
[ -r "$PFSFAULT" ] || { echo "bench-compare: no fault injector at '$PFSFAULT' (make tests/fault/libpfsfault.so)"; exit 1; }
case $TESTS in se,pa*) ;; *) echo "bench-compare: TESTS must start with se,pa (the delays count unlinks in that order)"; exit 2 ;; esac
# Each process takes at most 32 rules: one a delay and an iteration.
K=$((DELAYS * P_ITERS > 32 ? 32 / P_ITERS : DELAYS))
mkdir -p "$out" || exit 1
[ -z "$(ls -A "$out")" ] || { echo "bench-compare: '$out' is not empty: give a new directory"; exit 2; }
mkdir "$out/runs" "$out/json"
runs=$out/runs

work=$(mktemp -d /tmp/pfsbench-bench-compare.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
trap undo_all EXIT
trap 'exit 130' INT TERM
# Open MPI's session directory under TMPDIR (as tests/mpi/lib.sh does).
mkdir "$work/t"
export TMPDIR=$work/t
fs=$work/fs
mkdir "$fs"
if mount -t tmpfs -o size=256m pfsbench-bench "$fs" 2>/dev/null; then
	undo+=("umount '$fs'")
else
	echo "bench-compare: cannot mount a tmpfs; using /dev/shm"
	fs=$(mktemp -d /dev/shm/pfsbench-bench-compare.XXXXXX) || exit 1
	undo+=("rm -rf '$fs'")
fi

hold_page_reporting >"$work/hold"
cat "$work/hold"

# The busy loop of a pair; never left running.
busy_pid=
busy_stop() {
	[ -n "$busy_pid" ] || return 0
	kill "$busy_pid" 2>/dev/null
	wait "$busy_pid" 2>/dev/null
	busy_pid=
}
undo+=(busy_stop)
busy_start() {
	sh -c 'while :; do :; done' &
	busy_pid=$!
}

# A cgroup capping a process at 20 % of a CPU: 2 ms in every 10 ms.
CG=
cg_make() {
	if [ -e /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		CG=/sys/fs/cgroup/cpu/pfsbench-bench-compare-$$
		mkdir "$CG" && undo+=("rmdir '$CG'") && echo 10000 >"$CG/cpu.cfs_period_us" &&
			echo 2000 >"$CG/cpu.cfs_quota_us"
	elif grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		CG=/sys/fs/cgroup/pfsbench-bench-compare-$$
		mkdir "$CG" && undo+=("rmdir '$CG'") && echo "2000 10000" >"$CG/cpu.max"
	else
		false
	fi || { echo "bench-compare: no cgroup cpu controller: scenario c left out"; CG=; return 1; }
}

# run NAME ITERS [RULES [capped]]: one run, its results file and rows in
# runs/; RULES for the fault injector, given to every rank; "capped" puts
# SLOW_NODE's rank in the cgroup before it starts pfsbench.
run() {
	local name=$1 iters=$2 rules=${3:-} capped=${4:-} n cmd=() pre=() t0=$EPOCHREALTIME
	[ -n "$rules" ] && pre=(-x "LD_PRELOAD=$PFSFAULT" -x "PFSBENCH_FAULT=$rules")
	for ((n = 1; n <= NODES; n++)); do
		[ "$n" -gt 1 ] && cmd+=(:)
		cmd+=(-np 1 -x "PFSBENCH_NODENAME=node$n" "${pre[@]}")
		if [ -n "$capped" ] && [ "node$n" = "$SLOW_NODE" ]; then
			# shellcheck disable=SC2016 # the rank's shell expands them
			cmd+=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG")
		fi
		cmd+=("$PFSBENCH" create-unlink -m "$fs" --no-drop-caches -f "$FILES" -F 4 -s 4k -t "$TESTS"
			-i "$iters" --progress=never --results "$runs/$name.h5")
	done
	if ! (cd "$work" && timeout "$RUN_TIMEOUT" "$MPIRUN" --oversubscribe "${cmd[@]}") >"$runs/$name.out" 2>&1; then
		echo "bench-compare: run $name failed:"
		tail -20 "$runs/$name.out"
		rm -rf "${fs:?}"/*
		return 1
	fi
	"$PFSBENCH" export "$runs/$name.h5" --csv >"$runs/$name.csv" || return 1
	echo "$name $(awk -v a="$EPOCHREALTIME" -v s="$t0" 'BEGIN { printf "%.2f", a - s }')" >>"$work/times"
}

# compare JSON A.h5... -- B.h5...: compare's JSON of side 2 against side 1.
# A compare that takes no "--" (before runs became replicates) is given
# every run in one list, and its first run of side 2 against run 1 counts.
OLD=
compare() {
	local js=$1 a
	shift
	if [ "$OLD" = 1 ]; then
		local all=()
		for a; do [ "$a" = -- ] || all+=("$a"); done
		"$PFSBENCH" compare "${all[@]}" --json >"$js" 2>"$js.err"
	else
		"$PFSBENCH" compare "$@" ${MARGIN:+--margin "$MARGIN"} --json >"$js" 2>"$js.err"
	fi || { echo "bench-compare: compare failed:"; cat "$js.err"; return 1; }
	[ -s "$js.err" ] || rm -f "$js.err"
}

# spread FIRST SELECTOR D_US: rules that delay K unlinks, spread over each
# iteration of the test FIRST (0 se, 1 pa) by D_US each. Tests run
# outermost and iterations inside them, and each node unlinks FILES a
# step, so its unlinks of test t iteration i are the calls after
# (t x P_ITERS + i) x FILES.
spread() {
	local first=$1 sel=$2 d=$3 it m r=
	for ((it = 0; it < P_ITERS; it++)); do
		for ((m = 0; m < K; m++)); do
			r+="delay unlinkat ${d}us $sel after=$(((first * P_ITERS + it) * FILES + m * FILES / K)) count=1;"
		done
	done
	echo "$r"
}

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_start=$(uptime)
s0=$SECONDS
echo "bench-compare: into $out; $(uptime)"

# ---- calibration -----------------------------------------------------------------------------
for k in 1 2 3; do run "cal$k" "$P_ITERS" || exit 1; done
if "$PFSBENCH" compare "$runs/cal1.h5" -- "$runs/cal2.h5" --json >/dev/null 2>&1; then
	OLD=0 mode="runs as replicates (compare A... -- B...)"
else
	OLD=1 mode="an older compare without \"--\": the first run of each side compared, groups left out"
fi
echo "bench-compare: compare: $mode"
[ "$OLD" = 1 ] && [ -n "$MARGIN" ] && echo "bench-compare: this compare has no --margin: MARGIN=$MARGIN left out"
cal=("$runs"/cal?.csv)
base_se=$("$PY" "$TALLY" peritem se Unlink "$SLOW_NODE" "${cal[@]}")
base_pa=$("$PY" "$TALLY" peritem pa Unlink "$SLOW_NODE" "${cal[@]}")
base_all=$("$PY" "$TALLY" peritem se Unlink all "${cal[@]}")
# what one sleep of about the delays' size takes beyond what it asks
over_us=$("$PY" -c '
import time
d = 0.002
s = 0
for i in range(100):
    t = time.perf_counter(); time.sleep(d); s += time.perf_counter() - t - d
print("%.0f" % (s / 100 * 1e6))')
# delay FACTOR BASE_US: each delay's microseconds for that factor, a
# first guess
delay() {
	awk -v f="$1" -v b="$2" -v n="$FILES" -v k="$K" -v o="$over_us" \
		'BEGIN { d = (f - 1) * b * n / k - o; printf "%d", d < 1 ? 1 : d }'
}
printf '%s\n' "step,scenario,D_us,us_an_item,factor" "baseline,a,,$base_se," "baseline,b,,$base_pa," \
	"baseline,d,,$base_all," >"$out/calibration.csv"
# refine SCENARIO FACTOR TEST NODE FIRST SELECTOR BASE_US: D by CAL_ROUNDS
# (2) rounds, each of CAL_RUNS (5) slowed and as many unslowed runs,
# alternating; each round is measured against its own unslowed runs and
# scales what a delay adds by what was asked over what came. A sleep is not
# only its length: its wake-up, and in pa the CPU it leaves to the other
# ranks, move the factor off the first guess (1.36x for 2x in pa Unlink in
# a trial). And one node's unslowed se Unlink took 1.6 to 3.4 us an item in
# 12 runs in a row (5.2 us once on a busy machine): a median of 5 outlasts
# such runs, and the machine's drift falls on both sides of a round alike.
# The result in D, scaled once more by the last round's factor (the trials
# then use the best estimate, not the last one measured: with 2 rounds the
# trials of a ran at 1.76x, the last round's, against 2x asked), and that
# factor in D_FACTOR.
#
# And the trials go on measuring: each round and each trial gives what a
# microsecond of delay made, (factor - 1) / (D + overshoot), and the next
# trial's D is (target - 1) over the median of all of those so far, less
# the overshoot. With D fixed after calibration, d's five trials ran at
# 1.18-1.23x in one full run against 1.25x asked (its rounds' 5 runs a
# side estimate a 25 % change within about 10 %), which asked less of
# compare than the bar does.
declare -A EFF
# eff_add SCENARIO D FACTOR: one more measure of what a microsecond made.
eff_add() {
	EFF[$1]+=" $(awk -v d="$2" -v o="$over_us" -v m="$3" 'BEGIN { printf "%.6g", (m - 1) / (d + o) }')"
}
# stepped CURRENT WANTED: the next D, WANTED within 1/STEP to STEP times
# CURRENT, in whole microseconds, at least 1. A round on a noisy machine can
# measure almost no gain (1.025x for 2x asked, once): scaling by it made D
# 40 times longer and the next round 28x.
STEP=4
stepped() {
	awk -v c="$1" -v a="$2" -v s="$STEP" \
		'BEGIN { a = a > s * c ? s * c : a < c / s ? c / s : a; printf "%d", a < 1 ? 1 : a }'
}
# eff_delay SCENARIO TARGET CURRENT: D for the target from the median of
# the measures (CURRENT while that median is no gain at all), stepped.
eff_delay() {
	# shellcheck disable=SC2086 # the list's words, one a line
	stepped "$3" "$(printf '%s\n' ${EFF[$1]} | sort -g | awk -v f="$2" -v o="$over_us" -v c="$3" \
		'{ v[NR] = $1 } END { e = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
		  printf "%.6g", (e <= 0 ? c : (f - 1) / e - o) }')"
}
CAL_ROUNDS=${CAL_ROUNDS:-2} CAL_RUNS=${CAL_RUNS:-5}
refine() {
	local sc=$1 f=$2 test=$3 node=$4 first=$5 sel=$6 base=$7 r j us0 us
	D=$(delay "$f" "$base") D_FACTOR='' EFF[$sc]=''
	for ((r = 1; r <= CAL_ROUNDS; r++)); do
		for ((j = 1; j <= CAL_RUNS; j++)); do
			if ((j % 2)); then
				run "cal$sc-$r-u$j" "$P_ITERS" && run "cal$sc-$r-s$j" "$P_ITERS" "$(spread "$first" "$sel" "$D")"
			else
				run "cal$sc-$r-s$j" "$P_ITERS" "$(spread "$first" "$sel" "$D")" && run "cal$sc-$r-u$j" "$P_ITERS"
			fi || return 1
		done
		us0=$("$PY" "$TALLY" peritem "$test" Unlink "$node" "$runs/cal$sc-$r-u"?.csv)
		us=$("$PY" "$TALLY" peritem "$test" Unlink "$node" "$runs/cal$sc-$r-s"?.csv)
		D_FACTOR=$(awk -v a="$us" -v b="$us0" 'BEGIN { printf "%.3f", a / b }')
		echo "round $r unslowed,$sc,,$us0," >>"$out/calibration.csv"
		echo "round $r slowed,$sc,$D,$us,$D_FACTOR" >>"$out/calibration.csv"
		echo "bench-compare: calibration $sc round $r: D = $D us: ${D_FACTOR}x (target ${f}x)"
		eff_add "$sc" "$D" "$D_FACTOR"
		D=$(stepped "$D" "$(awk -v d="$D" -v o="$over_us" -v f="$f" -v m="$D_FACTOR" \
			'BEGIN { printf "%.6g", (m > 1.01 ? (d + o) * (f - 1) / (m - 1) - o : 2 * d) }')")
	done
}
d_a='' d_b='' d_d='' f_a='' f_b='' f_d=''
for sc in $SCENARIOS; do
	case $sc in
	a) refine a 2 se "$SLOW_NODE" 0 "node=$SLOW_NODE" "$base_se" && d_a=$D f_a=$D_FACTOR ;;
	b) refine b 2 pa "$SLOW_NODE" 1 "node=$SLOW_NODE" "$base_pa" && d_b=$D f_b=$D_FACTOR ;;
	d) refine d 1.25 se all 0 "" "$base_all" && d_d=$D f_d=$D_FACTOR ;;
	esac || exit 1
done
d0_a=$d_a d0_b=$d_b d0_d=$d_d
echo "bench-compare: calibration: per unlink se $base_se us, pa $base_pa us ($SLOW_NODE), se $base_all us (all);" \
	"sleep overshoot $over_us us; $K delays an iteration of D = ${d_a:--} us (a), ${d_b:--} us (b), ${d_d:--} us (d)"

# ---- error -----------------------------------------------------------------------------------
for it in $ITERS; do
	declare -A group=()
	for ((p = 1; p <= PAIRS; p++)); do
		cond=$((p % 2 ? 0 : 1))
		cname=$([ "$cond" = 1 ] && echo busy || echo quiet)
		[ "$cond" = 1 ] && busy_start
		run "e$it-$p-a" "$it" && run "e$it-$p-b" "$it" || exit 1
		busy_stop
		compare "$out/json/e$it-$p.json" "$runs/e$it-$p-a.h5" -- "$runs/e$it-$p-b.h5" || exit 1
		"$PY" "$TALLY" error "$out" pair "$cname" "$it" "$p" 1 "$out/json/e$it-$p.json" || exit 1
		group[$cname]+=" $p"
		read -ra g <<<"${group[$cname]}"
		if [ "$OLD" = 0 ] && [ "${#g[@]}" -eq 3 ]; then
			id=$(IFS=+; echo "${g[*]}") ga=() gb=()
			for q in "${g[@]}"; do ga+=("$runs/e$it-$q-a.h5"); gb+=("$runs/e$it-$q-b.h5"); done
			compare "$out/json/g$it-$id.json" "${ga[@]}" -- "${gb[@]}" || exit 1
			"$PY" "$TALLY" error "$out" group "$cname" "$it" "$id" 3 "$out/json/g$it-$id.json" || exit 1
			group[$cname]=
		fi
		echo "bench-compare: -i $it pair $p ($cname) done, $((SECONDS - s0)) s"
	done
	unset group
done

# ---- power -----------------------------------------------------------------------------------
# trial SCENARIO T N SLOWED EXPECT RULES [capped]: N unslowed runs and N
# slowed ones, alternating, the one that goes first alternating too;
# compared and counted.
trial() {
	local sc=$1 t=$2 n=$3 slowed=$4 expect=$5 rules=$6 capped=${7:-} k a=() b=()
	for ((k = 1; k <= n; k++)); do
		if ((k % 2)); then
			run "p$sc-$t-a$k" "$P_ITERS" && run "p$sc-$t-b$k" "$P_ITERS" "$rules" "$capped" || return 1
		else
			run "p$sc-$t-b$k" "$P_ITERS" "$rules" "$capped" && run "p$sc-$t-a$k" "$P_ITERS" || return 1
		fi
		a+=("$runs/p$sc-$t-a$k") b+=("$runs/p$sc-$t-b$k")
	done
	compare "$out/json/p$sc-$t.json" "${a[@]/%/.h5}" -- "${b[@]/%/.h5}" || return 1
	"$PY" "$TALLY" trial "$out" "$sc" "$t" "$n" "$slowed" "$expect" "$out/json/p$sc-$t.json" \
		-- "${a[@]/%/.csv}" -- "${b[@]/%/.csv}"
}
for sc in $SCENARIOS; do
	case $sc in
	c) cg_make || continue ;;
	esac
	for ((t = 1; t <= TRIALS; t++)); do
		case $sc in
		a) trial a "$t" 3 "$SLOW_NODE" se:Unlink "$(spread 0 "node=$SLOW_NODE" "$d_a")" ;;
		b) trial b "$t" 3 "$SLOW_NODE" pa:Unlink "$(spread 1 "node=$SLOW_NODE" "$d_b")" ;;
		c) trial c "$t" 3 "$SLOW_NODE" se:Create,se:Unlink,pa:Create,pa:Unlink "" capped ;;
		d) trial d "$t" 5 all se:Unlink "$(spread 0 "" "$d_d")" ;;
		*) echo "bench-compare: no scenario '$sc' (a b c d)"; exit 2 ;;
		esac || exit 1
		# this trial's node factor (power.csv's last row) tunes the next D
		# of a delayed scenario (d_a, d_b, d_d; c has none)
		m=$(tail -n 1 "$out/power.csv" | cut -d, -f6)
		if [ "$sc" != c ] && [ -n "$m" ]; then
			dv=d_$sc
			echo "trial $t,$sc,${!dv},,$m" >>"$out/calibration.csv"
			eff_add "$sc" "${!dv}" "$m"
			printf -v "$dv" '%s' "$(eff_delay "$sc" "$([ "$sc" = d ] && echo 1.25 || echo 2)" "${!dv}")"
		fi
	done
	echo "bench-compare: scenario $sc done, $((SECONDS - s0)) s"
done

# ---- the report ------------------------------------------------------------------------------
{
	echo "# pfsbench compare: error and power ($started)"
	echo
	echo "- started $started, load then: \`$load_start\`"
	echo "- ended $(date -u +%Y-%m-%dT%H:%M:%SZ), load then: \`$(uptime)\`; $((SECONDS - s0)) s in all"
	echo "- machine: $(nproc) CPUs, $(uname -sr); pfsbench: \`$PFSBENCH\`" \
		"($(git -C "$(dirname "$PFSBENCH")" describe --always --dirty 2>/dev/null || echo "no git"))"
	echo "- compare: $mode${MARGIN:+, --margin $MARGIN}"
	[ -s "$work/hold" ] && echo "- memory: $(sed 's/^bench: //' "$work/hold")"
	echo "- runs: create-unlink, $NODES simulated nodes x 1 rank, tmpfs, -f $FILES -F 4 -s 4k -t $TESTS" \
		"--no-drop-caches; error -i $ITERS, $PAIRS pairs each (odd quiet, even under one busy loop);" \
		"power -i $P_ITERS, $TRIALS trials a scenario"
	echo "- a run took $(sort -k2 -g "$work/times" | awk '{ v[NR] = $2 } END { printf "%.2f s (median; %.2f-%.2f s)", v[int((NR + 1) / 2)], v[1], v[NR] }'), $(wc -l <"$work/times") runs"
	echo "- calibration: first guess from unslowed runs cal1-3: per unlink, se $base_se us ($SLOW_NODE), pa $base_pa us" \
		"($SLOW_NODE), se $base_all us (all nodes); one sleep overshoots by $over_us us; $K delays an" \
		"iteration of D = ${d0_a:--} us (a: se Unlink 2x, $SLOW_NODE), ${d0_b:--} us (b: pa Unlink 2x, $SLOW_NODE)," \
		"${d0_d:--} us (d: se Unlink 1.25x, every node) in the first trial, scaled from the last of $CAL_ROUNDS" \
		"calibration rounds ($CAL_RUNS slowed runs against $CAL_RUNS unslowed), whose D made ${f_a:--}x, ${f_b:--}x" \
		"and ${f_d:--}x; each later trial's D from the median gain of a microsecond of delay in the rounds and" \
		"trials before it (calibration.csv's trial rows); (c): $SLOW_NODE's rank in a cgroup of 2 ms CPU in every 10 ms"
	echo
} >"$out/head.md"
"$PY" "$TALLY" report "$out" || exit 1
rm -f "$out/head.md"
# about 1.5 MB a run: 600 MB for the full bench
[ "$KEEP_RUNS" = 1 ] || rm -f "$runs"/*.h5
cat "$out/summary.md"
echo "bench-compare: $out/summary.md"
