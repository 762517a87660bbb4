#!/bin/bash
# create-unlink --shared-dir and --stat on 2 simulated nodes of 2 workers:
# every worker's files are created, read, stat'ed and unlinked in the run
# directory itself, named f<10 digits>.<node index>.<worker> (the fault
# injector logs every call on the run's files with its path); while the run
# works, all 4 workers' files sit there and the workers' own directories
# are empty; Stat rows say every file of se, pa and ub, stat'ed in creation
# order, from the peer node with --shift; the header and the results file
# say so; nothing is left. A killed shared-dir run is cleaned by
# `pfsbench clean`, which removes its files and only those. Options that do
# not apply exit 2 with one message and create nothing (tree's --stat:
# tests/mpi/tree-run.sh; tree's --shared-dir: tests/mpi/tree-shared.sh).
. "$(dirname "$0")/lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
target_dir

# "pfsfault: rank R node NODE: CALL #N '.../pfsbench.X/fI.N.W': delayed 0 ns"
# -> "NODE I N W" for each CALL on a file directly in the run directory.
calls() {
	sed -n "s|^pfsfault: rank [0-9]* node \([^:]*\): $1 #[0-9]* '.*/pfsbench\.[^/]*/f\([0-9]\{10\}\)\.\([0-9]*\)\.\([0-9]*\)': delayed 0 ns$|\1 \2 \3 \4|p" "$LOG"
}

LOGGED=$(logging "delay openat 0ns path=/pfsbench.; delay unlinkat 0ns path=/pfsbench.; delay fstatat 0ns path=/pfsbench.")
PFSBENCH=$LOGGED pfs_nodes 2 2 create-unlink -m "$D" -f 30 -F 3 -s 4k -t se,pa,ub,uc \
	--no-drop-caches --shared-dir --stat --shift 1 --results "$SCRATCH/shared.h5"
logs
check "exit status 0" test "$RC" -eq 0
check "the header says the files share the run directory" grep -qxF \
	"Shift 1: in se, pa and ub, node k reads, stats and unlinks the files of node (k+1) mod 2; shared directory: every worker of every node creates its files in the run directory" "$OUT"
check "the results file records shared-dir and stat" \
	test "$("$T_PFSBENCH" export "$SCRATCH/shared.h5" --json | grep -cE '"(shared-dir|stat)": true')" -eq 2
check "show gives the same report" diff -q <("$T_PFSBENCH" show "$SCRATCH/shared.h5") "$OUT"
check "no run file was opened, stat'ed or unlinked in a worker's directory" \
	test "$(grep -cE "'.*/pfsbench\.[^/]*/node[12]\.[12]/" "$LOG")" -eq 0
# Creates (and opens): se, pa, ub 30 and uc 30 a worker, 4 workers.
made=$(calls openat | awk '{print $3 "." $4}' | sort | uniq -c | xargs)
check "every worker's files carry its node index and worker ($made)" \
	test "$made" = "$(printf '%s ' "132 0.1" "132 0.2" "132 1.1" "132 1.2" | sed 's/ $//')"
check "4 workers x 30 names in the one directory" \
	test "$(calls openat | awk '{print $2, $3, $4}' | sort -u | wc -l)" -eq 120
stats=$(calls stat | awk '{print $1, $3}' | sort | uniq -c | xargs)
check "node k stats node k+1's files only, 2 workers x 30 x se, pa, ub ($stats)" \
	test "$stats" = "180 node1 1 180 node2 0"
order=$(calls stat | awk '{k = $1 " " $3 "." $4; print k, $2}' |
	awk '{k = $1 " " $2; n = seen[k]++ % 30; if ($3 + 0 != n) bad++} END {print bad + 0}')
check "every worker stats its peer's files in creation order" test "$order" -eq 0
check "Stat rows: 30 files each, 4 workers x se, pa, ub" \
	test "$(rows | awk '$5 == "Stat" && $7 == 30' | wc -l)" -eq 12
check "no Stat row elsewhere (uc has none)" test "$(rows | awk '$5 == "Stat"' | wc -l)" -eq 12
check "Stat comes between Read and Unlink in se" test "$(rows | awk '$1 == "se" {print $5}' |
	uniq | xargs)" = "Create Write Read Stat Unlink"
check "every file unlinked: 4 x 30 x 4 tests" test "$(calls unlinkat | wc -l)" -eq 480
check "nothing of the run is left" dir_unchanged "$D"

# While the run works: pa's Stat of rank 0 waits 3 s on its first file;
# by then every worker created its 30, all in the run directory.
SLOW=$(faulty "delay fstatat 3s rank=0 path=/f0000000000.0.1 count=1")
(PFSBENCH=$SLOW pfs_nodes 2 2 create-unlink -m "$D" -f 30 -F 3 -s 4k -t pa --no-drop-caches \
	--shared-dir --stat --results "$SCRATCH/mid.h5"; echo "$RC" >"$SCRATCH/mid.rc") &
BG=$!
for ((i = 0; i < 600; i++)); do
	n=$(find "$D" -mindepth 2 -maxdepth 2 -name 'f*' | wc -l)
	[ "$n" -ge 120 ] && break
	sleep 0.05
done
find "$D" -mindepth 2 | sed "s|^$D/pfsbench\.[^/]*/||" | sort >"$SCRATCH/mid.list"
wait "$BG"
check "mid-run: 120 files directly in the run directory" \
	test "$(grep -cE '^f[0-9]{10}\.[01]\.[12]$' "$SCRATCH/mid.list")" -eq 120
check "mid-run: the workers' directories hold nothing" \
	test "$(grep -c / "$SCRATCH/mid.list")" -eq 0
check "mid-run: nothing else but the marker and the 4 worker directories" \
	test "$(grep -vcE '^f[0-9]{10}\.[01]\.[12]$' "$SCRATCH/mid.list")" -eq 5
check "the slowed run: exit 0, nothing left" \
	eval 'test "$(cat "$SCRATCH/mid.rc")" -eq 0 && dir_unchanged "$D"'

# A shared-dir run killed while it creates; clean removes its files and
# leaves a stranger's, a link under one of our names, and a worker-style
# name where shared-dir makes none.
K=$SCRATCH/k
mkdir "$K"
echo secret >"$SCRATCH/secret"
(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np 2 \
	"$(faulty "delay openat 2ms after=2000")" create-unlink -m "$K" -f 300000 -F 2 -s 4k -t pa \
	--no-drop-caches --shared-dir --results "$SCRATCH/k.h5") >"$SCRATCH/bg.out" 2>&1 &
BG=$!
count_reaches 2000 "$K" -mindepth 2 -maxdepth 2 -name 'f*'
check "the killed run made 2000 files in its run directory" test "$N" -ge 2000
kill_ranks "^$T_PFSBENCH create-unlink .*$K" "$BG"
RUN=$(find "$K" -mindepth 1 -maxdepth 1 -name 'pfsbench.*')
echo x >"$RUN/stranger"
ln -s "$SCRATCH/secret" "$RUN/f9999999999.0.1"
echo y >"$RUN/f0000000000"
timeout 300 "$T_PFSBENCH" clean "$K" >"$SCRATCH/clean.out" 2>&1
check "clean: exit 1, something stayed" test $? -eq 1
check "clean: the run's files are gone" \
	test "$(find "$RUN" -name 'f*.*.*' -type f | wc -l)" -eq 0
check "clean: the strangers stay, the link's target too" eval \
	'test -f "$RUN/stranger" -a -L "$RUN/f9999999999.0.1" -a -f "$RUN/f0000000000" -a "$(cat "$SCRATCH/secret")" = secret'
check "clean: says why f0000000000 stays" \
	grep -qF "left '$RUN/f0000000000': not a name create-unlink makes here" "$SCRATCH/clean.out"
check "clean: only the strangers and the marker stay" \
	test "$(cd "$RUN" && find . -mindepth 1 | sort | xargs)" = "./.pfsbench-run ./f0000000000 ./f9999999999.0.1 ./stranger"

# Bad input: one message, exit 2, nothing created.
T_REFUSING=create-unlink
refused 1 "--stat adds a Stat op to se, pa and ub, and -t selects none of them" \
	-m "$D" -f 10 -F 1 -s 4k --stat -t ua,uc
T_REFUSING=stream
refused 1 "unknown option '--shared-dir'" -o "$D/x" --shared-dir
[ "$T_FAILED" -eq 0 ] || show_run
finish
