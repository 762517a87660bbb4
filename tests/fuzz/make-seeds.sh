#!/bin/sh
# make-seeds.sh DIR: the fuzz target's seeds, made into DIR (empty or new):
# small real runs of every workload on a scratch directory, 1 and 2 ranks,
# one and two node names, with latency and several iterations so that
# every table of the schema is there, each repacked with h5repack into
# chunks of 16 records: the writer's chunks of up to 4096 make a run of 28
# rows 1.2 MB of mostly unwritten space, where a fuzzer's mutations would
# be lost (repacked, 20-70 KB, every object and value kept); the files tests/archive/craft.py
# crafts from one of them with h5py (skipped, with a note, without h5py);
# and the results files of real filesystems kept in docs/runs. Made at
# check time rather than committed, so that they are always what this
# pfsbench writes (docs/fuzzing.md). Takes about 5 s.
set -u
: "${PFSBENCH:?}" "${SRCDIR:?}"
MPIRUN=${MPIRUN:-mpirun}
PY=/usr/bin/python3
out=$1
mkdir -p "$out" || exit 1
# The harness's own runs, as root on CI; pfsbench never sets this.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT

# repack NAME: the run's file, in small chunks, as the seed NAME.h5.
repack() {
	if command -v h5repack >/dev/null 2>&1; then
		h5repack -l CHUNK=16 "$scratch/$1.h5" "$out/$1.h5"
	else
		cp "$scratch/$1.h5" "$out/$1.h5"
	fi
}

# seed NAME NP ARGS...: one run of NP ranks, its results file as NAME.h5.
seed() {
	name=$1 np=$2
	shift 2
	rm -rf "$scratch/t" && mkdir "$scratch/t" || return 1
	if ! "$MPIRUN" --oversubscribe -np "$np" "$PFSBENCH" "$@" --no-drop-caches \
		--results "$scratch/$name.h5" >"$scratch/log" 2>&1; then
		echo "make-seeds: the run for $name failed:" >&2
		cat "$scratch/log" >&2
		return 1
	fi
	repack "$name"
}
# seed2 NAME ARGS...: 2 ranks as two nodes, nA and nB.
seed2() {
	name=$1
	shift
	rm -rf "$scratch/t" && mkdir "$scratch/t" || return 1
	if ! "$MPIRUN" --oversubscribe -np 1 -x PFSBENCH_NODENAME=nA "$PFSBENCH" "$@" --no-drop-caches \
		--results "$scratch/$name.h5" : -np 1 -x PFSBENCH_NODENAME=nB "$PFSBENCH" "$@" \
		--no-drop-caches --results "$scratch/$name.h5" >"$scratch/log" 2>&1; then
		echo "make-seeds: the run for $name failed:" >&2
		cat "$scratch/log" >&2
		return 1
	fi
	repack "$name"
}

rc=0
seed create-unlink 2 create-unlink -m "$scratch/t" -f 20 -F 2 -s 4k --latency || rc=1
seed create-unlink-2it 1 create-unlink -m "$scratch/t" -f 10 -F 1 -s 1k -i 2 -t se,pa || rc=1
seed2 create-unlink-2nodes create-unlink -m "$scratch/t" -f 10 -F 2 -s 4k || rc=1
seed tree 2 tree -o "$scratch/t" -l 1 -d 2 -f 2 -s 1 || rc=1
seed stream 2 stream -o "$scratch/t" -b 4k -s 64k || rc=1
seed matrix 1 matrix --write "$scratch/t" --req 4k,8k --xfer 64k,128k || rc=1
seed bonnie 1 bonnie -d "$scratch/t" -F -n 1 -r 32 -z 1 || rc=1
[ "$rc" = 0 ] || exit 1

if [ -x "$PY" ] && "$PY" -c 'import h5py' 2>/dev/null; then
	"$PY" "$SRCDIR/tests/archive/craft.py" "$out/create-unlink-2nodes.h5" "$out" || exit 1
else
	echo "make-seeds: no h5py for $PY: the crafted seeds are left out" >&2
fi
find "$SRCDIR/docs/runs" -name '*.h5' | while read -r f; do
	cp "$f" "$out/docs-$(basename "$(dirname "$f")")-$(basename "$f")"
done
