#!/bin/bash
# Text from results files, run markers and the environment reaches no
# terminal and no spreadsheet as anything but text (docs/security.md,
# "Control characters and spreadsheet formulas"). Files written through the
# real writer (tests/archive/escape_results.c) and a real run whose node name
# is PFSBENCH_NODENAME=$'n1\nDone.\nFAKE' hold ESC sequences (title, clear
# screen, alternate screen), the C1 byte 0x9b raw and as UTF-8, invalid
# UTF-8 and formula cells. show (--latency --fs-stats --analyze), compare
# (text, --csv, --json), export (--csv, --csv --provenance, --json) and
# clean print no byte 0x1b or 0x9b, no C1 control in UTF-8 and only valid
# UTF-8; the forged "Done." is never a line of its own; JSON gives the names
# back exactly; every CSV text cell that starts with =, +, -, @ or tab starts
# with a quote instead, and the numeric columns stay bare numbers.
. "$(dirname "$0")/../mpi/lib.sh"
: "${ESCAPE_RESULTS:?run me from make check}"
PY=/usr/bin/python3
[ -x "$PY" ] || skip "Debian's $PY is missing (it parses the CSV and JSON)"

cd "$SCRATCH" || exit 1
"$ESCAPE_RESULTS" a.h5 b.h5
check "the hostile results files are written" test -s a.h5 -a -s b.h5

# clean_bytes FILE: no ESC, no C1 (raw or UTF-8), no line separator or bidi
# control, valid UTF-8; says what it found.
clean_bytes() {
	"$PY" - "$1" <<'PY'
import re, sys
d = open(sys.argv[1], "rb").read()
bad = {"ESC": d.count(b"\x1b"), "0x9b": d.count(b"\x9b"),
       "C1 in UTF-8": len(re.findall(rb"\xc2[\x80-\x9f]", d)),
       "BEL": d.count(b"\x07"), "DEL": d.count(b"\x7f"),
       "U+2028/9, bidi": len(re.findall(rb"\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c", d))}
try:
    d.decode("utf-8")
except UnicodeDecodeError as e:
    bad["invalid UTF-8"] = str(e)
found = {k: v for k, v in bad.items() if v}
print("# %s: %d bytes, %s" % (sys.argv[1], len(d), found or "nothing raw"))
sys.exit(1 if found else 0)
PY
}

# run_out NAME CMD...: CMD's stdout and stderr in NAME.out, its status in RC.
run_out() {
	local name=$1
	shift
	timeout 120 "$@" >"$name.out" 2>&1
	RC=$?
}

run_out show "$PFSBENCH" show a.h5 --latency --fs-stats --analyze
check "show: exit 0" test "$RC" -eq 0
check "show: nothing raw" clean_bytes show.out
check "show: one line 'Done.', the report's own" test "$(grep -cx 'Done.' show.out)" -eq 1
check "show: no forged line 'FAKE'" test "$(grep -c '^FAKE' show.out)" -eq 0
check "show: the block device's entry escaped" grep -qF 'block device: drbd1 (147:1); drbd 8.4 cs:\x1b[2J\x0aFAKE\x0aDone.' show.out
check "show: the node named, escaped" grep -qF ' n1\x0aDone.\x0aFAKE ' show.out
check "show: the title sequence shown as text" grep -qF '\x1b]0;title\x07EXT4' show.out
check "show: an ordinary column stays where it was" grep -qE '^ @x   1 =cmd\|. /C calc.!A0    1 ' show.out

run_out cmp "$PFSBENCH" compare a.h5 b.h5
check "compare: exit 0" test "$RC" -eq 0
check "compare: nothing raw" clean_bytes cmp.out
check "compare: no line 'Done.' or 'FAKE'" test "$(grep -cxE 'Done.|FAKE' cmp.out)" -eq 0
run_out cmpfs "$PFSBENCH" compare a.h5 b.h5 --fs-stats
check "compare --fs-stats: exit 0, nothing raw" clean_bytes cmpfs.out
check "compare --fs-stats: no line 'Done.' or 'FAKE'" test "$(grep -cxE 'Done.|FAKE' cmpfs.out)" -eq 0
run_out cmpcsv "$PFSBENCH" compare a.h5 b.h5 --csv
check "compare --csv: nothing raw" clean_bytes cmpcsv.out
run_out cmpjson "$PFSBENCH" compare a.h5 b.h5 --json
check "compare --json: nothing raw" clean_bytes cmpjson.out
run_out rows "$PFSBENCH" export a.h5 --csv
check "export --csv: nothing raw" clean_bytes rows.out
run_out prov "$PFSBENCH" export a.h5 --csv --provenance
check "export --csv --provenance: nothing raw" clean_bytes prov.out
run_out json "$PFSBENCH" export a.h5 --json
check "export --json: nothing raw" clean_bytes json.out

# csv_check KIND FILE: parsed by Python's csv module, the cells as said above.
csv_check() {
	"$PY" - "$@" <<'PY'
import csv, re, sys
kind, path = sys.argv[1], sys.argv[2]
rows = list(csv.reader(open(path, newline="", encoding="utf-8")))
head, body = rows[0], rows[1:]
col = lambda name: [r[head.index(name)] for r in body]
def fail(why):
    print("# " + why); sys.exit(1)
for r in body:
    if len(r) != len(head):
        fail("a line of %d cells under a header of %d: %r" % (len(r), len(head), r))
    for c in r:
        if c[:1] in ("=", "+", "-", "@", "\t", "\r"):
            fail("a cell a spreadsheet runs: %r" % c)
want = {
    "rows": {"test": {"'@x", "'\\x09x"},
             "op": {"'=HYPERLINK(\"h\")", "'+1", "'-x", "\\x1b[2J\\x9bOp"},
             "node": {"n1\\x0aDone.\\x0aFAKE", "\\x1b]0;title\\x07n2\\xe2\\x80\\xae\\x1b[2J\\x1b[?1049h\\xe2\\x80\\xa8",
                      "'=cmd|' /C calc'!A0", "n4\\x9b6n\\xc2\\x9b2J\\xff\\xfe"}},
    "compare": {"test": {"'@x", "'\\x09x"},
                "label": {"'=HYPERLINK(\"http://x\",\"y\")\\x1b]0;title\\x07"}},
}.get(kind, {})
for name, values in want.items():
    if set(col(name)) != values:
        fail("%s: %r, want %r" % (name, sorted(set(col(name))), sorted(values)))
if kind == "rows":
    for name in ("iteration", "node_index", "worker", "rank", "step", "start_us", "elapsed_us", "items"):
        if not all(re.fullmatch(r"[0-9]+", v) for v in col(name)):
            fail("%s is not bare numbers: %r" % (name, col(name)[:3]))
if kind == "compare":
    if not all(re.fullmatch(r"[0-9.]+", v) for v in col("rate")):
        fail("rate is not bare numbers: %r" % col("rate")[:3])
if kind == "prov":
    kv = dict(r[:2] for r in body)
    for k, v in (("label", "'=HYPERLINK(\"http://x\",\"y\")\\x1b]0;title\\x07"),
                 ("mount_point", "'-x\\x1b[2J"), ("ranks", "4"), ("nodes", "4"),
                 ("caches_note", "caches \\x1b[2J\\x0aDone.\\x0a@x"),
                 ("nodes.2.name", "'=cmd|' /C calc'!A0"), ("nodes.0.workers", "1")):
        if kv.get(k) != v:
            fail("%s: %r, want %r" % (k, kv.get(k), v))
print("# %s: %d lines, cells as they should be" % (kind, len(body)))
PY
}
check "export --csv: formulas quoted, names escaped, numbers bare" csv_check rows rows.out
check "export --csv --provenance: formulas quoted, numbers bare" csv_check prov prov.out
check "compare --csv: formulas quoted, rates bare" csv_check compare cmpcsv.out
check "export --json: the names come back exactly" "$PY" - json.out <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
names = [n["name"] for n in d["nodes"]]
want = ["n1\nDone.\nFAKE", "\x1b]0;title\x07n2\u202e\x1b[2J\x1b[?1049h\u2028", "=cmd|' /C calc'!A0",
        "n4\ufffd6n\x9b2J\ufffd\ufffd"]
print("# nodes:", [ascii(n) for n in names])
sys.exit(0 if names == want and d["provenance"]["label"].startswith("=HYPERLINK") else 1)
PY

# A real run, named by the environment: its report, live and shown.
mkdir "$SCRATCH/target"
export PFSBENCH_NODENAME=$'n1\nDone.\nFAKE'
pfs 1 create-unlink -m "$SCRATCH/target" --no-drop-caches -f 10 -F 2 -s 4k -t se \
	--label $'=1+2\xc2\x9b' --results "$SCRATCH/r.h5"
unset PFSBENCH_NODENAME
cat "$ERR"
check "a run named n1<newline>Done.: exit 0" test "$RC" -eq 0
cp "$OUT" live.out
check "the live report: nothing raw" clean_bytes live.out
check "the live report: one line 'Done.', the last" \
	test "$(grep -cx 'Done.' live.out)" -eq 1 -a "$(tail -n 1 live.out)" = Done.
check "the live report: no forged line 'FAKE'" test "$(grep -c '^FAKE' live.out)" -eq 0
check "the live report: the node named, escaped" grep -qF ' n1\x0aDone.\x0aFAKE ' live.out
run_out rshow "$PFSBENCH" show "$SCRATCH/r.h5"
check "show of the run: the report the run printed" cmp live.out rshow.out
run_out rprov "$PFSBENCH" export "$SCRATCH/r.h5" --csv --provenance
check "the run's label: quoted, its C1 escaped" grep -qxF $'label,\'=1+2\\xc2\\x9b\r' rprov.out

# clean: markers and directory names that hold escapes.
D=$SCRATCH/d
mkdir -p "$D/pfsbench.a" "$D/pfsbench.b" "$D/pfsbench."$'\e[2J\n'"Done."
printf 'pfsbench-run 1\nrun pfsbench.a\nworkload create-unlink\nstarted 2026\xff\nnode0 \xc2\x9bn0\njob \x9b2J\n' \
	>"$D/pfsbench.a/.pfsbench-run"
printf 'pfsbench-run 1\nrun pfsbench.b\nworkload \x9b[2Jzz\n' >"$D/pfsbench.b/.pfsbench-run"
run_out cleandry "$PFSBENCH" clean --dry-run "$D"
check "clean --dry-run: nothing raw" clean_bytes cleandry.out
check "clean --dry-run: no line 'Done.'" test "$(grep -cx 'Done.' cleandry.out)" -eq 0
check "clean --dry-run: the job named, escaped" grep -qF ', job \x9b2J: would remove' cleandry.out
run_out clean "$PFSBENCH" clean "$D"
check "clean: exit 1, something left" test "$RC" -eq 1
check "clean: nothing raw" clean_bytes clean.out
check "clean: the unknown workload named, escaped" \
	grep -qF "a workload this pfsbench does not know, '\\x9b[2Jzz'" clean.out
check "clean: the run of the marker removed" test ! -e "$D/pfsbench.a"
finish
