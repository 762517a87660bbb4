#!/bin/bash
# run.sh: pfsbench matrix on tmpfs (/dev/shm) with 1 rank, 2 ranks and 2
# simulated nodes x 2 workers: writes and reads of small size lists, every
# cell's bytes, the outlier rule's marks and the report's matrix checked
# from the rows (checks.sh, check_rows.py), nothing left behind. perf_matrix's
# 13 request sizes, lines of 13 numbers. A slow node (the fault injector):
# the slowest-node matrix names it. compare: the seed's diff, byte for
# byte, of the seed's matrices and of pfsbench's saved reports; two runs'
# diff with the cells beyond the noise listed, or bold on a terminal. The
# perf_matrix launcher for real, under mpirun. --help lists the options the
# issue names. Bad input: one message, exit 2, nothing made.
. "$(dirname "$0")/../mpi/lib.sh"
. "$(dirname "$0")/checks.sh"

D=$(mktemp -d /dev/shm/pfsbench-matrix-test.XXXXXX) || skip "no /dev/shm"
T_CLEANUP+=("rm -rf '$D' '$D.before'")
[ "$(stat -f -c %T "$D")" = tmpfs ] || skip "/dev/shm is not tmpfs"
echo keep >"$D/foreign"
snapshot "$D"
DATA=$SRCDIR/tests/data/perf_matrix

RUNNER=(pfs 1)
matrix_cycle "$D" 1rank 1
RUNNER=(pfs 2)
matrix_cycle "$D" 2ranks 2
RUNNER=(pfs_nodes 2 2)
matrix_cycle "$D" 2x2 4
check "2x2: the report says 4 ranks on 2 nodes" grep -q "; 4 ranks on 2 nodes, MiB/s of all ranks together\$" "$OUT"
check "2x2: the slowest node per cell, against the median node" \
	grep -qx "Slowest node / median node by transfer size (rows) and request size (columns)" "$OUT"

# perf_matrix's 13 request sizes: each line 13 numbers, the cells whose
# request exceeds the transfer 0.00 (1 MiB's last two, 2 MiB's last one).
RUNNER=(pfs 2)
matrix_columns "$D" 13-columns 2 1m..4m
check "13-columns: labelled, 1KiB to 4MiB, '-' where not run" \
	grep -qE '^1MiB +([0-9]+\.[0-9]{2} +){11}- +-$' "$OUT"

# A slow node: node2's writes take 2 ms longer each.
if [ -r "${PFSFAULT:-}" ]; then
	PFSBENCH=$(faulty "delay pwrite 2ms node=node2 path=$D") pfs_nodes 2 1 matrix --write "$D" \
		--req 16k,64k --xfer 256k -i 3 --no-drop-caches --results "$SCRATCH/slow.h5"
	matrix_ok "slow node2" 2 Write "$SCRATCH/slow.h5" 16k,64k 256k 3
	# the ratio matrix's one row: "256KiB  R1  R2"
	ratios() { grep -A2 '^Slowest node / median node' "$OUT" | tail -1; }
	check "slow node2: named slowest in both cells" grep -qx "Slowest node: node2 in 2 cells" "$OUT"
	check "slow node2: at under 0.9 x the median node in both" \
		eval 'ratios | awk "{ exit !(NF == 3 && \$2 < 0.9 && \$3 < 0.9) }"'
	echo "# slow node2: $(ratios)"
	check "slow node2: nothing left" dir_unchanged "$D"
else
	echo "# no fault injector (PFSFAULT): the slow-node run is left out"
fi

# A filesystem that fills in the second cell: exit 1 with node, worker,
# file, offset and errno; the first cell reported, the second 0.00; the
# results file aborted, with the reason; nothing left.
small_fs size=2m
pfs 1 matrix --write "$M" --req 64k --xfer 1m,4m --force --no-drop-caches --results "$SCRATCH/full.h5"
check "full: exit 1" test "$RC" -eq 1
check "full: the message names node, worker, file, offset and errno" grep -qE \
	"^pfsbench: node $(hostname) worker 1: cannot write '$M/pfsbench\.[^/]+/$(hostname)\.1/matrix' at offset [0-9]+: No space left on device \(ENOSPC\)\$" "$ERR"
check "full: the 1 MiB cell measured, the 4 MiB one 0.00" \
	eval 'head -2 "$OUT" | awk '"'"'NR == 1 && $1 == "0.00" { exit 1 } NR == 2 && $1 != "0.00" { exit 1 }'"'"
check "full: the report says a cell was not measured, and why it ends" eval \
	'grep -qx "1 of 2 cells not measured (0.00): the run stopped" "$OUT" &&
	 test "$(tail -1 "$OUT" | cut -c1-9)" = "Aborted: "'
check "full: the results file says aborted" grep -q '^status,aborted' \
	<("$PFSBENCH" export "$SCRATCH/full.h5" --csv --provenance | tr -d '\r')
check "full: nothing left" dir_unchanged "$M"

# ---- compare ------------------------------------------------------------------------------
seed_diff() { sed -z 's/ \n/ /g' "$DATA/seed-diff.txt"; } # the archive wrapped its lines
"$PFSBENCH" compare "$DATA/read.txt" "$DATA/write.txt" >"$SCRATCH/diff.out" 2>"$SCRATCH/diff.err"
check "compare of the seed's two matrices: exit 0" test $? -eq 0
check "compare of the seed's two matrices: the seed's diff, byte for byte" \
	cmp -s "$SCRATCH/diff.out" <(seed_diff)
check "compare of the seed's two matrices: nothing on stderr" test ! -s "$SCRATCH/diff.err"
# pfsbench's own report, saved, reads as a perf_matrix output (cells of a
# millisecond or more: tmpfs's tens of microseconds vary by 2x)
RUNNER=(pfs 1)
run_matrix --write "$D" --req 64k,256k --xfer 1m,2m -i 3 --no-drop-caches --results "$SCRATCH/a.h5"
cp "$OUT" "$SCRATCH/a.txt"
run_matrix --write "$D" --req 64k,256k --xfer 1m,2m -i 3 --no-drop-caches --results "$SCRATCH/b.h5"
cp "$OUT" "$SCRATCH/b.txt"
own_diff() {
	/usr/bin/python3 - "$SCRATCH/a.txt" "$SCRATCH/b.txt" <<'PY'
import sys
a, b = ([[float(x) for x in l.split()] for l in open(p).read().split("\n\n")[0].splitlines()] for p in sys.argv[1:])
for ra, rb in zip(a, b):
    print("".join(" -.--%" if x == 0 or y == 0 else " %.2f%%" % ((y - x) / x * 100) for x, y in zip(ra, rb)))
PY
}
# Two text files: perf_matrix's lines. With a results file on a side: a
# header saying what each side measured (issue 29: the diff had none, so a
# write run diffed against a read run went unnoticed), then the same
# cells labelled by transfer size (rows) and request size (columns), each
# cell's right edge under its column's size.
for pair in "a.txt b.txt" "a.h5 b.h5" "a.txt b.h5"; do
	set -- $pair
	"$PFSBENCH" compare "$SCRATCH/$1" "$SCRATCH/$2" >"$SCRATCH/cmp.out" 2>&1
	check "compare $1 $2: exit 0" test $? -eq 0
	if [ "$pair" = "a.txt b.txt" ]; then
		check "compare $1 $2: 2 lines of 2 cells, perf_matrix's" \
			test "$(head -2 "$SCRATCH/cmp.out" | grep -cE '^( (-?[0-9]+\.[0-9]{2}|-\.--)%){2}$')" -eq 2
		check "compare $1 $2: the diff of the reports' own matrices" \
			test "$(head -2 "$SCRATCH/cmp.out")" = "$(own_diff)"
		continue
	fi
	sed -n 1,6p "$SCRATCH/cmp.out" | sed 's/^/# /'
	check "compare $1 $2: the header says what is compared" \
		grep -qx 'Change of B against A, (B - A) / A x 100 of MiB/s, by transfer size (rows) and request size (columns)' "$SCRATCH/cmp.out"
	check "compare $1 $2: B is the Write run of 1 rank" \
		grep -qE "^B: '$SCRATCH/b.h5': Write, 1 rank on 1 node, [0-9T:-]+Z\$" "$SCRATCH/cmp.out"
	check "compare $1 $2: the columns' sizes, then each row's" \
		eval 'sed -n 4p "$SCRATCH/cmp.out" | grep -qE "^ +64KiB +256KiB\$" &&
		      test "$(sed -n 5,6p "$SCRATCH/cmp.out" | awk "{print \$1}" | tr "\n" " ")" = "1MiB 2MiB "'
	check "compare $1 $2: the diff of the reports' own matrices" \
		test "$(sed -n 5,6p "$SCRATCH/cmp.out" | awk '{ s = ""; for (i = 2; i <= NF; i++) s = s " " $i; print s }')" = "$(own_diff)"
	check "compare $1 $2: every cell ends under its column's size" \
		awk 'NR == 4 { for (i = 1; i <= length($0); i++) if (substr($0, i, 1) != " " && substr($0, i + 1, 1) ~ /^ ?$/) e[i] = 1 }
		     NR == 5 || NR == 6 { n = 0; for (i = 1; i <= length($0); i++) if (substr($0, i, 1) != " " && substr($0, i + 1, 1) ~ /^ ?$/) { n++; if (n > 1 && !e[i]) bad = 1 } }
		     END { exit bad }' "$SCRATCH/cmp.out"
done
check "compare of two text files: the diff only" test "$(wc -l <"$SCRATCH/cmp.out")" -ge 2
"$PFSBENCH" compare "$SCRATCH/a.txt" "$SCRATCH/b.txt" | tail -n +3 >"$SCRATCH/rest"
check "compare of two text files: nothing after the diff (no noise to speak of)" test ! -s "$SCRATCH/rest"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" >"$SCRATCH/cmp.out"
check "compare of two runs: then the cells beyond the noise, listed" \
	grep -qE '^Beyond the noise \(\|ln\(B/A\)\| > max\(ln 1\.10, 3 x the cells. combined noise\); noise of A, B\):' "$SCRATCH/cmp.out"
# A read run against a write run: one line, exit 2, nothing on stdout.
run_matrix --read "$D" --req 64k,256k --xfer 1m,2m -i 1 --no-drop-caches --results "$SCRATCH/r.h5"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/r.h5" >"$SCRATCH/cmp.out" 2>"$SCRATCH/cmp.err"
check "compare of a write run and a read run: exit 2" test $? -eq 2
check "compare of a write run and a read run: one line saying so" grep -qx \
	"pfsbench compare: '$SCRATCH/a.h5' measured Write (MiB/s) and '$SCRATCH/r.h5' Read (MiB/s): the diff of their cells would compare unlike things" "$SCRATCH/cmp.err"
check "compare of a write run and a read run: one line, nothing on stdout" \
	eval 'test "$(wc -l <"$SCRATCH/cmp.err")" -eq 1 && test ! -s "$SCRATCH/cmp.out"'
if [ -r "${PFSFAULT:-}" ]; then
	# Writes made 10 ms and 200 ms long (the fault injector), 4 to 16 of
	# them a cell: all 4 cells about 20x slower (ln 20 = 3.0), so that a
	# run's noise, the machine's scheduling delays against 40 ms or more a
	# cell, may reach 0.7 (in logs) before the change is not beyond 3 x
	# it. (Writes of 1 and 4 ms, 4 to 32 a cell, left a cell's noise at 0.55
	# at load 13; writes of 10 and 100 ms, 2 to 8 a cell, at 0.61 at load
	# 22, beside a change of ln 10 = 2.3.)
	for ms in 10 200; do
		PFSBENCH=$(faulty "delay pwrite ${ms}ms path=$D") pfs 1 matrix --write "$D" --req 128k,256k \
			--xfer 1m,2m -i 3 --no-drop-caches --results "$SCRATCH/slow$ms.h5"
	done
	"$PFSBENCH" compare "$SCRATCH/slow10.h5" "$SCRATCH/slow200.h5" >"$SCRATCH/cmp.out"
	check "compare of writes of 10 ms and 200 ms: all 4 cells listed beyond the noise" \
		test "$(grep -cE '^  transfer [0-9]+MiB, request [0-9]+KiB: -[0-9]+\.[0-9]{2}% \([0-9.]+%, [0-9.]+%\)$' "$SCRATCH/cmp.out")" -eq 4
	[ "$T_FAILED" -eq 0 ] || cat "$SCRATCH/cmp.out"
	if command -v script >/dev/null; then
		script -qec "'$PFSBENCH' compare '$SCRATCH/slow10.h5' '$SCRATCH/slow200.h5'" /dev/null >"$SCRATCH/tty.out"
		check "compare on a terminal: the cells beyond the noise in bold, no list" eval \
			'test "$(grep -o $'"'"'\033\[1m-[0-9.]*%\033\[0m'"'"' "$SCRATCH/tty.out" | wc -l)" -eq 4 &&
			 ! grep -q "Beyond the noise" "$SCRATCH/tty.out"'
		NO_COLOR=1 script -qec "'$PFSBENCH' compare '$SCRATCH/slow10.h5' '$SCRATCH/slow200.h5'" /dev/null >"$SCRATCH/tty.out"
		check "compare on a terminal with NO_COLOR: a * after each" \
			test "$(grep -oE -- '-[0-9.]+%\*' "$SCRATCH/tty.out" | wc -l)" -eq 4
	fi
fi
check "compare runs: nothing left" dir_unchanged "$D"

# ---- the perf_matrix launcher -------------------------------------------------------------
if [ -x "${PERF_MATRIX:-}" ]; then
	OUT=$SCRATCH/pm.out ERR=$SCRATCH/pm.err
	(cd "$SCRATCH" && PFSBENCH=$PFSBENCH timeout 120 "$MPIRUN" --oversubscribe -np 2 -x PFSBENCH \
		"$PERF_MATRIX" of="$D" iter=2 --req 16k,64k --xfer 64k,256k --no-drop-caches \
		--results "$SCRATCH/pm.h5") >"$OUT" 2>"$ERR"
	RC=$?
	matrix_ok "perf_matrix of= iter=2 under mpirun" 2 Write "$SCRATCH/pm.h5" 16k,64k 64k,256k 2
	cp "$OUT" "$SCRATCH/pm.txt"
	PFSBENCH=$PFSBENCH "$PERF_MATRIX" diff "$DATA/read.txt" "$DATA/write.txt" >"$SCRATCH/pmdiff.out"
	check "perf_matrix diff of the seed's matrices: the seed's diff" \
		cmp -s "$SCRATCH/pmdiff.out" <(seed_diff)
	PFSBENCH=$PFSBENCH "$PERF_MATRIX" diff "$SCRATCH/pm.txt" "$SCRATCH/pm.h5" >"$SCRATCH/pmdiff.out"
	check "perf_matrix diff of a saved report and its run: no change anywhere" \
		test "$(sed -n 5,6p "$SCRATCH/pmdiff.out" | awk '{ $1 = ""; print }')" = "$(printf ' 0.00%% 0.00%%\n 0.00%% 0.00%%')"
	check "perf_matrix: nothing left" dir_unchanged "$D"
fi

# ---- --help ---------------------------------------------------------------------------------
# The options the issue names, each at the start of its line, and what
# --force lets matrix do: use, and by writing destroy, a named file or device.
"$PFSBENCH" matrix --help >"$SCRATCH/help.out" 2>&1
check "matrix --help: exit 0" test $? -eq 0
for opt in '-r, --read PATH ' '-w, --write PATH ' 'if=PATH ' 'of=PATH ' '-i, --iter N ' 'iter=N ' \
	'--req LIST ' '--xfer LIST ' '--direct[=auto|on|off] ' '--force '; do
	check "matrix --help lists '${opt% }'" grep -qE "^ +$(sed 's/[][|.]/\\&/g' <<<"$opt")" "$SCRATCH/help.out"
done
# --help wraps its lines at 79 columns: read it as one line.
check "matrix --help: --force names the file or device it lets a write destroy" eval \
	"tr -s ' \n' '  ' <'$SCRATCH/help.out' | grep -qE -- ' --force use a regular file or block device named by PATH \(a write destroys its data\)'"

# ---- bad input ----------------------------------------------------------------------------
echo data >"$SCRATCH/file"
bad() { # MESSAGE ARGS...: exit 2, MESSAGE on stderr, nothing made
	local msg=$1
	shift
	pfs 1 matrix "$@"
	check "refused ($*): exit 2" test "$RC" -eq 2
	check "refused ($*): '$msg'" grep -qF -- "$msg" "$ERR"
}
bad "pfsbench matrix: say what to measure: --read PATH (if=PATH) or --write PATH (of=PATH)" --req 4k
# The other refusals of values are tests/unit/test_refusals.c's; here,
# the whole path of one and those that need the filesystem.
bad "pfsbench matrix: '$SCRATCH/file' is not a directory: pfsbench matrix writes a file or device only with --force" \
	of="$SCRATCH/file"
bad "pfsbench matrix: cannot read '$SCRATCH/none': No such file or directory" if="$SCRATCH/none"
bad "pfsbench matrix: '/dev/null' is neither a directory, a regular file nor a block device" \
	of=/dev/null --force
bad "pfsbench: '$SCRATCH/file' holds 5 bytes; 1 rank of 65536 bytes each (the largest transfer) need 65536" \
	if="$SCRATCH/file" --force --req 4k --xfer 64k
bad "pfsbench matrix: with O_DIRECT every size must be a multiple of the filesystem's block size, 512 bytes: request size 1000 is not" \
	--write "$D" --direct --req 1000 --xfer 64k
check "the named file is as it was" test "$(cat "$SCRATCH/file")" = data
check "nothing was created by a refused run" dir_unchanged "$D"
check "no results file either" test -z "$(ls "$SCRATCH"/pfsbench-matrix-*.h5 2>/dev/null)"
echo "x y" >"$SCRATCH/junk.txt"
"$PFSBENCH" compare "$DATA/read.txt" "$SCRATCH/junk.txt" >/dev/null 2>"$SCRATCH/err"
check "compare of a matrix and junk: exit 2" test $? -eq 2
check "compare of a matrix and junk: the reason" grep -qx \
	"pfsbench compare: '$SCRATCH/junk.txt' is neither a results file nor a perf_matrix output: line 1: 'x' is not a number" "$SCRATCH/err"
"$PFSBENCH" compare "$DATA/read.txt" "$SCRATCH/a.txt" >/dev/null 2>"$SCRATCH/err"
check "compare of matrices of two shapes: exit 2" test $? -eq 2
check "compare of matrices of two shapes: the reason" grep -qx \
	"pfsbench compare: '$DATA/read.txt' has 11 rows of 13 cells and '$SCRATCH/a.txt' 2 of 2: perf_matrix's diff needs matrices of one shape" "$SCRATCH/err"
finish
