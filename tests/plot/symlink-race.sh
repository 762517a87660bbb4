#!/bin/bash
# plot -o D and report -o D/FILE.html, run by root into a directory D that
# an unprivileged user owns, while the user races them: the moment
# pfsbench's first picture (rates.svg) or its private directory appears
# in D, the user plants D/latency.svg and D/latency.png (for report,
# D/report.html) as symbolic links to a root-owned victim file outside D.
# Before the fix gnuplot wrote through the links. Now, in each of the
# tries (at least 20 per command and mode): the victim's content and
# mtime are unchanged; without --force a planted name is refused (exit 2,
# "exists", nothing of ours left in D, the user's link left as it was) or
# the pictures all landed first (exit 0); with --force the links are
# replaced by our pictures (or planted after them); the pictures that
# are ours are real SVG and PNG files, and no private directory of
# pfsbench's is left in D. A D that is the user's symbolic link is
# refused. The user is a real one (tests/security/lib.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../security/lib.sh"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"

TRIES=${TRIES:-25}
RUN=$SRCDIR/docs/runs/tmpfs.h5
# D is the user's, in SCRATCH (which tests/security/lib.sh opens to all).
D=$SCRATCH/d

# The victim: root's, outside D, old.
V=$SCRATCH/victim
echo "root's file, not a picture" >"$V"
touch -d '2001-02-03 04:05:06' "$V"
cp -p "$V" "$SCRATCH/victim.orig"
victim_intact() {
	cmp -s "$V" "$SCRATCH/victim.orig" &&
		[ "$(stat -c %Y "$V")" = "$(stat -c %Y "$SCRATCH/victim.orig")" ]
}

fresh_d() {
	rm -rf "$D"
	mkdir "$D"
	chown "$ATTACKER" "$D"
}

# attacker NAME...: as the user, waits (up to 20 s) for rates.svg or a
# private directory of pfsbench's to appear in D, then plants each NAME
# as a symbolic link to the victim; prints "planted" when it did. Returns
# once the user's loop has started (it prints "ready").
attacker() {
	rm -f "$SCRATCH/attacker.out" # not the last try's "ready"
	# shellcheck disable=SC2016
	runuser -u "$ATTACKER" -- bash -c '
		d=$1 v=$2; shift 2
		end=$((SECONDS + 20))
		shopt -s nullglob dotglob
		echo ready
		while [ $SECONDS -lt $end ]; do
			s=("$d"/.pfsbench-out.*)
			if [ -e "$d/rates.svg" ] || [ ${#s[@]} -gt 0 ]; then
				for n; do ln -sfn "$v" "$d/$n"; done
				echo planted
				exit 0
			fi
		done' attacker "$D" "$V" "$@" >"$SCRATCH/attacker.out" 2>&1 &
	ATTACK_PID=$!
	# pfsbench starts once the user is watching: a fixed sleep was not
	# always enough on a busy machine (runuser and bash start first), and
	# a try the user never raced proves nothing
	local i
	for ((i = 0; i < 2000; i++)); do
		grep -q ready "$SCRATCH/attacker.out" 2>/dev/null && return 0
		sleep 0.01
	done
	echo "# the user's loop did not start in 20 s"
}

# What D holds that is ours: regular files owned by root; and whether a
# private directory of ours was left.
ours() { find "$D" -mindepth 1 -maxdepth 1 -type f -user root -printf '%f\n' | sort; }
stage_left() { compgen -G "$D/.pfsbench-out.*" >/dev/null; }

# plot_race MODE: TRIES tries of plot -o D (MODE "" or --force).
plot_race() {
	local mode=$1 i rc won=0 refused=0 replaced=0 late=0 bad=0 planted=0 f
	for ((i = 0; i < TRIES; i++)); do
		fresh_d
		attacker latency.svg latency.png
		"$PFSBENCH" plot "$RUN" -o "$D" $mode >"$SCRATCH/out" 2>"$SCRATCH/err"
		rc=$?
		wait "$ATTACK_PID"
		victim_intact || { won=$((won + 1)); cp -p "$SCRATCH/victim.orig" "$V"; }
		stage_left && { bad=$((bad + 1)); echo "# try $i: a private directory was left"; }
		if [ $rc -eq 2 ] && [ -z "$mode" ]; then
			# Refused: the user's links as they were, nothing of ours.
			refused=$((refused + 1))
			grep -q "^pfsbench: '$D/latency.\(svg\|png\)' exists: remove it" "$SCRATCH/err" &&
				[ -z "$(ours)" ] && [ -L "$D/latency.svg" ] && [ -L "$D/latency.png" ] ||
				{ bad=$((bad + 1)); echo "# try $i: refused, but:"; cat "$SCRATCH/err"; ls -la "$D"; }
		elif [ $rc -eq 0 ]; then
			for f in rates timeline progress-files; do
				svg_ok "$D/$f.svg" >/dev/null && png_ok "$D/$f.png" >/dev/null ||
					{ bad=$((bad + 1)); echo "# try $i: $f is not a picture"; }
			done
			if [ -f "$D/latency.svg" ] && [ ! -L "$D/latency.svg" ]; then
				svg_ok "$D/latency.svg" >/dev/null ||
					{ bad=$((bad + 1)); echo "# try $i: latency.svg is not a picture"; }
				replaced=$((replaced + 1))
			else
				late=$((late + 1)) # planted after ours landed: the user's own name
			fi
		else
			bad=$((bad + 1))
			echo "# try $i: exit $rc"
			cat "$SCRATCH/err"
		fi
		grep -q planted "$SCRATCH/attacker.out" && planted=$((planted + 1))
	done
	echo "# plot $mode: $TRIES tries: victim overwritten $won, refused $refused," \
		"links replaced by pictures $replaced, planted after the pictures $late, wrong $bad"
	check "plot ${mode:-without --force}: the victim unchanged in all $TRIES tries" test $won -eq 0
	check "plot ${mode:-without --force}: every try refused cleanly or drew where it belongs" \
		test $bad -eq 0
	check "plot ${mode:-without --force}: the user planted the links in every try" \
		test "$planted" -eq "$TRIES"
}

# report_race MODE: TRIES tries of report -o D/report.html.
report_race() {
	local mode=$1 i rc won=0 refused=0 replaced=0 late=0 bad=0 planted=0
	for ((i = 0; i < TRIES; i++)); do
		fresh_d
		attacker report.html
		"$PFSBENCH" report "$RUN" -o "$D/report.html" $mode >"$SCRATCH/out" 2>"$SCRATCH/err"
		rc=$?
		wait "$ATTACK_PID"
		victim_intact || { won=$((won + 1)); cp -p "$SCRATCH/victim.orig" "$V"; }
		stage_left && { bad=$((bad + 1)); echo "# try $i: a private directory was left"; }
		grep -q planted "$SCRATCH/attacker.out" && planted=$((planted + 1))
		if [ $rc -eq 2 ] && [ -z "$mode" ]; then
			refused=$((refused + 1))
			grep -q "^pfsbench: '$D/report.html' exists: remove it" "$SCRATCH/err" &&
				[ -z "$(ours)" ] && [ -L "$D/report.html" ] ||
				{ bad=$((bad + 1)); echo "# try $i: refused, but:"; cat "$SCRATCH/err"; ls -la "$D"; }
		elif [ $rc -eq 0 ]; then
			if [ -f "$D/report.html" ] && [ ! -L "$D/report.html" ]; then
				replaced=$((replaced + 1))
				grep -q '<img src="data:image/svg+xml;base64,' "$D/report.html" ||
					{ bad=$((bad + 1)); echo "# try $i: report.html has no pictures"; }
			else
				late=$((late + 1))
			fi
		else
			bad=$((bad + 1))
			echo "# try $i: exit $rc"
			cat "$SCRATCH/err"
		fi
	done
	echo "# report $mode: $TRIES tries: victim overwritten $won, refused $refused," \
		"links replaced by the page $replaced, planted after the page $late, wrong $bad"
	check "report ${mode:-without --force}: the victim unchanged in all $TRIES tries" test $won -eq 0
	check "report ${mode:-without --force}: every try refused cleanly or wrote the page" \
		test $bad -eq 0
	check "report ${mode:-without --force}: the user planted the link in every try" \
		test "$planted" -eq "$TRIES"
}

plot_race ""
plot_race --force
report_race ""
report_race --force

# D itself a symbolic link, the user's, to a directory of root's:
# refused, exit 2, nothing made there.
mkdir "$SCRATCH/rootdir"
fresh_d
runuser -u "$ATTACKER" -- ln -s "$SCRATCH/rootdir" "$D/link"
"$PFSBENCH" plot "$RUN" -o "$D/link" --force >"$SCRATCH/out" 2>"$SCRATCH/err"
check "plot -o a symbolic link: exit 2" test $? -eq 2
check "plot -o a symbolic link: said so" \
	grep -q "^pfsbench: '$D/link' is a symbolic link: give the directory it points to" "$SCRATCH/err"
check "plot -o a symbolic link: nothing made through it" test -z "$(ls -A "$SCRATCH/rootdir")"
"$PFSBENCH" report "$RUN" -o "$D/link/r.html" --force >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
check "report -o in a symbolic link's name: exit 2, nothing made" \
	eval 'test $rc -eq 2 && test -z "$(ls -A "$SCRATCH/rootdir")"'
finish
