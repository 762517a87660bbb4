#!/bin/bash
# two-vms.sh - pfsbench across a two-node GFS2 cluster of virtual machines
# (tests/gfs2/lib.sh): one raw image shared by both, lock_dlm through
# corosync and dlm_controld, mpirun on n1 starting a rank on each node over
# ssh. create-unlink (2 nodes x 1 worker, all five tests), then a small
# tree. Checks: the report lists both nodes with their addresses, se rows
# come in node order, every row is there, nothing is left (seen from both
# nodes), the results file says lock_dlm and pfsbench:gfs, and each node's
# kernel logged exactly one cache drop by pfsbench per step of each run.
# The results files' per-step counters (fsprobe): both nodes' probes read
# pfsbench:gfs's sbstats, each node has counters in every step it worked in,
# their sums over the steps fit in the test's own sbstats snapshots around
# each run, and n1's se Create of 200 files made at least 200 inode DLM
# requests. Prints the se and ua rows, what each run cost each node in DLM
# requests and queued glock holders (sbstats), and a table of each step's
# DLM requests on n1 and n2 with what ran in it. Keeps the results files,
# reports, lock statistics and kernel logs in $GFS2_KEEP/two-vms (default
# /tmp/pfsbench-gfs2/two-vms). Root only; exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
gfs2_begin 2
M=/mnt/gfs2
# The runs' and the VMs' bounds are hang guards: create-unlink's 400 s
# (pfs_run's default) ran out on a host whose tests dropped its page cache
# every 2 s, so it has what n2 waits for it (1200 s) less a margin, and n1
# its whole job 2400 s.
# corosync's 3 s token split the emulated pair at a load of 19 (and the
# lockspace with it): nothing here kills a node, so a patient token costs
# nothing.
cat >"$SHARE/n1.job" <<JOB
COROSYNC_TOKEN=30000 cluster_up
wait_for $SHARE/n2.ready 540
echo keep >$M/foreign
stats_snap before-cu
MPIRUN_OPTS="$MPIRUN_2NODES"
PFS_TIMEOUT=1100 pfs_run cu $M create-unlink -m $M -f 200 -F 5 -s 64k --results $SHARE/cu.h5
stats_snap after-cu
touch $SHARE/n1.cu-done
wait_for $SHARE/n2.cu-done 180
pfs_run tree $M tree -o $M -l 2 -d 3 -f 4 -s 2 --results $SHARE/tree.h5
stats_snap after-tree
touch $SHARE/n1.done
wait_for $SHARE/n2.unmounted 180
umount $M
dmesg >$SHARE/n1.dmesg
JOB
cat >"$SHARE/n2.job" <<JOB
COROSYNC_TOKEN=30000 cluster_up
stats_snap before-cu
touch $SHARE/n2.ready
wait_for $SHARE/n1.cu-done 1200
stats_snap after-cu
touch $SHARE/n2.cu-done
wait_for $SHARE/n1.done 900
stats_snap after-tree
(cd $M && find . | sort) >$SHARE/n2.after
umount $M
dmesg >$SHARE/n2.dmesg
# n1 powers off next: the link goes first, so that n2 does not go on talking to it
ip link set eth0 down
touch $SHARE/n2.unmounted
JOB
start=$SECONDS
vm_cluster_start
check "n1 ran its job and powered off within 2400 s" vm_wait n1 2400
check "n2 powered off" vm_wait n2 300
echo "# the VMs ran $((SECONDS - start)) s"
for n in n1 n2; do
	check "$n's job succeeded" test "$(cat "$SHARE/$n.status" 2>/dev/null)" = 0
done
[ "$T_FAILED" -eq 0 ] || { vm_console n1; vm_console n2; }

vm_result cu
echo "# $(head -1 "$OUT")"
check_create_unlink GFS2 $M "$SHARE/cu.h5"
check "the report lists n1 and n2 with their addresses" \
	test "$(sed -n '3,4p' "$OUT")" = "$(printf ' n1 10.99.0.1\n n2 10.99.0.2')"
check "2 nodes of 1 worker each" grep -qx "Testing with 2 nodes, 1 workers per node: " "$OUT"
check "se rows in node order: n1 then n2 for every op" test "$(rows | awk '$1 == "se" {printf "%s ", $3}')" = \
	"n1 n2 n1 n2 n1 n2 n1 n2 "
check "results file: lockproto lock_dlm" test "$(prov "$SHARE/cu.h5" lockproto)" = lock_dlm
check "results file: locktable pfsbench:gfs" test "$(prov "$SHARE/cu.h5" locktable)" = pfsbench:gfs
check "results file: caches dropped" test "$(prov "$SHARE/cu.h5" caches_dropped)" = True
check "n2 sees nothing left either" diff "$SHARE/n2.after" "$SHARE/cu.before"
echo "# se and ua rows (TCG emulation: these times say nothing about real hardware):"
rows | awk '$1 == "se" || $1 == "ua"' | sed 's/^/#   /'
[ "$T_FAILED" -eq 0 ] || show_run

vm_result tree
check_tree GFS2 $M "$SHARE/tree.h5"
[ "$T_FAILED" -eq 0 ] || show_run

# Each step of a run begins with its node leaders dropping caches, then a
# barrier; the kernel logs every drop with the writer's name and pid. The
# writer is a thread of its own for each drop (a signal must not wait for
# the drop's sync), so the pid differs from drop to drop: each node must
# log as many drops as the two runs' results files have steps.
steps() {
	"$PFSBENCH" export "$1" --csv | awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next}
		{s[$c["test"] " " $c["iteration"] " " $c["step"]] = 1} END {print length(s)}'
}
for n in n1 n2; do
	drops=$(grep -c ' pfsbench ([0-9]*): drop_caches: 3$' "$SHARE/$n.dmesg")
	want=$(($(steps "$SHARE/cu.h5") + $(steps "$SHARE/tree.h5")))
	check "$n dropped its caches once a step: $want times (create-unlink $(steps "$SHARE/cu.h5"), tree $(steps "$SHARE/tree.h5")), logged $drops" \
		test "$drops" -eq "$want"
done

echo "# what each run cost each node, from sbstats (glock type, DLM requests, queued holders):"
for n in n1 n2; do
	echo "#   $n create-unlink: $(sb_deltas "$SHARE/stats/before-cu-$n.sbstats" "$SHARE/stats/after-cu-$n.sbstats")"
	echo "#   $n tree: $(sb_deltas "$SHARE/stats/after-cu-$n.sbstats" "$SHARE/stats/after-tree-$n.sbstats")"
done

# The results files' own counters, step by step: each node's leader read
# its sbstats around every step (src/target/fsprobe.c). Checked against the
# test's own snapshots around each whole run, taken from outside pfsbench.
fsdescs() {
	"$PFSBENCH" export "$1" --json |
		/usr/bin/python3 -c 'import json, sys; print(" / ".join(n["name"] + ": " + n["fsstats"] for n in json.load(sys.stdin)["nodes"]))'
}
# node_sum FILE COLUMN NODE: a column of fs_steps summed over the steps.
node_sum() {
	awk -F'\t' -v col="$2" -v node="$3" '{for (i = 5; i <= NF; i += 5) if ($i == node) s += $(i + col)} END {print s + 0}' "$1"
}
# workers_counted STEPS (fs_steps' lines): every system call takes glock
# holders, so a node that worked in a step queued some there. A node idle
# in a step may have no counters: zero deltas are not stored.
# shellcheck disable=SC2317 # run through check
workers_counted() {
	awk -F'\t' '{for (i = 5; i <= NF; i += 5) if ($(i + 1) && !($(i + 2) && $(i + 4) > 0)) {print "no counters: " $0; bad = 1}}
		END {exit bad || NR == 0}' "$1"
}
declare -A window=([cu]="before-cu after-cu" [tree]="after-cu after-tree")
for run in cu tree; do
	h5=$SHARE/$run.h5 st=$SHARE/$run.steps
	check "$run: both nodes' entries say what their probe reads" test "$(fsdescs "$h5")" = \
		"n1: gfs2 sbstats of pfsbench:gfs / n2: gfs2 sbstats of pfsbench:gfs"
	fs_steps "$h5" >"$st"
	check "$run: the counters cover the run's $(steps "$h5") steps" test "$(wc -l <"$st")" -eq "$(steps "$h5")"
	check "$run: each node has counters, with holders queued, in every step it ran an op in" \
		workers_counted "$st"
	echo "# $run: $(awk -F'\t' '{for (i = 5; i <= NF; i += 5) if (!$(i + 1)) {idle++; quiet += !$(i + 2)}}
		END {if (idle) printf "of the %d times a node was idle in a step, %d moved no counter", idle, quiet
			else printf "no node was idle in a step"}' "$st")"
	read -r from to <<<"${window[$run]}"
	for n in n1 n2; do
		d_steps=$(node_sum "$st" 3 $n) q_steps=$(node_sum "$st" 4 $n)
		d_run=$(sb_sum "$SHARE/stats/$from-$n.sbstats" "$SHARE/stats/$to-$n.sbstats" dlm)
		q_run=$(sb_sum "$SHARE/stats/$from-$n.sbstats" "$SHARE/stats/$to-$n.sbstats" queue)
		echo "# $run on $n: DLM requests $d_steps in the steps, $d_run in the whole run; holders queued $q_steps, $q_run"
		# The steps are inside the run. Between them each node drops its
		# caches and releases glocks (an unlock is a DLM request too).
		check "$run: $n's DLM requests of all steps ($d_steps) are at most the whole run's ($d_run)" \
			test "$d_steps" -gt 0 -a "$d_steps" -le "$d_run"
		# Holders are queued by system calls, nearly all of them the steps'.
		check "$run: $n's queued holders of all steps ($q_steps) are 90-100% of the whole run's ($q_run)" \
			test "$q_steps" -le "$q_run" -a "$((q_steps * 10))" -ge "$((q_run * 9))"
	done
done
# The seed's cross-node pattern, from the steps the results file records
# (each step's ops and nodes, whatever order they completed in): se is each
# node alone, in node order, op by op; ua is a pipeline in which node 1
# unlinks its files while node 2 creates its own (create_unlink_perf's
# "one node creates files while another node unlinks files").
# what_ran TEST: each step of TEST's "what ran", its parts sorted, a line each.
what_ran() {
	awk -F'\t' -v t="$1" '$1 == t {n = split($4, p, ", ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && p[j - 1] > p[j]; j--) {x = p[j]; p[j] = p[j - 1]; p[j - 1] = x}
		s = p[1]; for (i = 2; i <= n; i++) s = s " + " p[i]; print s}' \
		"$SHARE/cu.steps"
}
check "se: one node a step, n1 then n2, for Create, Write, Read, Unlink" test "$(what_ran se | tr '\n' /)" = \
	"Create on n1/Create on n2/Write on n1/Write on n2/Read on n1/Read on n2/Unlink on n1/Unlink on n2/"
check "ua: n1 creates; n1 unlinks while n2 creates; n2 unlinks" test "$(what_ran ua | tr '\n' /)" = \
	"Create on n1/Create on n2 + Unlink on n1/Unlink on n2/"
check "ua rows in completion order: n1's Create first, n2's Unlink last" \
	test "$(vm_result cu && rows | awk '$1 == "ua" {if (!n++) f = $3 " " $5; l = $3 " " $5} END {print n, f, "...", l}')" = "4 n1 Create ... n2 Unlink"
# A step in which both nodes work on the one filesystem makes both ask the
# DLM: the ua step in which n1 unlinks and n2 creates.
# shellcheck disable=SC2016 # awk's fields
check "ua's middle step: DLM requests on both nodes" \
	awk -F'\t' '$1 == "ua" && $3 == 1 {ok = $8 > 0 && $13 > 0} END {exit !ok}' "$SHARE/cu.steps"
# A new inode has a new glock, taken in EX on the DLM (gfs2_create_inode:
# gfs2_glock_get ... CREATE, then gfs2_glock_nq_init EX; each lock request
# of lock_dlm's gdlm_lock counts one in sbstats' dlm). n1's se Create is the
# run's first step, on a filesystem made for this test: no glock of those
# inodes can be cached.
created=$("$PFSBENCH" export "$SHARE/cu.h5" --csv --fs-stats | tr -d '\r' |
	awk -F, '$1 == "se" && $2 == 1 && $3 == 0 && $4 == 0 && $5 == "inode.dlm_requests" {print $6}')
check "se step 0 is Create on n1" test "$(awk -F'\t' '$1 == "se" && $3 == 0 {print $4}' "$SHARE/cu.steps")" = "Create on n1"
check "n1's se Create of 200 files made at least 200 inode DLM requests on n1 (${created:-none})" \
	test "${created:-0}" -ge 200
echo "# DLM requests a step (sbstats, all glock types), per node, whatever ran where:"
printf '#   %-4s %4s  %-30s %6s %6s\n' test step "what ran" n1 n2
cat "$SHARE/cu.steps" "$SHARE/tree.steps" |
	awk -F'\t' '{printf "#   %-4s %4d  %-30s %6d %6d\n", $1, $3, $4, $8, $13}'
vm_keep two-vms "$SHARE"/cu.* "$SHARE"/tree.* "$SHARE/stats" "$SHARE"/n?.dmesg
echo "# two-vms.sh took $((SECONDS - t0)) s"
finish
