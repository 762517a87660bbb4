#!/bin/sh
# run-bench-archive.sh: the results writer and compare on synthetic runs of
# 5,000 and 10,000 ranks x 5 tests x 4 ops x 2 iterations (200,000 and
# 400,000 rows). Two sizes show how memory grows with rows.
# Env: BENCH_ARCHIVE (the bench_archive program).
set -eu
: "${BENCH_ARCHIVE:?set BENCH_ARCHIVE to the bench_archive program}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
echo "== results archive: writer and compare (target: 400,000 rows written in < 1 s)"
for ranks in 5000 10000; do
	"$BENCH_ARCHIVE" "$ranks" "$dir"
done
