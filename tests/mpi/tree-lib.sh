# tree-lib.sh: sourced by the tree integration tests. Sets up the
# environment, a scratch directory removed on exit, and the three layouts
# the tests run: 1 rank, 2 ranks on one node, 2 simulated nodes.
set -u
PFSBENCH=${PFSBENCH:-src/pfsbench}
MPIRUN=${MPIRUN:-mpirun}
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

if [ ! -x "$PFSBENCH" ]; then
	echo "SKIP: no pfsbench binary at '$PFSBENCH'"
	exit 77
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pfsbench-tree-test.XXXXXX") || exit 99
out=$scratch.out
err=$scratch.err
trap 'rm -rf "$scratch" "$out" "$err"' EXIT

fail() {
	echo "FAIL: $*"
	echo "--- stdout"; cat "$out"
	echo "--- stderr"; cat "$err"
	exit 1
}

# run LAYOUT ARGS...: runs pfsbench with stdout in $out and stderr in $err;
# returns its exit status. LAYOUT is 1, 2 (ranks on one node) or 2x1 (two
# simulated nodes with one rank each).
run() {
	layout=$1
	shift
	case $layout in
	1) "$MPIRUN" --oversubscribe -np 1 "$PFSBENCH" "$@" >"$out" 2>"$err" ;;
	2) "$MPIRUN" --oversubscribe -np 2 "$PFSBENCH" "$@" >"$out" 2>"$err" ;;
	2x1) "$MPIRUN" --oversubscribe -np 1 -x PFSBENCH_NODENAME=nA "$PFSBENCH" "$@" : \
		-np 1 -x PFSBENCH_NODENAME=nB "$PFSBENCH" "$@" >"$out" 2>"$err" ;;
	esac
}

# empty DIR: fails unless DIR holds nothing.
expect_empty() {
	left=$(find "$1" -mindepth 1 | head -5)
	[ -z "$left" ] || fail "'$1' is not empty after $2: $left"
}
