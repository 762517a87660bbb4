#!/bin/sh
# check-fuzz.sh replay|explore FUZZER: the fuzz target's two uses
# (docs/fuzzing.md), in the build tree's tests/fuzz/:
#   seeds/         the seeds, made anew each time (tests/fuzz/make-seeds.sh)
#   corpus/        what exploring adds (kept: a later run starts from it)
#   findings/      exploring's reproducers: crash-*, leak-*, timeout-*,
#                  oom-*, each with its sanitizer's report beside it (.txt)
#   findings/hdf5/ those that are crashes inside HDF5 1.10.8 itself, which
#                  pfs_archive_load survives (tests/fuzz/hdf5-crashes.txt)
#   fuzz.log       libFuzzer's output
#
# replay (`make check-fuzz`, the gate): every seed, every input of
# tests/fuzz/known/ and of corpus/, and every finding kept in findings/,
# each read alone by a process of its own, so that the outcome depends on
# the input and on nothing a random search or an earlier input left.
# Fails on a report in pfsbench's code or memory, a leak, an input taking
# more than 60 s or 2 GB: what the tree already knows regressed. A crash
# inside HDF5 that hdf5-crashes.txt lists (tests/fuzz/classify.sh) passes,
# since pfs_archive_load reads each file in a child first.
#
# explore (`make fuzz-explore`): libFuzzer's search for FUZZ_SECONDS
# (default 120) in its fork mode (-fork=1: one fuzzing process at a time,
# restarted after each finding, so that it goes on past HDF5's crashes).
# Each finding is replayed and sorted as above; a new one is reported
# loudly, its reproducer kept in findings/ to be triaged (docs/fuzzing.md
# says how) and added to tests/fuzz/known/, but it does not fail the run:
# what a random search happens to find in two minutes is news, not a
# regression. FUZZ_STRICT=1 makes a new finding in pfsbench fail it.
# A finding whose replay alone shows no report (some of HDF5's crashes
# need what the job read before) is classified by the report its fuzzing
# job kept (FUZZ_REPORTS, tests/fuzz/fuzz_archive.c).
# Prints the executions, their rate and the coverage.
set -u
: "${PFSBENCH:?run me from make check-fuzz}" "${SRCDIR:?run me from make check-fuzz}"
mode=${1:-}
fuzzer=${2:-}
case $mode in
replay | explore) ;;
*) echo "usage: check-fuzz.sh replay|explore FUZZER" >&2; exit 2 ;;
esac
seconds=${FUZZ_SECONDS:-120}
dir=$(dirname "$fuzzer")
log=$dir/fuzz.log
limits="-timeout=10 -rss_limit_mb=2048"
# A replay alone (the gate's, and explore's of each finding) has room for
# a busy machine: the slowest known input takes 3.5 s alone
# (h5gopen-name-heap-endless.h5); an input that hangs still fails it.
# The search keeps its 10 s. Explore once replayed a finding with the
# search's limits, and on a busy CI a listed endless allocation in HDF5
# (h5lvisit-name-heap-endless: 5 s alone, 512 MiB reached) hit 10 s first
# and was reported as a new finding in pfsbench (a time-out).
replay_limits="-timeout=60 -rss_limit_mb=2048"
[ "$mode" = replay ] && limits=$replay_limits
# Leaks HDF5 makes by itself are left out (tests/fuzz/lsan.supp); an
# allocation too large returns NULL, as it does without ASan.
export ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$SRCDIR/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

count() { find "$1" -type f ! -name '*.txt' ! -name '.*' 2>/dev/null | wc -l; }

make_seeds() {
	rm -rf "$dir/seeds"
	echo "fuzz: making the seeds from real runs (tests/fuzz/make-seeds.sh)"
	sh "$SRCDIR/tests/fuzz/make-seeds.sh" "$dir/seeds" || { echo "FAIL: fuzz: the seeds could not be made"; exit 1; }
	mkdir -p "$dir/corpus" "$dir/findings/hdf5"
}

# sort_one FILE REPORT [JOBREPORT]: what REPORT (FILE's replay alone) says,
# one word: "clean", "hdf5:NAME" (listed in hdf5-crashes.txt), "unlisted"
# (inside HDF5, not listed yet) or "pfsbench" (anything else: a report in
# pfsbench's code or memory, a leak, a time-out, running out of memory).
# A replay that shows no report but whose fuzzing job kept one (JOBREPORT)
# is sorted by the job's report, appended to REPORT; but "slow" when that
# report is the search's time-out (10 s), which the replay's 60 s did not
# reach: a busy machine's, not the input's.
sort_one() {
	name=$(sh "$SRCDIR/tests/fuzz/classify.sh" "$2")
	if [ -z "$name" ] && ! grep -Eq 'ERROR: |runtime error|SUMMARY: ' "$2"; then
		[ -n "${3:-}" ] || { echo clean; return; }
		{
			echo "(the replay alone showed no report; the report of the job that found it:)"
			cat "$3"
		} >>"$2"
		grep -q 'ERROR: libFuzzer: timeout' "$3" && { echo slow; return; }
		name=$(sh "$SRCDIR/tests/fuzz/classify.sh" "$3")
	fi
	case $name in
	"") echo pfsbench ;;
	unlisted) echo unlisted ;;
	*) echo "hdf5:$name" ;;
	esac
}

show_report() {
	sed -n '/^==[0-9]*==ERROR\|runtime error\|ERROR: libFuzzer\|ERROR: fuzzarchive/,/^SUMMARY/p' "$1" | head -n 60
}

if [ "$mode" = replay ]; then
	make_seeds
	work=$(mktemp -d) || exit 1
	trap 'rm -rf "$work"' EXIT
	n=0 clean=0 hdf5=0 failed=0
	for f in "$dir"/seeds/* "$SRCDIR"/tests/fuzz/known/* "$dir"/corpus/* "$dir"/findings/* \
		"$dir"/findings/hdf5/*; do
		[ -f "$f" ] || continue
		case $f in *.txt | */.*) continue ;; esac
		n=$((n + 1))
		# shellcheck disable=SC2086
		timeout -k 10 180 "$fuzzer" $limits "$f" >"$work/report" 2>&1
		what=$(sort_one "$f" "$work/report")
		case $what in
		clean) clean=$((clean + 1)) ;;
		hdf5:*) hdf5=$((hdf5 + 1)) ;;
		unlisted)
			# survived like the listed ones; listing it is its triage
			hdf5=$((hdf5 + 1))
			echo "fuzz: $f: a crash inside HDF5 not listed in tests/fuzz/hdf5-crashes.txt yet (list it)"
			;;
		*)
			failed=$((failed + 1))
			echo "==== fuzz: $f (replay: $fuzzer $f):"
			show_report "$work/report"
			echo "----"
			;;
		esac
	done
	echo "fuzz: replayed $n inputs, each alone: $clean read clean, $hdf5 crashed inside HDF5" \
		"(which the reader's child survives), $failed failed"
	if [ "$n" -eq 0 ] || [ "$failed" -ne 0 ]; then
		echo "FAIL: fuzz: replay of the known inputs (docs/fuzzing.md says what to do with one)"
		exit 1
	fi
	echo "PASS: fuzz: every known input replays as it should"
	exit 0
fi

# ---- explore ------------------------------------------------------------------
[ -d "$dir/seeds" ] && [ "$(count "$dir/seeds")" -gt 0 ] || make_seeds
mkdir -p "$dir/corpus" "$dir/findings/hdf5"
# The ASan reports of this run's fuzzing jobs, each with its input
# (<pid>.in, <pid>.txt; tests/fuzz/fuzz_archive.c): for a finding whose
# replay alone shows nothing.
reports=$dir/findings/reports
rm -rf "$reports" && mkdir -p "$reports"
# Findings of earlier runs stay; this run's are those newer than this.
: >"$dir/findings/.start"
echo "fuzz: $(count "$dir/seeds") seeds ($(du -sk "$dir/seeds" | cut -f1) KiB)," \
	"$(count "$dir/corpus") inputs in corpus/; exploring with $fuzzer for $seconds s"
# -close_fd_mask=3: the readers' own one-line refusals would be most of
# the log; libFuzzer and the sanitizers still report on their own copy of
# stderr. -max_len: above every seed (at most about 60 KiB).
# Bounded from outside too: libFuzzer's fork mode waits for its job
# without a limit, and a job that never ends would hold the run for good
# (stop 40's CI hung with this search the one part not ended). A search
# stopped so says it; what it found until then is sorted as usual.
bound=$((seconds * 3 + 120))
# shellcheck disable=SC2086
FUZZ_REPORTS=$reports timeout -k 30 "$bound" "$fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	-max_total_time="$seconds" $limits -max_len=131072 -close_fd_mask=3 \
	-artifact_prefix="$dir/findings/" \
	"$dir/corpus" "$dir/seeds" "$SRCDIR/tests/fuzz/known" >"$log" 2>&1
rc=$?
stopped=false
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	stopped=true
	echo "fuzz: NEW: the search had not ended $bound s after it began and was stopped" \
		"(a fuzzing job that never ended, or a machine too busy for it; $log)"
fi

# The last status line: "#N: cov: C ft: F corp: K exec/s E
# oom/timeout/crash: O/T/X time: Ss job: J dft_time: 0".
status=$(grep -E '^#[0-9]+: cov:' "$log" | tail -n 1)
if [ -z "$status" ] && $stopped && grep -q '^INFO: -fork=' "$log"; then
	# Stopped before its first job: fork mode first reads every input in
	# one job of its own (18 s alone here), and in stop 56's CI the search,
	# at nice 10 beside four busy lanes on 2 cores, was still doing that
	# 480 s later. libFuzzer ran; the search had no time to find anything,
	# which is news like any other and not a failure of this run. An input
	# that never ends is the gate's to fail: it replays each alone, bounded.
	echo "fuzz: NEW: stopped while it read its inputs, before its first job: no search this time"
	[ "${FUZZ_STRICT:-0}" = 1 ] && { echo "FAIL: fuzz: FUZZ_STRICT=1 and the search did not run"; exit 1; }
	exit 0
fi
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

# known_copy FILE: the name of the input of tests/fuzz/known/ that FILE is,
# byte for byte; fails when it is none.
known_copy() {
	for k in "$SRCDIR"/tests/fuzz/known/*; do
		[ -f "$k" ] && cmp -s "$k" "$1" && { basename "$k"; return 0; }
	done
	return 1
}

# Each finding of this run, replayed for its report and sorted. The search
# runs tests/fuzz/known/'s inputs too, and writes each that crashes or
# takes more than its 10 s back as a finding: that is no news (its triage
# is done, and the gate replays it with its own limits), and a busy machine
# once made a known endless allocation inside HDF5 time out even in the
# 60-s replay (h5lvisit-name-heap-endless.h5, in two CI runs), called new.
known=0 unlisted=0 new=0 again=0 unshown=0
find "$dir/findings" -maxdepth 1 -type f -newer "$dir/findings/.start" ! -name '*.txt' ! -name '.*' \
	>"$dir/findings/.new"
while read -r f; do
	if same=$(known_copy "$f"); then
		rm -f "$f"
		again=$((again + 1))
		echo "fuzz: tests/fuzz/known/$same again (the gate replays it)"
		continue
	fi
	# shellcheck disable=SC2086
	timeout -k 10 120 "$fuzzer" $replay_limits "$f" >"$f.txt" 2>&1
	job=
	for r in "$reports"/*.in; do
		[ -f "$r" ] && cmp -s "$r" "$f" && { job=${r%.in}.txt; break; }
	done
	what=$(sort_one "$f" "$f.txt" "$job")
	case $what in
	unlisted)
		mv "$f" "$f.txt" "$dir/findings/hdf5/"
		unlisted=$((unlisted + 1))
		echo "fuzz: NEW inside HDF5, not in tests/fuzz/hdf5-crashes.txt yet (list it):" \
			"findings/hdf5/$(basename "$f").txt"
		;;
	hdf5:*)
		mv "$f" "$f.txt" "$dir/findings/hdf5/"
		known=$((known + 1))
		echo "fuzz: inside HDF5 (${what#hdf5:}; the reader's child survives it): findings/hdf5/$(basename "$f")"
		;;
	clean | slow)
		# Kept for a look (the gate replays findings/ too), not news.
		unshown=$((unshown + 1))
		echo "fuzz: $f: its replay alone (60 s) shows nothing$([ "$what" = slow ] &&
			echo "; the search timed out on it (10 s): a busy machine"); kept, not counted"
		;;
	*)
		new=$((new + 1))
		echo "==== fuzz: NEW FINDING $f (replay: $fuzzer $f); its report, $f.txt:"
		show_report "$f.txt"
		echo "---- kept in $f: triage it (docs/fuzzing.md), then add it to tests/fuzz/known/"
		;;
	esac
done <"$dir/findings/.new"
rm -rf "$reports"
echo "fuzz: $again findings were inputs of tests/fuzz/known/ again, not news;" \
	"$unshown not shown by their replay alone"
echo "fuzz: findings inside HDF5 1.10.8 itself: $known listed in tests/fuzz/hdf5-crashes.txt," \
	"$unlisted not yet; $new in pfsbench"
if [ "$new" -ne 0 ]; then
	echo "fuzz: NEW: $new findings in pfsbench in $elapsed s, kept in $dir/findings/ (not a failure of this run)"
	[ "${FUZZ_STRICT:-0}" = 1 ] && { echo "FAIL: fuzz: FUZZ_STRICT=1 and new findings"; exit 1; }
	exit 0
fi
echo "PASS: fuzz: no new finding in pfsbench in $elapsed s"
