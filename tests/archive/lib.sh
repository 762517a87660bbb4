# lib.sh: what every archive test shares: MPI as root, a scratch directory
# removed on exit, the synthetic-results writer, and Debian's Python with
# h5py (installed when missing, when apt-get can).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
: "${PFSBENCH:?run me from make check}" "${SRCDIR:?run me from make check}"
MPIRUN=${MPIRUN:-mpirun}
SYNTH=$(dirname "$(dirname "$PFSBENCH")")/tests/archive/synth_results
PY=/usr/bin/python3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

need_h5py() {
	[ -x "$PY" ] || skip "Debian's $PY is missing"
	"$PY" -c 'import h5py' 2>/dev/null && return 0
	command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] ||
		skip "python3-h5py is not installed and apt-get cannot install it here"
	apt-get install -y -q python3-h5py >/dev/null 2>&1 || skip "apt-get install python3-h5py failed"
	"$PY" -c 'import h5py' 2>/dev/null || skip "h5py does not import after installing python3-h5py"
}

# A small real run: run_mpi NAME RANKS_PER_NODE NODES [ARGS...]; the report
# goes to NAME.txt, the results to NAME.h5.
run_mpi() {
	name=$1 per=$2 nodes=$3
	shift 3
	mkdir -p "$scratch/target"
	set -- create-unlink -m "$scratch/target" --no-drop-caches --results "$scratch/$name.h5" "$@"
	if [ "$nodes" = 1 ]; then
		"$MPIRUN" --oversubscribe -np "$per" "$PFSBENCH" "$@" >"$scratch/$name.txt"
	else
		"$MPIRUN" --oversubscribe -np "$per" -x PFSBENCH_NODENAME=nA "$PFSBENCH" "$@" : \
			-np "$per" -x PFSBENCH_NODENAME=nB "$PFSBENCH" "$@" >"$scratch/$name.txt"
	fi
}
