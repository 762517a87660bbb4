#!/bin/bash
# Two ranks on one node: two workers of one node, rows by worker.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"

pfs 2 create-unlink -m "$D" -f 30 -F 2 -s 8k -t se,pa,uc
[ "$RC" -eq 0 ] && ok "exit status 0" || { not_ok "exit status $RC"; show_run; }
check "one node, two workers" grep -qx "Testing with 1 nodes, 2 workers per node: " "$OUT"
check "4+4+2 rows for each worker" test "$(rows | wc -l)" -eq 20
got=$(rows | awk '$1 == "se" {printf "%s%s/%s", (NR > 1 ? " " : ""), $5, $4}')
check "se: op by op, worker 1 then worker 2" \
	test "$got" = "Create/1 Create/2 Write/1 Write/2 Read/1 Read/2 Unlink/1 Unlink/2"
got=$(rows | awk '$1 == "uc" {printf "%s%s/%s", (n++ ? " " : ""), $5, $4}')
check "uc: Create and Unlink rows of each worker" \
	test "$got" = "Create/1 Unlink/1 Create/2 Unlink/2"
check "pa rows are both workers for each op" \
	test "$(rows | awk '$1 == "pa" {print $5}' | uniq -c | awk '{print $1}' | sort -u)" = 2
check "us/fil and files/sec follow from Microsecs and Files" columns_consistent
check "nothing left behind" dir_unchanged "$D"
finish
