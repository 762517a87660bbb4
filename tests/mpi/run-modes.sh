#!/bin/bash
# run-modes.sh - --output-format json|csv: at the end of a run, stdout
# holds only the run's rows as `pfsbench export --json` / `--csv` writes
# them from the run's own results file (the same document, parsed by
# Python), for create-unlink, tree, stream and bonnie; stream's -m, which prints on
# stdout, is refused beside it; text stays the report. --runtime (create-
# unlink's and tree's name for --stonewall; stream's time limit): a run of
# far more than a second allows ends, every rank with the same count,
# fewer than asked. No duration is judged.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"

# same_json OUT FILE.h5: OUT parses as JSON and equals export --json of FILE.
same_json() {
	"$PFSBENCH" export "$2" --json >"$SCRATCH/export.json" &&
		/usr/bin/python3 -c 'import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
sys.exit(0 if a == b and len(a["rows"]) > 0 else 1)' "$1" "$SCRATCH/export.json"
}

pfs 2 create-unlink -m "$D" -f 20 -F 2 -s 4k -t se,uc --output-format json --results "$SCRATCH/cu.h5"
check "create-unlink --output-format json exits 0" test "$RC" -eq 0
check "create-unlink: stdout is export --json of the run's file" same_json "$OUT" "$SCRATCH/cu.h5"
check "create-unlink: 12 rows in the JSON (se 8, uc 4)" test "$(/usr/bin/python3 -c 'import json, sys
print(len(json.load(open(sys.argv[1]))["rows"]))' "$OUT")" -eq 12

pfs 2 create-unlink -m "$D" -f 20 -F 2 -s 4k -t se --output-format=csv --results "$SCRATCH/cu2.h5"
check "create-unlink --output-format=csv: stdout is export --csv of the run's file" \
	cmp -s "$OUT" <("$PFSBENCH" export "$SCRATCH/cu2.h5" --csv)
check "create-unlink csv: a header and 8 rows" test "$(wc -l <"$OUT")" -eq 9

pfs 2 create-unlink -m "$D" -f 20 -F 2 -s 4k -t se --results "$SCRATCH/cu3.h5"
check "without --output-format: the text report, naming the filesystem first, Done. last" \
	test "$RC" -eq 0 -a "$(head -1 "$OUT" | grep -c ' mount point: ')" -eq 1 -a "$(tail -1 "$OUT")" = "Done."

# ran H5: the run exited 0 and its stdout is export --json of H5.
ran() { test "$RC" -eq 0 && same_json "$OUT" "$1"; }

pfs 2 tree -o "$D" -l 1 -d 2 -f 2 --output-format json --results "$SCRATCH/tree.h5"
check "tree --output-format json: stdout is export --json" ran "$SCRATCH/tree.h5"

pfs 2 stream -o "$D" -s 1m --output-format json --results "$SCRATCH/st.h5"
check "stream --output-format json: stdout is export --json" ran "$SCRATCH/st.h5"
pfs 1 bonnie -d "$D" -s 8m -r 4 -n 1 --output-format json --results "$SCRATCH/bon.h5"
check "bonnie --output-format json: stdout is export --json" ran "$SCRATCH/bon.h5"
pfs 1 stream -o "$D" -s 1m -m --output-format json --results "$SCRATCH/st2.h5"
check "stream -m with --output-format json: refused, exit 2, nothing made" \
	test "$RC" -eq 2 -a ! -e "$SCRATCH/st2.h5"
pfs 1 create-unlink -m "$D" --output-format yaml
check "--output-format yaml: refused, exit 2" test "$RC" -eq 2
# --runtime 1 with 9999999 files a rank: Create stops by time, and wear-out
# leaves every rank with the busiest one's count (rows consistent; no
# duration is judged). --force: the plan's inodes exceed the target's.
pfs 2 create-unlink -m "$D" -f 9999999 -F 1 -s 4k -t pa --runtime 1 --force --output-format csv \
	--results "$SCRATCH/rt.h5"
check "--runtime 1: the run ended, exit 0" test "$RC" -eq 0
creates=$(awk -F, '$7 == "Create" {print $12}' "$OUT" | sort -u)
check "--runtime 1: both ranks' Create rows have one count" \
	test "$(awk -F, '$7 == "Create"' "$OUT" | wc -l)" -eq 2 -a "$(wc -w <<<"$creates")" -eq 1
check "--runtime 1: fewer files than asked, more than none" test "$creates" -gt 0 -a "$creates" -lt 9999999
check "--runtime 1: Unlink removed exactly what Create made, on each rank" \
	test "$(awk -F, '$7 == "Unlink" {print $12}' "$OUT" | sort -u)" = "$creates"
check "--runtime 1: each row's count at the deadline is at most its count" \
	test "$(awk -F, '$7 == "Create" && ($16 == 0 || $16 > $12)' "$OUT" | wc -l)" -eq 0
check "--runtime 1 is --stonewall 1 in the results file" \
	test "$("$PFSBENCH" export "$SCRATCH/rt.h5" --json | /usr/bin/python3 -c 'import json, sys
p = json.load(sys.stdin)["parameters"]; print(p["stonewall"], p["runtime"])')" = "1 1"
# stream --runtime 1: 1 GiB a rank at 10 MB/s (-w) would take 100 s;
# the stream stops by time, both ranks at one request count.
pfs 2 stream -o "$D" -s 1g -b 64k -w 10000000 --runtime 1 --force --output-format csv \
	--results "$SCRATCH/srt.h5"
check "stream --runtime 1: the run ended, exit 0" test "$RC" -eq 0
reqs=$(awk -F, '$7 == "Write" {print $12}' "$OUT" | sort -u)
check "stream --runtime 1: two Write rows, one request count" \
	test "$(awk -F, '$7 == "Write"' "$OUT" | wc -l)" -eq 2 -a "$(wc -w <<<"$reqs")" -eq 1
check "stream --runtime 1: fewer requests than -s asks (16384), more than none" \
	test "$reqs" -gt 0 -a "$reqs" -lt 16384
check "stream --runtime 1: each row's bytes are its requests x 64 KiB" \
	test "$(awk -F, '$7 == "Write" && $14 != $12 * 65536' "$OUT" | wc -l)" -eq 0
check "stream --runtime 1: each row's count at the deadline is at most its count" \
	test "$(awk -F, '$7 == "Write" && ($16 == 0 || $16 > $12)' "$OUT" | wc -l)" -eq 0
pfs 1 stream -o "$D" -s 1m --runtime 1 --keep
check "stream --runtime with --keep: refused, exit 2" test "$RC" -eq 2
pfs 1 create-unlink -m "$D" --runtime 1 --stonewall 2
check "--runtime with --stonewall: refused, exit 2" test "$RC" -eq 2
check "nothing of the runs is left" dir_unchanged "$D"
finish
