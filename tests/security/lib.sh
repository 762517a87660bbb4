# lib.sh: shared by the security tests: tests/mpi/lib.sh's runs and checks,
# plus a real unprivileged attacker: a user of its own (useradd, a unique
# name), removed at the end (userdel -r), whose programs run with runuser.
# Sourced after tests/mpi/lib.sh.

[ "$(id -u)" -eq 0 ] || skip "the attacks need root to make a user and to run pfsbench as root"
for tool in useradd userdel runuser python3; do
	command -v "$tool" >/dev/null || skip "$tool is missing"
done

ATTACKER=pfsatk$$
useradd --create-home --shell /bin/sh "$ATTACKER" >/dev/null 2>&1 ||
	skip "useradd $ATTACKER failed"
T_CLEANUP+=("userdel -r '$ATTACKER' >/dev/null 2>&1")
# The attacker reaches the scratch directory and runs its program from it.
chmod 755 "$SCRATCH"
SWAP=$SCRATCH/swap.py
cp "$(dirname "${BASH_SOURCE[0]}")/swap.py" "$SWAP"
chmod 755 "$SWAP"

# as_attacker ARGS...: runs ARGS as the attacker, in the background; its
# pid in ATTACK_PID.
as_attacker() {
	runuser -u "$ATTACKER" -- "$@" &
	ATTACK_PID=$!
}

# stop_attacker STOPFILE: tells it to stop, and waits for it.
stop_attacker() {
	touch "$1"
	wait "$ATTACK_PID" 2>/dev/null
	ATTACK_PID=
}

# judge_end TRY FAILURE: counts a run's end ($RC, $OUT, $ERR) in
# completed (exit 0 and the report's last line Done.), failed (exit 1 or
# 2, and a line of stderr matches the extended regex FAILURE: one message
# saying what) or bad_end (anything else: printed).
completed=0 failed=0 bad_end=0
judge_end() {
	if [ "$RC" -eq 0 ] && tail -n 1 "$OUT" | grep -q '^Done\.$'; then
		completed=$((completed + 1))
	elif [ "$RC" -ge 1 ] && [ "$RC" -le 2 ] && grep -Eq "$2" "$ERR"; then
		failed=$((failed + 1))
		echo "# try $1: exit $RC: $(grep -m1 '^pfsbench' "$ERR")"
	else
		bad_end=$((bad_end + 1))
		echo "# try $1: exit $RC:"
		sed 's/^/#   /' "$ERR"
	fi
}

# fingerprint FILE: content, modification time and inode, to tell whether
# anything wrote it.
fingerprint() {
	printf '%s %s\n' "$(sha256sum <"$1")" "$(stat -c '%Y.%y %i %s' "$1")"
}
