#!/bin/bash
# run-bench-big.sh: bounded work for a big file (make bench-big; issue 26,
# attack 8; docs/security.md, "Bounded work"). A results file of 980000
# rows (4900 ranks on 49 nodes x 5 tests x 4 ops x 10 iterations, the real
# writer through tests/archive/synth_results, gzipped by h5repack as the
# attack's was) is shown, compared (with a copy of itself), plotted and
# reported ROUNDS times (default 3). Reports each command's median wall
# time and peak resident size (/usr/bin/time -v; plot's and report's
# include gnuplot's) and its largest output, against the bar: under 20 s,
# under 1 GiB, outputs under 10 MB. tests/plot/big.sh asserts the sizes;
# the times are judged only here.
set -u
: "${PFSBENCH:?run me from make bench-big}"
: "${SYNTH:?run me from make bench-big}"
ROUNDS=${ROUNDS:-3}
command -v gnuplot >/dev/null || { echo "SKIP: bench-big: no gnuplot (apt-get install gnuplot-nox)"; exit 0; }
command -v h5repack >/dev/null || { echo "SKIP: bench-big: no h5repack (apt-get install hdf5-tools)"; exit 0; }
[ -x /usr/bin/time ] || { echo "SKIP: bench-big: no /usr/bin/time (apt-get install time)"; exit 0; }
work=$(mktemp -d /tmp/pfsbench-bench-big.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
"$SYNTH" "$work/raw.h5" 4900 49 10 1 0.05 1 && h5repack -f GZIP=9 "$work/raw.h5" "$work/big.h5" || exit 1
rm -f "$work/raw.h5"
cp "$work/big.h5" "$work/big2.h5"
echo "bench-big: 980000 rows, $(stat -c %s "$work/big.h5") bytes gzipped, $ROUNDS rounds," \
	"load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-10s %-14s %-14s %s\n' command "wall s" "peak RSS MiB" "output bytes" verdict
bad=0
for cmd in show compare plot report; do
	: >"$work/$cmd.times"
	for ((r = 0; r < ROUNDS; r++)); do
		rm -rf "$work/p" "$work/r.html"
		case $cmd in
		show) args=(show "$work/big.h5") ;;
		compare) args=(compare "$work/big.h5" "$work/big2.h5") ;;
		plot) args=(plot "$work/big.h5" -o "$work/p") ;;
		report) args=(report "$work/big.h5" -o "$work/r.html") ;;
		esac
		/usr/bin/time -v -o "$work/t" "$PFSBENCH" "${args[@]}" >"$work/out" 2>/dev/null || exit 1
		awk -F': ' '/Elapsed/ { n = split($2, p, ":"); s = p[n] + (n > 1 ? p[n-1] * 60 : 0); printf "%.2f ", s }
			/Maximum resident/ { printf "%d\n", $2 }' "$work/t" >>"$work/$cmd.times"
	done
	case $cmd in
	plot) out=$(find "$work/p" -type f -printf '%s\n' | sort -n | tail -n 1) ;;
	report) out=$(stat -c %s "$work/r.html") ;;
	*) out=$(stat -c %s "$work/out") ;;
	esac
	wall=$(sort -n -k1,1 "$work/$cmd.times" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
	rss=$(sort -n -k2,2 "$work/$cmd.times" | awk '{ a[NR] = $2 } END { printf "%.0f", a[int((NR + 1) / 2)] / 1024 }')
	verdict=ok
	awk -v w="$wall" -v m="$rss" 'BEGIN { exit !(w < 20 && m < 1024) }' || verdict=OVER
	[ "$out" -ge 10000000 ] && verdict=OVER
	[ $verdict = OVER ] && bad=1
	printf '%-8s %-10s %-14s %-14s %s\n' "$cmd" "$wall" "$rss" "$out" "$verdict"
done
exit $bad
