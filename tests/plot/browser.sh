#!/bin/bash
# The report in a real browser: headless Chromium (Debian's chromium)
# opens the page of a real run, and the page of a file with hostile names,
# as a phone (390 x 844) and a wide screen (1600 x 1000) would show them,
# through the DevTools protocol (tests/plot/browser.py): every image loaded
# and has a size, no console error, no script ran or failed, the page is
# no wider than the screen, and the screenshot is not blank. Skips, saying
# why, where Chromium cannot be installed (Debian's chromium, installed
# when missing as the other tests install theirs) or cannot start.
. "$(dirname "$0")/lib.sh"
: "${HOSTILE_RESULTS:?run me from make check}"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY: the page would have no pictures"
if [ -z "${CHROMIUM:-}" ] || [ ! -x "$CHROMIUM" ]; then
	need_deb chromium chromium || skip "Debian's chromium: $NEED_WHY"
	CHROMIUM=$(command -v chromium)
fi

real_run a -f 200 -F 4 -s 16k -i 2 -t se,pa,ua
"$HOSTILE_RESULTS" "$SCRATCH/h.h5"
for page in a h; do
	"$PFSBENCH" report "$SCRATCH/$page.h5" -o "$SCRATCH/$page.html" >/dev/null 2>"$SCRATCH/err"
	check "report of $page: exit 0" test $? -eq 0
	mkdir -p "$SCRATCH/shots-$page"
	timeout 300 "$PY" "$PLOT_LIB/browser.py" "$CHROMIUM" "$SCRATCH/$page.html" "$SCRATCH/shots-$page" \
		>"$SCRATCH/browser.out" 2>&1
	rc=$?
	cat "$SCRATCH/browser.out"
	[ $rc -eq 77 ] && skip "$(sed -n 's/^SKIP: //p' "$SCRATCH/browser.out")"
	check "Chromium: the page of $page loads whole and clean on a phone and a wide screen" test $rc -eq 0
done
finish
