# shellcheck shell=bash
# lib.sh - the common start of the package tests (sourced, owns nothing):
# tests/mpi/lib.sh's checks and scratch directory, tests/cluster/lib.sh's
# skips and locks, and
#   distdir DIR   the tree's distribution copy (what the release tarball
#                 holds, make distdir) in DIR, or the test ends failed
. "$(dirname "${BASH_SOURCE[0]}")/../mpi/lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../cluster/lib.sh"

: "${PACKAGE_VERSION:?PACKAGE_VERSION must be the version configure set}"
: "${TOP_BUILDDIR:?TOP_BUILDDIR must be the configured build tree}"

distdir() {
	# (from inside make check: the outer make's flags and jobserver are
	# not this make's)
	if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP_BUILDDIR" distdir distdir="$1" \
		>"$SCRATCH/distdir.log" 2>&1; then
		cat "$SCRATCH/distdir.log"
		not_ok "make distdir"
		finish
	fi
}
