#!/bin/bash
# --latency-detail node (docs/scale.md, "Latency merged on the node"): a
# node's ranks' latency cells of one test, iteration, step and op are
# merged on the node before they travel, onto the row of the lowest of its
# ranks that recorded latency there. 2 nodes of 3 ranks, create-unlink pa
# with --latency, once by default (auto: node) and once with rank:
# - the provenance says which;
# - node: in each (node, step, op) exactly one row carries cells, the
#   lowest-ranked of those that recorded latency, and its cells count
#   every item its node's rows recorded (the rows' lat_count, which stay
#   each rank's own); rank: each row's cells count its own lat_count;
# - export --latency gives one line per node and step (node) or per rank
#   and step (rank), whose items add up to the all-ranks line's;
# - stream keeps each rank's (auto) and refuses node with exit 2, creating
#   nothing; and a node of one rank (3 nodes of 1) merges nothing.
# Mutation: the merge giving a key's cells to its highest rank, not its
# lowest, fails the carrier check on all 8 of the run's (node, step, op).
. "$(dirname "$0")/lib.sh"

/usr/bin/python3 -c 'import h5py' 2>/dev/null ||
	skip "h5py missing (apt-get install python3-h5py): the cells cannot be read"

# cells_check FILE node|rank: prints what is wrong with FILE's cells, or "ok".
cells_check() {
	/usr/bin/python3 - "$1" "$2" <<'PY'
import sys, collections, h5py
path, detail = sys.argv[1], sys.argv[2]
with h5py.File(path, "r") as f:
    rows, lat = f["rows"][:], f["latency"][:]
per_row = collections.Counter()
for c in lat:
    per_row[int(c["row"])] += int(c["count"])
groups = collections.defaultdict(list)
for i, r in enumerate(rows):
    if int(r["lat_count"]):
        key = (r["test"], r["op"], int(r["iteration"]), int(r["step"]), int(r["node_index"]))
        groups[key].append(i)
bad = []
if not groups:
    bad.append("no row recorded latency")
for key, idx in groups.items():
    if detail == "rank":
        for i in idx:
            if per_row[i] != int(rows[i]["lat_count"]):
                bad.append("row %d: cells count %d, lat_count %d" % (i, per_row[i], rows[i]["lat_count"]))
        continue
    carriers = [i for i in idx if per_row[i]]
    lowest = min(idx, key=lambda i: int(rows[i]["rank"]))
    if carriers != [lowest]:
        bad.append("%s: cells on rows %s, not on the lowest rank's row %d" % (key, carriers, lowest))
    want = sum(int(rows[i]["lat_count"]) for i in idx)
    got = sum(per_row[i] for i in idx)
    if got != want:
        bad.append("%s: cells count %d, the rows' lat_count %d" % (key, got, want))
    if len(idx) < 2:
        bad.append("%s: a node group of %d row" % (key, len(idx)))
print("; ".join(bad[:5]) if bad else "ok")
PY
}

# export_check FILE node|rank: "ok" when export --latency has one line per
# node (or rank) and step of each op, adding up to the op's line of all.
export_check() {
	"$PFSBENCH" export "$1" --csv --latency | tr -d '\r' | awk -F, -v d="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["node_index"] == "all" { all[$c["op"]] += $c["items"]; next }
		{
			if ((d == "node") != ($c["rank"] == "all")) bad = bad " rank " $c["rank"]
			part[$c["op"]] += $c["items"]; lines[$c["op"]]++
		}
		END {
			for (op in all) {
				if (part[op] != all[op]) bad = bad " " op ":" part[op] "!=" all[op]
				if (lines[op] != (d == "node" ? 2 : 6)) bad = bad " " op ":" lines[op] " lines"
			}
			if (!length(all)) bad = " no lines"
			print bad == "" ? "ok" : bad
		}'
}

run_pa() { # NAME NODES WORKERS [ARG]...
	local name=$1 nodes=$2 workers=$3
	shift 3
	mkdir "$SCRATCH/t-$name"
	pfs_nodes "$nodes" "$workers" create-unlink -m "$SCRATCH/t-$name" -f 30 -F 3 -s 4k -t pa \
		--latency --no-drop-caches --progress=never --results "$SCRATCH/$name.h5" "$@"
	check "$name: exit 0" test "$RC" -eq 0
}

run_pa auto 2 3
check "auto: the provenance says node" test "$(provenance "$SCRATCH/auto.h5" latency_detail)" = node
R=$(cells_check "$SCRATCH/auto.h5" node)
echo "# auto: $R"
check "auto: a node's cells on its lowest rank's row, counting its rows' items" test "$R" = ok
R=$(export_check "$SCRATCH/auto.h5" node)
check "auto: export --latency per node and step, adding up ($R)" test "$R" = ok

run_pa rank 2 3 --latency-detail rank
check "rank: the provenance says rank" test "$(provenance "$SCRATCH/rank.h5" latency_detail)" = rank
R=$(cells_check "$SCRATCH/rank.h5" rank)
check "rank: each row's cells count its own items ($R)" test "$R" = ok
R=$(export_check "$SCRATCH/rank.h5" rank)
check "rank: export --latency per rank and step, adding up ($R)" test "$R" = ok

# Nodes of one rank: each row its node's only one, its cells its own.
run_pa single 3 1 --latency-detail node
R=$(cells_check "$SCRATCH/single.h5" rank)
check "single: a node of one rank keeps its row's own cells ($R)" test "$R" = ok

# stream reports each rank's latency: auto keeps it, node is refused.
mkdir "$SCRATCH/t-stream"
pfs_nodes 1 2 stream -o "$SCRATCH/t-stream" -b 64k -s 256k --progress=never --no-drop-caches \
	--results "$SCRATCH/stream.h5"
check "stream: exit 0" test "$RC" -eq 0
check "stream: auto keeps each rank's" test "$(provenance "$SCRATCH/stream.h5" latency_detail)" = rank
BEFORE=$(ls -A "$SCRATCH/t-stream")
pfs_nodes 1 2 stream -o "$SCRATCH/t-stream" -b 64k -s 256k --progress=never --no-drop-caches \
	--latency-detail node --results "$SCRATCH/stream-node.h5"
check "stream --latency-detail node: exit 2" test "$RC" -eq 2
check "stream --latency-detail node: says why" grep -q "latency-detail node: its report gives each rank's latency" "$ERR"
check "stream --latency-detail node: no results file" test ! -e "$SCRATCH/stream-node.h5"
check "stream --latency-detail node: nothing created" test "$(ls -A "$SCRATCH/t-stream")" = "$BEFORE"
[ "$T_FAILED" -eq 0 ] || show_run
finish
