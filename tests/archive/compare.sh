#!/bin/sh
# compare: real runs side by side with their differing parameters; on
# synthetic runs a 2x slowdown is called out on every line and a rerun of
# the same configuration is not; colour only on a terminal without NO_COLOR.
. "$SRCDIR/tests/archive/lib.sh"
[ -x "$SYNTH" ] || fail "$SYNTH is not built"
run_mpi a 2 1 -f 100 -F 3 -s 4k -t se,pa -i 2 || fail "run a failed"
run_mpi b 2 1 -f 200 -F 3 -s 4k -t se,pa,uc -i 2 || fail "run b failed"
"$PFSBENCH" compare "$scratch/a.h5" "$scratch/b.h5" >"$scratch/ab.txt" || fail "compare failed"
fstype=$(head -n 1 "$scratch/a.txt" | cut -d' ' -f1)
grep -q "^\[1\] $fstype $scratch/target " "$scratch/ab.txt" || fail "no heading names run 1 by fstype and directory"
grep -Eq '^  files +1: 100  2: 200$' "$scratch/ab.txt" || fail "the differing -f is not listed"
grep -q '^  tests ' "$scratch/ab.txt" || fail "the differing -t is not listed"
[ "$(grep -Ec '^(se|pa) +(Create|Write|Read|Unlink) ' "$scratch/ab.txt")" = 8 ] ||
	fail "compare does not show the 8 shared (test, op) lines"
grep -q '^2 (test, op) pairs are not in every run' "$scratch/ab.txt" || fail "uc's ops are not reported as unshared"
if grep -q "$(printf '\033')" "$scratch/ab.txt"; then fail "colour in piped output"; fi

"$SYNTH" "$scratch/base.h5" 64 4 3 1.0 0.03 1 || fail "synth base"
"$SYNTH" "$scratch/same.h5" 64 4 3 1.0 0.03 2 || fail "synth same"
"$SYNTH" "$scratch/slow.h5" 64 4 3 2.0 0.03 3 || fail "synth slow"
"$PFSBENCH" compare "$scratch/base.h5" "$scratch/same.h5" >"$scratch/same.txt" || fail "compare same"
if grep -Eq 'slower|faster' "$scratch/same.txt"; then
	cat "$scratch/same.txt"
	fail "two runs of one configuration were called different"
fi
"$PFSBENCH" compare "$scratch/base.h5" "$scratch/slow.h5" >"$scratch/slow.txt" || fail "compare slow"
[ "$(grep -Ec ' -50\.[0-9]% slower$| -49\.[0-9]% slower$' "$scratch/slow.txt")" = 20 ] || {
	cat "$scratch/slow.txt"
	fail "a 2x slowdown was not called out on all 20 lines"
}
"$PFSBENCH" compare "$scratch/base.h5" "$scratch/same.h5" "$scratch/slow.h5" >/dev/null ||
	fail "compare of three runs failed"

if command -v script >/dev/null 2>&1; then
	script -qec "'$PFSBENCH' compare '$scratch/base.h5' '$scratch/slow.h5'" /dev/null >"$scratch/tty.txt"
	grep -q "$(printf '\033')\[1;31m" "$scratch/tty.txt" || fail "no colour on a terminal"
	NO_COLOR=1 script -qec "'$PFSBENCH' compare '$scratch/base.h5' '$scratch/slow.h5'" /dev/null >"$scratch/nc.txt"
	if grep -q "$(printf '\033')" "$scratch/nc.txt"; then fail "colour despite NO_COLOR"; fi
else
	echo "note: script(1) is missing; the terminal colour check was skipped"
fi
echo "PASS"
