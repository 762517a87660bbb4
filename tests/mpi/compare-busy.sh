#!/bin/bash
# compare-busy.sh - compare tells a busier machine from a slower filesystem.
# Three real runs of create-unlink pa, 2 ranks pinned to one CPU, at
# nice -10 (so the rest of a busy machine, at nice 0, weighs a ninth of
# a rank each: at nice 0, CI's parallel lanes once left run a's ranks
# waiting 141 ms in a step, longer than run b's 106 ms):
#   a  as they are;
#   b  with two CPU hogs on that CPU, at nice -15 (3 times a rank's
#      weight): the ranks get at most a quarter of the CPU and wait for
#      it, whatever else the machine runs; each row's wait_us (Linux's
#      run_delay) says so (hogs at the ranks' own priority left them
#      waiting no longer than a busy CI machine did in run a: 66 ms
#      against 75 ms, issue 24);
#   c  with every open delayed 200 us by the test-only fault injector: a
#      slower "filesystem" that does not make anyone wait for a CPU (400 ms
#      more a step, against the 80 ms of 40 us until issue 24: the
#      delay's wake-ups, the same in number, add waits that a busy
#      machine lengthens, and the change must stay beyond them).
# compare a b must call nothing out, and mark the slower Create `busy`
# where its interval excludes no change; compare a c must call the slower
# Create out. (Under the hogs a rank woken from the barrier can wait for
# the CPU before its row's clock starts: the ranks start up to 14 ms
# apart, which compare counts with the waits, off the ranks' work.)
. "$(dirname "$0")/lib.sh"
: "${PFSFAULT:?PFSFAULT must point at tests/fault/libpfsfault.so: run me from make check}"

[ -r /proc/thread-self/schedstat ] || skip "no /proc/thread-self/schedstat (a kernel without CONFIG_SCHED_INFO)"
command -v taskset >/dev/null || skip "no taskset (util-linux)"
[ "$(id -u)" -eq 0 ] || skip "not root: cannot raise the ranks' and the hogs' priority above the machine's"

# a tmpfs: its ops are CPU alone (ext4's journal made the hogs cost 15x
# the CPU time in a trial)
[ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
D=$(mktemp -d /dev/shm/pfsbench-busy.XXXXXX) || skip "cannot make a directory in /dev/shm"
T_CLEANUP+=("rm -rf '$D'")
ARGS=(create-unlink -m "$D" -f 2000 -F 2 -s 4k -t pa -i 5 --no-drop-caches)
# run NAME [PFSBENCH]: the 2 ranks on CPU 0, at nice -10
run() {
	(cd "$SCRATCH" && timeout 300 nice -n -10 taskset -c 0 "$MPIRUN" --bind-to none "${MPIRUN_FLAGS[@]}" -np 2 \
		"${2:-$PFSBENCH}" "${ARGS[@]}" --results "$SCRATCH/$1.h5") >"$SCRATCH/$1.out" 2>&1
	check "run $1: exit 0" test $? -eq 0
}
# field FILE TEST OP NAME: the column NAME of FILE's rows of (TEST, OP)
field() {
	csv_rows "$1" | tr -d '\r' | awk -F, -v t="$2" -v o="$3" -v f="$4" \
		'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["test"] == t && $c["op"] == o { print $c[f] }'
}

run a
hogs=()
for h in 1 2; do
	nice -n -15 taskset -c 0 sh -c 'while :; do :; done' &
	hogs+=($!)
done
T_CLEANUP+=("kill ${hogs[*]} 2>/dev/null")
run b
kill "${hogs[@]}"
run c "$(faulty 'delay openat 200us')"

wa=$(field "$SCRATCH/a.h5" pa Create wait_us | sort -n | tail -1)
wb=$(field "$SCRATCH/b.h5" pa Create wait_us | sort -n | tail -1)
echo "# pa Create: the longest wait for a CPU of a rank, a: $wa us, b (two hogs): $wb us"
check "rows: wait_us is recorded" test "${wa:-0}" -gt 0
check "rows: the hogs made the ranks wait longer" test "${wb:-0}" -gt "${wa:-0}"

"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" >"$SCRATCH/ab.txt"
"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/b.h5" --csv | tr -d '\r' >"$SCRATCH/ab.csv"
sed 's/^/# /' "$SCRATCH/ab.txt"
check "a against b (busier): nothing called out" \
	test "$(awk -F, 'NR > 1 && $4 == 2 && $18 == "true"' "$SCRATCH/ab.csv" | wc -l)" -eq 0 ||
	# Its rows in both runs: how much of the move the waits explain.
	for r in a b; do
		csv_rows "$SCRATCH/$r.h5" | tr -d '\r' | awk -F, -v r="$r" \
			-v out="$(awk -F, 'NR > 1 && $4 == 2 && $18 == "true" { printf "%s ", $2 }' "$SCRATCH/ab.csv")" '
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			index(" " out, " " $c["op"] " ") { printf "# %s %s %s it %s rank %s: elapsed %s us, cpu %s us, wait %s us\n", r, $c["test"],
				$c["op"], $c["iteration"], $c["rank"], $c["elapsed_us"], $c["cpu_us"], $c["wait_us"] }'
	done
check "a against b: the hogs made pa Create slower" \
	awk -F, 'NR > 1 && $4 == 2 && $1 == "pa" && $2 == "Create" { exit !($14 < 1) }' "$SCRATCH/ab.csv"
# Every line beyond the margin (its whole interval beyond 10 %, compare's
# "beyond") must say why it is not called out: busy, or short where no
# node moved by 10 ms. Until stop 38 this looked at pa Create alone and
# asked only that its interval exclude 1: at load 17 "4.22x slower (1.06x
# to 16.9x), not surely over 10 %" was asked to say busy, which compare
# says only beyond the margin.
beyond=$(awk -F, 'NR > 1 && $4 == 2 && $16 < 1 / 1.1 { printf "%s%s %s=%s", n++ ? ", " : "", $1, $2, $19 }' "$SCRATCH/ab.csv")
echo "# a against b: the lines beyond 10 % and their verdicts: ${beyond:-none}"
if [ -n "$beyond" ]; then
	check "a against b: every line beyond 10 % says busy or short ($beyond)" \
		test "$(awk -F, 'NR > 1 && $4 == 2 && $16 < 1 / 1.1 && $19 != "busy" && $19 != "short"' "$SCRATCH/ab.csv" | wc -l)" -eq 0
	if grep -q '=busy' <<<"$beyond"; then
		check "a against b: a busy line is marked in the table" grep -Eq '^pa +[A-Za-z]+ .* busy +[0-9.]+x slower \(' "$SCRATCH/ab.txt"
		check "a against b: the busy lines are counted under the table" grep -q '^busy: [0-9]* lines\? beyond' "$SCRATCH/ab.txt"
	fi
else
	echo "# a against b: no line beyond 10 % this time; busy not tested"
fi

"$PFSBENCH" compare "$SCRATCH/a.h5" "$SCRATCH/c.h5" >"$SCRATCH/ac.txt"
sed 's/^/# /' "$SCRATCH/ac.txt"
check "a against c (opens 200 us slower): pa Create called out SLOWER" \
	grep -Eq '^pa +Create .* SLOWER +[0-9.]+x slower \(' "$SCRATCH/ac.txt"
finish
