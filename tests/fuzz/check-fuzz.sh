#!/bin/sh
# check-fuzz.sh FUZZER: what `make check-fuzz` runs after building the
# fuzz target (docs/fuzzing.md). Makes the seeds (tests/fuzz/make-seeds.sh)
# and runs FUZZER on them for FUZZ_SECONDS (default 120), in the build
# tree's tests/fuzz/:
#   seeds/         the seeds, made anew each time
#   corpus/        what libFuzzer adds (kept: a later run starts from it)
#   findings/      the reproducers: crash-*, leak-*, timeout-*, oom-*, each
#                  with its sanitizer's report beside it (.txt)
#   findings/hdf5/ those that are crashes inside HDF5 1.10.8 itself, which
#                  pfs_archive_load survives (tests/fuzz/hdf5-crashes.txt)
#   fuzz.log       libFuzzer's output
# libFuzzer runs in its fork mode (-fork=1: one fuzzing process at a time,
# restarted after each finding), so that it goes on past crashes inside
# HDF5. Those (tests/fuzz/classify.sh: the crash and the memory it names
# both inside libhdf5) do not fail the run, since pfs_archive_load reads
# each file in a child first; one not yet listed in hdf5-crashes.txt is
# named, to be listed. A finding whose replay alone shows no report (some
# of HDF5's crashes need what the job read before) is classified by the
# report its fuzzing job kept (FUZZ_REPORTS, tests/fuzz/fuzz_archive.c).
# Fails on any other finding: a crash or sanitizer's
# report in pfsbench's code or memory, a leak, an input taking more than
# 10 s or 2 GB.
# Prints the executions, their rate and the coverage either way.
set -u
: "${PFSBENCH:?run me from make check-fuzz}" "${SRCDIR:?run me from make check-fuzz}"
fuzzer=$1
seconds=${FUZZ_SECONDS:-120}
dir=$(dirname "$fuzzer")
log=$dir/fuzz.log
limits="-timeout=10 -rss_limit_mb=2048"

rm -rf "$dir/seeds"
echo "fuzz: making the seeds from real runs (tests/fuzz/make-seeds.sh)"
sh "$SRCDIR/tests/fuzz/make-seeds.sh" "$dir/seeds" || { echo "FAIL: fuzz: the seeds could not be made"; exit 1; }
mkdir -p "$dir/corpus" "$dir/findings/hdf5"
# The ASan reports of this run's fuzzing jobs, each with its input
# (<pid>.in, <pid>.txt; tests/fuzz/fuzz_archive.c): for a finding whose
# replay alone shows nothing.
reports=$dir/findings/reports
rm -rf "$reports" && mkdir -p "$reports"
# Findings of earlier runs stay; this run's are those newer than this.
: >"$dir/findings/.start"
count() { find "$1" -type f | wc -l; }
echo "fuzz: $(count "$dir/seeds") seeds ($(du -sk "$dir/seeds" | cut -f1) KiB)," \
	"$(count "$dir/corpus") inputs in corpus/; running $fuzzer for $seconds s"
# Leaks HDF5 makes by itself are left out (tests/fuzz/lsan.supp); an
# allocation too large returns NULL, as it does without ASan.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$SRCDIR/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# -close_fd_mask=3: the readers' own one-line refusals would be most of
# the log; libFuzzer and the sanitizers still report on their own copy of
# stderr. -max_len: above every seed (at most about 60 KiB).
# tests/fuzz/known: the inputs of docs/fuzzing.md's findings, replayed too.
# shellcheck disable=SC2086
FUZZ_REPORTS=$reports "$fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	-max_total_time="$seconds" $limits -max_len=131072 -close_fd_mask=3 \
	-artifact_prefix="$dir/findings/" \
	"$dir/corpus" "$dir/seeds" "$SRCDIR/tests/fuzz/known" >"$log" 2>&1

# The last status line: "#N: cov: C ft: F corp: K exec/s E
# oom/timeout/crash: O/T/X time: Ss job: J dft_time: 0".
status=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1)
if [ -z "$status" ]; then
	tail -n 20 "$log"
	echo "FAIL: fuzz: libFuzzer did not run (its output: $log)"
	exit 1
fi
field() { echo "$status" | sed -n "s/.* $1:* \([0-9/]*\).*/\1/p"; }
execs=$(echo "$status" | sed 's/^#\([0-9]*\):.*/\1/')
elapsed=$(echo "$status" | sed -n 's/.* time: \([0-9]*\)s.*/\1/p')
echo "fuzz: $execs executions in ${elapsed} s ($((execs / (elapsed > 0 ? elapsed : 1)))/s)," \
	"coverage: cov $(field cov) (edges), ft $(field ft) (features); corpus $(field corp) inputs"

# Each finding of this run, replayed for its report and sorted.
known=0 unlisted=0 failed=0
find "$dir/findings" -maxdepth 1 -type f -newer "$dir/findings/.start" ! -name '*.txt' ! -name '.*' \
	>"$dir/findings/.new"
while read -r f; do
	# shellcheck disable=SC2086
	"$fuzzer" $limits "$f" >"$f.txt" 2>&1
	name=$(sh "$SRCDIR/tests/fuzz/classify.sh" "$f.txt")
	# Some of HDF5's crashes need what the job read before: when the
	# replay shows no report at all, the report its job kept decides.
	if [ -z "$name" ] && ! grep -Eq 'ERROR: |runtime error' "$f.txt"; then
		for r in "$reports"/*.in; do
			if ! [ -f "$r" ] || ! cmp -s "$r" "$f"; then
				continue
			fi
			{
				echo "(the replay alone showed no report; the report of the job that found it:)"
				cat "${r%.in}.txt"
			} >>"$f.txt"
			name=$(sh "$SRCDIR/tests/fuzz/classify.sh" "${r%.in}.txt")
			break
		done
	fi
	if [ "$name" = unlisted ]; then
		mv "$f" "$f.txt" "$dir/findings/hdf5/"
		unlisted=$((unlisted + 1))
		echo "fuzz: NEW inside HDF5, not in tests/fuzz/hdf5-crashes.txt yet (list it):" \
			"findings/hdf5/$(basename "$f").txt"
	elif [ -n "$name" ]; then
		mv "$f" "$f.txt" "$dir/findings/hdf5/"
		known=$((known + 1))
		echo "fuzz: inside HDF5 ($name; the reader's child survives it): findings/hdf5/$(basename "$f")"
	else
		failed=$((failed + 1))
		echo "==== fuzz: finding $f (run: $fuzzer $f); its report, $f.txt:"
		sed -n '/^==[0-9]*==ERROR\|runtime error\|ERROR: libFuzzer/,/^SUMMARY/p' "$f.txt" | head -n 60
		echo "----"
	fi
done <"$dir/findings/.new"
rm -rf "$reports"
echo "fuzz: findings inside HDF5 1.10.8 itself: $known listed in tests/fuzz/hdf5-crashes.txt," \
	"$unlisted not yet; $failed in pfsbench"
if [ "$failed" -ne 0 ]; then
	echo "FAIL: fuzz: $failed findings (docs/fuzzing.md says what to do with one)"
	exit 1
fi
echo "PASS: fuzz: no finding in pfsbench in $elapsed s"
