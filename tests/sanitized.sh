#!/bin/sh
# sanitized.sh COMMAND...: runs one test of a sanitizer build
# (./configure --enable-sanitizers); Makefile.am makes it the LOG_COMPILER
# of every test there. AddressSanitizer and LeakSanitizer write their
# reports to files of their own (log_path) rather than to stderr, so that a
# test that reads a program's stderr sees what it would see without them,
# and every process the test starts (each rank under mpirun, a failure on
# purpose, a run a test kills) writes there too. Any report fails the test,
# whatever the test itself concluded, and is copied to its log.
# UBSan, linked beside ASan, ignores log_path: it prints on stderr and ends
# the program with exit status 86 (UBSAN_OPTIONS), which fails the test.
# ASAN_OPTIONS, LSAN_OPTIONS and UBSAN_OPTIONS come from the test
# environment (AM_TESTS_ENVIRONMENT).
reports=$(mktemp -d "${TMPDIR:-/tmp}/pfsbench-sanitized.XXXXXX") || exit 99
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$reports/asan"
export ASAN_OPTIONS
"$@"
rc=$?
found=no
for f in "$reports"/*; do
	[ -f "$f" ] || continue
	found=yes
	echo "==== sanitizer report $f"
	cat "$f"
done
rm -rf "$reports"
if [ "$found" = yes ]; then
	echo "sanitized.sh: the sanitizers reported the errors above (test's own exit status $rc)"
	exit 1
fi
exit "$rc"
