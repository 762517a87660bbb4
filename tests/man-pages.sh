#!/bin/bash
# man-pages.sh: the man pages as man(1) renders them (man -l of the built
# pages), and each command's refusal when a required option is missing.
# - every page renders with no warning from groff, and has NAME, SYNOPSIS
#   and DESCRIPTION;
# - pfsbench(1): every command that `pfsbench --help` lists has an entry of
#   its own: a tagged paragraph under COMMANDS, its tag at the left margin
#   of the section's tags after a blank line (issue 29: without its .TP,
#   bonnie's entry ran on inside stream's paragraph), or a section named
#   for it (AB); every workload has its "NAME OPTIONS" section;
# - each command run without what it requires (plot FILE without -o, ...)
#   exits 2 with one line naming what is missing, then the hint to --help.
# Runs no MPI job: the commands here refuse before MPI starts.
. "$(dirname "$0")/lib.sh"
: "${PFSBENCH:?run me from make check}" "${TOP_BUILDDIR:?run me from make check}"
command -v man >/dev/null || skip "no man (Debian: apt-get install man-db)"
t_scratch

for page in "$TOP_BUILDDIR"/docs/*.1; do
	p=$(basename "$page" .1)
	MANWIDTH=80 man --warnings -l "$page" >"$SCRATCH/$p.txt" 2>"$SCRATCH/$p.err"
	check "man -l $p.1: exit 0" test $? -eq 0
	check "man -l $p.1: no warning" test ! -s "$SCRATCH/$p.err"
	[ -s "$SCRATCH/$p.err" ] && sed "s/^/# $p: /" "$SCRATCH/$p.err"
	for h in NAME SYNOPSIS DESCRIPTION; do
		check "man -l $p.1: a $h section" grep -qx "$h" "$SCRATCH/$p.txt"
	done
done

page=$SCRATCH/pfsbench.txt
# The commands --help lists: "  NAME  what it does" under "Commands:".
mapfile -t commands < <("$PFSBENCH" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\)  .*/\1/p')
echo "# commands: ${commands[*]}"
check "pfsbench --help lists 12 commands" test "${#commands[@]}" -eq 12
# COMMANDS' entries: a tag at 7 spaces after a blank line, the heading or a
# subsection's (Pictures).
sed -n '/^COMMANDS$/,/^[A-Z]/p' "$page" | awk '
	/^       [a-z]/ && (prev == "" || prev ~ /^(   )?[A-Z]/) { split($1, w, " "); print w[1] }
	{ prev = $0 }' >"$SCRATCH/tags"
sed 's/^/# tag: /' "$SCRATCH/tags"
for c in "${commands[@]}"; do
	upper=$(tr 'a-z-' 'A-Z-' <<<"$c")
	check "pfsbench(1): $c has an entry of its own" \
		eval "grep -qx -- '$c' '$SCRATCH/tags' || grep -qx -- '$upper' '$page'"
done
for w in create-unlink tree stream matrix bonnie; do
	check "pfsbench(1): $w has its options' section" grep -qx "$(tr 'a-z' 'A-Z' <<<"$w") OPTIONS" "$page"
done

# refuses STATUS MESSAGE ARGS...: pfsbench ARGS exits STATUS, prints
# nothing on stdout and, on stderr, MESSAGE then the hint to --help.
refuses() {
	local status=$1 msg=$2 cmd=$3
	shift 2
	"$PFSBENCH" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
	local rc=$?
	check "pfsbench $*: exit $status" test "$rc" -eq "$status"
	check "pfsbench $*: '$msg', then the hint, nothing else" test "$(cat "$SCRATCH/err")" = \
		"$msg"$'\n'"Try 'pfsbench $cmd --help'."
	check "pfsbench $*: nothing on stdout" test ! -s "$SCRATCH/out"
}
: >"$SCRATCH/x.h5"
refuses 2 "pfsbench plot: give -o/--output DIR" plot "$SCRATCH/x.h5"
refuses 2 "pfsbench report: give -o/--output FILE" report "$SCRATCH/x.h5"
refuses 2 "pfsbench plot: give 1 RUN.h5 or more" plot -o "$SCRATCH/pics"
refuses 2 "pfsbench show: give FILE.h5" show
refuses 2 "pfsbench compare: give 2 FILE.h5 or more" compare "$SCRATCH/x.h5"
refuses 2 "pfsbench export: give one of --csv or --json, and with --json at most --provenance" \
	export "$SCRATCH/x.h5"
refuses 2 "pfsbench clean: give DIR" clean
check "nothing made by the refusals" test ! -e "$SCRATCH/pics"

finish
