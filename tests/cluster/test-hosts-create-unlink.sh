#!/bin/bash
# test-hosts-create-unlink.sh - pfsbench create-unlink across 3 namespace
# hosts x 2 workers over TCP: the header lists each host with its own
# address, workers are numbered 1-2 per host, se rows come in node order
# and ua rows in the pipeline's order; the HDF5 file records the 3 hosts;
# nothing is left in the target. Exit 77 = skipped.
. "$(dirname "$0")/hosts-test-lib.sh"
hosts_begin 3

D=$SCRATCH/target
mkdir "$D"
snapshot "$D"
start=$SECONDS
hosts_run 2 create-unlink -m "$D" -f 200 -F 5 -s 64k --no-drop-caches --results "$SCRATCH/r.h5"
echo "# run took $((SECONDS - start)) s"
ran_ok 3 2
check "node lines: host names with their own addresses, in rank order" test \
    "$(sed -n '3,5p' "$OUT")" = "$(printf ' pfsh1 10.231.77.11\n pfsh2 10.231.77.12\n pfsh3 10.231.77.13')"
check "84 rows: se 24, pa 24, ua 12, ub 12, uc 12" test \
    "$(rows | awk '{n[$1]++} END {print n["se"], n["pa"], n["ua"], n["ub"], n["uc"]}')" = "24 24 12 12 12"
check "every test has workers 1 and 2 of each host" test \
    "$(rows | awk '{print $1, $3, $4}' | sort -u | wc -l)" -eq 30

seq_of() { rows | awk -v t="$1" '$1 == t {printf "%s%s:%s:%s", n++ ? " " : "", $3, $4, substr($5, 1, 1)}'; }
se_expect=$(for op in C W R U; do for h in 1 2 3; do for w in 1 2; do
    printf 'pfsh%s:%s:%s ' "$h" "$w" "$op"; done; done; done)
check "se: op by op, host by host in node order, worker by worker" test "$(seq_of se) " = "$se_expect"

# ua is a pipeline: pfsh1 creates; pfsh1 unlinks while pfsh2 creates;
# pfsh2 unlinks while pfsh3 creates; pfsh3 unlinks. Its rows are in order
# of completion, so within one step either may come first; what must hold
# is each step after the one before.
ua_pos() { # ua_pos HOST OP: the positions (1-based) of HOST's OP rows
    seq_of ua | tr ' ' '\n' | awk -v h="$1" -v o="$2" -F: '$1 == h && $3 == o {print NR}' | xargs
}
# Step k (k = 1..4): row positions of its ops must all follow step k-1's.
declare -A first last
for h in 1 2 3; do
    for op in C U; do
        read -r a b <<<"$(ua_pos "pfsh$h" "$op")"
        first[$h$op]=${a:-0} last[$h$op]=${b:-999}
    done
done
ua_ok=yes
for h in 1 2 3; do
    [ "${last[${h}C]}" -lt "${first[${h}U]}" ] || ua_ok="pfsh$h: an Unlink before its Creates ended"
    if [ "$h" -gt 1 ] && [ "${first[${h}C]}" -lt "${last[$((h - 1))C]}" ]; then
        ua_ok="pfsh$h created before pfsh$((h - 1))'s Creates ended"
    fi
    if [ "$h" -gt 1 ] && [ "${first[${h}U]}" -lt "${last[$((h - 1))U]}" ]; then
        ua_ok="pfsh$h unlinked before pfsh$((h - 1))'s Unlinks ended"
    fi
    if [ "$h" -gt 2 ] && [ "${first[${h}C]}" -lt "${last[$((h - 2))U]}" ]; then
        ua_ok="pfsh$h created before pfsh$((h - 2))'s Unlinks ended"
    fi
done
check "ua: pipeline order ($(seq_of ua | sed 's/:[12]:/:/g')): $ua_ok" test "$ua_ok" = yes
check "ua: pfsh1's creates first, pfsh3's unlinks last" test \
    "$(seq_of ua | sed 's/:[12]:/:/g' | awk '{print $1, $2, $11, $12}')" = "pfsh1:C pfsh1:C pfsh3:U pfsh3:U"
check "us/fil and files/sec follow from Microsecs and Files" columns_consistent
check "nothing left in the target" dir_unchanged "$D"

check "the results file gives the same report (pfsbench show)" \
    diff -q <("$PFSBENCH" show "$SCRATCH/r.h5" 2>&1) "$OUT"
check "the results file records the 3 hosts, their addresses and 2 workers each" test \
    "$(h5_nodes "$SCRATCH/r.h5" 2>&1 | xargs)" = \
    "pfsh1 10.231.77.11 2 pfsh2 10.231.77.12 2 pfsh3 10.231.77.13 2"
finish
