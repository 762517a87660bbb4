#!/bin/bash
# --stonewall with wear-out, as IO500 defines it, on 2 simulated nodes x 2
# workers with node2 slowed by the fault injector (2 ms an open, its first
# 1000 opens; node1 100 us an open): pa Create stops near the 1 s deadline
# on every rank, the ranks agree on the largest count, and every rank
# wears out to it, so Write, Read and Unlink find the same files on every
# rank. The report and the results file keep both counts. On a tmpfs.
. "$(dirname "$0")/../mpi/lib.sh"

small_fs "size=256m,nr_inodes=200000"
PFSBENCH=$(faulty "delay openat 2ms node=node2 count=1000; delay openat 100us node=node1") \
	pfs_nodes 2 2 create-unlink -m "$M" -f 150000 -F 3 -s 4k -t pa --stonewall 1 --force \
	--no-drop-caches --results "$SCRATCH/sw.h5"
check "exit status 0" test "$RC" -eq 0
csv_rows "$SCRATCH/sw.h5" >"$SCRATCH/rows.csv"
# op node items stonewall_items stonewall_us, one line per row
/usr/bin/python3 - "$SCRATCH/rows.csv" >"$SCRATCH/rows.txt" <<'PYEOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    print(r["op"], r["node"], r["items"], r["stonewall_items"], r["stonewall_us"])
PYEOF
col() { awk -v op="$1" -v c="$2" '$1 == op {print $c}' "$SCRATCH/rows.txt"; }
WEAR=$(col Create 3 | sort -u)
echo "# Create: after wear-out $(col Create 3 | xargs); at the deadline: node1 $(awk '$1 == "Create" && $2 == "node1" {print $4}' "$SCRATCH/rows.txt" | xargs), node2 $(awk '$1 == "Create" && $2 == "node2" {print $4}' "$SCRATCH/rows.txt" | xargs); deadline at $(col Create 5 | xargs) us"
check "4 Create rows, every one wore out to one count" test "$(col Create 3 | wc -l)" -eq 4 -a "$(echo "$WEAR" | wc -l)" -eq 1
check "the count is below -f: the deadline, not the plan, ended Create" test "$WEAR" -lt 150000
check "the agreed count is the largest any rank reached by the deadline" \
	test "$(col Create 4 | sort -n | tail -1)" -eq "$WEAR"
check "the slowed node2 reached less by the deadline than node1" test \
	"$(awk '$1 == "Create" && $2 == "node2" {print $4}' "$SCRATCH/rows.txt" | sort -n | tail -1)" -lt \
	"$(awk '$1 == "Create" && $2 == "node1" {print $4}' "$SCRATCH/rows.txt" | sort -n | head -1)"
# The deadline counts from the step's barrier, a few microseconds before
# the op's own clock starts.
check "every rank stopped between 0.99 s and 1.5 s into Create" \
	test -z "$(col Create 5 | awk '$1 < 990000 || $1 > 1500000')"
check "Write and Read found the same 3 files on every rank" \
	test "$(col Write 3 | sort -u)" = 3 -a "$(col Read 3 | sort -u)" = 3
check "Unlink found the same $WEAR files on every rank" test "$(col Unlink 3 | sort -u)" = "$WEAR"
check "Unlink rows have no stonewall" test "$(col Unlink 4 | sort -u)" = 0
check "the report gives each Create row's count at the deadline" \
	test "$(grep -cE "^ pa 1 node[12] [12] Create: [0-9]+ files \([0-9]+\.[0-9]{6} s\), $WEAR$" "$OUT")" -eq 4
check "the report's table shows the counts after wear-out" \
	test "$(rows | awk '$5 == "Create" {print $7}' | sort -u)" = "$WEAR"
check "nothing of the run is left" dir_unchanged "$M"
[ "$T_FAILED" -eq 0 ] || show_run

# tree: Mkdir stops at the deadline (node1 0.2 ms a directory, node2 5 ms
# for its first 300), both wear out to the same prefix of the tree in
# pre-order, Create fills exactly those directories, and Unlink and Rmdir
# remove exactly what was made.
PFSBENCH=$(faulty "delay mkdirat 5ms node=node2 count=300; delay mkdirat 200us node=node1") \
	pfs_nodes 2 1 tree -o "$M" -l 4 -d 10 -f 2 -s 1 --stonewall 1 --no-drop-caches --force \
	--results "$SCRATCH/tree.h5"
check "tree: exit status 0" test "$RC" -eq 0
csv_rows "$SCRATCH/tree.h5" | tr -d '\r' | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["op"], $c["node"], $c["items"], $c["stonewall_items"], $c["stonewall_us"] }' >"$SCRATCH/rows.txt"
DIRS=$(col Mkdir 3 | sort -u)
echo "# tree Mkdir: $(col Mkdir 3 | xargs) directories after wear-out, $(col Mkdir 4 | xargs) at the deadline"
check "tree: both Mkdir rows wore out to one count, below the plan's 11111" \
	test "$(col Mkdir 3 | wc -l)" -eq 2 -a "$(echo "$DIRS" | wc -l)" -eq 1 -a "${DIRS:-0}" -lt 11111
check "tree: node2 made fewer directories by the deadline" test \
	"$(awk '$1 == "Mkdir" && $2 == "node2" {print $4}' "$SCRATCH/rows.txt")" -lt \
	"$(awk '$1 == "Mkdir" && $2 == "node1" {print $4}' "$SCRATCH/rows.txt")"
check "tree: Create filled exactly those directories, 2 files each" test "$(col Create 3 | sort -u)" = $((DIRS * 2))
check "tree: Unlink removed them all" test "$(col Unlink 3 | sort -u)" = $((DIRS * 2))
check "tree: Rmdir removed every directory made" test "$(col Rmdir 3 | sort -u)" = "$DIRS"
check "tree: nothing of the run is left" dir_unchanged "$M"
[ "$T_FAILED" -eq 0 ] || show_run
finish
