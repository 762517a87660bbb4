#!/bin/bash
# compare: real runs side by side with their differing parameters and their
# labels, a parameter that one file lacks shown as not recorded; a run
# against itself shows no change anywhere; a real slowdown (every read of a
# run delayed 2 ms by the test-only fault injector: over 100x unloaded, 20x
# or more at any load) is called out in both orders, as "Nx slower" and "Nx
# faster"; runs of different workloads exit 2; --csv and --json carry the
# same verdicts; three runs stay within 100 columns. On synthetic runs a 2x
# slowdown is called out on every line and a rerun of the same
# configuration is not; colour only on a terminal without NO_COLOR.
. "$SRCDIR/tests/archive/lib.sh"
[ -x "$SYNTH" ] || fail "$SYNTH is not built"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so}"
run_mpi a 2 1 -f 100 -F 3 -s 4k -t se,pa -i 3 --label base || fail "run a failed"
run_mpi b 2 1 -f 200 -F 3 -s 4k -t se,pa,uc -i 2 || fail "run b failed"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" >"$SCRATCH/ab.txt" || fail "compare failed"
fstype=$(head -n 1 "$SCRATCH/a.txt" | cut -d' ' -f1)
grep -qx "\[1\] base: $fstype $SCRATCH/target" "$SCRATCH/ab.txt" || fail "run 1 is not headed by its label"
grep -qx "\[2\] $fstype $SCRATCH/target" "$SCRATCH/ab.txt" || fail "no heading names run 2 by fstype and directory"
grep -Eq '^  files +1: 100  2: 200$' "$SCRATCH/ab.txt" || fail "the differing -f is not listed"
grep -q '^  tests ' "$SCRATCH/ab.txt" || fail "the differing -t is not listed"
if grep -q '^  label ' "$SCRATCH/ab.txt"; then fail "the label is listed as a parameter"; fi
[ "$(grep -Ec '^(se|pa) +(Create|Write|Read|Unlink) +files/s ' "$SCRATCH/ab.txt")" = 8 ] ||
	fail "compare does not show the 8 shared (test, op) lines with their unit"
grep -q '^2 (test, op) pairs are not in every run' "$SCRATCH/ab.txt" || fail "uc's ops are not reported as unshared"
grep -q '^Slow nodes' "$SCRATCH/ab.txt" || fail "no slow-node section"
grep -q '^ \[1\] not judged: 1 node$' "$SCRATCH/ab.txt" || fail "a one-node run is not said to be unjudged"
if grep -q "$(printf '\033')" "$SCRATCH/ab.txt"; then fail "colour in piped output"; fi

# A file that lacks a parameter (written before pfsbench had the option):
# that run's value is not known, so it is shown as not recorded, in either
# order, and the parameter is listed once.
if "$PY" -c 'import h5py' 2>/dev/null; then
	cp "$SCRATCH/a.h5" "$SCRATCH/old.h5"
	"$PY" -c 'import h5py, sys
with h5py.File(sys.argv[1], "r+") as f:
    del f["parameters"].attrs["files"]' "$SCRATCH/old.h5" || fail "h5py could not remove a parameter"
	"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/old.h5" >"$SCRATCH/ao.txt" || fail "compare a old"
	"$PFSBENCH" compare "$SCRATCH/old.h5" "$SCRATCH/a.h5" >"$SCRATCH/oa.txt" || fail "compare old a"
	grep -Eq '^  files +1: 100  2: \(not recorded\)$' "$SCRATCH/ao.txt" || {
		cat "$SCRATCH/ao.txt"
		fail "a parameter the second file lacks is not shown as not recorded"
	}
	grep -Eq '^  files +1: \(not recorded\)  2: 100$' "$SCRATCH/oa.txt" || {
		cat "$SCRATCH/oa.txt"
		fail "a parameter the first file lacks is not shown as not recorded"
	}
	[ "$(grep -c '^  files ' "$SCRATCH/oa.txt")" = 1 ] || fail "the missing parameter is listed more than once"
else
	echo "note: Debian's h5py is missing; the not-recorded parameter check was skipped"
fi

# A run against itself: no change on every line, nothing called out.
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/a.h5" >"$SCRATCH/aa.txt" || fail "compare a a"
[ "$(grep -Ec '^(se|pa) .* no change ' "$SCRATCH/aa.txt")" = 8 ] || {
	cat "$SCRATCH/aa.txt"
	fail "a run compared with itself does not show 'no change' on all 8 lines"
}
if grep -Eq ' (SLOWER|FASTER)$' "$SCRATCH/aa.txt"; then fail "a run against itself was called out"; fi

# Over 100x: pa's Read of 600 cached files (some 25 us each, over 10 ms in
# all), then the same with each read() of them 2 ms late (2 a file).
PFSBENCH_REAL=$PFSBENCH
cat >"$SCRATCH/slow-pfsbench" <<EOF
#!/bin/sh
LD_PRELOAD='$PFSFAULT' PFSBENCH_FAULT='delay read 2ms path=$SCRATCH/target/' exec '$PFSBENCH_REAL' "\$@"
EOF
chmod +x "$SCRATCH/slow-pfsbench"
set -- -f 600 -F 600 -s 4k -t pa -i 5 --no-fsync
run_mpi f 2 1 "$@" || fail "run f failed"
PFSBENCH=$SCRATCH/slow-pfsbench run_mpi s 2 1 "$@" || fail "run s failed"
PFSBENCH=$PFSBENCH_REAL
"$PFSBENCH" compare "$SCRATCH/f.h5" "$SCRATCH/s.h5" --csv >"$SCRATCH/fs.csv" || fail "compare --csv"
"$PFSBENCH" compare "$SCRATCH/s.h5" "$SCRATCH/f.h5" --csv >"$SCRATCH/sf.csv" || fail "compare --csv, other order"
"$PFSBENCH" compare "$SCRATCH/f.h5" "$SCRATCH/s.h5" >"$SCRATCH/fs.txt" || fail "compare f s"
"$PFSBENCH" compare "$SCRATCH/s.h5" "$SCRATCH/f.h5" >"$SCRATCH/sf.txt" || fail "compare s f"
# Every line that changed over 100x is called out, in both orders, and so
# is Read. How far Read falls depends on how fast this machine reads a
# cached file now (25 us unloaded, 70 us at a load of 22: 72x), so it is
# held to a third of what the fast run's own time per file and the 4 ms of
# delays a file predict, measured in this run under its load (a fixed 20x
# until issue 24).
tf=$("$PFSBENCH" export "$SCRATCH/f.h5" --csv | tr -d '\r' | awk -F, \
	'$1 == "pa" && $7 == "Read" { us += $11; n += $12 } END { if (n) printf "%.1f", us / n }')
want=$(awk -v t="${tf:-0}" 'BEGIN { printf "%.1f", (t > 0 ? (t + 4000) / t / 3 : 20) }')
echo "# the fast run read a file in $tf us: Read must fall by ${want}x or more"
for o in fs sf; do
	awk -F, -v o="$o" -v want="$want" '{ sub(/\r$/, "") } NR > 1 && $4 == 2 {
		r = (o == "fs") ? 1 / $14 : $14
		if ($2 == "Read") { read = r >= want && $18 == "true"; printf "%s: Read %.0fx\n", o, r }
		if (r < 100) next
		if ($18 != "true") { print o ": " $1 " " $2 " " r "x not called out"; bad = 1 }
	} END { exit bad || !read }' "$SCRATCH/$o.csv" || {
		cat "$SCRATCH/$o.txt"
		fail "$o: a line over 100x, or the Read ${want}x or more slower, is not called out"
	}
done
# A factor prints in plain figures, 2-3 significant: 12.3 under 100, 318
# under 1000, 4100 above (pfs_compare_factor_text); no e-notation, no
# ">99999" (issue 25); under load Read fell 80x, "80.1x", which an
# integer-only pattern here refused (issue 24).
grep -Eq '^pa +Read +files/s .* SLOWER +[0-9.]+x slower \([0-9.]+x to [0-9.]+x\)' "$SCRATCH/fs.txt" ||
	fail "the text report does not say 'SLOWER Nx slower (Lx to Hx)'"
grep -Eq '^pa +Read +files/s .* FASTER +[0-9.]+x faster \([0-9.]+x to [0-9.]+x\)' "$SCRATCH/sf.txt" ||
	fail "the text report, other order, does not say 'FASTER Nx faster (Lx to Hx)'"
! grep -Eq '[0-9]e[-+]?[0-9]|>99999' "$SCRATCH/fs.txt" "$SCRATCH/sf.txt" ||
	fail "a factor printed in e-notation or as >99999"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" --csv >"$SCRATCH/ab.csv" || fail "compare a b --csv"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" --json >"$SCRATCH/ab.json" || fail "compare --json"
"$PY" - "$SCRATCH/ab.json" "$SCRATCH/ab.csv" <<'PYEOF' || fail "--json disagrees with --csv"
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
runs = [run for side in doc["sides"] for run in side["runs"]]
assert [r["label"] for r in runs] == ["base", ""], runs
assert runs[0]["slow_nodes"] == {"judged": False, "nodes": []}
assert doc["margin"] == 1.1 and doc["correction"] == "holm"
lines = {(l["test"], l["op"]): l for l in doc["lines"]}
assert len(lines) == 8
for r in rows:
    got = lines[(r["test"], r["op"])]["sides"][int(r["run"]) - 1]
    assert abs(got["rate"] - float(r["rate"])) <= 1e-5 * float(r["rate"]), (got, r)
    if r["run"] == "2":
        for key in ("called_out", "cpu_changed"):
            assert got[key] == (r[key] == "true"), (key, got, r)
        for key in ("change", "verdict", "text"):
            assert got[key] == r[key], (key, got, r)
        assert (got["node"] or "") == r["node"], (got, r)
        for key, col in (("ratio", "ratio"), ("low", "ratio_low"), ("high", "ratio_high"),
                         ("confidence", "confidence"), ("detectable", "detectable")):
            assert (got[key] is None) == (r[col] == ""), (key, got, r)
            assert got[key] is None or abs(got[key] - float(r[col])) <= 1e-5 * abs(got[key])
PYEOF

# Different workloads: refused, exit 2, one message naming both.
mkdir -p "$SCRATCH/tree-target"
"$MPIRUN" --oversubscribe -np 1 "$PFSBENCH" tree -o "$SCRATCH/tree-target" -l 1 -d 2 -f 2 \
	--no-drop-caches --results "$SCRATCH/t.h5" >/dev/null || fail "the tree run failed"
rc=0
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/t.h5" >"$SCRATCH/at.out" 2>"$SCRATCH/at.err" || rc=$?
[ "$rc" = 2 ] || fail "compare of create-unlink and tree exits $rc, not 2"
[ ! -s "$SCRATCH/at.out" ] || fail "compare of different workloads printed a table"
grep -q "is a create-unlink run and '$SCRATCH/t.h5' a tree run" "$SCRATCH/at.err" ||
	fail "the refusal does not name both workloads"
rc=0
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/a.h5" --csv --json >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--csv with --json exits $rc, not 2"

# Synthetic runs of 64 ranks on 4 nodes, 3 iterations, 3 % noise: a side
# of 3 runs of each configuration, and single runs.
for i in 1 2 3; do
	"$SYNTH" "$SCRATCH/base$i.h5" 64 4 3 1.0 0.03 "$i" || fail "synth base$i"
	"$SYNTH" "$SCRATCH/slow$i.h5" 64 4 3 2.0 0.03 "$((10 + i))" || fail "synth slow$i"
done
"$SYNTH" "$SCRATCH/same.h5" 64 4 3 1.0 0.03 4 || fail "synth same"
"$SYNTH" "$SCRATCH/slow4x.h5" 64 4 3 4.0 0.03 5 || fail "synth slow4x"
"$PFSBENCH" compare "$SCRATCH/base1.h5" "$SCRATCH/same.h5" >"$SCRATCH/same.txt" || fail "compare same"
if grep -Eq ' (SLOWER|FASTER) ' "$SCRATCH/same.txt"; then
	cat "$SCRATCH/same.txt"
	fail "two runs of one configuration were called different"
fi
# Runs as replicates: 3 a side, each one sample; 2x called out on every line.
"$PFSBENCH" compare "$SCRATCH"/base[123].h5 -- "$SCRATCH"/slow[123].h5 >"$SCRATCH/slow.txt" ||
	fail "compare of 3 runs a side"
[ "$(grep -Ec '^[a-z]+ +[A-Za-z]+ +files/s +[0-9]+ +[0-9]+ +SLOWER +(2\.0[0-9]|1\.9[0-9])x slower \([0-9.]+x to [0-9.]+x\)$' "$SCRATCH/slow.txt")" = 20 ] || {
	cat "$SCRATCH/slow.txt"
	fail "a 2x slowdown, 3 runs a side, was not called out on all 20 lines"
}
grep -q '^\[2\] 3 runs:$' "$SCRATCH/slow.txt" || fail "the sides are not listed with their runs"
grep -q '^ \[2\.3\] none$' "$SCRATCH/slow.txt" || fail "the slow nodes of run 3 of side 2 are not listed"
# The margin: a 2x change is not beyond 150 %.
"$PFSBENCH" compare --margin 150 "$SCRATCH"/base[123].h5 -- "$SCRATCH"/slow[123].h5 >"$SCRATCH/m150.txt" ||
	fail "compare --margin 150"
if grep -Eq ' (SLOWER|FASTER) ' "$SCRATCH/m150.txt"; then
	cat "$SCRATCH/m150.txt"
	fail "--margin 150 called out a 2x change"
fi
# One run a side: the floor stands for what moves between runs; 4x is
# called out, with its interval.
"$PFSBENCH" compare "$SCRATCH/base1.h5" "$SCRATCH/slow4x.h5" >"$SCRATCH/slow4.txt" || fail "compare 4x"
[ "$(grep -Ec ' SLOWER +(4\.0[0-9]|3\.9[0-9])x slower \([0-9.]+x to [0-9.]+x\)$' "$SCRATCH/slow4.txt")" = 20 ] || {
	cat "$SCRATCH/slow4.txt"
	fail "a 4x slowdown, one run a side, was not called out on all 20 lines"
}
grep -q '^One run a side: what moves between runs is taken to be' "$SCRATCH/slow4.txt" ||
	fail "one run a side does not say what stands for the runs it lacks"
# Bad sides: exit 2 and one message.
for args in "$SCRATCH/base1.h5 --" "-- $SCRATCH/base1.h5 $SCRATCH/base2.h5" \
	"$SCRATCH/base1.h5 -- $SCRATCH/base2.h5 -- $SCRATCH/base3.h5" "--margin x $SCRATCH/base1.h5 $SCRATCH/base2.h5" \
	"--margin -5 $SCRATCH/base1.h5 $SCRATCH/base2.h5" "$SCRATCH/base1.h5 $SCRATCH/base2.h5 --margin"; do
	rc=0
	# shellcheck disable=SC2086
	"$PFSBENCH" compare $args >"$SCRATCH/bad.out" 2>"$SCRATCH/bad.err" || rc=$?
	[ "$rc" = 2 ] && [ ! -s "$SCRATCH/bad.out" ] && [ "$(grep -c '^pfsbench compare: ' "$SCRATCH/bad.err")" = 1 ] ||
		fail "compare $args: exit $rc, or not one message"
done
# Three runs: the runs in rows, no line over 100 columns.
"$PFSBENCH" compare "$SCRATCH/base1.h5" "$SCRATCH/same.h5" "$SCRATCH/slow4x.h5" >"$SCRATCH/three.txt" ||
	fail "compare of three runs failed"
awk 'length($0) > 100 { print "too wide: " $0; bad = 1 } END { exit bad }' "$SCRATCH/three.txt" ||
	fail "three runs make lines over 100 columns"
[ "$(grep -Ec '^ +\[3\] .* SLOWER ' "$SCRATCH/three.txt")" = 20 ] || {
	cat "$SCRATCH/three.txt"
	fail "run 3's rows do not call out the 4x slowdown"
}

if command -v script >/dev/null 2>&1; then
	script -qec "'$PFSBENCH' compare '$SCRATCH/base1.h5' '$SCRATCH/slow4x.h5'" /dev/null >"$SCRATCH/tty.txt"
	grep -q "$(printf '\033')\[1;31m" "$SCRATCH/tty.txt" || fail "no colour on a terminal"
	NO_COLOR=1 script -qec "'$PFSBENCH' compare '$SCRATCH/base1.h5' '$SCRATCH/slow4x.h5'" /dev/null >"$SCRATCH/nc.txt"
	if grep -q "$(printf '\033')" "$SCRATCH/nc.txt"; then fail "colour despite NO_COLOR"; fi
else
	echo "note: script(1) is missing; the terminal colour check was skipped"
fi
ok "every step above"
finish
