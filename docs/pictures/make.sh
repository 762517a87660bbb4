#!/bin/bash
# make.sh: draws docs/pictures again, as docs/plot.md says they are made:
# runs the `pfsbench plot` commands listed under its "Made with" in a
# scratch directory beside docs/, then copies each file its table names
# to docs/pictures/. tests/plot/plot.sh runs the same commands and checks
# the copies are the files they make.
# Usage: docs/pictures/make.sh [PFSBENCH] (default: src/pfsbench of this tree)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
pfsbench=${1:-$top/src/pfsbench}
doc=$top/docs/plot.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$top/docs" "$work/docs"
awk '/^Made with/ { w = 1 } w && /^```$/ { f++ } w && f == 1 && /^pfsbench plot /' "$doc" |
	while read -r cmd; do
		echo "$cmd"
		(cd "$work" && "$pfsbench" ${cmd#pfsbench } >/dev/null)
	done
sed -n 's/^| `\([a-z0-9-]*\.png\)` | `\([a-z0-9/-]*\.png\)` |$/\1 \2/p' "$doc" |
	while read -r name file; do
		cp "$work/$file" "$top/docs/pictures/$name"
		echo "docs/pictures/$name <- $file"
	done
echo "drawn by $(gnuplot --version): docs/plot.md names the gnuplot that drew them"
