#!/bin/bash
# One rank: every test, two iterations; the rows, their order and content,
# and nothing left behind.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
echo "not ours" >"$D/f0000000000"   # named like our files: must survive
snapshot "$D"

pfs 1 create-unlink -m "$D" -i 2 -f 40 -F 3 -s 16k
[ "$RC" -eq 0 ] && ok "exit status 0" || { not_ok "exit status $RC"; show_run; }

check "first line names the filesystem and the directory" \
	grep -qxE "[A-Z0-9.]+ mount point: $D" <(head -1 "$OUT")
check "one node, one worker" grep -qx "Testing with 1 nodes, 1 workers per node: " "$OUT"
check "node line has name and address" \
	grep -qxE " $(hostname) ([0-9]+\.){3}[0-9]+|-" <(sed -n 3p "$OUT")
check "header as create_unlink_perf prints it" \
	grep -qx "Test It  Node name     Work TestType Microsecs  Files  us/fil files/sec" "$OUT"
check "ends with Done." test "$(tail -1 "$OUT")" = "Done."
# per iteration: se 4, pa 4, ua 2, ub 2, uc 2
check "28 rows" test "$(rows | wc -l)" -eq 28
want="se 1 Create 40|se 1 Write 3|se 1 Read 3|se 1 Unlink 40|se 2 Create 40|se 2 Write 3|se 2 Read 3|se 2 Unlink 40|pa 1 Create 40|pa 1 Write 3|pa 1 Read 3|pa 1 Unlink 40|pa 2 Create 40|pa 2 Write 3|pa 2 Read 3|pa 2 Unlink 40|ua 1 Create 40|ua 1 Unlink 40|ua 2 Create 40|ua 2 Unlink 40|ub 1 Create 40|ub 1 Unlink 40|ub 2 Create 40|ub 2 Unlink 40|uc 1 Create 40|uc 1 Unlink 40|uc 2 Create 40|uc 2 Unlink 40"
got=$(rows | awk '{printf "%s%s %s %s %s", (NR > 1 ? "|" : ""), $1, $2, $5, $7}')
check "tests outermost, iterations inside, ops in order" test "$got" = "$want"
check "node and worker columns" test "$(rows | awk '{print $3, $4}' | sort -u)" = "$(hostname) 1"
check "us/fil and files/sec follow from Microsecs and Files" columns_consistent
check "only the run's own files were removed" dir_unchanged "$D"
h5=$(ls "$SCRATCH"/pfsbench-create-unlink-*.h5)
check "the default results file is in the current directory" test -f "$h5"
check "stderr holds only where the results are, and how to read them" \
	test "$(wc -l <"$ERR")" -eq 1 -a "$(results_said "$h5" && echo yes)" = yes
check "the printed command reads the results" "$PFSBENCH" show "$h5" >/dev/null
rm -f "$h5"

# The default subcommand: options and no command run create-unlink.
pfs 1 -m "$D" -f 5 -F 1 -s 1k -t uc
check "no subcommand means create-unlink" test "$RC" -eq 0 -a "$(rows | wc -l)" -eq 2
check "only the run's own files were removed (default subcommand)" dir_unchanged "$D"

# Without dropping caches the report says so, inside the report.
pfs 1 create-unlink -m "$D" -f 5 -F 1 -s 1k -t se --no-drop-caches
check "--no-drop-caches is noted before Done." \
	test "$(tail -2 "$OUT" | head -1)" = "Note: caches were not dropped: --no-drop-caches."
finish
