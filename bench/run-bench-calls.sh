#!/bin/bash
# run-bench-calls.sh: like for like, by system calls. For every op of
# create-unlink, tree, stream and matrix, pfsbench at 1 rank and its peer
# on the same arguments, under strace -f -y, on a tmpfs and on an ext4 made
# on a loop device whose image lives on the machine's disk (BENCH_IMG_DIR,
# default /var/tmp); bench/calls.py counts the calls that touch the run's
# files, op by op, and prints them per item beside each other, with a flag
# on every difference. The peers:
#   create-unlink  Create, Stat, Unlink: bench/baseline_create_unlink (shared
#                  names: it stats); Write, Read: a shell loop of GNU dd, one
#                  per file (dd conv=notrunc,fsync of=FILE; dd if=FILE);
#                  mdtest -F -C / -T / -r when MDTEST names it; uc's
#                  CreateUnlink has no peer (counted alone)
#   tree           Mkdir, Create, Unlink+Rmdir: bench/baseline_tree (it
#                  removes its tree in one walk, so pfsbench's Unlink and
#                  Rmdir are counted together); Stat has no peer here
#   stream         dd bs=REQ count=N conv=fsync, dd if=FILE; fio --rw=write
#                  --end_fsync=1 and --rw=read, as is and --fallocate=none
#   matrix         each cell: dd bs=REQ count=XFER/REQ conv=fsync, dd if=FILE
#                  count=...; lmdd of=FILE fsync=1, lmdd if=FILE when LMDD
#                  names it
# What counts (bench/calls.py): "files" are the calls on the run's files by
# the thread doing the op; "thread" that thread's other calls in the op (the
# engine's /proc reads, dd's reads of /dev/zero); "others" the calls of
# every other thread and process meanwhile (MPI's progress threads, mpirun,
# the shell): not the workload's. pfsbench's ops are its timed windows
# (pfs_op_start to pfs_op_done, each reads getrusage), the C loops' their
# phases between getrusage calls, the other peers' a whole process from its
# first call on the files to its last (dd, fio, mdtest, lmdd). What pfsbench
# does untimed (setup, a stream's open and close, emptying a matrix cell's
# file, cleanup) is counted apart, "outside the ops".
# Small sizes, a few minutes: FILES (1000), WFILES (20), WSIZE (64k),
# TREE ("2 5 10": levels, directories, files), REQ (64k) and SIZE_MIB (16)
# for stream, REQS (4k,64k) and XFER (4m) for matrix.
# Environment: PFSBENCH, MPIRUN, BASELINE_CU, BASELINE_TREE, MDTEST, LMDD,
# BENCH_IMG_DIR. Needs root (losetup, mount) and strace; fio optional.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
PFSBENCH=$(realpath "${PFSBENCH:-src/pfsbench}")
BASELINE_CU=$(realpath "${BASELINE_CU:-bench/baseline_create_unlink}")
BASELINE_TREE=$(realpath "${BASELINE_TREE:-bench/baseline_tree}")
MPIRUN=${MPIRUN:-mpirun}
CALLS=$here/calls.py
FILES=${FILES:-1000}
WFILES=${WFILES:-20}
WSIZE=${WSIZE:-64k}
read -r TL TD TF <<<"${TREE:-2 5 10}"
REQ=${REQ:-64k}
SIZE_MIB=${SIZE_MIB:-16}
REQS=${REQS:-4k,64k}
XFER=${XFER:-4m}
export BENCH_IMG_DIR=${BENCH_IMG_DIR:-/var/tmp}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

command -v strace >/dev/null || { echo "SKIP: no strace (Debian: apt-get install strace)"; exit 77; }
have_fio=1
command -v fio >/dev/null || { have_fio=0; echo "(no fio: stream without it; Debian: apt-get install fio)"; }
trap undo_all EXIT
work=$(mktemp -d /tmp/pfsbench-bench-calls.XXXXXX) || exit 1
undo+=("rm -rf '$work'")
shm=$(mktemp -d /dev/shm/pfsbench-bench-calls.XXXXXX) || exit 1
undo+=("rm -rf '$shm'")
ext4_on_shm bench-calls 512 || exit
table=$work/table
: >"$table"

bytes() {
	local s=$1
	case $s in
	*k) echo $((${s%k} << 10)) ;;
	*m) echo $((${s%m} << 20)) ;;
	*) echo "$s" ;;
	esac
}
# size_name BYTES: 4KiB, 1MiB
size_name() {
	if (($1 >= 1048576)); then echo "$(($1 >> 20))MiB"; else echo "$(($1 >> 10))KiB"; fi
}

# trace NAME CMD...: CMD under strace, the trace in $work/NAME.
trace() {
	local name=$1
	shift
	strace -f -qq -y -o "$work/$name" "$@" >"$work/$name.out" 2>&1 ||
		{ echo "bench-calls: failed: $*"; cat "$work/$name.out"; return 1; }
}
# count SIDE NAME DIR MODE OPS: the ops of trace NAME into the table.
count() {
	/usr/bin/python3 "$CALLS" count "$1" "$work/$2" "$3" "$4" "$5" >>"$table"
}
pfs() { # NAME ARGS...: pfsbench at 1 rank, its results in $work
	local name=$1
	shift
	trace "$name" "$MPIRUN" -np 1 "$PFSBENCH" "$@" --no-drop-caches --progress=never \
		--results "$work/$name.h5"
}

create_unlink() { # FS DIR
	local g=$1:create-unlink d=$2/cu i
	mkdir "$d" "$d/dd" "$d/loop"
	pfs "cu.$1" create-unlink -m "$d" -f "$FILES" -F "$WFILES" -s "$WSIZE" -t se --stat &&
		count "$g/pfsbench" "cu.$1" "$d" rusage \
			"-:0,Create:$FILES,Write:$WFILES,Read:$WFILES,Stat:$FILES,Unlink:$FILES,-:0" || return 1
	# uc: create one file and unlink it, FILES times; no peer does this.
	pfs "uc.$1" create-unlink -m "$d" -f "$FILES" -F 1 -s 4k -t uc &&
		count "$g/pfsbench" "uc.$1" "$d" rusage "-:0,CreateUnlink:$FILES,-:0" || return 1
	trace "cu-loop.$1" env WARM_MS=0 "$BASELINE_CU" "$d/loop" "$FILES" shared &&
		count "$g/loop" "cu-loop.$1" "$d/loop" rusage "-:0,Create:$FILES,Stat:$FILES,Unlink:$FILES" ||
		return 1
	for ((i = 0; i < WFILES; i++)); do : >"$d/dd/f$i"; done
	# shellcheck disable=SC2016 # $1, $2, $3 are the inner shell's
	trace "cu-ddw.$1" bash -c 'for ((i = 0; i < $2; i++)); do
		dd if=/dev/zero of="$1/f$i" bs="$3" count=1 conv=notrunc,fsync status=none || exit; done' \
		- "$d/dd" "$WFILES" "$WSIZE" && count "$g/dd" "cu-ddw.$1" "$d/dd" span "Write:$WFILES" || return 1
	# shellcheck disable=SC2016
	trace "cu-ddr.$1" bash -c 'for ((i = 0; i < $2; i++)); do
		dd if="$1/f$i" of=/dev/null bs="$3" status=none || exit; done' \
		- "$d/dd" "$WFILES" "$WSIZE" && count "$g/dd" "cu-ddr.$1" "$d/dd" span "Read:$WFILES" || return 1
	if [ -n "${MDTEST:-}" ]; then
		mkdir "$d/md"
		trace "cu-mdc.$1" "$MPIRUN" -np 1 "$MDTEST" -F -C -n "$FILES" -d "$d/md" &&
			count "$g/mdtest" "cu-mdc.$1" "$d/md" span "Create:$FILES" &&
			trace "cu-mdt.$1" "$MPIRUN" -np 1 "$MDTEST" -F -T -n "$FILES" -d "$d/md" &&
			count "$g/mdtest" "cu-mdt.$1" "$d/md" span "Stat:$FILES" &&
			trace "cu-mdr.$1" "$MPIRUN" -np 1 "$MDTEST" -F -r -n "$FILES" -d "$d/md" &&
			count "$g/mdtest" "cu-mdr.$1" "$d/md" span "Unlink:$FILES" || return 1
	fi
}

tree() { # FS DIR
	local g=$1:tree d=$2/tree dirs=1 w=1 k files
	for ((k = 1; k <= TL; k++)); do dirs=$((dirs + (w *= TD))); done
	files=$((dirs * TF))
	mkdir "$d" "$d/loop"
	pfs "tree.$1" tree -o "$d" -l "$TL" -d "$TD" -f "$TF" -s 1 --stat &&
		count "$g/pfsbench" "tree.$1" "$d" rusage \
			"-:0,Mkdir:$dirs,Create:$files,Stat:$files,Unlink+Rmdir:$((files + dirs)),Unlink+Rmdir:0,-:0" ||
		return 1
	trace "tree-loop.$1" env WARM_MS=0 "$BASELINE_TREE" "$d/loop" "$TL" "$TD" "$TF" 1 &&
		count "$g/loop" "tree-loop.$1" "$d/loop" rusage "-:0,Mkdir:$dirs,Create:$files,Unlink+Rmdir:$((files + dirs))"
}

stream() { # FS DIR
	local g=$1:stream d=$2/stream n r
	r=$(bytes "$REQ")
	n=$((SIZE_MIB * 1048576 / r))
	mkdir "$d" "$d/pfs" "$d/dd" "$d/fio"
	pfs "sw.$1" stream -o "$d/pfs" -b "$REQ" -s "${SIZE_MIB}m" -y --keep &&
		count "$g/pfsbench" "sw.$1" "$d/pfs" rusage "-:0,Write:$n,-:0" &&
		pfs "sr.$1" stream -i "$d/pfs" -b "$REQ" -s "${SIZE_MIB}m" &&
		count "$g/pfsbench" "sr.$1" "$d/pfs" rusage "-:0,Read:$n,-:0" || return 1
	trace "ddw.$1" dd if=/dev/zero of="$d/dd/f" bs="$REQ" count="$n" conv=fsync status=none &&
		count "$g/dd" "ddw.$1" "$d/dd" span "Write:$n" &&
		trace "ddr.$1" dd if="$d/dd/f" of=/dev/null bs="$REQ" status=none &&
		count "$g/dd" "ddr.$1" "$d/dd" span "Read:$n" || return 1
	[ "$have_fio" = 1 ] || return 0
	trace "fw.$1" fio --name=w --filename="$d/fio/f" --rw=write --bs="$REQ" --size="${SIZE_MIB}m" \
		--end_fsync=1 &&
		count "$g/fio" "fw.$1" "$d/fio" span "Write:$n" &&
		trace "fr.$1" fio --name=r --filename="$d/fio/f" --rw=read --bs="$REQ" --size="${SIZE_MIB}m" &&
		count "$g/fio" "fr.$1" "$d/fio" span "Read:$n" || return 1
	rm -f "$d/fio/f"
	trace "fwn.$1" fio --name=w --filename="$d/fio/f" --rw=write --bs="$REQ" --size="${SIZE_MIB}m" \
		--end_fsync=1 --fallocate=none &&
		count "$g/fio-nofalloc" "fwn.$1" "$d/fio" span "Write:$n"
}

matrix() { # FS DIR
	local g=$1:matrix d=$2/matrix x req n ops_w=() ops_r=() pfs_w=() op
	x=$(bytes "$XFER")
	mkdir "$d" "$d/pfs" "$d/dd" "$d/lmdd"
	for req in ${REQS//,/ }; do
		req=$(bytes "$req") n=$((x / req))
		ops_w+=("Write-$(size_name "$req"):$n") ops_r+=("Read-$(size_name "$req"):$n")
		# After each write cell's clock stops: the untimed truncation of
		# the rank's file (with the last cell's, cleanup).
		pfs_w+=("Write-$(size_name "$req"):$n" "-:0")
	done
	# Before the cells: setup, then step 0 (Open: the write's warm-up, the
	# read's fill); after them, cleanup.
	pfs "mw.$1" matrix --write "$d/pfs" --req "$REQS" --xfer "$XFER" &&
		count "$g/pfsbench" "mw.$1" "$d/pfs" rusage "$(IFS=,; echo "-:0,-:0,${pfs_w[*]}")" &&
		pfs "mr.$1" matrix --read "$d/pfs" --req "$REQS" --xfer "$XFER" &&
		count "$g/pfsbench" "mr.$1" "$d/pfs" rusage "$(IFS=,; echo "-:0,-:0,${ops_r[*]},-:0")" || return 1
	for op in "${ops_w[@]}"; do
		req=${op#Write-} n=${req#*:} req=$((x / n))
		trace "mdw.$1" dd if=/dev/zero of="$d/dd/f" bs="$req" count="$n" conv=fsync status=none &&
			count "$g/dd" "mdw.$1" "$d/dd" span "${op%%:*}:$n" &&
			trace "mdr.$1" dd if="$d/dd/f" of=/dev/null bs="$req" count="$n" status=none &&
			count "$g/dd" "mdr.$1" "$d/dd" span "Read-${op#Write-}" || return 1
		rm -f "$d/dd/f"
		[ -n "${LMDD:-}" ] || continue
		trace "mlw.$1" "$LMDD" of="$d/lmdd/f" bs="$req" count="$n" fsync=1 &&
			count "$g/lmdd" "mlw.$1" "$d/lmdd" span "${op%%:*}:$n" &&
			trace "mlr.$1" "$LMDD" if="$d/lmdd/f" bs="$req" count="$n" &&
			count "$g/lmdd" "mlr.$1" "$d/lmdd" span "Read-${op#Write-}" || return 1
		rm -f "$d/lmdd/f"
	done
}

start=$(date +%s)
echo "system calls per item: pfsbench (1 rank) and its peers, on tmpfs ($shm) and on ext4 (loop device, image in $BENCH_IMG_DIR)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for fs in tmpfs ext4; do
	if [ "$fs" = tmpfs ]; then dir=$shm; else dir=$EXT4_DIR; fi
	create_unlink "$fs" "$dir" && tree "$fs" "$dir" && stream "$fs" "$dir" && matrix "$fs" "$dir" || exit 1
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(($(date +%s) - start)) s"
echo
/usr/bin/python3 "$CALLS" report "$table"
