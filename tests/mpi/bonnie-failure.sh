#!/bin/bash
# pfsbench bonnie when a rank fails (the test-only fault injector,
# tests/fault): a write that finds the disk full in put_block, a read that
# fails inside a seeker thread, a remove that fails in ran_del and a
# directory that cannot be made (the file tests' thread), and a file someone
# else put among the
# rank's small files. Each stops every rank with exit 1 and one message
# naming node, worker, op and path; the results file says aborted; what
# the run made is removed, and the stranger's file is kept, with the
# directories that hold it and the run's marker (for pfsbench clean).
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
echo keep >"$D/foreign"
snapshot "$D"
H=$(hostname)
RUN_RE="$D/pfsbench\.[^/]+/$H\.[12]"

# aborted NAME MESSAGE-RE: the run in $OUT/$ERR/$RC stopped as it should.
aborted() {
	check "$1: exit 1" test "$RC" -eq 1
	check "$1: the message names node, worker, op and path" grep -qE "^pfsbench: node $H worker [12]: $2$" "$ERR"
	check "$1: one rank says it, the other stops without a word" \
		test "$(grep -c "^pfsbench: node " "$ERR")" -eq 1
	check "$1: the results file says aborted" \
		test "$("$PFSBENCH" export "$SCRATCH/$1.h5" --json --provenance |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["provenance"]["status"])')" = aborted
	check "$1: show still reads it" show_reads "$SCRATCH/$1.h5"
}

# show reads it: its report, or (no measured rows, issue 26) one line that
# says so and why the run was aborted, exit 1
show_reads() {
	local rc=0
	"$PFSBENCH" show "$1" >/dev/null 2>"$SCRATCH/show.err" || rc=$?
	[ "$rc" -eq 0 ] ||
		{ [ "$rc" -eq 1 ] && grep -q 'it holds no measured rows (the run was aborted: ' "$SCRATCH/show.err"; }
}

# The 101st block write of rank 1 finds no space.
PFSBENCH=$(faulty "fail write ENOSPC rank=1 path=$D after=100") \
	pfs 2 bonnie -d "$D" -s 8m -r 4 -n 1 -f --results "$SCRATCH/enospc.h5"
aborted enospc "cannot write '$RUN_RE/Bonnie\.io': No space left on device"
check "enospc: nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# Rewrite and get_block read 1024 blocks each; the 20th read after them
# is a seeker's, in its own thread.
PFSBENCH=$(faulty "fail read EIO rank=0 path=Bonnie.io after=2068") \
	pfs 2 bonnie -d "$D" -s 8m -r 4 -n 1 -f --results "$SCRATCH/seeker.h5"
aborted seeker "cannot read '$RUN_RE/Bonnie\.io': Input/output error"
check "seeker: the failing rank's seeks have no row, its block tests have theirs" test "$(
	"$PFSBENCH" export "$SCRATCH/seeker.h5" --csv |
		awk -F, 'NR > 1 && $6 == 0 { printf "%s ", $7 }')" = "put_block rewrite get_block "
check "seeker: nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# The file tests run in a thread of their own: rank 1's 100th remove
# after seq_del's 1024 (in ran_del) fails. The message names the file,
# rank 0 stops in its own ran_del, and the files left are removed.
PFSBENCH=$(faulty "fail unlinkat EIO rank=1 path=Bonnie.files after=1124 count=1") \
	pfs 2 bonnie -d "$D" -s 0 -n 1 --results "$SCRATCH/unlink.h5"
aborted unlink "cannot remove '$RUN_RE/Bonnie\.files/[0-9A-Za-z]{0,12}[0-9a-f]{10}': Input/output error"
check "unlink: both ranks' rows up to ran_stat, with latencies; no ran_del row of rank 1" test "$(
	"$PFSBENCH" export "$SCRATCH/unlink.h5" --csv |
		awk -F, 'NR > 1 && $18 == $12 { n[$7]++ } NR > 1 && $7 == "ran_del" && $6 == 1 { n["x"]++ }
			END { printf "%d %d %d %d", n["seq_create"], n["seq_del"], n["ran_stat"], n["x"] }')" = "2 2 2 0"
check "unlink: nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# The file tests' thread cannot make its directory (before seq_create's
# clock starts): the same message, stop and cleanup.
PFSBENCH=$(faulty "fail mkdirat EIO rank=1 path=Bonnie.files count=1") \
	pfs 2 bonnie -d "$D" -s 0 -n 1 --results "$SCRATCH/mkdir.h5"
aborted mkdir "cannot create '$RUN_RE/Bonnie\.files': Input/output error"
check "mkdir: no row of rank 1" test "$(
	"$PFSBENCH" export "$SCRATCH/mkdir.h5" --csv | awk -F, 'NR > 1 && $6 == 1' | wc -l)" -eq 0
check "mkdir: nothing of the run is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# A stranger's file among rank 1's small files, made while seq_stat's
# first stat is held up for 3 s: seq_stat or seq_del finds it, and leaves
# it alone.
F=$(faulty "delay fstatat 3s rank=0 path=Bonnie.files count=1")
(cd "$SCRATCH" && timeout 120 "$MPIRUN" -np 1 "$F" bonnie -d "$D" -s 0 -n 1 \
	--results "$SCRATCH/stranger.h5") >"$OUT" 2>"$ERR" &
pid=$!
for ((i = 0; i < 1200; i++)); do
	dir=$(ls -d "$D"/pfsbench.*/"$H".1/Bonnie.files 2>/dev/null) && break
	sleep 0.05
done
echo theirs >"$dir/0000000000stranger"
wait "$pid"
RC=$?
aborted stranger "cannot (read|remove) a file it did not create: '$RUN_RE/Bonnie\.files/0000000000stranger': Operation not permitted"
check "stranger: the stranger's file is kept" test "$(cat "$dir/0000000000stranger")" = theirs
check "stranger: of the run, only the directories that hold it are left, and its marker" test \
	"$(cd "$D" && find . -path ./foreign -prune -o -path './*/.pfsbench-run' -prune -o -print |
		sed 's/pfsbench\.[^/]*/RUN/' | sort | tr '\n' ' ')" = \
	". ./RUN ./RUN/$H.1 ./RUN/$H.1/Bonnie.files ./RUN/$H.1/Bonnie.files/0000000000stranger " -a \
	-f "$(dirname "$(dirname "$dir")")/.pfsbench-run"
[ "$T_FAILED" -eq 0 ] || show_run
rm -r "$(dirname "$(dirname "$dir")")"
check "stranger: removing those leaves the target as it was" dir_unchanged "$D"
finish
