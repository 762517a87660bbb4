#!/bin/bash
# guest.sh - helpers of the block-device tests' jobs inside a guest
# (sourced by a job of tests/gfs2/guest.sh, which gives pfs_run, node_up,
# wait_for, $SHARE, $NAME, $PFSBENCH). The guest has no udev, no systemd,
# no modprobe of its kernel's modules (the initramfs loaded them all).
#   DM, PERF_MATRIX             the launchers the test named ($SHARE/env)
#   drbd ARGS...                drbdadm with the test's configuration,
#                               $SHARE/drbd.conf
#   drbd_wait REGEX SECONDS     until /proc/drbd matches REGEX (grep -E)
#   drbd_snap LABEL             /proc/drbd of this node and of the peer
#                               (drbd_serve's), into $SHARE/drbd/LABEL-<node>
#   drbd_serve UNTIL SECONDS    the peer's side: answers drbd_snap's requests
#                               until the file UNTIL exists
#   lvm_setup                   LVM without udev, lvmetad, dmeventd or a
#                               devices file (LVM_SYSTEM_DIR of its own)
#   lvm_wait_sync LV SECONDS    until the LV's copy_percent is 100
# Owns: the share's drbd/ directory; in the guest only what the job makes.
DM=$(sed -n 's/^dm=//p' "$SHARE/env")
PERF_MATRIX=$(sed -n 's/^perf_matrix=//p' "$SHARE/env")
# the launchers run the test's pfsbench, not the first they would find
export PFSBENCH DM PERF_MATRIX
# drbdadm's and LVM's locks are in /run/lock, and /run starts empty
mkdir -p /run/lock

drbd() {
	drbdadm -c "$SHARE/drbd.conf" "$@"
}

# drbd_bring CMD RES: drbdadm CMD RES (up, connect). drbdadm gives each
# drbdsetup it starts 5 s, a limit of its own, and under TCG beside CI's
# other lanes a connect outlasted it once ("did not terminate within 5
# seconds"), which ended the job. adjust brings a resource to what its
# configuration says from whatever state it is in, so it is tried then,
# up to 5 times.
drbd_bring() {
	local i
	drbd "$1" "$2" && return 0
	for ((i = 0; i < 5; i++)); do
		sleep 2
		drbd adjust "$2" && return 0
	done
	return 1
}

# quiet NAME ARGS...: NAME ARGS without the job's trace of each step (a
# wait's loop), the trace back on after it
quiet() {
	local rc
	{ set +x; } 2>/dev/null
	"$@"
	rc=$?
	set -x
	return $rc
}

drbd_wait() {
	quiet drbd_wait_loop "$@"
}

drbd_wait_loop() {
	local i
	for ((i = 0; i < $2 * 2; i++)); do
		grep -Eq "$1" /proc/drbd && return 0
		sleep 0.5
	done
	echo "guest $NAME: /proc/drbd did not match '$1' in $2 s:"
	cat /proc/drbd
	return 1
}

# The peer's snapshot goes through the share, not ssh: under the emulator
# an ssh login took about 9 s, a request file about 1 s.
drbd_snap() {
	local peer=n1
	[ "$NAME" = n1 ] && peer=n2
	cat /proc/drbd >"$SHARE/drbd/$1-$NAME"
	touch "$SHARE/drbd/$1.want"
	quiet wait_for "$SHARE/drbd/$1-$peer" 120
}

drbd_serve() {
	quiet drbd_serve_loop "$@"
}

drbd_serve_loop() {
	local i w label
	for ((i = 0; i < $2 * 5; i++)); do
		[ -e "$1" ] && return 0
		for w in "$SHARE"/drbd/*.want; do
			[ -e "$w" ] || continue
			label=$(basename "$w" .want)
			cat /proc/drbd >"$SHARE/drbd/.$label.tmp"
			mv "$SHARE/drbd/.$label.tmp" "$SHARE/drbd/$label-$NAME"
			rm "$w"
		done
		sleep 0.2
	done
	echo "guest $NAME: no '$1' after $2 s"
	return 1
}

lvm_setup() {
	# No udev to make the device nodes or say when they are there: LVM
	# makes them itself. No daemons: nothing runs but the job.
	export LVM_SYSTEM_DIR=/run/lvm-pfsbench DM_DISABLE_UDEV=1
	mkdir -p "$LVM_SYSTEM_DIR"
	cat >"$LVM_SYSTEM_DIR/lvm.conf" <<-CONF
	devices {
	use_devicesfile = 0
	obtain_device_list_from_udev = 0
	}
	activation {
	udev_sync = 0
	udev_rules = 0
	monitoring = 0
	}
	global {
	use_lvmpolld = 0
	event_activation = 0
	}
	CONF
}

lvm_wait_sync() {
	quiet lvm_wait_sync_loop "$@"
}

lvm_wait_sync_loop() {
	local i p
	for ((i = 0; i < $2 * 2; i++)); do
		p=$(lvs --noheadings -o copy_percent "$1" | tr -d ' ')
		[ "$p" = 100.00 ] && return 0
		sleep 0.5
	done
	echo "guest $NAME: $1 at copy_percent '$p' after $2 s"
	return 1
}
