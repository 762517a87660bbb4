# lib.sh: what the archive tests share, on tests/lib.sh's checks and
# scratch directory ($SCRATCH): the synthetic-results writer, Debian's
# Python with h5py (installed when missing, when apt-get can), and a small
# real run. A step the rest needs ends the test with `fail WHAT`.
# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
: "${PFSBENCH:?run me from make check}" "${SRCDIR:?run me from make check}"
MPIRUN=${MPIRUN:-mpirun}
SYNTH=$(dirname "$(dirname "$PFSBENCH")")/tests/archive/synth_results
PY=/usr/bin/python3
t_scratch
trap 'exit 1' INT TERM

need_h5py() {
	[ -x "$PY" ] || skip "Debian's $PY is missing"
	"$PY" -c 'import h5py' 2>/dev/null && return 0
	need_pkg python3-h5py
	"$PY" -c 'import h5py' 2>/dev/null || skip "h5py does not import after installing python3-h5py"
}

# A small real run: run_mpi NAME RANKS_PER_NODE NODES [ARGS...]; the report
# goes to NAME.txt, the results to NAME.h5.
run_mpi() {
	name=$1 per=$2 nodes=$3
	shift 3
	mkdir -p "$SCRATCH/target"
	set -- create-unlink -m "$SCRATCH/target" --no-drop-caches --results "$SCRATCH/$name.h5" "$@"
	if [ "$nodes" = 1 ]; then
		"$MPIRUN" --oversubscribe -np "$per" "$PFSBENCH" "$@" >"$SCRATCH/$name.txt"
	else
		"$MPIRUN" --oversubscribe -np "$per" -x PFSBENCH_NODENAME=nA "$PFSBENCH" "$@" : \
			-np "$per" -x PFSBENCH_NODENAME=nB "$PFSBENCH" "$@" >"$SCRATCH/$name.txt"
	fi
}
