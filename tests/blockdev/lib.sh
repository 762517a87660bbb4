#!/bin/bash
# lib.sh - common start of the block-device tests (sourced): DRBD and LVM
# in the virtual machines of tests/gfs2/lib.sh (Debian's kernel under
# QEMU's emulator; this machine's kernel has neither DRBD nor
# device-mapper). The guests load, beyond the GFS2 tests' modules, DRBD 8.4
# (in Debian's kernel), device-mapper with its mirror and raid targets, md's
# raid1, and xfs.
#
# Gives, on top of tests/gfs2/lib.sh (vm_begin, vm_start, vm_pair_start,
# vm_blank, vm_wait, vm_result, vm_keep, ...):
#   blockdev_begin WHAT PKG...  root, packages, the lock, kernel, initramfs
#   results_info FILE...        each results file's `show --fs-stats` and
#                               provenance, for the log
#   $DM, $PERF_MATRIX           the launchers of this build
# Results are kept (vm_keep) in $GFS2_KEEP/NAME, default
# /tmp/pfsbench-blockdev/NAME.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "${BASH_SOURCE[0]}")/../gfs2/lib.sh"

# drbd pulls lru_cache and libcrc32c; dm-mirror dm-log and dm-region-hash;
# dm-raid md-mod and raid456 (with raid6_pq, xor, async_*). md's raid1
# personality is what dm-raid asks for a raid1 LV: no modprobe can find it
# in the guest (the host's /lib/modules are another kernel's), so it is
# loaded beforehand, as is every module here.
# shellcheck disable=SC2034 # read by gfs2_kernel
VM_MODULES_EXTRA=(drbd dm-mod dm-mirror dm-log dm-region-hash dm-raid raid1 xfs)
GFS2_KEEP=${GFS2_KEEP:-/tmp/pfsbench-blockdev}
: "${DM:=$GFS2_HERE/../../src/launchers/dm}"
: "${PERF_MATRIX:=$GFS2_HERE/../../src/launchers/perf_matrix}"

blockdev_begin() {
	[ -x "$DM" ] || skip "no dm launcher at '$DM' (run make first)"
	[ -x "$PERF_MATRIX" ] || skip "no perf_matrix launcher at '$PERF_MATRIX' (run make first)"
	vm_begin "$@"
	# the guests run the launchers with this pfsbench, whatever they would find
	DM=$(readlink -f "$DM") PERF_MATRIX=$(readlink -f "$PERF_MATRIX")
	echo "dm=$DM" >>"$SHARE/env"
	echo "perf_matrix=$PERF_MATRIX" >>"$SHARE/env"
}

# results_info FILE...: what each results file says of itself: `pfsbench
# show --fs-stats` (per-step counters, where the run has some) and its
# provenance, as JSON. For the log; assertions on them go in the tests.
results_info() {
	local f
	for f in "$@"; do
		echo "# ---- $(basename "$f"): show --fs-stats"
		"$PFSBENCH" show "$f" --fs-stats 2>&1 | sed 's/^/#   /'
		echo "# ---- $(basename "$f"): provenance"
		"$PFSBENCH" export "$f" --json --provenance 2>&1 |
			/usr/bin/python3 -c 'import json, sys
for k, v in json.load(sys.stdin).get("provenance", {}).items(): print("#   %s: %s" % (k, v))' 2>&1
	done
}
