#!/bin/bash
# errors.sh: pfsbench stream where things go wrong. Bad input: one message,
# exit 2, nothing created. A corrupted byte in a kept file fails the read
# with node, worker, file and offset. A filesystem that fills part way:
# exit 1 with node, worker, offset and errno, the progress timeline kept,
# the run's files removed. -x where O_DIRECT is refused (ramfs; tmpfs
# before Linux 6.6): dm's fallback message. A rank that fails stops another
# inside one 1 GiB request within seconds, not the request's 100 s. --help
# says what --force lets a write destroy.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/checks.sh"

D=$(mktemp -d /dev/shm/pfsbench-stream-test.XXXXXX) || skip "no /dev/shm"
T_CLEANUP+=("rm -rf '$D' '$D.before'")
echo keep >"$D/foreign"
snapshot "$D"
host=$(hostname)

# ---- --help: --force says what it lets stream destroy ----------------------------
"$PFSBENCH" stream --help >"$SCRATCH/help.out" 2>&1
check "stream --help: exit 0" test $? -eq 0
# --help wraps its lines at 79 columns: read it as one line.
check "stream --help: --force names the file or device it lets a write destroy" eval \
	"tr -s ' \n' '  ' <'$SCRATCH/help.out' | grep -qE -- ' --force write or read a regular file or block device named by -o or -i \(a write destroys its data\)'"

# ---- bad input ------------------------------------------------------------------
echo data >"$SCRATCH/file"
bad() { # MESSAGE ARGS...: exit 2, MESSAGE on stderr, nothing made
	local msg=$1
	shift
	pfs_single stream "$@"
	check "refused ($*): exit 2" test "$RC" -eq 2
	check "refused ($*): '$msg'" grep -qF "pfsbench stream: $msg" "$ERR"
}
bad "say where to stream: -o PATH to write, -i PATH to read" -b 1M
# The other refusals of values are tests/unit/test_refusals.c's; here,
# the whole path of one and those that need the filesystem.
bad "'$SCRATCH/file' is not a directory: pfsbench writes a file or device only with --force" \
	-o "$SCRATCH/file" -s 1M
bad "'$SCRATCH/file' is not a directory: pfsbench reads a file or device only with --force" \
	-i "$SCRATCH/file"
bad "cannot read '$SCRATCH/none': No such file or directory" -i "$SCRATCH/none"
bad "--results and -o name the same file '$SCRATCH/./new'" -o "$SCRATCH/./new" --force \
	--results "$SCRATCH/new"
check "the named file is as it was" test "$(cat "$SCRATCH/file")" = data
# A new file needs no --force (dm's own lines), but never through a link:
# a link to nothing would create its target; a link to a file writes it.
ln -s "$SCRATCH/target-of-link" "$SCRATCH/dangling"
ln -s "$SCRATCH/file" "$SCRATCH/to-file"
bad "'$SCRATCH/dangling' is a symbolic link to nothing: pfsbench does not create a file through a link" \
	-o "$SCRATCH/dangling" -s 1M
bad "'$SCRATCH/dangling' is a symbolic link to nothing: pfsbench does not create a file through a link" \
	-o "$SCRATCH/dangling" -s 1M --force
bad "'$SCRATCH/to-file' is not a directory: pfsbench writes a file or device only with --force" \
	-o "$SCRATCH/to-file" -s 1M
check "a link at the name: no file made through it" test ! -e "$SCRATCH/target-of-link"
check "a link at the name: the links and the file they lead to are as they were" \
	test "$(readlink "$SCRATCH/dangling"):$(readlink "$SCRATCH/to-file"):$(cat "$SCRATCH/file")" = \
	"$SCRATCH/target-of-link:$SCRATCH/file:data"
bad "cannot write '$D/no-such-dir/new': '$D/no-such-dir' is no directory" \
	-o "$D/no-such-dir/new" -s 1M
pfs_single stream -i "$D" -s 1M
check "a read with nothing kept to read: exit 2" test "$RC" -eq 2
check "a read with nothing kept names what it looked for" grep -q \
	"nothing to resume: no earlier run with these options left '$D/pfsbench.stream.file.s1048576'" "$ERR"
check "nothing was created by a refused run" dir_unchanged "$D"
check "no results file either" test -z "$(ls "$SCRATCH"/pfsbench-stream-*.h5 2>/dev/null)"

# ---- a link put at a new file's name after the checks --------------------------
# The name was free when rank 0 checked; a link to a file of someone else's
# appears before the file is made (openat held back 2 s by the fault
# injector, which makes race.held as the hold begins: the link is put then,
# however long the run took to get there). The create is exclusive and does
# not follow links: the run fails, the link and the file it leads to are as
# they were.
if [ -n "${PFSFAULT:-}" ] && [ -f "$PFSFAULT" ]; then
	mkdir "$SCRATCH/race"
	echo theirs >"$SCRATCH/race/victim"
	(PFSBENCH_FAULT_MARK=$SCRATCH/race.held PFSBENCH=$(faulty "delay openat 2s path=raced-name") \
		pfs 1 stream -o "$SCRATCH/race/raced-name" -b 64k -s 256k --results "$SCRATCH/race.h5"
	echo "$RC" >"$SCRATCH/race.rc") &
	held=0
	for _ in $(seq 3000); do # 300 s: the run's own time limit
		[ -e "$SCRATCH/race.held" ] && { held=1; break; }
		[ -e "$SCRATCH/race.rc" ] && break
		sleep 0.1
	done
	ln -s "$SCRATCH/race/victim" "$SCRATCH/race/raced-name"
	wait
	check "the create was held back before the link was put" test "$held" -eq 1
	check "a link put at the new file's name meanwhile: the run fails (exit 1)" \
		test "$(cat "$SCRATCH/race.rc")" -eq 1
	check "... saying it cannot create the name" grep -q \
		"cannot create '$SCRATCH/race/raced-name': File exists" "$SCRATCH/err.$$"
	check "... the link and the file it leads to are as they were" \
		test "$(readlink "$SCRATCH/race/raced-name"):$(cat "$SCRATCH/race/victim")" = \
		"$SCRATCH/race/victim:theirs"
else
	echo "# no fault injector (PFSFAULT): the race of a link at a new file's name is not run"
fi

# ---- a corrupted byte -----------------------------------------------------------
for layout in file shared; do
	opt=()
	[ "$layout" = shared ] && opt=(--shared)
	pfs_nodes 2 1 stream -o "$D" -b 64k -s 256k --keep "${opt[@]}"
	check "$layout: write --keep: exit 0" test "$RC" -eq 0
	kept=$D/pfsbench.stream.$layout.s262144
	if [ "$layout" = shared ]; then
		victim=$kept/stream.shared at=$((262144 + 100003))
	else
		victim=$kept/node2.1/stream at=100003
	fi
	printf '\377' | dd of="$victim" bs=1 seek="$at" conv=notrunc status=none
	pfs_nodes 2 1 stream -i "$D" -b 64k -s 256k --verify "${opt[@]}" --results "$SCRATCH/bad-$layout.h5"
	check "$layout: a corrupted byte fails the read: exit 1" test "$RC" -eq 1
	check "$layout: the message names node, worker, file and offset" grep -qE \
		"^pfsbench: node node2 worker 1: data differs in '$victim' at offset $at: read 0xff, expected 0x[0-9a-f]{2}\$" "$ERR"
	check "$layout: the results file says why it was aborted" grep -q \
		"node node2 worker 1: data differs in '$victim' at offset $at" \
		<("$PFSBENCH" export "$SCRATCH/bad-$layout.h5" --csv --provenance)
	check "$layout: the kept files are removed all the same" dir_unchanged "$D"
	[ "$RC" -eq 1 ] || show_run
done

# A sector in the wrong place: rank 0's first sector copied over rank 1's.
pfs_nodes 2 1 stream -o "$D" -b 64k -s 256k --keep --shared
kept=$D/pfsbench.stream.shared.s262144
dd if="$kept/stream.shared" of="$kept/stream.shared" bs=512 count=1 seek=$((262144 / 512 + 8)) \
	conv=notrunc status=none
pfs_nodes 2 1 stream -i "$D" -b 64k -s 256k --verify --shared
# The sector's own offset, 266240 = 0x41000, differs first in its second byte.
check "a misplaced sector: the message says whose data of which offset it holds" grep -qF \
	"node node2 worker 1: data differs in '$kept/stream.shared' at offset 266241: read 0x00, expected 0x10 (the sector holds writer 0's data of offset 0)" "$ERR"
check "a misplaced sector: everything removed" dir_unchanged "$D"

# ---- a filesystem that fills part way ------------------------------------------
if mkdir "$SCRATCH/small" && mount -t tmpfs -o size=8m pfsbench-test "$SCRATCH/small" 2>/dev/null; then
	M=$SCRATCH/small
	T_CLEANUP+=("umount '$M'")
	echo keep >"$M/foreign"
	snapshot "$M"
	# 2 ranks x 6 MiB > 8 MiB; -w keeps it slow enough for the timeline
	pfs 2 stream -o "$M" -b 1M -s 6M -w 8M
	check "full: refused without --force (exit 2)" test "$RC" -eq 2
	pfs 2 stream -o "$M" -b 1M -s 6M -w 8M --force -p --results "$SCRATCH/full.h5"
	check "full: exit 1" test "$RC" -eq 1
	check "full: node, worker, file, offset and errno" grep -qE \
		"^pfsbench: node $host worker [12]: cannot write '$M/pfsbench\.[^/]+/$host\.[12]/stream' at offset [0-9]+: No space left on device \(ENOSPC\)\$" "$ERR"
	check "full: the report ends Aborted." test "$(tail -1 "$OUT")" = Aborted.
	check "full: the results file is aborted, with the reason" grep -qE \
		"^status_reason,\"?node $host worker [12]: cannot write .*No space left on device \(ENOSPC\)" \
		<("$PFSBENCH" export "$SCRATCH/full.h5" --csv --provenance)
	"$PFSBENCH" export "$SCRATCH/full.h5" --csv --progress | tr -d '\r' >"$SCRATCH/ticks.csv"
	check "full: the timeline keeps what each rank wrote before the end" test "$(awk -F, \
		'NR > 1 && $3 == 1 && $7 > 0 && $7 < 6291456 { r[$4] = 1 } END { print length(r) }' \
		"$SCRATCH/ticks.csv")" -eq 2
	check "full: the run's files are removed, the foreign file kept" dir_unchanged "$M"
	[ "$RC" -eq 1 ] || show_run
	# Without -s the space's end is the stream's end, as in dm: no error.
	pfs_single stream -o "$M" -b 1M --force
	check "full without -s: exit 0" test "$RC" -eq 0
	check "full without -s: the row holds what fitted, under 8 MiB" \
		test "$(stream_rows | awk '$5 == "Write" && $8 > 4194304 && $8 <= 8388608' | wc -l)" -eq 1
	check "full without -s: everything removed" dir_unchanged "$M"
	[ "$RC" -eq 0 ] || show_run
else
	echo "# cannot mount a tmpfs here: the full filesystem is not tested"
fi

# ---- O_DIRECT refused -----------------------------------------------------------
odirect_refused() { # DIR: true when open(O_DIRECT) fails with EINVAL there
	/usr/bin/python3 -c 'import os, sys
try:
    os.close(os.open(sys.argv[1] + "/probe", os.O_CREAT | os.O_WRONLY | os.O_DIRECT))
    sys.exit(1)
except OSError as e:
    sys.exit(0 if e.errno == 22 else 1)
finally:
    if os.path.exists(sys.argv[1] + "/probe"): os.unlink(sys.argv[1] + "/probe")' "$1"
}
fallback() { # LABEL DIR: -x falls back with dm's message, every byte checked
	local label=$1 dir=$2
	pfs 2 stream -o "$dir" -x -b 64k -s 256k --verify --force -p
	check "$label -x: exit 0" test "$RC" -eq 0
	check "$label -x: dm's message for each rank's output file" test "$(grep -cE \
		"^NOT using O_DIRECT for output file $dir/pfsbench\.[^/]+/$host\.[12]/stream\$" "$ERR")" -eq 2
	pfs 2 stream -i "$dir" -x -b 64k -s 256k --prepare --force
	check "$label -x: dm's message for each rank's input file" test "$(grep -cE \
		"^NOT using O_DIRECT for input file $dir/pfsbench\.[^/]+/$host\.[12]/stream\$" "$ERR")" -eq 2
	pfs 2 stream -o "$dir" -x -b 64k -s 256k --shared --force
	check "$label -x --shared: the message once, for the one file" test "$(grep -c \
		"^NOT using O_DIRECT for output file .*/stream.shared\$" "$ERR")" -eq 1
}
if odirect_refused "$D"; then
	fallback tmpfs "$D"
else
	pfs_single stream -o "$D" -x -b 64k -s 256k --verify
	check "tmpfs takes O_DIRECT here (Linux 6.6 and later): -x runs without a message" \
		eval 'test "$RC" -eq 0 && ! grep -q "NOT using O_DIRECT" "$ERR"'
fi
if mkdir "$SCRATCH/ramfs" && mount -t ramfs pfsbench-test "$SCRATCH/ramfs" 2>/dev/null; then
	T_CLEANUP+=("umount '$SCRATCH/ramfs'")
	snapshot "$SCRATCH/ramfs"
	check "ramfs refuses O_DIRECT" odirect_refused "$SCRATCH/ramfs"
	fallback ramfs "$SCRATCH/ramfs"
	check "ramfs: nothing left" dir_unchanged "$SCRATCH/ramfs"
else
	echo "# cannot mount ramfs here: the O_DIRECT fallback is tested only where tmpfs refuses it"
fi
check "nothing left in the tmpfs directory" dir_unchanged "$D"

# ---- a stop inside one big request ----------------------------------------------
# Rank 1's first write fails; rank 0 is inside one 1 GiB request capped at
# 1 MB/s (about 1070 s): the stop notice must end it long before that. The
# bound, 120 s, is a ninth of what the cap alone would take, and room for
# a busy machine's start of the ranks and fill of their buffers (about 2 s
# idle; it was 10 s against a 100 s request until issue 24).
failing=$(faulty "fail pwrite EIO rank=1 path=$D")
start=$(date +%s%N)
PFSBENCH=$failing pfs 2 stream -o "$D" -b 1G -s 1G -w 1000000 --force
took_ms=$((($(date +%s%N) - start) / 1000000))
echo "# the run took $took_ms ms"
check "stop: exit 1" test "$RC" -eq 1
check "stop: rank 1's error named with its offset and errno" grep -qE \
	"^pfsbench: node $host worker 2: cannot write '$D/pfsbench\.[^/]+/$host\.2/stream' at offset 0: Input/output error \(EIO\)\$" "$ERR"
check "stop: rank 0 left its 1 GiB request within 120 s (not 1070 s)" test "$took_ms" -lt 120000
check "stop: nothing left" dir_unchanged "$D"
[ "$RC" -eq 1 ] || show_run
finish
