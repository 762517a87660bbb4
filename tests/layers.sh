#!/bin/bash
# layers.sh: the include lines keep to the layers of docs/architecture.md.
# Each file's layer is its folder (src/<layer>/, include/pfsbench/<layer>/);
# an include of a layer above it fails the test, naming both files. Two
# exceptions, the ones the document draws: the reading side (archive,
# analysis, pictures) sits beside the running side (target, engine,
# workloads) and may include the engine's workload.h, a workload's table,
# and nothing else of it. Runs nothing; reads the sources only.
here=$(cd "$(dirname "$0")" && pwd)
top=${SRCDIR:-$here/..}
cd "$top" || exit 1
order=(core target formats plans outputs engine workloads archive analysis pictures commands main)
declare -A rank
for i in "${!order[@]}"; do rank[${order[$i]}]=$i; done
# The running side and the reading side are not above one another.
side() {
	case $1 in target | engine | workloads) echo run ;; archive | analysis | pictures) echo read ;; esac
}
bad=0 n=0
while read -r f; do
	case $f in
	src/main.c) l=main ;;
	include/pfsbench/*/*) l=${f#include/pfsbench/} l=${l%%/*} ;;
	src/*/*) l=${f#src/} l=${l%%/*} ;;
	*) continue ;;
	esac
	[ "$l" = launchers ] && continue
	if [ -z "${rank[$l]:-}" ]; then
		echo "FAIL: $f: folder '$l' is no layer of docs/architecture.md"
		bad=1
		continue
	fi
	while read -r inc; do
		tl=${inc%%/*} th=${inc#*/}
		n=$((n + 1))
		[ "$tl" = "$l" ] && continue
		if [ -z "${rank[$tl]:-}" ]; then
			echo "FAIL: $f includes pfsbench/$inc: no such layer"
			bad=1
		elif [ "$(side "$l")" = read ] && [ "$(side "$tl")" = run ]; then
			[ "$inc" = engine/workload.h ] && continue
			echo "FAIL: $f ($l) includes pfsbench/$inc: the reading side sees only engine/workload.h of the running side"
			bad=1
		elif [ "$(side "$l")" = run ] && [ "$(side "$tl")" = read ]; then
			echo "FAIL: $f ($l) includes pfsbench/$inc: the running side never sees the reading side"
			bad=1
		elif [ "${rank[$tl]}" -gt "${rank[$l]}" ]; then
			echo "FAIL: $f ($l) includes pfsbench/$inc, a layer above it"
			bad=1
		fi
	done < <(sed -n 's|^#include "pfsbench/\([a-z_]*/[a-z_]*\.h\)".*|\1|p' "$f")
done < <(find src include -name '*.[ch]' | sort)
[ "$n" -gt 100 ] || { echo "FAIL: only $n include lines read from $top"; exit 1; }
[ $bad = 0 ] && echo "PASS: $n include lines keep to the layers"
exit $bad
