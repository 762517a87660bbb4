#!/bin/bash
# A results file whose names try to break out of gnuplot's and HTML's
# syntax (tests/plot/hostile_results.c: quotes, newlines, system(), a data
# block's end marker, macros, tags; markup in the provenance): plot draws
# every picture, gnuplot runs nothing of theirs (no PWNED file appears),
# every SVG is well-formed XML; the report escapes every name, so the page
# holds none of their tags.
. "$(dirname "$0")/lib.sh"
: "${HOSTILE_RESULTS:?run me from make check}"
need_deb gnuplot-nox gnuplot || skip "$NEED_WHY"

cd "$SCRATCH" || exit 1
"$HOSTILE_RESULTS" "$SCRATCH/h.h5"
check "the hostile results file is written" test -s "$SCRATCH/h.h5"
plot_run "$SCRATCH/h.h5" "$SCRATCH/p"
check "gnuplot ran nothing the names said" test -z "$(find "$SCRATCH" / -maxdepth 1 -name PWNED 2>/dev/null)"
check "the names are drawn, made harmless" grep -q 'n1?)? system(?touch PWNED?)? print(?' "$SCRATCH/p/timeline.svg"
"$PFSBENCH" report "$SCRATCH/h.h5" "$SCRATCH/h.h5" -o "$SCRATCH/h.html" >"$SCRATCH/out" 2>"$SCRATCH/err"
rc=$?
[ $rc -eq 0 ] || cat "$SCRATCH/err"
check "report: exit 0" test $rc -eq 0
check "report: no tag of theirs" \
	test -z "$(grep -o -i -E '<(script|img src=x|b>|i>|br>)' "$SCRATCH/h.html")"
check "report: their tags shown as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$SCRATCH/h.html"
check "report: their markup in the provenance shown as text" \
	grep -q '&lt;img src=x onerror=alert(1)&gt;' "$SCRATCH/h.html"
check "report: the page parses into the sections it should have" "$PY" - "$SCRATCH/h.html" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = {}
    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
p = P()
p.feed(open(sys.argv[1], encoding="utf-8", errors="strict").read())
t = p.tags
print("# tags:", sorted(t.items()))
# pre: each run's report and analysis, and the comparison
sys.exit(0 if t.get("section") == 3 and t.get("img") == 9 and "script" not in t and t.get("pre") == 5 else 1)
PY
made=$(find "$SCRATCH" -mindepth 1 -maxdepth 1 -newer "$SCRATCH/h.h5" ! -name out ! -name err ! -name p ! -name h.html ! -name t)
echo "# made in the working directory: ${made:-nothing else}"
check "nothing else was made in the working directory" test -z "$made"
check "nothing was left in TMPDIR" test -z "$(ls -A "$TMPDIR")"
finish
