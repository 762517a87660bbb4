#!/bin/bash
# fresh-machine.sh - run CI as it runs on a new machine, on this one.
#
# A development machine keeps what earlier runs left: packages, their users,
# daemons' state in /var/lib, /etc and /run, a leftover namespace or loop
# device. A test can pass here only because of that, and fail in CI. This
# script takes the machine back to what a new Debian 12 machine has, then
# runs .ci/run on a fresh clone of HEAD twice in a row (the second run shows
# that the first left nothing that changes the outcome), and prints each
# run's duration, its parts' times and its closing "tests:" line.
#
# What it removes, as root (so it asks for --yes):
#   - every process of the test systems: glusterd/glusterfsd/glusterfs,
#     munged, slurmctld, slurmd, qemu-system-x86_64, and pfsbench, mpirun
#     and orted;
#   - the test hosts' network namespaces (pfsh*), mounts under
#     /tmp/pfsbench-* and loop devices backed by files there;
#   - the Debian packages ./build.sh installs (`./build.sh packages`) except
#     those a new machine already has, purged with their configuration, and
#     what apt then no longer needs (autoremove --purge), and a pfsbench
#     package tests/package/deb.sh may have left;
#   - their state: /var/lib/glusterd, /var/log/glusterfs, /etc/glusterfs,
#     /run/gluster*, /var/lib/slurm*, /var/log/slurm*, /var/spool/slurm*,
#     /etc/slurm*, /etc/munge, /var/lib/munge, /var/log/munge, /run/munge,
#     /run/pfsbench-*, /run/lock/pfsbench-*, /var/cache/pfsbench-*;
#   - the system users and groups those packages created (gluster, munge,
#     slurm).
# Uncommitted changes are not tested: the clone is of HEAD.
#
# Usage: tests/fresh-machine.sh --yes [--once]
#   --once   one run of .ci/run instead of two
# Exit status: 0 when every run passed, 1 when one failed, 2 bad usage.
set -uo pipefail

yes=false runs=2
for arg in "$@"; do
	case $arg in
	--yes) yes=true ;;
	--once) runs=1 ;;
	-h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-machine.sh: unknown argument '$arg' (see --help)" >&2; exit 2 ;;
	esac
done
$yes || { echo "fresh-machine.sh: this purges packages and system state; run it with --yes (see --help)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "fresh-machine.sh: must run as root" >&2; exit 2; }
top=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || exit 2

say() { echo "fresh-machine: $*"; }

# ---- processes, namespaces, mounts, loop devices --------------------------
say "ending the test systems' processes"
for p in glusterd glusterfsd glusterfs munged slurmctld slurmd qemu-system-x86_64 pfsbench mpirun orted; do
	pkill -x "$p" 2>/dev/null
done
sleep 1
for p in glusterd glusterfsd glusterfs munged slurmctld slurmd qemu-system-x86_64 pfsbench mpirun orted; do
	pkill -9 -x "$p" 2>/dev/null
done
for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
	case $ns in pfsh*) ip netns del "$ns" && say "removed network namespace $ns" ;; esac
done
grep -o ' /tmp/pfsbench-[^ ]*' /proc/self/mountinfo | sort -r | while read -r m; do
	umount -l "$m" && say "unmounted $m"
done
losetup -l -n -O NAME,BACK-FILE 2>/dev/null | awk '$2 ~ "^/tmp/pfsbench-" {print $1}' | while read -r dev; do
	losetup -d "$dev" && say "detached $dev"
done

# ---- packages and their state ---------------------------------------------
mapfile -t purge < <("$top/build.sh" packages | awk 'NF == 1 {print $1}')
# and pfsbench's own package, should tests/package/deb.sh have been killed
# before its purge
purge+=(pfsbench)
installed=()
for p in "${purge[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && installed+=("$p")
done
export DEBIAN_FRONTEND=noninteractive
if [ ${#installed[@]} -gt 0 ]; then
	say "purging ${installed[*]}"
	apt-get purge -y -q "${installed[@]}" >/dev/null || { say "apt-get purge failed"; exit 1; }
fi
apt-get autoremove --purge -y -q >/dev/null || { say "apt-get autoremove failed"; exit 1; }
for d in /var/lib/glusterd /var/log/glusterfs /etc/glusterfs /run/gluster /run/glusterd.socket \
	/var/lib/slurm* /var/log/slurm* /var/spool/slurm* /etc/slurm* /etc/munge /var/lib/munge \
	/var/log/munge /run/munge /run/pfsbench-* /run/lock/pfsbench-* /var/cache/pfsbench-*; do
	[ -e "$d" ] || continue
	rm -rf "$d" && say "removed $d"
done
for u in gluster munge slurm; do
	if getent passwd "$u" >/dev/null; then userdel "$u" && say "removed user $u"; fi
	if getent group "$u" >/dev/null; then groupdel "$u" && say "removed group $u"; fi
done

# ---- CI, twice --------------------------------------------------------------
status=0
summary=()
for ((i = 1; i <= runs; i++)); do
	clone=$(mktemp -d /tmp/pfsbench-fresh.XXXXXX)
	git clone -q "$top" "$clone/src" || exit 1
	log=$clone/ci.log
	say "run $i: bash .ci/run in a fresh clone of $(git -C "$top" rev-parse --short HEAD), log in $log"
	start=$SECONDS
	(cd "$clone/src" && bash .ci/run </dev/null >"$log" 2>&1)
	rc=$?
	took=$((SECONDS - start))
	counts=$(grep '^tests: ' "$log" | tail -1)
	line="run $i: exit $rc after $((took / 60)) min $((took % 60)) s; ${counts:-no tests: line}"
	say "$line"
	summary+=("$line")
	# each part's time, as build.sh printed them together at the end (the
	# log goes with the clone when the run passes)
	sed -n 's/^build\.sh: \(.* [0-9]* min [0-9]* s\)$/fresh-machine:   \1/p' "$log" | grep -v ' took ' || true
	if [ "$rc" -ne 0 ]; then
		status=1
		grep -E '^(FAIL|ERROR):|not ok' "$log" | head -20
		say "run $i failed; its log stays in $log"
	else
		rm -rf "$clone"
	fi
done
printf 'fresh-machine: %s\n' "${summary[@]}"
exit "$status"
