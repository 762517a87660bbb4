#!/bin/sh
# classify.sh REPORT: whether the sanitizer's report in the file REPORT is
# of a crash inside HDF5 itself: its top frame (past the sanitizer's own)
# in libhdf5, and the memory it names, if any, allocated there too (or,
# for a line of KIND/stray-read, a read by HDF5 of memory of pfsbench's
# through a pointer pfsbench never gave it). Prints
# the name of the line of tests/fuzz/hdf5-crashes.txt it matches, or
# "unlisted" for another such crash; nothing for any other report.
report=$1
list=$(dirname "$0")/hdf5-crashes.txt
# stack_after PATTERN: the first stack after the line matching PATTERN,
# without the sanitizer's own frames (its interceptors of memcpy & co.) and
# glibc's memcpy, which HDF5 calls directly where its own copies inline,
# and the fuzz target's allocation hook (the stack of an endless allocation
# is unwound from inside it).
stack_after() {
	awk -v pat="$1" '
		!seen && $0 ~ pat { seen = 1; next }
		seen && /^ +#[0-9]+ / { on = 1; print; next }
		on { exit }' "$report" |
		grep -v '__interceptor_\|Interceptor\|__asan\|__sanitizer\|fuzzer::\| in fuzz_heap_hook \| in \(memmove\|memcpy\|memset\|malloc\|calloc\|realloc\|free\|strdup\) \| in __mem[a-z_0-9]* string/'
}
stack=$(stack_after 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer: out-of-memory \(malloc|fuzzarchive: endless-allocation)')
echo "$stack" | head -n 1 | grep -q 'libhdf5' || exit 0
# The memory it names, if any: allocated (or freed) inside HDF5 as well,
# except for a stray read (below).
owner=$(stack_after '(allocated|freed) by thread' | head -n 1)
foreign=no
[ -z "$owner" ] || echo "$owner" | grep -q 'libhdf5' || foreign=yes
names=$(echo "$stack" | sed -n 's/^ *#[0-9]* 0x[0-9a-f]* in \([^ ]*\) .*/\1/p' | tr '\n' ' ')
# stray_read CALL CALLER: a READ whose frames are all inside libhdf5 up to
# CALL, the HDF5 function that pfsbench's CALLER called, next in the stack:
# HDF5 read through a pointer of its own (the list names only calls that
# give HDF5 no memory of pfsbench's to read), past its buffer into a
# neighbouring block that happens to be pfsbench's. Such a read neither
# changes pfsbench's memory nor comes from its code.
stray_read() {
	grep -q 'READ of size' "$report" || return 1
	echo "$stack" | awk -v call="$1" -v caller="$2" '
		at { found = ($0 ~ (" in " caller " ")); exit }
		$0 ~ (" in " call " ") { at = 1; next }
		!/libhdf5/ { exit }
		END { exit !found }'
}
match=$(grep -v '^#' "$list" | while read -r name kind frames; do
	[ -n "$name" ] || continue
	case $kind in
	*/stray-read)
		kind=${kind%/stray-read}
		# shellcheck disable=SC2046
		stray_read $(echo "$frames" | awk '{ print $(NF - 1), $NF }') || continue
		;;
	*) [ "$foreign" = no ] || continue ;;
	esac
	grep -q "ERROR: [A-Za-z]*: $kind" "$report" || continue
	pattern=" $(echo "$frames" | sed 's/ / (.* )?/g') "
	if echo " $names" | grep -qE -- "$pattern"; then
		echo "$name"
		break
	fi
done)
# A report on memory of pfsbench's that no stray-read line explains is
# pfsbench's to answer.
[ -n "$match" ] || [ "$foreign" = no ] || exit 0
echo "${match:-unlisted}"
