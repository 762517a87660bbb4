#!/bin/bash
# tree --shared-dir on 2 simulated nodes of 2 workers (issue 30): one tree
# for all workers, as mdtest's shared tree. -l 2 -d 2 -f 3: a skeleton of
# 7 directories (LEVEL0, d0, d1, d0/d0 ...) made by rank 0 alone before the
# clock; every worker makes its own d<j>.<node index>.<worker> in each of
# the 3 directories above the bottom (6) and its 3 files f<j>.<node
# index>.<worker> in each of the 7 (21), stats, unlinks and removes them;
# every directory of the skeleton takes the files of all 4 workers (the
# fault injector logs every call on the run's items with its path); the
# header and the results file say so; nothing is left, after a success and
# after a failure on one rank. Options that do not apply exit 2 with one
# message and create nothing.
. "$(dirname "$0")/lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
target_dir

# "pfsfault: rank R node NODE: CALL #N '<D>/pfsbench.X/LEVEL0/...': delayed 0 ns"
# -> "RANK PATH-UNDER-THE-RUN-DIRECTORY" for each CALL.
calls() {
	sed -n "s|^pfsfault: rank \([0-9]*\) node [^:]*: $1 #[0-9]* '$D/pfsbench\.[^/]*/\(.*\)': delayed 0 ns$|\1 \2|p" "$LOG"
}
TAGGED='(d|f)[0-9]\.[01]\.[12]'

LOGGED=$(logging "delay mkdirat 0ns path=/pfsbench.; delay openat 0ns path=/pfsbench.; delay unlinkat 0ns path=/pfsbench.; delay fstatat 0ns path=/pfsbench.")
PFSBENCH=$LOGGED pfs_nodes 2 2 tree -o "$D" -l 2 -d 2 -f 3 -s 1 --shared-dir --stat \
	--no-drop-caches --results "$SCRATCH/t.h5"
logs
check "exit status 0" test "$RC" -eq 0
check "the plan in the header says the tree is shared" \
	grep -qF "one tree shared by 4 workers on 2 nodes, in LEVEL0/ of the run directory" "$OUT"
check "the header counts the skeleton once: 7 + 4 x 6 directories" \
	grep -qF "on all 4 workers: 31 directories, 84 files and 336KiB" "$OUT"
check "the results file's run note says so" grep -qF \
	"run_note,Shared directory: one tree in the run directory for every worker of every node" \
	<("$T_PFSBENCH" export "$SCRATCH/t.h5" --csv --provenance)
check "the results file records shared-dir" \
	test "$("$T_PFSBENCH" export "$SCRATCH/t.h5" --json | grep -cE '"shared-dir": true')" -eq 1
# Test It Node Work TestType Microsecs Files ...
counts=$(rows | awk '{print $5 "=" $7}' | sort | uniq -c | xargs)
check "rows: each of 4 workers Mkdir 6, Create, Stat, Unlink 21, Rmdir 6 ($counts)" \
	test "$counts" = "4 Create=21 4 Mkdir=6 4 Rmdir=6 4 Stat=21 4 Unlink=21"
skel=$(calls mkdirat | grep ' LEVEL0' | grep -vE "$TAGGED\$" | sort | xargs)
check "the skeleton: 7 directories, made by rank 0 ($skel)" test "$skel" = \
	"0 LEVEL0 0 LEVEL0/d0 0 LEVEL0/d0/d0 0 LEVEL0/d0/d1 0 LEVEL0/d1 0 LEVEL0/d1/d0 0 LEVEL0/d1/d1"
own=$(calls mkdirat | grep -E "$TAGGED\$" | awk '{print $2}' | sed -E 's|/d[0-9]\.([01]\.[12])$| \1|' |
	sort | uniq -c | awk '{print $1}' | sort | uniq -c | xargs)
check "own directories: 2 a worker in each of the 3 above the bottom, 4 workers ($own)" \
	test "$own" = "12 2"
# Creates: openat of a tagged file name, in which directory, by which worker.
calls openat | grep -E "/f[0-9]\.[01]\.[12]\$" | awk '{print $2}' |
	sed -E 's|/f[0-9]\.([01]\.[12])$| \1|' >"$SCRATCH/files"
check "84 files, 21 a worker" test "$(awk '{print $2}' "$SCRATCH/files" | sort | uniq -c | xargs)" = \
	"21 0.1 21 0.2 21 1.1 21 1.2"
check "every directory of the skeleton holds files of all 4 workers" \
	test "$(sort -u "$SCRATCH/files" | awk '{print $1}' | sort | uniq -c | awk '$1 == 4' | wc -l)" -eq 7
stats=$(calls stat | grep -cE '/f[0-9]\.[01]\.[12]$')
# (cleanup tries each name of the plan again, and finds none)
unlinks=$(calls unlinkat | grep -E '/f[0-9]\.[01]\.[12]$' | sort -u | wc -l)
check "every file stat'ed once ($stats), each unlinked ($unlinks)" eval 'test "$stats" -eq 84 -a "$unlinks" -eq 84'
check "no item in a worker's own directory" test "$(calls '[a-z]*' | grep -c ' node[12]\.[12]/')" -eq 0
check "nothing of the run is left" dir_unchanged "$D"

# One rank fails its 5th create: the run stops, each worker removes its
# own items, then rank 0 the skeleton; nothing is left.
PFSBENCH=$(faulty "fail openat EIO rank=3 path=/f after=4 count=1") pfs_nodes 2 2 tree -o "$D" \
	-l 2 -d 2 -f 3 -s 1 --shared-dir --no-drop-caches --results "$SCRATCH/fail.h5"
check "a failing rank: exit status 1" test "$RC" -eq 1
check "a failing rank: names node, worker, op and path" \
	grep -qE "node2.*worker 2.*create.*LEVEL0/.*f[0-9]\.1\.2" "$ERR"
check "a failing rank: nothing of the run is left" dir_unchanged "$D"

# A shared-tree run killed while it creates (each create after its 10th
# held 1 s): `pfsbench clean` removes the skeleton and every worker's items
# in it by the names the tree makes, and leaves a stranger's file.
K=$SCRATCH/k
mkdir "$K"
(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np 2 "$(faulty "delay openat 1s path=/f after=10")" \
	tree -o "$K" -l 2 -d 2 -f 5 -s 1 --shared-dir --no-drop-caches --results "$SCRATCH/k.h5") \
	>"$SCRATCH/bg.out" 2>&1 &
BG=$!
count_reaches 10 "$K" -path '*/LEVEL0/*' -name 'f*'
check "the killed run made its files in the shared tree" test "$N" -ge 10
kill_ranks "^$T_PFSBENCH tree -o $K" "$BG"
RUN=$(find "$K" -mindepth 1 -maxdepth 1 -name 'pfsbench.*')
echo x >"$RUN/LEVEL0/d0/stranger"
timeout 300 "$T_PFSBENCH" clean "$K" >"$SCRATCH/clean.out" 2>&1
check "clean: exit 1, the stranger stayed" test $? -eq 1
check "clean: only the stranger's path and the marker stay" \
	test "$(cd "$RUN" && find . -mindepth 1 | sort | xargs)" = "./.pfsbench-run ./LEVEL0 ./LEVEL0/d0 ./LEVEL0/d0/stranger"

# Bad input: one message, exit 2, nothing created.
T_REFUSING=tree
refused 1 "--shared-dir and -C exclude each other" -o "$D" -l 1 -d 2 -f 2 --shared-dir -C
refused 1 "--shared-dir and -R exclude each other" -o "$D" -l 1 -d 2 -f 2 --shared-dir -R
refused 1 "--shared-dir and --stonewall exclude each other" \
	-o "$D" -l 1 -d 2 -f 2 --shared-dir --stonewall 5
refused 1 "--shared-dir and --runtime exclude each other" \
	-o "$D" -l 1 -d 2 -f 2 --shared-dir --runtime 5
[ "$T_FAILED" -eq 0 ] || show_run
finish
