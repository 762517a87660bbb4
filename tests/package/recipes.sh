#!/bin/bash
# recipes.sh - the packaging recipes agree with the build they package
# (docs/packaging.md): one version everywhere, every Debian package
# configure asks for in Build-Depends, the RPM spec parsed by rpmspec when
# rpm is installed, and the Spack recipe run against a stand-in for Spack
# (tests/package/spack_recipe.py): its dependencies, configure arguments
# and check target. Cheap, without root; tests/package/deb.sh and rpm.sh
# build the packages themselves (make check-package).
. "$(dirname "$0")/../mpi/lib.sh"

: "${PACKAGE_VERSION:?PACKAGE_VERSION must be the version configure set}"
S=$SRCDIR
V=$PACKAGE_VERSION

# ---- one version -------------------------------------------------------
deb_version=$(sed -n '1s/^pfsbench (\([^)]*\)).*/\1/p' "$S/debian/changelog")
check "debian/changelog's newest entry is configure's version ($V)" test "$deb_version" = "$V"
spec_version=$(sed -n 's/^Version: *//p' "$S/packaging/rpm/pfsbench.spec")
check "the RPM spec's Version is configure's version" test "$spec_version" = "$V"
check "the RPM spec's changelog starts with this version" \
	grep -qE "^\* .* - $V-[0-9]+\$" <(sed -n '/^%changelog/,$p' "$S/packaging/rpm/pfsbench.spec" | sed -n 2p)

# ---- Debian: what configure asks for is in Build-Depends -----------------
# configure's messages name the Debian package of each thing it needs
# ("install Debian's libhdf5-dev"); a package that builds on this machine
# only because the package is installed here would fail on a clean builder.
build_deps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$S/debian/control" | sed '$d' |
	sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep -v '^$')
for p in $(grep -oE "install Debian's [a-z0-9.+-]+( and [a-z0-9.+-]+)?" "$S/configure.ac" |
	sed "s/install Debian's //; s/ and /\n/" | sort -u); do
	case $p in libasan8 | libubsan1) continue ;; esac # the sanitizer build's
	check "Build-Depends has $p, which configure asks for" grep -qx "$p" <<<"$build_deps"
done
check "rules skips the test suite, saying why" \
	grep -q -A1 -B3 '^override_dh_auto_test:' "$S/debian/rules"

# ---- RPM: the spec parses ---------------------------------------------------
if command -v rpmspec >/dev/null; then
	q=$(rpmspec -q --qf '%{NAME} %{VERSION}\n' "$S/packaging/rpm/pfsbench.spec" 2>"$SCRATCH/rpmspec.err")
	check "rpmspec parses the spec: name and version" test "$q" = "pfsbench $V"
	check "rpmspec says nothing about the spec" test ! -s "$SCRATCH/rpmspec.err"
else
	echo "# rpmspec is not installed (Debian's rpm): the spec is not parsed here"
fi

# ---- Spack: the recipe, run against a stand-in ---------------------------
if python3 "$S/tests/package/spack_recipe.py" "$S/packaging/spack/package.py" >"$SCRATCH/spack" 2>&1; then
	ok "the Spack recipe loads and its directives take Spack's arguments"
else
	not_ok "the Spack recipe loads"
	cat "$SCRATCH/spack"
fi
has() { grep -qE "$1" "$SCRATCH/spack"; }
check "Spack: version $V" has "^version $V\$"
check "Spack: depends on an MPI, to build and link" has "^depends_on mpi type=build,link when=\$"
check "Spack: depends on hdf5 1.10 or later, with or without +mpi" has "^depends_on hdf5@1\.10: type=build,link when=\$"
check "Spack: cmocka to build (configure needs it) and to test" has "^depends_on cmocka@1\.1: type=build,test when=\$"
check "Spack: pkg-config to build (configure finds hdf5, zlib, cmocka with it)" has "^depends_on pkgconfig type=build"
check "Spack: configure gets the MPI's compiler wrapper" has "^configure_args - : MPICC=/spack/mpi/bin/mpicc\$"
check "Spack: +gnuplot names gnuplot's path to configure" has "^configure_args gnuplot : .* GNUPLOT=/spack/gnuplot/bin/gnuplot\$"
check "Spack: its check runs the unit tests" has '^check: check TESTS=\$\(UNIT_TESTS\)$'
check "Spack: the variable its check names is Makefile.am's" grep -q '^UNIT_TESTS = ' "$S/Makefile.am"

finish
