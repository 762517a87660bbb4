#!/bin/bash
# A node name goes into paths only made safe: PFSBENCH_NODENAME="../x"
# (a '/' and dots) and one with a newline put their worker directories
# inside the run directory, as ".._x.1" and "a_b.1", never beside it; the
# report prints each name as given. A tree -C run leaves its directories,
# so what the names made can be looked at; -R removes it all.
. "$(dirname "$0")/lib.sh"

T=$SCRATCH/target
mkdir "$T"
snapshot "$T"
nl=$'a\nb'
PLAN=(-o "$T" -l 1 -d 1 -f 1 -s 1 --no-drop-caches)
mpi_env PFSBENCH_NODENAME=../x; env1=("${MPI_ENV[@]}")
mpi_env "PFSBENCH_NODENAME=$nl"; env2=("${MPI_ENV[@]}")

(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "${env1[@]}" \
	"$PFSBENCH" tree "${PLAN[@]}" -C : -np 1 "${env2[@]}" \
	"$PFSBENCH" tree "${PLAN[@]}" -C) >"$SCRATCH/out" 2>"$SCRATCH/err"
RC=$?
check "-C with odd node names: exit 0" test "$RC" -eq 0
runs=("$T"/pfsbench.tree.*)
check "one run directory in the target" test ${#runs[@]} -eq 1 -a -d "${runs[0]}"
check "the worker directories are .._x.1 and a_b.1, inside it, beside the marker" \
	test "$(cd "${runs[0]}" && ls -A | grep -vx '\.pfsbench-run' | tr '\n' ' ')" = ".._x.1 a_b.1 " \
	-a -f "${runs[0]}/.pfsbench-run"
check "nothing beside the run directory (\"../x\" once made target/x.1)" \
	test "$(ls -A "$T")" = "${runs[0]##*/}"
check "the report names the node as given" grep -q '\.\./x' "$SCRATCH/out"

(cd "$SCRATCH" && timeout 300 "$MPIRUN" "${MPIRUN_FLAGS[@]}" -np 1 "${env1[@]}" \
	"$PFSBENCH" tree "${PLAN[@]}" -R : -np 1 "${env2[@]}" \
	"$PFSBENCH" tree "${PLAN[@]}" -R) >"$SCRATCH/out2" 2>"$SCRATCH/err2"
RC=$?
check "-R: exit 0" test "$RC" -eq 0
check "-R: the target is as it was" dir_unchanged "$T"
[ "$T_FAILED" -eq 0 ] || { cat "$SCRATCH/out" "$SCRATCH/err" "$SCRATCH/err2"; }
finish
