#!/bin/bash
# classify-test.sh: tests/fuzz/classify.sh, the rule that decides whether a
# fuzzing finding fails the gate, on reports in AddressSanitizer's own
# format: a listed crash inside HDF5 is named, HDF5's stray read into a
# block of pfsbench's is named only through a call listed for it and only
# as a READ, and a report in pfsbench's code or on its memory is nobody's
# (an empty answer: the gate fails on it).
set -u
: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
classify=$SRCDIR/tests/fuzz/classify.sh
dir=$(mktemp -d "${TMPDIR:-/tmp}/pfsbench-classify.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
passed=0 failed=0

# report KIND ACCESS CRASH-FRAMES -- FREED-FRAMES: a report whose crash
# stack is CRASH-FRAMES (each "function@module", top first, under ASan's
# memcpy interceptor) and whose memory was freed at FREED-FRAMES.
report() {
	local kind=$1 access=$2 i=1 f
	shift 2
	echo "==1234==ERROR: AddressSanitizer: $kind on address 0x606000001234 at pc 0x1 bp 0x2 sp 0x3"
	echo "$access of size 48 at 0x606000001234 thread T0"
	echo "    #0 0x4a1b2c in __asan_memcpy (/build/tests/fuzz/fuzz_archive+0x4a1b2c)"
	while [ "$1" != -- ]; do
		f=$1
		shift
		printf '    #%d 0x7f00%04x in %s (%s+0x%x)\n' "$i" "$i" "${f%@*}" "${f#*@}" "$i"
		i=$((i + 1))
	done
	shift
	echo
	echo "0x606000001234 is located 4 bytes inside of 56-byte region [0x606000001230,0x606000001268)"
	echo "freed by thread T0 here:"
	echo "    #0 0x4a2d3e in free (/build/tests/fuzz/fuzz_archive+0x4a2d3e)"
	i=1
	for f in "$@"; do
		printf '    #%d 0x5f00%04x in %s %s\n' "$i" "$i" "${f%@*}" "${f#*@}"
		i=$((i + 1))
	done
	echo
	echo "SUMMARY: AddressSanitizer: $kind (/usr/lib/x86_64-linux-gnu/hdf5/serial/libhdf5.so.103+0x1) in H5MM_memcpy"
}

# expect WANT WHAT REPORT-ARGS...: classify.sh prints WANT (empty: the
# report is pfsbench's to answer) for that report.
expect() {
	local want=$1 what=$2 got
	shift 2
	report "$@" >"$dir/report"
	got=$(sh "$classify" "$dir/report")
	if [ "$got" = "$want" ]; then
		passed=$((passed + 1))
		echo "ok - $what: '${want}'"
	else
		failed=$((failed + 1))
		echo "not ok - $what: '$got', not '$want'"
		cat "$dir/report"
	fi
}

H=/usr/lib/x86_64-linux-gnu/hdf5/serial/libhdf5.so.103
P=/build/tests/fuzz/fuzz_archive
ours="pfs_analyze@src/analysis/slownode.c:748 pfs_show_analysis@src/commands/show.c:90"

# shellcheck disable=SC2086
expect h5aiterate2-stray-read "a READ by HDF5 under H5Aiterate2 into a block pfs_analyze freed" \
	heap-use-after-free READ H5MM_memcpy@$H H5O__attr_decode@$H H5O__msg_iterate_real@$H \
	H5A__compact_build_table@$H H5Aiterate2@$H read_group_kvs@$P load_file@$P -- $ours
# shellcheck disable=SC2086
expect "" "the same access as a WRITE: it could change pfsbench's memory" \
	heap-use-after-free WRITE H5MM_memcpy@$H H5O__attr_decode@$H H5O__msg_iterate_real@$H \
	H5A__compact_build_table@$H H5Aiterate2@$H read_group_kvs@$P load_file@$P -- $ours
# shellcheck disable=SC2086
expect "" "a READ in HDF5 under pfsbench's callback (read_kv gave HDF5 that memory)" \
	heap-use-after-free READ H5MM_memcpy@$H H5A__read@$H H5Aread@$H read_kv@$P collect_kv@$P \
	H5A__attr_iterate_table@$H H5Aiterate2@$H read_group_kvs@$P -- $ours
# shellcheck disable=SC2086
expect "" "a READ under H5Aiterate2 called from another caller of pfsbench's" \
	heap-use-after-free READ H5MM_memcpy@$H H5A__compact_build_table@$H H5Aiterate2@$H \
	list_attrs@$P -- $ours
# shellcheck disable=SC2086
expect h5attr-decode-uaf "HDF5's use of a block HDF5 freed: listed as before" \
	heap-use-after-free READ H5O__attr_decode@$H H5O__msg_iterate_real@$H \
	H5A__compact_build_table@$H H5Aiterate2@$H read_group_kvs@$P -- H5FL_blk_free@$H H5O__free@$H
# shellcheck disable=SC2086
expect "" "a crash in pfsbench's own code" \
	heap-use-after-free READ pfs_show_report@$P render@$P -- $ours
# shellcheck disable=SC2086
expect unlisted "a crash inside HDF5 on its own memory that no line lists" \
	heap-use-after-free READ H5Z_filter_avail@$H H5Dopen2@$H read_table@$P -- H5FL_blk_free@$H

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
