#!/bin/bash
# pfsbench tree with 1 rank, 2 ranks and 2 simulated nodes: after -C the
# trees on disk are exactly the plan (names, counts, sizes) and stay; -R then
# removes them all; a full run of 2 iterations leaves nothing; the report
# has fdtree's phases and one table row per phase, iteration and worker.
# --stat adds a Stat phase (full runs and -R) that stats every file once,
# in the order Create made them.
. "$(dirname "$0")/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
# -l 2 -d 3 -f 4 -s 2: 13 directories and 52 files of 8 KiB a tree.
PLAN=(-o "$D" -l 2 -d 3 -f 4 -s 2 --no-drop-caches)
KEPT=$D/pfsbench.tree.l2.d3.f4.s2

# tree_is_plan W: W's tree (KEPT/W/LEVEL0) has the planned names, no more.
tree_is_plan() {
	local t=$KEPT/$1
	[ "$(ls "$t")" = LEVEL0 ] &&
		[ "$(find "$t/LEVEL0" -type d | wc -l)" -eq 13 ] &&
		[ "$(find "$t/LEVEL0" -type f -size 8192c | wc -l)" -eq 52 ] &&
		[ "$(find "$t/LEVEL0" ! -type d ! \( -type f -size 8192c \) | wc -l)" -eq 0 ] &&
		[ -f "$t/LEVEL0/f0" ] && [ -f "$t/LEVEL0/d2/d0/f3" ] && [ ! -e "$t/LEVEL0/d2/d0/d0" ]
}

# run LAYOUT ARGS...: 1 or 2 ranks on this host, or 2x1 (two nodes).
run() {
	local layout=$1
	shift
	case $layout in
	2x1) pfs_nodes 2 1 tree "$@" ;;
	*) pfs "$layout" tree "$@" ;;
	esac
}

for layout in 1 2 2x1; do
	case $layout in
	1) workers="$(hostname).1" ;;
	2) workers="$(hostname).1 $(hostname).2" ;;
	2x1) workers="node1.1 node2.1" ;;
	esac
	n=$(echo $workers | wc -w)

	run $layout "${PLAN[@]}" -C
	check "$layout: -C exits 0" test "$RC" -eq 0
	check "$layout: -C leaves one directory named by the plan" test "$(ls "$D")" = "${KEPT##*/}"
	check "$layout: one worker directory a rank" test "$(ls "$KEPT" | tr '\n' ' ')" = "$workers "
	for w in $workers; do
		check "$layout: $w holds exactly the planned tree" tree_is_plan "$w"
	done
	check "$layout: -C reports the two create phases" \
		test "$(grep -c "^DIRECTORY CREATE TIME IN\|^FILE CREATE TIME IN" "$OUT")" -eq 2
	check "$layout: -C reports no remove phase" test "$(grep -c "REMOVE TIME" "$OUT")" -eq 0
	check "$layout: -C says where the trees stay" grep -q "^The trees stay in $KEPT/" "$OUT"
	[ "$T_FAILED" -eq 0 ] || show_run

	run $layout "${PLAN[@]}" -R
	check "$layout: -R exits 0" test "$RC" -eq 0
	check "$layout: -R leaves nothing" dir_unchanged "$D"
	check "$layout: -R reports the two remove phases" \
		test "$(grep -c "^FILE REMOVE TIME IN\|^DIRECTORY REMOVE TIME IN" "$OUT")" -eq 2

	run $layout "${PLAN[@]}" -i 2 --results "$SCRATCH/$layout.h5"
	check "$layout: a full run exits 0" test "$RC" -eq 0
	check "$layout: a full run leaves nothing" dir_unchanged "$D"
	check "$layout: 4 phases x 2 iterations" test "$(grep -c "TIME IN, OUT, TOTAL *= " "$OUT")" -eq 8
	check "$layout: one row a phase, iteration and worker" \
		test "$(grep -c "^tree  [12] " "$OUT")" -eq $((8 * n))
	check "$layout: fast phases are not 0 seconds" \
		test "$(grep "TIME IN, OUT, TOTAL *= " "$OUT" | grep -c ", 0\.000000$")" -eq 0
	check "$layout: the run completes" test "$(tail -1 "$OUT")" = "Done."
	check "$layout: show prints the report byte for byte" \
		diff <("$PFSBENCH" show "$SCRATCH/$layout.h5") "$OUT"
	check "$layout: export has a row a phase, iteration and worker" \
		test "$("$PFSBENCH" export "$SCRATCH/$layout.h5" --csv | grep -c "^tree,")" -eq $((8 * n))
	[ "$T_FAILED" -eq 0 ] || show_run
done
# --stat: a Stat phase between Create and Unlink, each worker's 52 files
# stat'ed in the order Create made them (the fault injector logs both).
LOGGED=$(logging "delay openat 0ns path=/LEVEL0; delay fstatat 0ns path=/LEVEL0")
PFSBENCH=$LOGGED run 2x1 "${PLAN[@]}" --stat --results "$SCRATCH/stat.h5"
logs
check "--stat: exit 0, nothing left" eval 'test "$RC" -eq 0 && dir_unchanged "$D"'
check "--stat: five phases, Stat between Create and Unlink" test "$(grep -o "^[A-Z]* [A-Z]* TIME IN" "$OUT" |
	xargs)" = "DIRECTORY CREATE TIME IN FILE CREATE TIME IN FILE STAT TIME IN FILE REMOVE TIME IN DIRECTORY REMOVE TIME IN"
check "--stat: its rate line" grep -qE "^        File stats per second        =  [0-9]+$" "$OUT"
check "--stat: a Stat row of 52 files for each of the 2 workers" \
	test "$(rows | awk '$5 == "Stat" && $7 == 52' | wc -l)" -eq 2
check "--stat: show prints the report byte for byte" diff <("$PFSBENCH" show "$SCRATCH/stat.h5") "$OUT"
# "NODE PATH" of each call on a file (f<j> at the end) of a tree.
files_of() {
	sed -n "s|^pfsfault: rank [0-9]* node \([^:]*\): $1 #[0-9]* '.*/\(LEVEL0[^']*/f[0-9]*\)': delayed 0 ns$|\1 \2|p" "$LOG"
}
created=$(files_of openat | sed -n '/^node1 /p')
check "--stat: node1 stats its 52 files once each, in Create's order" \
	eval 'test "$(echo "$created" | wc -l)" -eq 52 && test "$(files_of stat | sed -n "/^node1 /p")" = "$created"'

run 2x1 "${PLAN[@]}" -C
run 2x1 "${PLAN[@]}" -R --stat
check "-R --stat: exit 0, nothing left" eval 'test "$RC" -eq 0 && dir_unchanged "$D"'
check "-R --stat: stats the trees -C left, 52 files a worker" \
	test "$(rows | awk '$5 == "Stat" && $7 == 52' | wc -l)" -eq 2
[ "$T_FAILED" -eq 0 ] || show_run

"$PFSBENCH" compare "$SCRATCH/1.h5" "$SCRATCH/2x1.h5" >"$OUT" 2>"$ERR"
RC=$?
check "compare reads tree runs" test "$RC" -eq 0
check "compare lists the four phases" test "$(grep -cE "^tree (Mkdir|Create|Unlink|Rmdir) " "$OUT")" -eq 4
[ "$T_FAILED" -eq 0 ] || show_run
finish
