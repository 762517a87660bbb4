#!/bin/bash
# The timeline's budget per rank and run (timeline.h): a run of `pa` x 3
# (R = 12 steps), every open slowed by 2 ms so that each Create lasts
# several ticks, with the budget brought down to 8 points a rank by
# PFSBENCH_DEBUG_TIMELINE (its share, 8/12 a step, is under two): each
# rank keeps at most max(8, 2 x 12) = 24 points, at most 2 in any step
# (its first and latest tick), and each of its Creates keeps at least one.
# The same run with the default budget (1,024) keeps more than 2 points in
# some Create: the run is long enough for the bound to bite.
. "$(dirname "$0")/../mpi/lib.sh"

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
slow=$(faulty "delay openat 2ms")
args=(create-unlink -m "$D" -F 1 -s 4k -t pa -i 3 -f 400 --no-drop-caches)

# points_of FILE: "rank iteration step points" for each rank-step with ticks
points_of() {
	"$T_PFSBENCH" export "$1" --csv --progress | tr -d '\r' |
		awk -F, 'NR > 1 {n[$4 " " $2 " " $3]++} END {for (k in n) print k, n[k]}' | sort -n
}

PFSBENCH=$(PFSBENCH=$slow debug_env PFSBENCH_DEBUG_TIMELINE=8) pfs 2 "${args[@]}" \
	--results "$SCRATCH/budget.h5"
check "budget 8: exit 0" test "$RC" -eq 0
points_of "$SCRATCH/budget.h5" >"$SCRATCH/budget.pts"
echo "# rank iteration step points, budget 8:" $(cat "$SCRATCH/budget.pts" | tr '\n' ';')
for r in 0 1; do
	total=$(awk -v r=$r '$1 == r {t += $4} END {print t + 0}' "$SCRATCH/budget.pts")
	check "rank $r keeps at most max(8, 2 x 12) points ($total)" test "$total" -le 24
	creates=$(awk -v r=$r '$1 == r && $3 == 0' "$SCRATCH/budget.pts" | wc -l)
	check "each of rank $r's 3 Creates keeps a point ($creates)" test "$creates" -eq 3
done
most=$(awk '{print $4}' "$SCRATCH/budget.pts" | sort -n | tail -1)
check "no rank-step keeps more than its first and latest tick (${most:-none})" test "${most:-9}" -le 2

PFSBENCH=$slow pfs 2 "${args[@]}" --results "$SCRATCH/default.h5"
check "default budget: exit 0" test "$RC" -eq 0
most=$(points_of "$SCRATCH/default.h5" | awk '$3 == 0 {print $4}' | sort -n | tail -1)
check "the default budget keeps more than 2 points in some Create (${most:-none})" test "${most:-0}" -gt 2
finish
