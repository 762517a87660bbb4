#!/bin/bash
# deb.sh - the Debian package as a site gets it (docs/packaging.md):
# dpkg-buildpackage builds pfsbench_*.deb from the tree's distribution
# copy (make distdir: what the release tarball holds, debian/ included);
# apt-get installs it with its dependencies; the installed pfsbench runs a
# small create-unlink under mpirun and shows its results file, the dm
# launcher runs the installed pfsbench, every man page opens; then
# apt-get purge leaves none of the package's files.
# Root only (apt-get, dpkg); make check-package runs it. It puts
# /usr/bin/pfsbench, dm, perf_matrix and create_unlink_perf on the machine
# for a few seconds: the other tests run the build tree's binaries by
# path ($PFSBENCH, $DM, ...), never these, and the package is purged at
# exit whatever happened. One such test at a time on a machine (a lock),
# and none where a pfsbench package or those commands are there already.
. "$(dirname "$0")/lib.sh"

pfs_need_root "installing a Debian package"
command -v apt-get >/dev/null || pfs_skip "no apt-get: not a Debian system"
need_pkg dpkg-dev debhelper
if ! command -v dpkg-buildpackage >/dev/null || ! command -v dh >/dev/null; then
	pfs_skip "dpkg-buildpackage or dh is missing although dpkg-dev and debhelper are installed"
fi
fs_lock package

CMDS=(pfsbench create_unlink_perf dm perf_matrix)
if dpkg-query -W -f='${Status}' pfsbench 2>/dev/null | grep -q 'ok installed'; then
	pfs_skip "a pfsbench package is installed already; this test would replace and purge it"
fi
for c in "${CMDS[@]}"; do
	[ ! -e "/usr/bin/$c" ] || pfs_skip "/usr/bin/$c exists and no pfsbench package owns it; the package would overwrite it"
done

# CPU seconds of this shell's waited-for children, for the closing figures.
TICK=$(getconf CLK_TCK)
child_cpu() { awk -v t="$TICK" '{ printf "%.1f", ($16 + $17) / t }' /proc/$$/stat; }
figure() { echo "# $1: $(($3 - $2)) s wall, $(awk -v a="$4" -v b="$5" 'BEGIN { printf "%.1f", b - a }') s CPU"; }

# ---- build ----------------------------------------------------------------
SRC=$SCRATCH/pfsbench-$PACKAGE_VERSION
t0=$SECONDS c0=$(child_cpu)
distdir "$SRC"
check "the distribution holds debian/" test -x "$SRC/debian/rules" -a -f "$SRC/debian/control"
# At a low priority: CI runs this beside the other lanes.
(cd "$SRC" && nice dpkg-buildpackage -us -uc -b) >"$SCRATCH/build.log" 2>&1
rc=$?
t1=$SECONDS c1=$(child_cpu)
figure "make distdir and dpkg-buildpackage" "$t0" "$t1" "$c0" "$c1"
deb=$(ls "$SCRATCH"/pfsbench_"$PACKAGE_VERSION"_*.deb 2>/dev/null)
if [ "$rc" -ne 0 ] || [ -z "$deb" ]; then
	tail -n 40 "$SCRATCH/build.log"
	not_ok "dpkg-buildpackage -us -uc -b builds pfsbench_${PACKAGE_VERSION}_*.deb (exit $rc)"
	finish
fi
ok "dpkg-buildpackage -us -uc -b builds $(basename "$deb")"
check "the package build ran no tests (override_dh_auto_test)" \
	eval "! grep -qE '^(PASS|FAIL|SKIP|ERROR): |Testsuite summary' '$SCRATCH/build.log'"
deps=$(dpkg-deb -f "$deb" Depends)
for d in libopenmpi3 libhdf5 openmpi-bin; do
	check "Depends names $d (from \${shlibs:Depends} or control)" grep -q "$d" <<<"$deps"
done

# ---- install -----------------------------------------------------------------
# Purged at exit, whatever happens from here on (dpkg's own purge if apt
# cannot).
T_CLEANUP+=("purge_package")
purge_package() {
	dpkg-query -W -f='${Status}' pfsbench 2>/dev/null | grep -q 'ok installed' || return 0
	apt-get purge -y -q -o DPkg::Lock::Timeout=300 pfsbench >>"$SCRATCH/apt.log" 2>&1 ||
		dpkg --purge pfsbench >>"$SCRATCH/apt.log" 2>&1
}
export DEBIAN_FRONTEND=noninteractive
# (a lock timeout: another test may be installing its packages)
t0=$SECONDS c0=$(child_cpu)
if (cd "$SCRATCH" && apt-get install -y -q -o DPkg::Lock::Timeout=300 "./$(basename "$deb")") >"$SCRATCH/apt.log" 2>&1; then
	ok "apt-get install ./$(basename "$deb")"
else
	tail -n 20 "$SCRATCH/apt.log"
	not_ok "apt-get install ./$(basename "$deb")"
	finish
fi
dpkg-query -L pfsbench >"$SCRATCH/files"
for c in "${CMDS[@]}"; do
	check "the package installs /usr/bin/$c, executable" test -x "/usr/bin/$c"
	check "the package lists /usr/bin/$c" grep -qx "/usr/bin/$c" "$SCRATCH/files"
done
check "the installed pfsbench finds all its libraries" eval '! ldd /usr/bin/pfsbench | grep -q "not found"'

# ---- run -------------------------------------------------------------------
D=$SCRATCH/target
mkdir "$D"
h5=$SCRATCH/installed.h5
(cd "$SCRATCH" && timeout 300 "$MPIRUN" --oversubscribe -np 2 /usr/bin/pfsbench create-unlink \
	-m "$D" -f 40 -F 3 -s 16k --results "$h5") >"$SCRATCH/run.out" 2>"$SCRATCH/run.err"
rc=$?
if [ "$rc" -eq 0 ]; then ok "mpirun -np 2 /usr/bin/pfsbench create-unlink: exit 0"; else
	not_ok "mpirun -np 2 /usr/bin/pfsbench create-unlink: exit $rc"
	cat "$SCRATCH/run.out" "$SCRATCH/run.err"
fi
check "the run's report has its 2 workers" grep -qx "Testing with 1 nodes, 2 workers per node: " "$SCRATCH/run.out"
check "the run ends with Done." test "$(tail -n 1 "$SCRATCH/run.out")" = "Done."
check "the run wrote its results file" test -s "$h5"
check "the run left nothing in its directory" test -z "$(ls -A "$D")"
/usr/bin/pfsbench show "$h5" >"$SCRATCH/show.out" 2>"$SCRATCH/show.err"
check "/usr/bin/pfsbench show reads the results file" test $? -eq 0 -a -s "$SCRATCH/show.out"
check "show prints the run's report: its directory and 2 workers" \
	eval "grep -qE ' mount point: $D\$' '$SCRATCH/show.out' && grep -qx 'Testing with 1 nodes, 2 workers per node: ' '$SCRATCH/show.out'"
# The launcher with its installed default (no PFSBENCH, which make check
# sets to the build tree's binary): 1 MiB written in 64 KiB requests.
mkdir "$SCRATCH/dm"
(cd "$SCRATCH" && env -u PFSBENCH timeout 300 /usr/bin/dm -b 64k -s 1M -o "$SCRATCH/dm") \
	>"$SCRATCH/dm.out" 2>"$SCRATCH/dm.err"
check "the installed dm runs the installed pfsbench (exit 0)" test $? -eq 0
check "dm's run wrote 1048576 bytes and ended with Done." \
	eval "grep -qE ' Write +[0-9]+ +16 +1048576 ' '$SCRATCH/dm.out' && [ \"\$(tail -n 1 '$SCRATCH/dm.out')\" = Done. ]"

# ---- manuals and documentation -------------------------------------------------
for c in "${CMDS[@]}"; do
	page=$(grep -E "^/usr/share/man/man1/$c\.1(\.gz)?\$" "$SCRATCH/files")
	check "the package installs $c(1)" test -n "$page"
	[ -n "$page" ] || continue
	check "man -l opens $c(1)" eval "MANWIDTH=80 man -l '$page' 2>/dev/null | grep -q '^NAME'"
	check "man $c opens the installed page" eval "[ \"\$(man -w $c 2>/dev/null)\" = '$page' ]"
done
for f in $(zcat -f /usr/share/man/man1/*.1* 2>/dev/null | grep -oE '/usr/share/doc/pfsbench/[A-Za-z0-9_.-]+\.md' | sort -u); do
	check "the document the man pages name is there: $f" test -f "$f"
done
t1=$SECONDS c1=$(child_cpu)
figure "install, runs and pages" "$t0" "$t1" "$c0" "$c1"

# ---- purge -------------------------------------------------------------------
t0=$SECONDS c0=$(child_cpu)
apt-get purge -y -q -o DPkg::Lock::Timeout=300 pfsbench >>"$SCRATCH/apt.log" 2>&1
check "apt-get purge -y pfsbench" test $? -eq 0
check "dpkg no longer knows pfsbench" eval "! dpkg-query -W -f='\${Status}' pfsbench 2>/dev/null | grep -q installed"
# What the package listed and is still there may only be a directory that
# another package owns too (/usr/bin, /usr/share/man/man1, ...).
left=()
while read -r f; do
	[ "$f" = /. ] && continue # dpkg's name for the root
	{ [ -e "$f" ] || [ -L "$f" ]; } || continue
	[ -d "$f" ] && [ ! -L "$f" ] && dpkg-query -S "$f" >/dev/null 2>&1 && continue
	left+=("$f")
done <"$SCRATCH/files"
check "nothing of the package's $(wc -l <"$SCRATCH/files") paths is left (${left[*]:-none})" test ${#left[@]} -eq 0
t1=$SECONDS c1=$(child_cpu)
figure "purge" "$t0" "$t1" "$c0" "$c1"

finish
