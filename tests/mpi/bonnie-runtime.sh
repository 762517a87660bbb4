#!/bin/bash
# pfsbench bonnie --runtime (docs/bonnie.md, "--runtime"): each test but
# the stat and delete tests stops S s after its barrier, every rank at the
# busiest rank's count then, and the later tests take what it left. The
# fault injector makes every block write and read of Bonnie.io and every
# create in Bonnie.files sleep (node2's twice as long), so a 1 s limit must
# cut put_block (8192 blocks at 10 ms or more each), seq_create and
# ran_create (1024 files at 5 ms or more each), whatever the machine's
# speed; the per-char calls (not seen by the injector) and the reads may
# or may not be cut. Checked from the rows: the cut happened, every rank of
# a test did the same count, the largest count at the deadline is that
# count, every later test took exactly what the earlier one left (rewrite,
# getc, get_block and seeks the blocks put_block wrote, stat and delete the
# files made); the notes say which tests were cut and where, the results
# file says --runtime; the figures are over the work done
# (bonnie-figures.py); the CSV lines still read; nothing is left. No
# duration is judged.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/bonnie-lib.sh"

[ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] || skip "/dev/shm is not a tmpfs"
D=$(mktemp -d /dev/shm/pfsbench-bonnie-runtime.XXXXXX)
T_CLEANUP+=("rm -rf '$D'")
echo keep >"$D/foreign"
snapshot "$D"

# rows_check ROWS CHAR BLOCKS FILES MUST_CUT...: the rows (export --csv) of a
# --runtime run, each iteration on its own: what each test was asked (the
# rule of docs/bonnie.md, written here again), that every rank did the
# same, that a test did all it was asked or was cut by the deadline (its
# count the largest count at the deadline), and that each test of
# MUST_CUT was cut, with something done. Prints the notes the report must
# have, one per cut test, in test order, as "op done asked unit".
rows_check() {
	python3 - "$@" <<'EOF'
import csv, sys
rows_csv, char, BLOCKS, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
must = sys.argv[5:]
TESTS = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
         "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
CUTS = {"putc", "put_block", "rewrite", "getc", "get_block", "seeks", "seq_create", "ran_create"}
CHUNK, SEEKS = 8192, 8192
BYTES = {"putc": 1, "getc": 1, "put_block": CHUNK, "rewrite": CHUNK, "get_block": CHUNK}
rows = list(csv.DictReader(open(rows_csv, newline="")))
bad = [] if rows else ["no rows"]
for it in sorted({r["iteration"] for r in rows}):
    by = {}
    for r in rows:
        if r["iteration"] == it:
            by.setdefault(r["op"], []).append(r)
    done = {}
    bad += ["iteration %s %s: no rows" % (it, op) for op in must if op not in by]
    for op in TESTS:
        rs = by.get(op)
        if not rs:
            continue
        items = {int(r["items"]) for r in rs}
        if len(items) != 1:
            bad.append("iteration %s %s: the ranks did %s" % (it, op, sorted(items)))
            continue
        n = items.pop()
        done[op] = n
        blocks = done.get("put_block", BLOCKS)
        asked = {"putc": char, "put_block": BLOCKS, "rewrite": blocks, "get_block": blocks,
                 "getc": min(char, blocks * CHUNK), "seeks": SEEKS if blocks else 0,
                 "seq_create": files, "ran_create": files,
                 "seq_stat": done.get("seq_create"), "seq_del": done.get("seq_create"),
                 "ran_stat": done.get("ran_create"), "ran_del": done.get("ran_create")}[op]
        walls = [int(r["stonewall_items"]) for r in rs]
        if op in CUTS and n < asked:
            if max(walls) != n or min(walls) > n:
                bad.append("iteration %s %s: %d done, counts at the deadline %s" % (it, op, n, walls))
            scale = BYTES.get(op, 1)
            unit = "bytes" if op in BYTES else "seeks" if op == "seeks" else "files"
            print("%s %d %d %s" % (op, n * scale, asked * scale, unit))
        elif n != asked:
            bad.append("iteration %s %s: %d done of %s asked" % (it, op, n, asked))
        if op in must and not 0 < n < asked:
            bad.append("iteration %s %s: not cut (%d of %d)" % (it, op, n, asked))
        if op in ("put_block", "rewrite", "get_block") and any(int(r["bytes"]) != n * CHUNK for r in rs):
            bad.append("iteration %s %s: bytes are not its blocks" % (it, op))
for b in bad:
    print("BAD " + b)
sys.exit(1 if bad else 0)
EOF
}

# notes_said EXPECTED FILE: FILE's --runtime notes are the lines rows_check
# printed (EXPECTED, which must have some), in the report's words.
notes_said() {
	[ -s "$1" ] && diff <(awk '{ printf "%s: cut by --runtime 1 at %s of %s %s a rank\n", $1, $2, $3, $4 }' "$1") \
		<(grep -E '^[a-z_]+: cut by --runtime ' "$2")
}

# 2 simulated nodes of 2 ranks, 1.98, -q: the tables and the notes on
# stderr, the CSV lines alone on stdout.
PFSBENCH=$(faulty "delay write 10ms path=/Bonnie.io; delay read 10ms path=/Bonnie.io; \
delay openat 5ms path=/Bonnie.files/; delay write 10ms path=/Bonnie.io node=node2; \
delay read 10ms path=/Bonnie.io node=node2; delay openat 5ms path=/Bonnie.files/ node=node2") \
	pfs_nodes 2 2 bonnie -d "$D" -s 64m -r 32m -n 1 --char-size 1m --runtime 1 \
	--bonnie-version 1.98 -q --results "$SCRATCH/rt.h5"
check "2x2: exits 0" test "$RC" -eq 0
csv_rows "$SCRATCH/rt.h5" >"$SCRATCH/rows.csv"
check "2x2: a row of each of the 12 tests on every rank" \
	test "$(awk -F, 'NR > 1' "$SCRATCH/rows.csv" | wc -l)" -eq 48
check "2x2: put_block, seq_create, ran_create cut; every rank at one count; each later test took what the one before left" \
	rows_check "$SCRATCH/rows.csv" 1048576 8192 1024 put_block seq_create ran_create
rows_check "$SCRATCH/rows.csv" 1048576 8192 1024 >"$SCRATCH/notes.expected"
check "2x2: a note on stderr for each cut test, with its count and what it was asked" \
	notes_said "$SCRATCH/notes.expected" "$ERR"
check "2x2: -q: only CSV lines on stdout" test -z "$(grep -v '^1\.98,' "$OUT")"
check "2x2: every CSV figure is what its rows give: the work done over its time" \
	python3 "$BONNIE_HERE/bonnie-figures.py" "$OUT" "$SCRATCH/rows.csv" "2 nodes" 4 node1:2 node2:2
check "2x2: the tables still have their lines" \
	test "$(grep -c '^Version  1\.98 ' "$ERR") $(grep -c '^Latency ' "$ERR")" = "2 6"
check "2x2: bon_csv2txt and bon_csv2html read the CSV lines" bonnie_csv2txt "$OUT"
check "2x2: the results file says --runtime 1" test "$(provenance "$SCRATCH/rt.h5" parameters.runtime)" = 1
check "2x2: and its run_note how it cuts" \
	grep -q "^run_note,\"'--runtime 1: each test but the stat and delete tests stops 1 s after its start" \
	<("$T_PFSBENCH" export "$SCRATCH/rt.h5" --csv --provenance)
check "2x2: nothing is left" dir_unchanged "$D"
"$T_PFSBENCH" show "$SCRATCH/rt.h5" >"$SCRATCH/show.out" 2>"$SCRATCH/show.err"
check "2x2: show prints the CSV lines again byte for byte" \
	eval 'test -s "$OUT" && diff "$SCRATCH/show.out" "$OUT"'
check "2x2: and the notes" notes_said "$SCRATCH/notes.expected" "$SCRATCH/show.err"
[ "$T_FAILED" -eq 0 ] || show_run

# The file tests alone, 1 rank, files of 1 to 2 KiB over 4 directories,
# twice (-x 2: CSV lines only, so the notes go to stderr): the stat tests
# read each file made, and the delete tests leave none. (1.98's lines: a
# 1.96 line of -s 0 lacks a field, as bonnie++ 1.96's, which
# bonnie-figures.py does not read.)
PFSBENCH=$(faulty "delay openat 5ms path=/Bonnie.files/") \
	pfs 1 bonnie -d "$D" -s 0 -n 1:2k:1k:4 --runtime 1 -x 2 --bonnie-version 1.98 --results "$SCRATCH/files.h5"
check "-s 0 -x 2: exits 0" test "$RC" -eq 0
csv_rows "$SCRATCH/files.h5" >"$SCRATCH/rows.csv"
check "-s 0 -x 2: both creates cut in both iterations; stat and delete took every file made" \
	rows_check "$SCRATCH/rows.csv" 0 0 1024 seq_create ran_create
rows_check "$SCRATCH/rows.csv" 0 0 1024 >"$SCRATCH/notes.expected"
check "-s 0 -x 2: the notes of both iterations on stderr" notes_said "$SCRATCH/notes.expected" "$ERR"
check "-s 0 -x 2: stat read each file's bytes, as many as create wrote" \
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
w = {(r["iteration"], r["op"][:3]): r["bytes"] for r in rows if r["op"].endswith("_create")}
stats = [r for r in rows if r["op"].endswith("_stat")]
sys.exit(len(stats) != 4 or any(r["bytes"] != w[(r["iteration"], r["op"][:3])] or r["bytes"] == "0"
                                for r in stats))' "$SCRATCH/rows.csv"
check "-s 0 -x 2: the CSV header and 2 x 2 lines on stdout (all ranks, the node), nothing else" \
	test "$(sed 1d "$OUT" | grep -c '^1\.98,') $(wc -l <"$OUT")" = "4 5"
check "-s 0 -x 2: every CSV figure is what its rows give" \
	python3 "$BONNIE_HERE/bonnie-figures.py" "$OUT" "$SCRATCH/rows.csv" "$(hostname)" 1 "$(hostname):1"
check "-s 0 -x 2: nothing is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run

# Without a cut: a limit no test reaches changes nothing but the note.
pfs 1 bonnie -d "$D" -s 8m -r 4 -n 1 -f --runtime 600 --results "$SCRATCH/uncut.h5"
check "--runtime 600: exits 0" test "$RC" -eq 0
csv_rows "$SCRATCH/uncut.h5" >"$SCRATCH/rows.csv"
check "--runtime 600: every test did all it was asked" \
	test "$(rows_check "$SCRATCH/rows.csv" 0 1024 1024 | wc -l)" -eq 0
check "--runtime 600: the report says no test was cut" grep -qx -- '--runtime 600: no test was cut' "$OUT"
check "--runtime 600: nothing is left" dir_unchanged "$D"
[ "$T_FAILED" -eq 0 ] || show_run
finish
