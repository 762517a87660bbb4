# bonnie_csv_rates.awk: bonnie's CSV lines (bonnie++ 1.9x's, or pfsbench
# bonnie's in that format) as the bench table's raw lines (bench/table.py),
# summed per test over the lines (each rank's or each bonnie++ process's).
#   awk -F, -v r=ROUND -v side=SIDE -v tests="NAME:COLUMN ..." -f THIS CSV
# COLUMN is the test's rate's column, counted from 0; its %CP is the next.
# Prints per test that any line has: "ROUND SIDE bonnie NAME SUM" (SUM
# "+++++" when a line has +++++, a test under 0.5 s: no rate), and "ROUND
# SIDE bonnie cpu:NAME SECONDS": the CPU seconds an item, each line's
# %CP / 100 over its rate, averaged over the lines; none when a line has
# no rate or no %CP (+++++, or 0).
BEGIN { n = split(tests, t, " ") }
{
	for (i = 1; i <= n; i++) {
		split(t[i], f, ":")
		v = $(f[2] + 1)
		if (v == "")
			continue
		seen[i] = 1
		if (v ~ /^\+/)
			plus[i] = 1
		else
			sum[i] += v
		cp = $(f[2] + 2)
		lines[i]++
		if (v > 0 && cp ~ /^[0-9]+$/ && cp > 0)
			cpu[i] += cp / 100 / v
		else
			nocpu[i] = 1
	}
}
END {
	for (i = 1; i <= n; i++) {
		if (!seen[i])
			continue
		split(t[i], f, ":")
		printf "%s %s bonnie %s %s\n", r, side, f[1], plus[i] ? "+++++" : sum[i]
		if (!plus[i] && !nocpu[i])
			printf "%s %s bonnie cpu:%s %.6g\n", r, side, f[1], cpu[i] / lines[i]
	}
}
