# checks.sh: checks of `pfsbench matrix` runs, shared by tests/matrix/*.sh
# and the real-filesystem tests (tests/fs/*.sh). Sourced after
# tests/mpi/lib.sh (check, pfs, pfs_nodes, dir_unchanged, $OUT, $RC).
#   RUNNER=(pfs 2)             how run_matrix starts pfsbench: pfs NP, or
#   RUNNER=(pfs_nodes 2 2)     pfs_nodes NODES WORKERS
#   run_matrix ARGS...         pfsbench matrix ARGS by RUNNER
#   matrix_ok LABEL NRANKS OP H5 REQ XFER ITER
#                              the run in $OUT: exit 0, and check_rows.py
#                              (every cell's bytes from the rows, the marks,
#                              the report's lines as the rows say)
#   matrix_cycle DIR LABEL NRANKS [REQ XFER]
#                              a write and a read run of small lists on DIR
#                              (snapshotted), each checked, nothing left;
#                              REQ and XFER default to 4k,16k..64k and
#                              64k..256k (12 cells)
#   matrix_columns DIR LABEL NRANKS XFER
#                              a write of perf_matrix's 13 request sizes
#                              (1k..4m, the default) on DIR, checked as
#                              matrix_ok does; each matrix line 13 numbers,
#                              0.00 exactly where the request exceeds the
#                              transfer; nothing left
# shellcheck shell=bash
MATRIX_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNNER=(pfs 1)

run_matrix() {
	"${RUNNER[@]}" matrix "$@"
}

# bytes LIST: a size list of pfsbench matrix (k, m suffixes, A..B ranges)
# as bytes, comma-separated.
bytes() {
	/usr/bin/python3 - "$1" <<'PY'
import sys
out = []
for item in sys.argv[1].split(","):
    def b(s):
        return int(s[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[s[-1]] if s[-1] in "kmg" else int(s)
    if ".." in item:
        lo, hi = (b(x) for x in item.split(".."))
        while lo <= hi:
            out.append(lo)
            lo *= 2
    else:
        out.append(b(item))
print(",".join(str(x) for x in out))
PY
}

matrix_ok() {
	local label=$1 n=$2 op=$3 h5=$4 req=$5 xfer=$6 iter=$7
	check "$label: exit 0" test "$RC" -eq 0
	"$PFSBENCH" export "$h5" --csv | tr -d '\r' >"$SCRATCH/$label.csv"
	check "$label: every cell moved exactly its bytes, the marks are the rule's, the matrix is the rows'" \
		"$MATRIX_TESTS/check_rows.py" "$SCRATCH/$label.csv" "$OUT" --req "$(bytes "$req")" \
		--xfer "$(bytes "$xfer")" --iter "$iter" --ranks "$n" --op "$op"
	check "$label: show prints the report again, byte for byte" \
		cmp -s "$OUT" <("$PFSBENCH" show "$h5")
	[ "$RC" -eq 0 ] || show_run
}

matrix_cycle() {
	local dir=$1 label=$2 n=$3 req=${4:-4k,16k..64k} xfer=${5:-64k..256k} t0=$SECONDS t1 t2
	run_matrix --write "$dir" --req "$req" --xfer "$xfer" -i 3 --no-drop-caches \
		--results "$SCRATCH/$label-w.h5"
	matrix_ok "$label write" "$n" Write "$SCRATCH/$label-w.h5" "$req" "$xfer" 3
	check "$label write: nothing left" dir_unchanged "$dir"
	t1=$SECONDS
	run_matrix of="$dir" iter=2 --req "$req" --xfer "$xfer" --results "$SCRATCH/$label-w2.h5"
	t2=$SECONDS
	matrix_ok "$label of= iter=2, caches dropped" "$n" Write "$SCRATCH/$label-w2.h5" "$req" "$xfer" 2
	check "$label of=: the report says caches were dropped before each cell" \
		grep -q "; caches dropped before each cell\$" "$OUT"
	run_matrix --read "$dir" --req "$req" --xfer "$xfer" -i 3 --no-drop-caches \
		--results "$SCRATCH/$label-r.h5"
	matrix_ok "$label read" "$n" Read "$SCRATCH/$label-r.h5" "$req" "$xfer" 3
	check "$label read: nothing left" dir_unchanged "$dir"
	echo "# $label: write $((t1 - t0)) s, of= with caches dropped $((t2 - t1)) s, read $((SECONDS - t2)) s"
}

# matrix_lines FILE XFERBYTES: FILE begins with one line per transfer size
# (comma-separated bytes) of 13 numbers " %.2f", request 1 KiB << column
# (fields, as mawk has no regex intervals):
# 0.00 where the request exceeds the transfer, above 0 elsewhere; then a
# blank line.
matrix_lines() {
	awk -v xfer="$2" 'BEGIN { n = split(xfer, x, ",") }
		NR <= n {
			line = ""
			for (c = 1; c <= NF; c++) {
				line = line " " $c
				if ($c !~ /^[0-9]+\.[0-9][0-9]$/ || (1024 * 2 ^ (c - 1) > x[NR]) != ($c == "0.00")) {
					print "line " NR " cell " c ": " $c; bad = 1
				}
			}
			if (NF != 13 || line != $0) { print "line " NR ": " $0; bad = 1 }
		}
		NR == n + 1 && $0 != "" { print "line " NR " is not blank: " $0; bad = 1 }
		END { exit bad || NR <= n }' "$1"
}

matrix_columns() {
	local dir=$1 label=$2 n=$3 xfer=$4 start=$SECONDS
	run_matrix --write "$dir" --xfer "$xfer" --no-drop-caches --results "$SCRATCH/$label.h5"
	matrix_ok "$label" "$n" Write "$SCRATCH/$label.h5" 1k..4m "$xfer" 1
	check "$label: perf_matrix's 13 columns: each line of transfer $xfer 13 numbers, 0.00 where the request exceeds it" \
		matrix_lines "$OUT" "$(bytes "$xfer")"
	check "$label: nothing left" dir_unchanged "$dir"
	echo "# $label: 13 request sizes x transfers $xfer took $((SECONDS - start)) s"
}
