#!/bin/bash
# Four ranks as 2 nodes x 2 workers (PFSBENCH_NODENAME): node order, worker
# numbers, and the order of rows of every test.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"

pfs_nodes 2 2 create-unlink -m "$D" -f 30 -F 2 -s 8k --results "$SCRATCH/r.h5"
[ "$RC" -eq 0 ] && ok "exit status 0" || { not_ok "exit status $RC"; show_run; }
check "two nodes of two workers" grep -qx "Testing with 2 nodes, 2 workers per node: " "$OUT"
check "node lines in node order" test "$(sed -n '3,4p' "$OUT" | awk '{print $1}' | tr '\n' ' ')" = "node1 node2 "
check "14 rows for each of 4 workers" test "$(rows | wc -l)" -eq 56

# what each test's rows say, as node:worker:op
seq_of() { rows | awk -v t="$1" '$1 == t {printf "%s%s:%s:%s", n++ ? " " : "", $3, $4, substr($5, 1, 1)}'; }
check "se: op by op, node by node, worker by worker" test "$(seq_of se)" = \
	"node1:1:C node1:2:C node2:1:C node2:2:C node1:1:W node1:2:W node2:1:W node2:2:W node1:1:R node1:2:R node2:1:R node2:2:R node1:1:U node1:2:U node2:1:U node2:2:U"
check "pa: each op's 4 rows together" \
	test "$(rows | awk '$1 == "pa" {printf "%s", substr($5, 1, 1)}')" = CCCCWWWWRRRRUUUU
# ua: node1 creates; node1 unlinks while node2 creates; node2 unlinks.
ua=$(seq_of ua)
check "ua: node1's creates come first" test "$(echo "$ua" | cut -d' ' -f1-2 | sed 's/:[12]:/:/g')" = "node1:C node1:C"
check "ua: node2's unlinks come last" test "$(echo "$ua" | cut -d' ' -f7-8 | sed 's/:[12]:/:/g')" = "node2:U node2:U"
check "ua: node1 unlinks alongside node2's creates" \
	test "$(echo "$ua" | cut -d' ' -f3-6 | tr ' ' '\n' | sed 's/:[12]:/:/' | sort | tr '\n' ' ')" = "node1:U node1:U node2:C node2:C "
ub=$(seq_of ub | sed 's/:[12]:/:/g')
check "ub: node1 creates, then node2 creates" test "$(echo "$ub" | cut -d' ' -f1-4)" = "node1:C node1:C node2:C node2:C"
check "ub: then every worker unlinks" \
	test "$(echo "$ub" | cut -d' ' -f5-8 | tr ' ' '\n' | sort | tr '\n' ' ')" = "node1:U node1:U node2:U node2:U "
check "uc: node by node, each worker's Create then Unlink" test "$(seq_of uc)" = \
	"node1:1:C node1:1:U node1:2:C node1:2:U node2:1:C node2:1:U node2:2:C node2:2:U"
check "us/fil and files/sec follow from Microsecs and Files" columns_consistent
check "nothing left behind" dir_unchanged "$D"

# The timeline, from the results file: steps never overlap (a barrier
# separates them), so in se only one node works at a time, and in ua the
# two nodes of a pipeline step do overlap.
"$PFSBENCH" export "$SCRATCH/r.h5" --csv >"$SCRATCH/rows.csv"
timeline() { # TEST: "step:node:start:end" lines, by step
	awk -F, -v t="$1" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["test"] == t { print $col["step"], $col["node_index"], $col["start_us"],
			$col["start_us"] + $col["elapsed_us"] }' "$SCRATCH/rows.csv" | sort -n -k1,1 -k3,3
}
steps_apart() { # every row of step k+1 starts after every row of step k ended
	timeline "$1" | awk '$1 != step { if (NR > 1 && $3 < end) bad = 1; step = $1 }
		{ if ($4 > end) end = $4 } END { exit bad || NR == 0 }'
}
check "se: no step starts before the one before it ended" steps_apart se
check "ua: no step starts before the one before it ended" steps_apart ua
check "se: each step is one node" \
	test "$(timeline se | awk '{print $1, $2}' | sort -u | awk '{print $1}' | uniq -d | wc -l)" -eq 0
check "ua: the middle step has both nodes" \
	test "$(timeline ua | awk '$1 == 1 {print $2}' | sort -u | tr '\n' ' ')" = "0 1 "
finish
