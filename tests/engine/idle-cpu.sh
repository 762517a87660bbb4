#!/bin/bash
# A rank with nothing to do sleeps. se on 2 simulated nodes of 1 worker,
# node2 slowed by the fault injector (4 ms an open, so its Create step
# takes about 4 s): node1's rank waits through that step at the barrier,
# and must use a small part of a core while it does, not spin (it used
# about 100 % of one before; the waits now sleep, docs/methodology.md).
# node1's CPU is its whole process's, MPI's start and end and
# LeakSanitizer's scan in the sanitizer build included: 460 to 560 ms
# here, against a 2 s step before, which left too little room on a slower
# machine; the 4 s step leaves 7 times that.
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
# A pfsbench that reports its own CPU and wall time on stderr when it ends.
cat >"$SCRATCH/timed" <<EOT
#!/bin/bash
start=\$(date +%s%N)
LD_PRELOAD=$(printf %q "$PFSFAULT") PFSBENCH_FAULT='delay openat 4ms node=node2' $(printf %q "$PFSBENCH") "\$@"
rc=\$?
end=\$(date +%s%N)
times >"$SCRATCH/times.\$PFSBENCH_NODENAME"
echo \$(( (end - start) / 1000000 )) >"$SCRATCH/wall.\$PFSBENCH_NODENAME"
exit \$rc
EOT
chmod +x "$SCRATCH/timed"
PFSBENCH=$SCRATCH/timed pfs_nodes 2 1 create-unlink -m "$D" -f 1000 -F 1 -s 4k -t se \
	--no-drop-caches --results "$SCRATCH/idle.h5"
check "exit status 0" test "$RC" -eq 0
cpu_ms() { tail -1 "$SCRATCH/times.$1" | tr 'ms' '  ' | awk '{printf "%d", ($1 * 60 + $2 + $3 * 60 + $4) * 1000}'; }
wall=$(cat "$SCRATCH/wall.node1")
node2_create=$(rows | awk '$3 == "node2" && $5 == "Create" {print int($6 / 1000)}')
echo "# node1's rank: $(cpu_ms node1) ms of CPU in $wall ms, of which node2's Create step took $node2_create ms"
check "node2's Create step took over 3 s" test "$node2_create" -ge 3000
# Its own work is a few tens of ms and MPI's start-up some hundreds: a rank
# that spun through node2's step would use more than that step.
check "node1's rank used less CPU than the step it waited through" \
	test "$(cpu_ms node1)" -lt "$node2_create"
check "nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
