# bonnie-lib.sh: pfsbench bonnie's run and checks, shared by
# tests/mpi/bonnie-run.sh (tmpfs) and the real filesystems' tests
# (tests/fs/local-fs.sh, tests/fs/glusterfs.sh). Sourced after
# tests/mpi/lib.sh (pfs, pfs_nodes, check, dir_unchanged, $SCRATCH).
#
#   bonnie_run TAG LAYOUT DIR [ARGS...]
#       runs pfsbench bonnie -d DIR -s 64m -r 32m -n 1 ARGS on LAYOUT: 1 or 2
#       ranks on this host, or 2x2, two simulated nodes of 2 ranks; results
#       in $SCRATCH/TAG-LAYOUT.h5, report in $OUT (and $ERR). Checks that it
#       exits 0; that every rank has a row of each of the 12 tests with
#       bonnie++'s work (3 MiB a byte at a time, or --char-size's, 64 MiB in
#       blocks, 8192 seeks, 1024 files); that every CSV line (all ranks, then each node)
#       has each figure its rows give (bonnie-figures.py); that the tables
#       are where -q says, with a pair of lines for all ranks and for each
#       node; that Debian's bon_csv2txt and bon_csv2html show the same
#       figures for 1.98 lines; that nothing is left in DIR; and that
#       `pfsbench show` prints the report again byte for byte.
# shellcheck shell=bash
BONNIE_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# The 12 ops' rows of FILE: every one of RANKS did bonnie++'s whole work
# for -s 64m -n 1, CHAR bytes a byte at a time.
bonnie_work_done() {
	awk -F, -v ranks="$2" -v char="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			op = $c["op"]; n[op]++
			if (op == "putc" || op == "getc") ok = $c["bytes"] == char && $c["items"] == char
			else if (op ~ /^(put_block|rewrite|get_block)$/) ok = $c["bytes"] == 67108864 && $c["items"] == 8192
			else if (op == "seeks") ok = $c["items"] == 8192 && $c["unit"] == "ops"
			else ok = $c["items"] == 1024 && $c["unit"] == "files"
			if (!ok) { print "short row: " $0; bad = 1 }
		}
		END {
			for (op in n) k++
			if (k != 12) { print k " ops, not 12"; bad = 1 }
			for (op in n) if (n[op] != ranks) { print op ": " n[op] " rows"; bad = 1 }
			exit bad
		}' "$1"
}

# Debian's tools read the 1.98 lines of FILE (tests/unit/bonnie-csv2txt.sh;
# its exit 77, no bonnie++ package to be had, passes with a note).
bonnie_csv2txt() {
	local rc
	bash "$BONNIE_HERE/../unit/bonnie-csv2txt.sh" "$1" >"$SCRATCH/csv2txt.log" 2>&1
	rc=$?
	[ "$rc" -eq 77 ] && echo "# $(tail -1 "$SCRATCH/csv2txt.log")"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || { grep -v '^ok' "$SCRATCH/csv2txt.log"; false; }
}

bonnie_run() {
	local tag=$1 layout=$2 dir=$3 h5 name ranks nodes quiet=0 v198=0 tables a prev= char=3145728
	shift 3
	h5=$SCRATCH/$tag-$layout.h5
	for a in "$@"; do
		case $a in
		-q) quiet=1 ;;
		1.98) v198=1 ;;
		esac
		[ "$prev" = --char-size ] && char=$(numfmt --from=iec "${a^^}")
		prev=$a
	done
	case $layout in
	2x2)
		pfs_nodes 2 2 bonnie -d "$dir" -s 64m -r 32m -n 1 --results "$h5" "$@"
		ranks=4 nodes="node1:2 node2:2" name="2 nodes"
		;;
	*)
		pfs "$layout" bonnie -d "$dir" -s 64m -r 32m -n 1 --results "$h5" "$@"
		ranks=$layout nodes="$(hostname):$layout" name=$(hostname)
		;;
	esac
	check "$tag $layout: exits 0" test "$RC" -eq 0
	"$T_PFSBENCH" export "$h5" --csv >"$SCRATCH/rows.csv"
	check "$tag $layout: a row of each test on every rank, with bonnie++'s work" \
		bonnie_work_done "$SCRATCH/rows.csv" "$ranks" "$char"
	# shellcheck disable=SC2086
	check "$tag $layout: every CSV figure is what its rows give" \
		python3 "$BONNIE_HERE/bonnie-figures.py" "$OUT" "$SCRATCH/rows.csv" "$name" "$ranks" $nodes
	tables=$OUT
	[ "$quiet" = 1 ] && tables=$ERR
	check "$tag $layout: the tables$([ "$quiet" = 1 ] && echo ' on stderr'): two, each with a pair of lines for all ranks and each node" \
		test "$(grep -c '^Version  1\.9[68] ' "$tables") $(grep -c '^Latency ' "$tables")" = \
		"2 $((2 * (1 + $(wc -w <<<"$nodes"))))"
	[ "$quiet" = 1 ] && check "$tag $layout: -q: only CSV lines on stdout" \
		test -z "$(grep -v '^1\.9[68],' "$OUT")"
	if [ "$v198" = 1 ]; then
		check "$tag $layout: bon_csv2txt and bon_csv2html show the CSV lines' figures" \
			bonnie_csv2txt "$OUT"
	fi
	check "$tag $layout: nothing is left" dir_unchanged "$dir"
	check "$tag $layout: show prints the report again byte for byte" \
		diff <("$T_PFSBENCH" show "$h5" 2>/dev/null) "$OUT"
	[ "$T_FAILED" -eq 0 ] || show_run
}
