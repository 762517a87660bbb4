#!/bin/bash
# rpm.sh - the RPM spec builds (docs/packaging.md): rpmbuild -bb with
# Debian's rpm, from a tarball of the tree's distribution copy (make
# distdir), and the package holds what make install installs: the four
# commands, their man pages and the documentation, with the dependencies
# the spec and rpm's scan declare. Debian's rpm has an empty package
# database, so the spec's BuildRequires (RHEL's openmpi-devel, hdf5-devel,
# libcmocka-devel...) cannot be resolved here: rpmbuild runs with --nodeps,
# against Debian's Open MPI, HDF5 and cmocka. Nothing is installed; make
# check-package runs it.
. "$(dirname "$0")/lib.sh"
V=$PACKAGE_VERSION

command -v rpmbuild >/dev/null || need_pkg rpm
command -v rpmbuild >/dev/null || pfs_skip "rpmbuild is missing although Debian's rpm is installed"

TOP=$SCRATCH/rpmbuild
mkdir -p "$TOP/SOURCES"
t0=$SECONDS
distdir "$SCRATCH/pfsbench-$V"
tar -czf "$TOP/SOURCES/pfsbench-$V.tar.gz" -C "$SCRATCH" "pfsbench-$V"
check "the distribution holds the spec" test -f "$SCRATCH/pfsbench-$V/packaging/rpm/pfsbench.spec"
# (At a low priority: CI runs this beside the other lanes.)
nice rpmbuild -bb --nodeps --define "_topdir $TOP" "$SCRATCH/pfsbench-$V/packaging/rpm/pfsbench.spec" \
	>"$SCRATCH/rpmbuild.log" 2>&1
rc=$?
echo "# rpmbuild -bb --nodeps: $((SECONDS - t0)) s wall"
# (a debuginfo package would be pfsbench-debuginfo-...)
rpm=$(ls "$TOP"/RPMS/*/pfsbench-"$V"-1*.rpm 2>/dev/null | head -n 1)
if [ "$rc" -ne 0 ] || [ -z "$rpm" ]; then
	tail -n 40 "$SCRATCH/rpmbuild.log"
	not_ok "rpmbuild -bb --nodeps builds pfsbench-$V-1.*.rpm (exit $rc)"
	finish
fi
ok "rpmbuild -bb --nodeps builds $(basename "$rpm")"
check "rpmbuild printed no warning" eval "! grep -i '^warning' '$SCRATCH/rpmbuild.log'"
check "the package build ran no tests (%check)" eval "! grep -qE '^(PASS|FAIL|SKIP|ERROR): ' '$SCRATCH/rpmbuild.log'"

rpm -qpl "$rpm" 2>/dev/null >"$SCRATCH/files"
for c in pfsbench create_unlink_perf dm perf_matrix; do
	check "the RPM holds /usr/bin/$c (no Open MPI module here: %{_bindir})" grep -qx "/usr/bin/$c" "$SCRATCH/files"
	check "the RPM holds $c(1)" grep -qE "^/usr/share/man/man1/$c\.1(\.gz)?\$" "$SCRATCH/files"
done
# What make install put in the documentation directory, all of it.
docs=$(sed -n 's|^\t*docs/\([a-z0-9-]*\.md\).*|\1|p; s|^dist_doc_DATA.*= ||p' "$SRCDIR/Makefile.am" | tr ' \\' '\n\n' | grep -oE '[a-z0-9-]+\.md' | sort -u)
for d in $docs; do
	check "the RPM holds /usr/share/doc/pfsbench/$d" grep -qx "/usr/share/doc/pfsbench/$d" "$SCRATCH/files"
done
reqs=$(rpm -qpR "$rpm" 2>/dev/null)
check "the RPM requires openmpi (the spec)" grep -qx openmpi <<<"$reqs"
check "the RPM requires libmpi and libhdf5 (rpm's scan of the binary)" \
	eval "grep -q '^libmpi\.so' <<<\"\$reqs\" && grep -q '^libhdf5' <<<\"\$reqs\""
check "rpm reads the package's name and version" test "$(rpm -qp --qf '%{NAME} %{VERSION}' "$rpm" 2>/dev/null)" = "pfsbench $V"

finish
