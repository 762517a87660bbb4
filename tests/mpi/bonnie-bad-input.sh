#!/bin/bash
# pfsbench bonnie refuses bad input before it creates anything: each case
# exits 2, says why on stderr, leaves the target as it was and writes no
# results file.
. "$(dirname "$0")/lib.sh"

refusals_of bonnie

S=(-d "$D" -r 32m)
# The refusals of values, each with its message, are
# tests/unit/test_refusals.c's; here, the whole path of two (one of 2
# ranks) and the refusals that need the filesystem, the users or the ranks.
refused 1 "-s '64x': '64x' is not a size in MiB (suffix m, g or t)" "${S[@]}" -s 64x
refused 2 "-s '64m:300': the chunk size '300' is not a power of two" "${S[@]}" -s 64m:300
refused 1 "cannot use '$D/missing': No such file or directory" -d "$D/missing" -r 32m -s 64m
# A watchdog no longer than --runtime would end every test it cuts.
refused 2 "--phase-timeout 3 would end every step --runtime 5 cuts" "${S[@]}" -s 64m --runtime 5 \
	--phase-timeout 3
if [ "$(id -u)" -eq 0 ]; then
	refused 1 "-u: no user 'pfsbench-no-such-user'" "${S[@]}" -s 64m -u pfsbench-no-such-user
	refused 1 "no group 'pfsbench-no-such-group'" "${S[@]}" -s 64m -g pfsbench-no-such-group
	refused 1 "a group in -u USER:GROUP and in -g: give one" "${S[@]}" -s 64m -u 0:0 -g 0
else
	refused 1 "-u and -g switch the user only when run as root" "${S[@]}" -s 64m -u nobody
fi
# Twice the file of each of 4 ranks does not fit a 64 MiB tmpfs.
if mount -t tmpfs -o size=64m pfsbench-test "$D" 2>/dev/null; then
	T_CLEANUP+=("umount '$D'")
	snapshot "$D"
	refused 4 "this run needs 256 MiB" -d "$D" -s 64m -r 32m -n 1
fi
[ "$T_FAILED" -eq 0 ] || show_run
finish
