#!/bin/sh
# find-cc.sh [CC]: prints the clang that builds the fuzz target, or says on
# stderr why there is none and exits 1. CC is make's FUZZ_CC (default
# clang, then Debian 12's clang-14). libFuzzer is clang's runtime, in
# Debian's libclang-rt-14-dev, which clang-14 only recommends: a clang
# without it compiles but cannot link -fsanitize=fuzzer.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
	>"$tmp/probe.c"
found=
for cc in ${1:-clang clang-14}; do
	command -v "$cc" >/dev/null 2>&1 || continue
	found=$cc
	if "$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" >"$tmp/err" 2>&1; then
		echo "$cc"
		exit 0
	fi
done
if [ -z "$found" ]; then
	echo "SKIP: check-fuzz: no clang (${1:-clang clang-14}): install Debian's clang-14 and libclang-rt-14-dev" >&2
else
	echo "SKIP: check-fuzz: $found cannot link -fsanitize=fuzzer,address,undefined: install Debian's libclang-rt-14-dev ($(head -n 1 "$tmp/err"))" >&2
fi
exit 1
