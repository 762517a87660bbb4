#!/bin/bash
# build.sh: the two commands of README's Quick start, and what CI runs.
#   ./build.sh run    install what is missing, build, run a small create-unlink
#   ./build.sh check  install what is missing, build, run the whole test suite
#                     (make check of the sanitizer build, check-fuzz,
#                     check-cluster, check-fs, check-gfs2, and a distcheck
#                     of a subset)
#   ./build.sh packages  list the Debian packages the two commands install
#                     (tests/fresh-machine.sh purges them)
# Both may be run again at any time. Debian 12; as root or with sudo.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(build-essential autoconf automake libtool pkg-config
	openmpi-bin libopenmpi-dev libhdf5-dev hdf5-tools libcmocka-dev)
# What only the tests use: h5py reads results files as a foreign client;
# namespaces, Slurm, loop filesystems, GlusterFS and GFS2 in virtual
# machines are the test systems; gnuplot-nox draws plot's and report's
# pictures (pfsbench builds and runs without it) and chromium opens the
# report in the browser test; clang-14 and its runtimes (libFuzzer and the
# sanitizers, which clang-14 only recommends) build the fuzz target.
# The tests install them too when missing; installing them here does it in
# one apt run.
TEST_PACKAGES=(python3-h5py valgrind iproute2 util-linux mount e2fsprogs xfsprogs
	slurm-wlm munge glusterfs-server glusterfs-client bonnie++
	qemu-system-x86 gfs2-utils busybox-static corosync dlm-controld openssh-server openssh-client
	gnuplot-nox chromium clang-14 libclang-rt-14-dev)
# Of the above, what a new Debian 12 development machine already has; the
# fresh-machine script never purges these (mount and util-linux are
# essential to the system).
# clang-14 is there as what clang-tidy depends on (through clang-tools-14):
# purging it would take clang-tidy away.
IMAGE_PACKAGES=(build-essential valgrind iproute2 util-linux mount e2fsprogs openssh-client clang-14)

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_missing() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "build.sh: installing ${missing[*]}"
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

build() {
	[ -x configure ] || autoreconf -fi
	[ -f Makefile ] || ./configure --enable-werror
	make -j"$(nproc)"
}

# The sanitizer build: the same sources with AddressSanitizer and
# UndefinedBehaviorSanitizer (./configure --enable-sanitizers). This tree is
# configured in place by build() above, and configure refuses to build a
# tree so configured elsewhere ("source directory already configured"); so
# the copy that `make distdir` makes (what the tarball holds) is configured
# in sanitizers/build, anew each time.
sanitizer_build() {
	rm -rf sanitizers
	mkdir sanitizers
	make distdir distdir=sanitizers/pfsbench >/dev/null
	mkdir sanitizers/build
	(cd sanitizers/build && ../pfsbench/configure --enable-werror --enable-sanitizers >/dev/null &&
		make -j"$(nproc)")
}

# Open MPI refuses to start as root unless told otherwise; this script (not
# pfsbench) says so for its own runs, in the open.
allow_root_mpi() {
	if [ "$(id -u)" -eq 0 ]; then
		echo "build.sh: running as root: setting OMPI_ALLOW_RUN_AS_ROOT for this run" >&2
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
}

# Adds the counts of the test-suite.log that the last make check wrote.
PASSED=0 FAILED=0 SKIPPED=0
tally() {
	local n
	n=$(sed -n 's/^# PASS: *//p' test-suite.log) && PASSED=$((PASSED + n))
	n=$(sed -n 's/^# FAIL: *//p' test-suite.log) && FAILED=$((FAILED + n))
	n=$(sed -n 's/^# ERROR: *//p' test-suite.log) && FAILED=$((FAILED + n))
	n=$(sed -n 's/^# SKIP: *//p' test-suite.log) && SKIPPED=$((SKIPPED + n))
}

# The time of each part of check, printed as it ends and together at the
# end: CI should take under 25 minutes, and this says where they go.
TIMES=() T_MARK=$SECONDS
mark() {
	local d=$((SECONDS - T_MARK))
	T_MARK=$SECONDS
	TIMES+=("$(printf '%-28s %3d min %02d s' "$1" $((d / 60)) $((d % 60)))")
	echo "build.sh: $1 took $((d / 60)) min $((d % 60)) s"
}

# Runs one make check target and tallies it. When a test fails, its
# "not ok" lines and the end of its log are printed last, so that the end
# of CI's output (often all that a reader gets) says what failed and why.
suite() {
	local target=$1 rc=0 t log
	make "${@:2}" "$target" || rc=$?
	[ -f test-suite.log ] && tally
	if [ "$rc" -ne 0 ]; then
		# a failed test's section starts "FAIL: name" over a line of =;
		# its log's own "FAIL: ..." lines are not names
		for t in $(awk '/^=+$/ && prev ~ /^(FAIL|ERROR): / { sub(/^[A-Z]+: /, "", prev); print prev }
				{ prev = $0 }' test-suite.log 2>/dev/null); do
			log=${t%.sh}.log
			echo "==== $target: $t failed; its checks that failed, then the end of $log"
			grep -E '^not ok' "$log" 2>/dev/null | head -20 || true
			echo "----"
			tail -n 40 "$log" 2>/dev/null || true
		done
		echo "build.sh: make $target failed (exit $rc)" >&2
		exit "$rc"
	fi
}

case "${1:-}" in
run)
	install_missing "${PACKAGES[@]}"
	build
	allow_root_mpi
	scratch=$(mktemp -d /tmp/pfsbench-quickstart.XXXXXX)
	trap 'rm -rf "$scratch"' EXIT
	# The results file goes to results/, which git ignores, never into the
	# source tree; pfsbench's last line on stderr says where it is.
	mkdir -p results
	mpirun --oversubscribe -np 2 src/pfsbench create-unlink -m "$scratch" -f 2000 -F 20 -s 1m \
		--results "results/quickstart-$(date -u +%Y%m%dT%H%M%SZ)-$$.h5"
	;;
packages)
	for p in "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"; do
		image=
		for q in "${IMAGE_PACKAGES[@]}"; do [ "$p" = "$q" ] && image=" image"; done
		echo "$p$image"
	done
	;;
check)
	install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
	mark "packages"
	build
	allow_root_mpi
	mark "build"
	# The whole make check, on the sanitizer build: any report of ASan,
	# LSan or UBSan fails the test it comes from (tests/sanitized.sh).
	# It runs instead of make check on the build above, not beside it:
	# with -j2 on 2 cores it takes about 10 minutes to the normal one's 6,
	# and both would take CI to about 28 minutes, over its 25. The build
	# above is still what check-cluster, check-fs, check-gfs2 and
	# distcheck-quick (the unit tests and one run of each kind) run.
	sanitizer_build
	mark "sanitizer build"
	cd sanitizers/build
	suite check -j"$(nproc)"
	cd ../..
	mark "make check (sanitizers)"
	# The fuzz target over the results file's readers, for 120 s
	# (docs/fuzzing.md); "SKIP: check-fuzz: ..." without clang's libFuzzer.
	mkdir -p tests/fuzz
	make check-fuzz 2>&1 | tee tests/fuzz/check.out || { echo "build.sh: make check-fuzz failed" >&2; exit 1; }
	if grep -q '^SKIP: check-fuzz' tests/fuzz/check.out; then
		SKIPPED=$((SKIPPED + 1))
	else
		PASSED=$((PASSED + 1))
	fi
	mark "check-fuzz"
	# Several hosts (network namespaces) and a private Slurm; one at a time.
	# Each test says "SKIP: reason" where root or namespaces are missing.
	suite check-cluster
	mark "check-cluster"
	# ext3, ext4, xfs on loop devices and a GlusterFS volume; as root.
	suite check-fs
	mark "check-fs"
	# GFS2 in virtual machines (QEMU, Debian's kernel); as root.
	suite check-gfs2
	mark "check-gfs2"
	# The tarball builds out of tree and its tests run there (a subset:
	# the whole suite ran above, on the sanitizer build of the same
	# sources).
	make distcheck-quick
	mark "distcheck-quick"
	printf 'build.sh: %s\n' "${TIMES[@]}"
	# One closing line for the whole suite (test programs and scripts; the
	# distcheck rerun of make check is not counted again).
	echo "tests: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	;;
*)
	echo "usage: ./build.sh run | ./build.sh check | ./build.sh packages" >&2
	exit 2
	;;
esac
