#!/bin/bash
# Each node's facts in the results file come from that node's leader, sent
# to rank 0 alone (run.c's leaders_to_root; docs/scale.md): with nodes of
# 1, 2 and 1 ranks, so that the leaders are ranks 0, 1 and 3, /nodes holds
# three entries in node order, each with its name, its worker count, this
# host's kernel and memory, an address and the probe's description.
. "$(dirname "$0")/lib.sh"
command -v h5dump >/dev/null || skip "no h5dump (apt-get install hdf5-tools)"

T=$SCRATCH/target
mkdir "$T"
ARGS=(create-unlink -m "$T" -f 4 -F 1 -t pa --no-drop-caches --progress=never --results "$SCRATCH/r.h5")
cmd=()
for spec in node1:1 node2:2 node3:1; do
	[ ${#cmd[@]} -gt 0 ] && cmd+=(:)
	mpi_env "PFSBENCH_NODENAME=${spec%:*}"
	cmd+=(-np "${spec#*:}" "${MPI_ENV[@]}" "$PFSBENCH" "${ARGS[@]}")
done
(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" "${cmd[@]}") >"$SCRATCH/out" 2>"$SCRATCH/err"
RC=$?
check "3 nodes of 1, 2 and 1 ranks: exit 0" test "$RC" -eq 0
# One line per node: name|addr|workers|mem_bytes|kernel|fsstats
h5dump -d /nodes "$SCRATCH/r.h5" | awk '
	/^   \([0-9]+\): \{/ { inrec = 1; n = 0; next }
	inrec && /^      \}/ { print line; inrec = 0; line = ""; next }
	inrec { v = $0; sub(/^ */, "", v); sub(/,$/, "", v); gsub(/"/, "", v); n++
		if (n <= 6) line = line (n > 1 ? "|" : "") v }' >"$SCRATCH/nodes"
mem=$(awk '/^MemTotal:/ { printf "%.0f", $2 * 1024 }' /proc/meminfo)
check "three nodes in /nodes" test "$(wc -l <"$SCRATCH/nodes")" -eq 3
i=0
for spec in node1:1 node2:2 node3:1; do
	i=$((i + 1))
	IFS='|' read -r name addr workers mem_bytes kernel fsstats < <(sed -n "${i}p" "$SCRATCH/nodes")
	check "node $i is ${spec%:*} with ${spec#*:} workers" test "$name $workers" = "${spec%:*} ${spec#*:}"
	check "${spec%:*}: this host's kernel ($(uname -r))" test "$kernel" = "$(uname -r)"
	# sysinfo's total and MemTotal agree to the page
	check "${spec%:*}: this host's memory ($mem bytes, within 1 MiB: $mem_bytes)" \
		awk -v a="$mem_bytes" -v b="$mem" 'BEGIN { d = a - b; exit !(a ~ /^[0-9]+$/ && d < 1048576 && d > -1048576) }'

	check "${spec%:*}: an address" test -n "$addr"
	check "${spec%:*}: the probe's description" test -n "$fsstats"
done
[ "$T_FAILED" -eq 0 ] || { cat "$SCRATCH/nodes" "$SCRATCH/err"; }
finish
