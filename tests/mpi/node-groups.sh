#!/bin/bash
# Ranks are grouped by node without every rank's name on every rank
# (docs/scale.md, "Grouping the ranks by node"): split by a hash of the
# name, names compared only within a hash, a node numbered by the leaders
# before it. 7 ranks, their nodes interleaved as mpirun --map-by node
# makes them (node2 node1 node1 node2 node3 node1 node2), must come out
# as the definition says (nodes in the order of their lowest rank, workers
# counted from 1 in rank order) with the real hashes and with the names
# forced to share one (PFSBENCH_DEBUG_NODE_BUCKETS=1) or two buckets: the
# rows' node, node index and worker for each rank, and the report's nodes.
. "$(dirname "$0")/lib.sh"

ORDER=(node2 node1 node1 node2 node3 node1 node2)
# rank node node_index worker, as the definition makes them
WANT='0 node2 0 1
1 node1 1 1
2 node1 1 2
3 node2 0 2
4 node3 2 1
5 node1 1 3
6 node2 0 3'

run_groups() { # NAME [VAR=VALUE]
	local cmd=() k
	for k in "${!ORDER[@]}"; do
		[ "$k" -gt 0 ] && cmd+=(:)
		mpi_env "PFSBENCH_NODENAME=${ORDER[k]}" ${2:+"$2"}
		cmd+=(-np 1 "${MPI_ENV[@]}" "$PFSBENCH" create-unlink -m "$SCRATCH/t-$1" -f 2 -F 1 -s 1
			-t pa --no-drop-caches --progress=never --results "$SCRATCH/$1.h5")
	done
	mkdir "$SCRATCH/t-$1"
	(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") \
		>"$SCRATCH/$1.out" 2>"$SCRATCH/$1.err"
	RC=$?
	check "$1: exit 0" test "$RC" -eq 0
	# rank, node, node_index, worker of each rank's rows, once a rank
	csv_rows "$SCRATCH/$1.h5" | tr -d '\r' | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["rank"], $c["node"], $c["node_index"], $c["worker"] }' |
		sort -n -u >"$SCRATCH/$1.places"
	check "$1: each rank's node, node index and worker as defined" \
		test "$(cat "$SCRATCH/$1.places")" = "$WANT"
	check "$1: the report's nodes are node2, node1, node3, 1 to 3 workers each" \
		test "$(sed -n '/^Testing with/,/^$/p' "$SCRATCH/$1.out" |
			awk 'NR == 1 { print $3, $5, $7; next } { print $1 }' | tr '\n' ' ')" \
		= "3 1 3 node2 node1 node3  "
}

run_groups hashed
run_groups one-bucket PFSBENCH_DEBUG_NODE_BUCKETS=1
run_groups two-buckets PFSBENCH_DEBUG_NODE_BUCKETS=2
[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH"/*.out "$SCRATCH"/*.err "$SCRATCH"/*.places
finish
