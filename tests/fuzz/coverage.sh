#!/bin/sh
# coverage.sh FUZZER_COV: what `make fuzz-coverage` runs (docs/fuzzing.md).
# Runs the coverage build of the fuzz target once on each input of
# tests/fuzz/corpus, seeds and known (one process per input, so that one
# HDF5 kills loses only its own), merges the profiles and prints llvm-cov's
# line and branch figures for the readers' files.
set -u
: "${SRCDIR:?run me from make fuzz-coverage}"
fuzzer=$1
dir=$(dirname "$fuzzer")
prof=$dir/cov-prof
llvm() { for v in "$1" "$1-14"; do command -v "$v" >/dev/null 2>&1 && { echo "$v"; return; }; done; }
profdata=$(llvm llvm-profdata) cov=$(llvm llvm-cov)
if [ -z "$profdata" ] || [ -z "$cov" ]; then
	echo "SKIP: fuzz-coverage: llvm-profdata or llvm-cov missing (Debian's llvm-14)"
	exit 0
fi
rm -rf "$prof" && mkdir -p "$prof"
n=0 died=0
find "$dir/corpus" "$dir/seeds" "$SRCDIR/tests/fuzz/known" -type f >"$prof/inputs" 2>/dev/null
while read -r f; do
	n=$((n + 1))
	LLVM_PROFILE_FILE="$prof/%p.profraw" "$fuzzer" -close_fd_mask=3 "$f" >/dev/null 2>&1 || died=$((died + 1))
done <"$prof/inputs"
echo "fuzz-coverage: $n inputs, $died of them died (their coverage is lost)"
"$profdata" merge -sparse -o "$prof/all.profdata" "$prof"/*.profraw || exit 1
"$cov" report "$fuzzer" -instr-profile="$prof/all.profdata" \
	"$SRCDIR/src/archive/archive_hdf5.c" "$SRCDIR/src/archive/archive.c" "$SRCDIR/src/core/h5common.c" \
	"$SRCDIR/src/commands/show.c" "$SRCDIR/src/commands/export.c" "$SRCDIR/src/analysis/compare.c" \
	"$SRCDIR/src/commands/compare_report.c" "$SRCDIR/src/analysis/slownode.c" "$SRCDIR/src/analysis/latency.c" \
	"$SRCDIR/src/pictures/pictures.c" "$SRCDIR/src/pictures/plotdata.c"
