#!/bin/bash
# The time budget: making every picture (SVG and PNG) of a 3-node,
# 5-test, 3-iteration run takes under 5 s. What is checked is the CPU time
# of pfsbench and its gnuplot (user + system, children included), the work
# itself; on this shared machine the wall time also holds the waits for
# other jobs' CPU, so it is printed with the load beside it, not checked.
. "$(dirname "$0")/lib.sh"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"

real_run r -f 200 -F 4 -s 16k -i 3 -t se,pa,ua,ub,uc
TIMEFORMAT='%R %U %S'
{ time "$PFSBENCH" plot "$SCRATCH/r.h5" -o "$SCRATCH/p" >"$SCRATCH/out" 2>"$SCRATCH/err"; } 2>"$SCRATCH/time"
rc=$?
read -r wall user sys <"$SCRATCH/time"
echo "# every picture of 3 nodes x 5 tests x 3 iterations ($(wc -l <"$SCRATCH/out") files):" \
	"$wall s wall, $user s user + $sys s system CPU; load $(cut -d' ' -f1-3 /proc/loadavg)"
check "plot: exit 0" test $rc -eq 0
check "8 files: the 4 kinds of picture, SVG and PNG" test "$(wc -l <"$SCRATCH/out")" -eq 8
check "under 5 s of CPU" awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s < 5) }'
finish
