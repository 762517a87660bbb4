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
# hdf5_own FILE: the report's first stack frame past the sanitizer's own
# is in libhdf5: HDF5 1.10.8's own error on a damaged file that a test
# gives pfsbench on purpose (tests/fuzz/hdf5-crashes.txt lists the kinds;
# pfsbench reads such files in a child, whose end makes them "damaged").
# A leak report may list several leaks: never set aside.
hdf5_own() {
	! grep -q LeakSanitizer "$1" || return 1
	awk '/^ *#[0-9]+ / && !/__interceptor_|libsanitizer|\/libasan|\/libubsan/ {
		exit !(/libhdf5/) } END { }' "$1" && grep -q '^ *#[0-9]' "$1"
}
found=no
for f in "$reports"/*; do
	[ -f "$f" ] || continue
	if hdf5_own "$f"; then
		echo "==== sanitizer report $f: inside HDF5 itself, not counted"
		sed -n '/ERROR: /p;/^ *#[0-9] /p' "$f" | head -8
		continue
	fi
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
