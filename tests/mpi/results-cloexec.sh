#!/bin/bash
# The results file's descriptors are closed on exec: HDF5's sec2 driver
# opens the file without O_CLOEXEC, and rank 0 forks and execs (the
# GlusterFS probe's gluster, src/target/fsprobe.c), whose child would hold
# it open. Seen from /proc while the run is in its Create phase (rank 0's
# creates slowed by the fault injector): every descriptor of rank 0 on the
# results file has O_CLOEXEC (02000000) in its fdinfo flags, which the
# kernel sets there for a descriptor closed on exec. Nothing here bets on
# the machine's speed: a run that ended before the test could look is run
# again with 10 times the files.
. "$(dirname "$0")/lib.sh"

T=$SCRATCH/target
R=$SCRATCH/cloexec.h5
mkdir "$T"
slow=$(faulty "delay openat 100ms rank=0 path=/target/pfsbench.")

# looked PID: FLAGS, the fdinfo flags (octal) of PID's descriptors on $R,
# one a line; false when it has none.
looked() {
	local fd
	FLAGS=
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" = "$R" ] || continue
		FLAGS+="$(awk '$1 == "flags:" {print $2}' "/proc/$1/fdinfo/${fd##*/}" 2>/dev/null) "
	done
	[ -n "$FLAGS" ]
}

seen=false
for files in 40 400; do
	(cd "$SCRATCH" && exec timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 2 "$slow" create-unlink \
		-m "$T" -t pa -f $files -F 1 -s 1k --no-drop-caches --results "$R") \
		>"$SCRATCH/out" 2>"$SCRATCH/err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		# In Create (a file in rank 0's worker directory, <node>.1): the
		# results file was created before the first step.
		[ -n "$(find "$T" -mindepth 3 -path '*.1/*' 2>/dev/null | head -n 1)" ] &&
			p=$(pid_with_env "^$T_PFSBENCH create-unlink -m $T" "$RANK_VAR=0") && looked "$p" &&
			{ seen=true; break; }
		sleep 0.05
	done
	wait "$pid"
	rc=$?
	$seen && break
	echo "# the run of $files files a rank ended before rank 0's results file was seen; again"
	rm -f "$R"
done
check "rank 0's descriptors on the results file seen during its Create" $seen
echo "# fdinfo flags: $FLAGS"
closed=true
for f in $FLAGS; do
	[ $((8#$f & 8#2000000)) -ne 0 ] || closed=false
done
check "every one is closed on exec (O_CLOEXEC in its fdinfo flags)" test "$seen$closed" = truetrue
check "the run: exit 0" test "$rc" -eq 0
[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH/err"
finish
