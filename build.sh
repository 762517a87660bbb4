#!/bin/bash
# build.sh: the two commands of README's Quick start, and what CI runs.
#   ./build.sh run    install what is missing, build, make install (as root
#                     into /usr/local, else into ~/.local), run a small
#                     create-unlink with the installed pfsbench
#   ./build.sh check  install what is missing, build, run the whole test suite
#                     (make check of the sanitizer build, check-fuzz's gate
#                     and a 120 s search, check-cluster, check-fs,
#                     check-gfs2, a distcheck of a subset, and
#                     check-package: the .deb and RPM built, the .deb
#                     installed, run and purged; check-mpich: built with
#                     MPICH and its MPI tests run under Hydra)
#   ./build.sh packages  list the Debian packages the two commands install
#                     (tests/fresh-machine.sh purges them)
# Both may be run again at any time. Debian 12; as root or with sudo.
# check runs its parts side by side; each part's output is in
# check-parts/NAME.out.
set -euo pipefail
cd "$(dirname "$0")"

# man-db: `man pfsbench` after the quick start (and the install test);
# liburing-dev: stream --iodepth over 1 (io_uring; optional to configure).
PACKAGES=(build-essential autoconf automake libtool pkg-config
	openmpi-bin libopenmpi-dev libhdf5-dev hdf5-tools libcmocka-dev man-db liburing-dev)
# What only the tests use: h5py reads results files as a foreign client;
# namespaces, Slurm, loop filesystems, GlusterFS and GFS2, DRBD and LVM in
# virtual machines are the test systems; gnuplot-nox draws plot's and report's
# pictures (pfsbench builds and runs without it) and chromium opens the
# report in the browser test; clang-14 and its runtimes (libFuzzer and the
# sanitizers, which clang-14 only recommends) build the fuzz target; the
# job scripts and launchers users run are checked by shellcheck
# (tests/launcher/shellcheck.sh skips, saying so, without it); debhelper
# (with build-essential's dpkg-dev) and rpm build the packages that make
# check-package installs and checks; mpich and libmpich-dev are the second
# MPI that make check-mpich builds and tests with (Open MPI stays the
# default mpicc and mpirun: keep_openmpi_default).
# The tests install them too when missing; installing them here does it in
# one apt run.
TEST_PACKAGES=(shellcheck python3-h5py valgrind iproute2 util-linux mount e2fsprogs xfsprogs
	slurm-wlm munge glusterfs-server glusterfs-client bonnie++
	qemu-system-x86 gfs2-utils busybox-static corosync dlm-controld openssh-server openssh-client
	drbd-utils lvm2 hdparm
	gnuplot-nox chromium clang-14 libclang-rt-14-dev debhelper rpm mpich libmpich-dev)
# Of the above, what a new Debian 12 development machine already has; the
# fresh-machine script never purges these (mount and util-linux are
# essential to the system).
# clang-14 is there as what clang-tidy depends on (through clang-tools-14):
# purging it would take clang-tidy away.
IMAGE_PACKAGES=(build-essential valgrind iproute2 util-linux mount e2fsprogs openssh-client clang-14 man-db)

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
	keep_openmpi_default
}

# Open MPI is the MPI everything builds and runs with by default (mpicc,
# mpirun, mpi.h through the alternatives); MPICH is installed beside it for
# check-mpich, which names it (mpicc.mpich, mpiexec.mpich). On amd64 Open
# MPI's alternatives win by priority; where MPICH's took them (another
# architecture, or set by hand), they are set back, saying so.
keep_openmpi_default() {
	local group want
	for group in mpi:/usr/bin/mpicc.openmpi mpirun:/usr/bin/mpirun.openmpi \
		"mpi-$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu):"; do
		want=${group#*:} group=${group%%:*}
		update-alternatives --query "$group" >/dev/null 2>&1 || continue
		[ -n "$want" ] || want=$(update-alternatives --list "$group" | grep -m1 /openmpi) || continue
		if [ "$(update-alternatives --query "$group" | sed -n 's/^Value: //p')" != "$want" ]; then
			echo "build.sh: setting the $group alternative back to Open MPI's $want"
			as_root update-alternatives --quiet --set "$group" "$want"
		fi
	done
}

# Where run installs: what root installs by hand goes to /usr/local (on
# every PATH and man's path); a user without root gets ~/.local, which
# Debian's ~/.profile puts on the PATH (and man follows the PATH to
# ~/.local/share/man). A tree configured for another prefix is configured
# again, so that the launchers and man pages name the paths installed.
if [ "$(id -u)" -eq 0 ]; then PREFIX=/usr/local; else PREFIX=$HOME/.local; fi

build() {
	[ -x configure ] || autoreconf -fi
	if [ ! -f Makefile ] || [ "$(sed -n 's/^prefix = //p' Makefile)" != "$PREFIX" ]; then
		./configure --enable-werror --prefix="$PREFIX"
	fi
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

# Adds the counts of a make check's suite log (default test-suite.log).
PASSED=0 FAILED=0 SKIPPED=0
tally() {
	local log=${1:-test-suite.log} n
	[ -f "$log" ] || return 0
	n=$(sed -n 's/^# PASS: *//p' "$log") && PASSED=$((PASSED + n))
	n=$(sed -n 's/^# FAIL: *//p' "$log") && FAILED=$((FAILED + n))
	n=$(sed -n 's/^# ERROR: *//p' "$log") && FAILED=$((FAILED + n))
	n=$(sed -n 's/^# SKIP: *//p' "$log") && SKIPPED=$((SKIPPED + n))
}

# The time of each part of check, printed as it ends and together at the
# end: CI should take under 15 minutes, and this says where they go. Parts
# that run side by side each have their own time, from their own start.
TIMES=() T_MARK=$SECONDS
mark() {
	local d=$((SECONDS - T_MARK))
	T_MARK=$SECONDS
	part_time "$1" "$d"
}
part_time() {
	TIMES+=("$(printf '%-34s %3d min %02d s' "$1" $(($2 / 60)) $(($2 % 60)))")
	echo "build.sh: $1 took $(($2 / 60)) min $(($2 % 60)) s"
}

# failed_tests SUITELOG: the names of the tests a make check failed,
# from its suite log (a failed test's section starts "FAIL: name" over a
# line of =; its log's own "FAIL: ..." lines are not names), with the
# checks that failed and the end of each one's log.
failed_tests() {
	local t log dir
	dir=$(dirname "$1")
	for t in $(awk '/^=+$/ && prev ~ /^(FAIL|ERROR): / { sub(/^[A-Z]+: /, "", prev); print prev }
			{ prev = $0 }' "$1" 2>/dev/null); do
		log=$dir/${t%.sh}.log
		echo "==== $t failed; its checks that failed, then the end of $log"
		grep -E '^not ok' "$log" 2>/dev/null | head -20 || true
		FAILED_CHECKS+=("$t ($dir): $(grep -E '^not ok' "$log" 2>/dev/null | head -3 | sed 's/^not ok - //' |
			paste -sd '|' | sed 's/|/ | /g')")
		echo "----"
		tail -n 40 "$log" 2>/dev/null || true
	done
}

# ---- parts that run side by side ----------------------------------------------
# On 2 cores most parts leave a core idle much of the time (a test that
# waits for a daemon, a VM's boot, a signal), so check runs several at
# once: start_part NAME DIR SUITELOG CMD... runs CMD in DIR in the
# background, its output in $PARTS/NAME.out; end_part NAME waits for it,
# tallies SUITELOG (relative to DIR; - for none) and records its time.
# A part that fails has its failed tests, or the end of its output, printed
# last of all, so that the end of CI's log says what failed and why.
# Whatever part is still running CHECK_MINUTES (default 80) after build.sh
# began is stopped (GNU timeout: TERM to its process group, KILL a minute
# later) and failed, saying so, and the failures are printed as ever: a
# part that hangs fails CI with a report, inside CI's own limit of 90
# minutes, rather than having CI cut at that limit with nothing said
# (stop 40's CI: a part, most likely the fuzz search, never ended). One
# deadline for the whole check, not a limit a part: on a fresh, slower
# machine whose page cache the tests' runs dropped every 2 s, every part
# took about 3 times its usual time (the sanitizer lane 41 minutes, the
# GFS2 lane over 47, CI 51-60 minutes in all), and a limit a part of 60
# minutes would have stopped parts that were only slow.
PARTS=$PWD/check-parts
CHECK_MINUTES=${CHECK_MINUTES:-80}
declare -A PART_PID PART_DIR PART_LOG
FAILED_PARTS=()
start_part() {
	local name=$1 dir=$2 log=$3
	shift 3
	PART_DIR[$name]=$dir PART_LOG[$name]=$log
	echo "build.sh: $name started"
	(
		# (build.sh's set -e must not end the part before it says how
		# it ended)
		set +e
		cd "$dir" || exit 1
		t0=$SECONDS
		# (a function of this script, install_missing, runs as it is)
		if declare -F "$1" >/dev/null; then
			"$@" >"$PARTS/$name.out" 2>&1
		else
			left=$((CHECK_MINUTES * 60 - SECONDS))
			timeout -k 60 "$((left > 60 ? left : 60))s" "$@" >"$PARTS/$name.out" 2>&1
		fi
		rc=$?
		[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
			echo "build.sh: $name was still running $CHECK_MINUTES minutes after build.sh began" \
				"(CHECK_MINUTES) and was stopped" >>"$PARTS/$name.out"
		echo "$rc $((SECONDS - t0))" >"$PARTS/$name.end"
	) &
	PART_PID[$name]=$!
}
end_part() {
	local name=$1 rc took
	wait "${PART_PID[$name]}" 2>/dev/null || true
	read -r rc took <"$PARTS/$name.end" || { rc=1 took=0; }
	part_time "$name" "$took"
	[ "${PART_LOG[$name]}" = - ] || tally "${PART_DIR[$name]}/${PART_LOG[$name]}"
	if [ "$rc" -ne 0 ]; then
		echo "build.sh: $name failed (exit $rc); its failures are printed at the end"
		FAILED_PARTS+=("$name")
	fi
	after_part "$name"
}
# Lanes: parts that run one after the other, beside the other lanes.
# part NAME DIR SUITELOG CMD... defines a part; run_lanes "A;B" "C" ...
# runs each lane's parts (names separated by ;) in order, the lanes side
# by side, and returns when all have ended. after_part NAME (a no-op
# unless redefined) runs in this shell as each part ends.
declare -A PART_DEF
part() {
	local name=$1
	shift
	PART_DEF[$name]=$(printf '%q ' "$@")
}
after_part() { :; }
# next_in_lane I: starts the next part of lane I, if any ($LANE_REST[I]).
next_in_lane() {
	local i=$1 name
	name=${LANE_REST[i]%%;*}
	[ -n "$name" ] || return 0
	if [ "$name" = "${LANE_REST[i]}" ]; then LANE_REST[i]=; else LANE_REST[i]=${LANE_REST[i]#*;}; fi
	eval "start_part $(printf '%q ' "$name") ${PART_DEF[$name]}"
	LANE_OF[$name]=$i
}
declare -a LANE_REST
declare -A LANE_OF
run_lanes() {
	local i name pid
	LANE_REST=("$@")
	for i in "${!LANE_REST[@]}"; do next_in_lane "$i"; done
	while [ ${#LANE_OF[@]} -gt 0 ]; do
		pid=
		wait -n -p pid 2>/dev/null || [ -n "$pid" ] || sleep 1
		for name in "${!LANE_OF[@]}"; do
			# (no pid: a part's end already reaped; its .end file says so)
			if [ -n "$pid" ]; then [ "${PART_PID[$name]}" = "$pid" ] || continue
			else [ -f "$PARTS/$name.end" ] || continue
			fi
			i=${LANE_OF[$name]}
			unset "LANE_OF[$name]"
			end_part "$name"
			next_in_lane "$i"
			break
		done
	done
}
# The failed tests' first failed checks come once more, a line a test, just
# above the last line: a reader who sees only the start and the end of a
# long log (a CI page that cuts the middle, as one did for check-mpich's
# watchdog.sh) still learns which check failed.
FAILED_CHECKS=()
report_failures() {
	local name
	for name in "${FAILED_PARTS[@]}"; do
		echo "==== build.sh: $name failed; the end of its output ($PARTS/$name.out):"
		tail -n 30 "$PARTS/$name.out"
		[ "${PART_LOG[$name]}" = - ] || failed_tests "${PART_DIR[$name]}/${PART_LOG[$name]}"
	done
	[ ${#FAILED_CHECKS[@]} -eq 0 ] || printf 'build.sh: failed check: %s\n' "${FAILED_CHECKS[@]}"
	[ ${#FAILED_PARTS[@]} -eq 0 ] || echo "build.sh: failed: ${FAILED_PARTS[*]}" >&2
}

case "${1:-}" in
run)
	install_missing "${PACKAGES[@]}"
	build
	# Installed, so that the command pfsbench's last line prints, man
	# pfsbench and the launchers work as typed (README.md, Quick start).
	make install >/dev/null
	echo "build.sh: installed pfsbench, create_unlink_perf, dm, perf_matrix into $PREFIX/bin," \
		"their man pages and docs into $PREFIX/share (make uninstall removes them)" >&2
	case ":$PATH:" in
	*":$PREFIX/bin:"*) ;;
	*) echo "build.sh: $PREFIX/bin is not on this shell's PATH: run export PATH=\"$PREFIX/bin:\$PATH\"" \
		"(Debian's ~/.profile adds ~/.local/bin at your next login)" >&2 ;;
	esac
	allow_root_mpi
	scratch=$(mktemp -d /tmp/pfsbench-quickstart.XXXXXX)
	trap 'rm -rf "$scratch"' EXIT
	# The results file goes to results/, which git ignores, never into the
	# source tree; pfsbench's last line on stderr says where it is.
	mkdir -p results
	mpirun --oversubscribe -np 2 "$PREFIX/bin/pfsbench" create-unlink -m "$scratch" -f 2000 -F 20 -s 1m \
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
	# The build's packages first; the tests' (Slurm, GlusterFS, QEMU,
	# chromium, clang...) install while the two builds compile.
	install_missing "${PACKAGES[@]}"
	mark "packages (build)"
	rm -rf "$PARTS" && mkdir -p "$PARTS"
	start_part "packages (tests)" . - install_missing "${TEST_PACKAGES[@]}"
	build
	allow_root_mpi
	mark "build"
	sanitizer_build
	mark "sanitizer build"
	end_part "packages (tests)"
	[ ${#FAILED_PARTS[@]} -eq 0 ] || { report_failures; exit 1; }
	# Every test program of both builds before anything runs side by side
	# in one tree (TESTS= runs none).
	make check TESTS= >/dev/null
	(cd sanitizers/build && make -j"$(nproc)" check TESTS= >/dev/null)
	mark "test programs"
	# Five lanes side by side (each test keeps the machine-wide things it
	# uses under a lock of its own, tests/cluster/lib.sh):
	#  - the whole make check, on the sanitizer build: any report of ASan,
	#    LSan or UBSan fails the test it comes from (tests/sanitized.sh);
	#    the longest lane (11.5-12 min in the CI of stop 37), so it runs
	#    alone;
	#  - GFS2 in virtual machines (QEMU, Debian's kernel), then DRBD and
	#    LVM in the same kind of machines (check-blockdev, about 2 minutes
	#    alone; it takes the same machine-wide lock, so it follows GFS2 in
	#    its lane rather than waiting on the lock in another);
	#  - several hosts (network namespaces) and a private Slurm, mostly
	#    waiting, then the tarball built out of tree with a subset of its
	#    tests (the whole suite ran here on the same sources), then the
	#    fuzz target's gate (every known input replayed alone) and its
	#    search for 120 s, which reports what is new without failing
	#    (docs/fuzzing.md), at a low priority: after the sanitizer lane
	#    they made CI 15.5-16 min, here the lane ends about when it does;
	#  - ext3, ext4, xfs on loop devices and a GlusterFS volume;
	#  - the .deb and the RPM built from the distribution, the .deb
	#    installed, run and purged (check-package): 45 s to 2 minutes, of
	#    which under a minute of CPU, its builds at a low priority so that
	#    they mostly take what the other lanes leave idle
	#    (docs/packaging.md has the figures); then the MPICH build and
	#    its MPI tests under Hydra (check-mpich, docs/mpi.md has the figures).
	part "make check (sanitizers)" sanitizers/build test-suite.log make -j3 check
	part check-fuzz . - make check-fuzz
	part fuzz-explore . - nice make fuzz-explore
	part check-gfs2 . check-gfs2.log make check-gfs2 TEST_SUITE_LOG=check-gfs2.log
	part check-blockdev . check-blockdev.log make check-blockdev TEST_SUITE_LOG=check-blockdev.log
	part check-cluster . check-cluster.log make check-cluster TEST_SUITE_LOG=check-cluster.log
	part check-fs . check-fs.log make check-fs TEST_SUITE_LOG=check-fs.log
	part distcheck-quick . - make distcheck-quick
	part check-package . check-package.log make check-package TEST_SUITE_LOG=check-package.log
	part check-mpich . mpich/build/test-suite.log make check-mpich
	after_part() {
		case $1 in
		check-fuzz)
			grep '^fuzz: replayed' "$PARTS/check-fuzz.out" || true
			if grep -q '^SKIP: check-fuzz' "$PARTS/check-fuzz.out"; then
				SKIPPED=$((SKIPPED + 1))
			elif [ "$(cut -d' ' -f1 "$PARTS/check-fuzz.end")" = 0 ]; then
				PASSED=$((PASSED + 1))
			fi
			;;
		fuzz-explore)
			grep -E '^fuzz: ([0-9]+ executions|findings|NEW)|NEW FINDING' "$PARTS/fuzz-explore.out" || true
			;;
		esac
	}
	run_lanes "make check (sanitizers)" "check-gfs2;check-blockdev" \
		"check-cluster;distcheck-quick;check-fuzz;fuzz-explore" "check-fs" "check-package;check-mpich"
	printf 'build.sh: %s\n' "${TIMES[@]}"
	report_failures
	# One closing line for the whole suite (test programs and scripts; the
	# distcheck rerun of make check is not counted again).
	echo "tests: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	[ ${#FAILED_PARTS[@]} -eq 0 ]
	;;
*)
	echo "usage: ./build.sh run | ./build.sh check | ./build.sh packages" >&2
	exit 2
	;;
esac
