#!/bin/bash
# A run under mpirun writes a results file whose rows are the rows of its
# text report; show prints that report byte for byte; h5dump and a Python
# client (h5py, by field name) read it; export gives valid JSON and CSV.
. "$SRCDIR/tests/archive/lib.sh"
need_h5py
run_mpi r 2 2 -f 100 -F 3 -s 4k -t se,pa,uc -i 2 || fail "the run failed"
"$PFSBENCH" show "$SCRATCH/r.h5" >"$SCRATCH/show.txt" || fail "show failed"
cmp "$SCRATCH/r.txt" "$SCRATCH/show.txt" || fail "show differs from the run's report"
h5dump "$SCRATCH/r.h5" >"$SCRATCH/dump.txt" || fail "h5dump cannot read the file"
grep -q '"elapsed_us"' "$SCRATCH/dump.txt" || fail "h5dump shows no elapsed_us field"

"$PY" - "$SCRATCH/r.h5" "$SCRATCH/r.txt" <<'PYEOF' || fail "h5py disagrees with the report"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
rows = f["rows"]
text = [l.split() for l in open(sys.argv[2])
        if l.startswith(" ") and len(l.split()) == 9 and l.split()[1].isdigit()]
assert len(text) == rows.shape[0] == 2 * 2 * 2 * (4 + 4 + 2), (len(text), rows.shape)
s = lambda b: b.decode()
for r, t in zip(rows, text):
    files, us = int(r["items"]), int(r["elapsed_us"])
    assert s(r["unit"]) == "files", r["unit"]
    got = [s(r["test"]), str(r["iteration"]), s(r["node"]), str(r["worker"]), s(r["op"]),
           str(us), str(files), str(us // files)]
    assert got == t[:8], (got, t)
assert rows.attrs["elapsed_us.unit"] == b"us"
p = f["provenance"].attrs
assert p["status"] == b"complete" and p["ranks"] == 4 and p["nodes"] == 2, dict(p)
assert f["parameters"].attrs["files"] == 100
assert f["parameters"].attrs["no-drop-caches"] == True
assert [n.decode() for n in f["nodes"]["name"]] == ["nA", "nB"]
assert all(m > 0 for m in f["nodes"]["mem_bytes"])
import os
assert [k.decode() for k in f["nodes"]["kernel"]] == [os.uname().release] * 2, f["nodes"]["kernel"]
PYEOF

# -t left at its default: the file records the tests that ran, not "".
run_mpi d 1 1 -f 4 -F 1 -s 1k || fail "the run without -t failed"
"$PY" - "$SCRATCH/d.h5" <<'PYEOF' || fail "the default tests are not recorded"
import sys, h5py
assert h5py.File(sys.argv[1], "r")["parameters"].attrs["tests"] == b"se,pa,ua,ub,uc"
PYEOF

# Provenance says what was typed and what the kernel lists (issue 29: a
# run with no command recorded "pfsbench /path/pfsbench -m ...", and the
# mount options "rw,relatime,rw,...": mountinfo's two lists end to end).
"$MPIRUN" --oversubscribe -np 1 "$PFSBENCH" -m "$SCRATCH/target" -f 4 -F 1 -s 1k -t se \
	--no-drop-caches --results "$SCRATCH/n.h5" >/dev/null || fail "the run without a command failed"
"$PFSBENCH" export "$SCRATCH/n.h5" --csv --provenance >"$SCRATCH/n.csv" || fail "export of n.h5 failed"
"$PFSBENCH" export "$SCRATCH/r.h5" --csv --provenance >"$SCRATCH/rp.csv" || fail "export of r.h5 failed"
"$PY" - "$SCRATCH" <<'PYEOF' || fail "command_line or mount_options are not as typed / as the kernel lists them"
import csv, os, sys
d = sys.argv[1]
def prov(name):
    with open(os.path.join(d, name), newline="") as fp:
        return dict(csv.reader(fp, strict=True))
n, r = prov("n.csv"), prov("rp.csv")
want = "pfsbench -m %s/target -f 4 -F 1 -s 1k -t se --no-drop-caches --results %s/n.h5" % (d, d)
assert n["command_line"] == want, (n["command_line"], want)
want = ("pfsbench create-unlink -m %s/target --no-drop-caches --results %s/r.h5 "
        "-f 100 -F 3 -s 4k -t se,pa,uc -i 2") % (d, d)
assert r["command_line"] == want, (r["command_line"], want)
# /proc/self/mounts: the last mount on the mount point hides the others.
unesc = lambda s: s.encode().decode("unicode_escape")
opts = [l.split()[3] for l in open("/proc/self/mounts") if unesc(l.split()[1]) == n["mount_point"]]
assert opts and n["mount_options"] == opts[-1], (n["mount_options"], opts)
words = n["mount_options"].split(",")
assert len(words) == len(set(words)), words
print("# command_line:", n["command_line"])
print("# mount_options:", n["mount_options"], "(/proc/self/mounts: %s)" % opts[-1])
PYEOF

"$PFSBENCH" export "$SCRATCH/r.h5" --json >"$SCRATCH/r.json" || fail "export --json failed"
"$PY" -m json.tool "$SCRATCH/r.json" >/dev/null || fail "export --json is not valid JSON"
"$PFSBENCH" export "$SCRATCH/r.h5" --csv >"$SCRATCH/r.csv" || fail "export --csv failed"
"$PFSBENCH" export "$SCRATCH/r.h5" --csv --provenance >"$SCRATCH/p.csv" || fail "export --csv --provenance failed"
"$PY" - "$SCRATCH/r.json" "$SCRATCH/r.csv" "$SCRATCH/p.csv" <<'PYEOF' || fail "export's CSV and JSON disagree"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
with open(sys.argv[2], newline="") as fp:
    rows = list(csv.DictReader(fp, strict=True))
assert len(rows) == len(doc["rows"]) == 80
for c, j in zip(rows, doc["rows"]):
    assert {k: str(v) for k, v in j.items()} == c, (c, j)
assert doc["provenance"]["status"] == "complete"
assert doc["units"]["elapsed_us"] == "us"
with open(sys.argv[3], newline="") as fp:
    prov = dict(csv.reader(fp, strict=True))
assert prov["parameters.tests"] == "se,pa,uc" and prov["nodes.1.name"] == "nB", prov
assert prov["command_line"] == doc["provenance"]["command_line"]
PYEOF
ok "every step above"
finish
