#!/bin/bash
# shared.sh - one shared directory against a directory a worker on GFS2
# (issue 30): on the two-node lock_dlm cluster of two-vms.sh, create-unlink
# `-t se,pa -f 200 -F 5 -s 64k -i 3` on n1 and n2 (1 rank each), without
# ("own": each worker its own directory, mdtest's -u) and with
# `--shared-dir` (every worker's files in the run directory, mdtest's
# default), SHARED_ROUNDS rounds (default 3) of each, the order swapped
# every round; each machine's sbstats around every run. Then `pfsbench
# compare` of the own runs against the shared ones, and each machine's DLM
# requests in each run and in each step (the results files' GFS2 counters).
# Run by hand (`make shared-gfs2`), not by `make check`: 20-40 minutes of an
# emulated machine's time. Checks only that the runs ran (exit 0, complete
# results files on gfs2, nothing left); the figures are for docs/methodology.md.
# Keeps everything in $GFS2_KEEP/shared (default /tmp/pfsbench-gfs2/shared).
# TCG emulation: only the ratio between the two kinds, run here in the same
# emulator and interleaved, means anything. Root only; exit 77 = skipped.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
ROUNDS=${SHARED_ROUNDS:-3}
[[ $ROUNDS =~ ^[1-9][0-9]?$ ]] || { echo "SHARED_ROUNDS: 1 to 99, not '$ROUNDS'" >&2; exit 2; }
gfs2_begin 2
M=/mnt/gfs2
"$PFSBENCH" create-unlink --help 2>&1 | grep -q -- --shared-dir || skip "$PFSBENCH has no create-unlink --shared-dir"
command -v h5repack >/dev/null || need_pkg hdf5-tools
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
cat >"$SHARE/n1.job" <<JOB
COROSYNC_TOKEN=30000 cluster_up
wait_for $SHARE/n2.ready 600
FS=gfs2
MPIRUN_OPTS="$MPIRUN_2NODES"
echo keep >$M/foreign
(cd $M && find . | sort) >$SHARE/before
for ((r = 1; r <= $ROUNDS; r++)); do
	kinds="own shared"
	[ \$((r % 2)) = 0 ] && kinds="shared own"
	for kind in \$kinds; do
		flag=
		[ \$kind = shared ] && flag=--shared-dir
		stats_snap_pair "\$kind-\$r-before"
		PFS_TIMEOUT=1500 pfs_run "\$kind-\$r" $M create-unlink -m $M -t se,pa -f 200 -F 5 -s 64k -i 3 \
			\$flag --results "$SHARE/\$kind-\$r.h5"
		stats_snap_pair "\$kind-\$r-after"
	done
done
(cd $M && find . | sort) >$SHARE/after
touch $SHARE/n1.done
wait_for $SHARE/n2.unmounted 300
umount $M
JOB
cat >"$SHARE/n2.job" <<JOB
COROSYNC_TOKEN=30000 cluster_up
touch $SHARE/n2.ready
wait_for $SHARE/n1.done 7200
umount $M
ip link set eth0 down
touch $SHARE/n2.unmounted
JOB
vm_cluster_start
check "n1 ran its job and powered off" vm_wait n1 7800
check "n2 powered off" vm_wait n2 600
check "n1's job succeeded" test "$(cat "$SHARE/n1.status" 2>/dev/null)" = 0
[ "$T_FAILED" -eq 0 ] || { vm_console n1; vm_console n2; }
for ((r = 1; r <= ROUNDS; r++)); do
	for kind in own shared; do
		vm_result "$kind-$r"
		check "$kind-$r: exit 0" test "$RC" -eq 0
		check "$kind-$r: results file: fstype GFS2" test "$(prov "$SHARE/$kind-$r.h5" fstype)" = GFS2
		check "$kind-$r: results file complete" test "$(prov "$SHARE/$kind-$r.h5" status)" = complete
	done
done
check "shared-1: the header says the files share the run directory" \
	grep -q "hared directory: every worker of every node creates its files in the run directory" "$SHARE/shared-1.out"
check "nothing of the runs is left" diff "$SHARE/before" "$SHARE/after"

own=() shared=()
for ((r = 1; r <= ROUNDS; r++)); do
	own+=("$SHARE/own-$r.h5")
	shared+=("$SHARE/shared-$r.h5")
done
{
	echo "# gfs2, 2 nodes x 1 worker, create-unlink -t se,pa -f 200 -F 5 -s 64k -i 3: own directories (left) against --shared-dir (right), $ROUNDS runs a side"
	"$PFSBENCH" compare "${own[@]}" -- "${shared[@]}"
	echo
	echo "# DLM requests (sbstats, all glock types) of each machine over each run, and in each step of its first iteration"
	printf '# %-7s %-40s %12s %12s\n' run step "machine n1" "machine n2"
	for ((r = 1; r <= ROUNDS; r++)); do
		for kind in own shared; do
			x=$kind-$r
			printf '# %-7s %-40s %12d %12d\n' "$x" "whole run" \
				"$(sb_sum "$SHARE/stats/$x-before-n1.sbstats" "$SHARE/stats/$x-after-n1.sbstats" dlm)" \
				"$(sb_sum "$SHARE/stats/$x-before-n2.sbstats" "$SHARE/stats/$x-after-n2.sbstats" dlm)"
			fs_steps "$SHARE/$x.h5" | awk -F'\t' -v x="$x" '$2 == 1 {
				for (i = 5; i <= NF; i += 5) d[$i] = $(i + 3)
				printf "# %-7s %-40s %12d %12d\n", x, $1 " " $3 ": " $4, d["n1"], d["n2"]}'
		done
	done
} >"$SHARE/shared.txt"
cat "$SHARE/shared.txt"
mkdir -p "$SHARE/small"
for f in "$SHARE"/*.h5; do
	h5repack -f GZIP=9 "$f" "$SHARE/small/$(basename "$f")"
done
vm_keep shared "$SHARE"/*.h5 "$SHARE"/*.out "$SHARE"/*.txt "$SHARE"/*.log "$SHARE/stats" "$SHARE/small"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); shared.sh took $((SECONDS - t0)) s (TCG emulation)"
finish
