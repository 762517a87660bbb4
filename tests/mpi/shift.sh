#!/bin/bash
# --shift on 3 simulated nodes of 2 workers: node k reads and unlinks the
# files of node (k+1) mod 3, worker by worker, and only those (the fault
# injector logs every open and unlink of the run's files with the node that
# made it); the reads are counted in the rows; the header and the results
# file say so; every file is unlinked exactly once, also when node2's
# unlinks fail half-way through a shifted Unlink and the owners' cleanup
# removes the rest; nothing is left. Bad values exit 2 and create nothing.
. "$(dirname "$0")/lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
target_dir

# The run's opens and unlinks, logged by a delay of 0 ns.
LOGGED=$(logging "delay openat 0ns path=/pfsbench.; delay unlinkat 0ns path=/pfsbench.")
PFSBENCH=$LOGGED pfs_nodes 3 2 create-unlink -m "$D" -f 50 -F 5 -s 4k -t se,pa,ub \
	--no-drop-caches --shift 1 --results "$SCRATCH/shift.h5"
logs
check "exit status 0" test "$RC" -eq 0
check "the header says how Read and Unlink shift" grep -qx \
	"Shift 1: in se, pa and ub, node k reads and unlinks the files of node (k+1) mod 3" "$OUT"
check "the results file records shift = 1" \
	test "$("$T_PFSBENCH" export "$SCRATCH/shift.h5" --json | grep -c '"shift": 1')" -eq 1
check "show gives the same report, header note and all" \
	diff -q <("$T_PFSBENCH" show "$SCRATCH/shift.h5") "$OUT"
check "every Read row read its 5 files of 4 KiB: 3 nodes x 2 workers x se, pa" \
	test "$(csv_rows "$SCRATCH/shift.h5" | awk -F, '$7 == "Read" && $12 == 5 && $14 == 20480' | wc -l)" -eq 12
check "every Unlink row removed 50 files: se, pa, ub" \
	test "$(rows | awk '$5 == "Unlink" && $7 == 50' | wc -l)" -eq 18

# "pfsfault: rank R node NODE: openat #N '/.../pfsbench.X/nodeM.W/fI': ..."
# Each call is logged by every rule that counts it: only the delays' lines.
calls() { # calls SYSCALL: "node dirnode worker file" per call made or tried
	sed -n "s|^pfsfault: rank [0-9]* node \([^:]*\): $1 #[0-9]* '.*/pfsbench\.[^/]*/\([^/.]*\)\.\([0-9]*\)/\(f[0-9]*\)': delayed 0 ns$|\1 \2 \3 \4|p" "$LOG"
}
peer() { echo "node$(($(echo "$1" | tr -dc 0-9) % 3 + 1))"; }
foreign=$(calls openat | while read -r n d w f; do [ "$n" = "$d" ] || echo "$n $d"; done | sort | uniq -c | xargs)
check "opens of other nodes' files: node k opens node k+1's, 2 workers x 5 files x se, pa ($foreign)" \
	test "$foreign" = "20 node1 node2 20 node2 node3 20 node3 node1"
unlinks=$(calls unlinkat | while read -r n d w f; do
	[ "$(peer "$n")" = "$d" ] && echo peer || echo "node $n unlinked $d's $f"
done | sort | uniq -c | xargs)
check "every unlink is of the peer's file: 3 nodes x 2 workers x 50 x 3 tests ($unlinks)" \
	test "$unlinks" = "900 peer"
check "no file is unlinked twice in a test: every (dir, worker, file) 3 times, once a test" \
	test "$(calls unlinkat | awk '{print $2, $3, $4}' | sort | uniq -c | awk '$1 != 3' | wc -l)" -eq 0
check "nothing of the run is left" dir_unchanged "$D"

# Peers are found through the nodes' leaders, no rank holding every rank's
# place (docs/scale.md, "Grouping the ranks by node"): 2 nodes of 3 workers
# whose ranks interleave as mpirun --map-by node makes them (node1: ranks 0
# 2 5, node2: 1 3 4), --shift 1, so that each node is the other's peer and
# reader: every open and unlink of the other node's files is by the worker
# of the same number.
ORDER=(node1 node2 node1 node2 node2 node1)
WORKER_OF=(1 1 2 2 3 3)
cmd=()
for k in "${!ORDER[@]}"; do
	[ "$k" -gt 0 ] && cmd+=(:)
	mpi_env "PFSBENCH_NODENAME=${ORDER[k]}"
	cmd+=(-np 1 "${MPI_ENV[@]}" "$LOGGED" create-unlink -m "$D" -f 20 -F 4 -s 4k -t pa
		--no-drop-caches --shift 1 --results "$SCRATCH/mutual.h5")
done
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") >"$SCRATCH/mutual.out" 2>&1
check "interleaved ranks, each node the other's peer: exit 0" test $? -eq 0
logs
by_worker() { # by_worker SYSCALL: "right" or what was wrong, per call on another node's file
	sed -n "s|^pfsfault: rank \([0-9]*\) node \([^:]*\): $1 #[0-9]* '.*/pfsbench\.[^/]*/\([^/.]*\)\.\([0-9]*\)/f[0-9]*': delayed 0 ns\$|\1 \2 \3 \4|p" "$LOG" |
		while read -r r n d w; do
			[ "$n" = "$d" ] && continue
			[ "$w" = "${WORKER_OF[r]}" ] && echo right || echo "rank $r ($n) on $d.$w"
		done | sort | uniq -c | xargs
}
opens=$(by_worker openat)
check "interleaved: each worker read its peer's 4 files, 2 nodes x 3 workers ($opens)" \
	test "$opens" = "24 right"
unlinks=$(by_worker unlinkat)
check "interleaved: each worker unlinked its peer's 20 files ($unlinks)" test "$unlinks" = "120 right"
check "interleaved: nothing of the run is left" dir_unchanged "$D"

# The same with rank 1 (node2's worker 1) failing at its 11th unlink of
# node1.1's files: node1.1's owner learns from rank 1's ledger which to
# remove, so a ledger from any other rank would leave files or unlink some
# twice.
FAILING=$(logging "delay unlinkat 0ns path=/pfsbench.; fail unlinkat EIO rank=1 after=10 count=1 path=/pfsbench.")
for k in "${!cmd[@]}"; do
	[ "${cmd[k]}" = "$LOGGED" ] && cmd[k]=$FAILING
	[ "${cmd[k]}" = "$SCRATCH/mutual.h5" ] && cmd[k]=$SCRATCH/mutual-fail.h5
done
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") >"$SCRATCH/mutual.out" 2>&1
check "interleaved, rank 1 failing: exit status 1" test $? -eq 1
logs
tries=$(calls unlinkat | awk '{print $2 "." $3 "/" $4}' | sort | uniq -c)
check "interleaved, rank 1 failing: 120 files each unlinked once, node1.1's 11th twice" \
	test "$(echo "$tries" | awk '$1 == 1' | wc -l) $(echo "$tries" | awk '$1 == 2 {print $2}' | xargs)" = \
	"119 node1.1/f0000000010"
check "interleaved, rank 1 failing: nothing left" dir_unchanged "$D"

# node2's unlinks fail half-way through pa's shifted Unlink (node2 removes
# node3's files): the reader's count says which, the owners remove the rest.
FAILING=$(logging "delay unlinkat 0ns path=/pfsbench.; fail unlinkat EIO node=node2 after=20 count=1")
PFSBENCH=$FAILING pfs_nodes 3 2 create-unlink -m "$D" -f 50 -F 5 -s 4k -t pa \
	--no-drop-caches --shift 1 --results "$SCRATCH/fail.h5"
logs
check "a failed shifted Unlink: exit status 1" test "$RC" -eq 1
check "the message names node2, a worker, unlink and node3's file" grep -qE \
	"^pfsbench: node node2 worker [12]: cannot unlink '$D/pfsbench\.[^/]+/node3\.[12]/f0000000020': Input/output error$" "$LOG"
failed=$(sed -n "s|^pfsfault: rank [0-9]* node node2: unlinkat #[0-9]* '.*/\(node3\.[12]/f[0-9]*\)': failed EIO$|\1|p" "$LOG" | sort | xargs)
check "both of node2's workers failed on file 20 of their peer ($failed)" \
	test "$failed" = "node3.1/f0000000020 node3.2/f0000000020"
tries=$(calls unlinkat | awk '{print $2 "." $3 "/" $4}' | sort | uniq -c)
check "300 files, each unlinked once; the 2 that failed tried once more by their owner" \
	test "$(echo "$tries" | awk '$1 == 1' | wc -l) $(echo "$tries" | awk '$1 == 2 {print $2}' | xargs)" = \
	"298 node3.1/f0000000020 node3.2/f0000000020"
check "no warning of files left behind" test -z "$(grep -E 'left|cannot remove' "$LOG")"
check "nothing of the failed run is left" dir_unchanged "$D"

# Bad values: refused before anything is created.
bad() { # bad WHAT EXPECTED-MESSAGE NODES ARGS...
	local what=$1 msg=$2 nodes=$3
	shift 3
	pfs_nodes "$nodes" 1 create-unlink -m "$D" -f 10 -F 1 -s 4k --no-drop-caches "$@"
	check "$what: exit 2" test "$RC" -eq 2
	check "$what: says $msg" grep -qF -e "$msg" "$ERR"
	check "$what: nothing created" dir_unchanged "$D"
}
bad "--shift 1 on one node" "--shift needs 2 nodes or more" 1 --shift 1
bad "--shift 3 on 3 nodes" "--shift 3: this run has 3 nodes, so N must be 1 to 2" 3 --shift 3
bad "--shift -1" "--shift wants a whole number, not '-1'" 2 --shift -1
bad "--shift with only ua and uc" "-t selects none of them" 2 --shift 1 -t ua,uc
pfs 3 create-unlink -m "$D" -f 10 -F 1 -s 4k --no-drop-caches --shift 1
check "--shift on one node of 3 workers: exit 2" test "$RC" -eq 2
mpi_env PFSBENCH_NODENAME=n1; env1=("${MPI_ENV[@]}")
mpi_env PFSBENCH_NODENAME=n2; env2=("${MPI_ENV[@]}")
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "${env1[@]}" "$PFSBENCH" \
	create-unlink -m "$D" -f 10 -F 1 -s 4k --shift 1 : -np 2 "${env2[@]}" "$PFSBENCH" \
	create-unlink -m "$D" -f 10 -F 1 -s 4k --shift 1) >"$OUT" 2>"$ERR"
check "--shift with 1 and 2 workers per node: exit 2" test $? -eq 2
check "... saying every node needs the same workers" grep -qF "same number of workers on every node" "$ERR"
check "nothing created by the refused runs" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
