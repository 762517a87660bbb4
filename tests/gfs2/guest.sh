#!/bin/bash
# guest.sh - init (pid 1) of a GFS2 test's virtual machine, started by the
# initramfs of tests/gfs2/lib.sh on this machine's root (read-only, under an
# overlay on a tmpfs). It mounts what a system needs, the read-write share
# (pfs_share= on the kernel command line) at the same path as on the host,
# runs the job the test wrote there, $SHARE/<pfs_name>.job, with its output
# in $SHARE/<name>.log and its exit status in $SHARE/<name>.status, and powers
# off. The job may use:
#   pfs_run NAME DIR ARGS...   pfsbench ARGS under mpirun (MPIRUN_OPTS,
#                              default 2 local ranks) in $SHARE, output in
#                              $SHARE/NAME.out, .err, .rc; DIR listed into
#                              NAME.before and NAME.after (DIR -: none, for
#                              a device). With PFS_NAMES
#                              (node names), one rank a name, each with
#                              PFSBENCH_NODENAME set to it, in that order.
#                              PFS_PROG runs a launcher (dm, perf_matrix)
#                              instead of pfsbench
#   node_net ADDR              eth0 up with ADDR/24
#   wait_for FILE SECONDS      until FILE exists (another guest's signal)
#   node_up                    node n<ID> of the two-node pair: eth0 at
#                              10.99.0.<ID>, /etc/hosts, sshd (keys in
#                              $SHARE/ssh)
#   cluster_up                 node_up, then corosync (two_node; token
#                              timeout COROSYNC_TOKEN ms, default 3000),
#                              dlm_controld, and the GFS2 on /dev/vda
#                              mounted at /mnt/gfs2
#   gluster_up VOLUME          glusterd and a volume of two bricks (ext3 on
#                              /dev/vda and /dev/vdb), profile on, mounted
#                              at /mnt/gluster
#   stats_snap NAME            GFS2's glstats and sbstats into
#                              $SHARE/stats/$NAME-<node>.{glstats,sbstats}
#   stats_snap_pair NAME       n1 only: the same of both nodes (n2's over ssh)
# Owns nothing outside the guest but the share's files the job names.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
read -r -a words </proc/cmdline
for a in "${words[@]}"; do
	case $a in
	pfs_share=*) SHARE=${a#pfs_share=} ;;
	pfs_name=*) NAME=${a#pfs_name=} ;;
	esac
done
export SHARE NAME
# The overlay's upper layer is memory already; /run and /dev/shm start
# empty, not as the host's copies (corosync's IPC, libqb, needs /dev/shm).
# /tmp stays the host's: the share, a build or pfsbench may be there.
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /dev/shm /dev/pts /sys/kernel/config
mount -t tmpfs tmpfs /dev/shm
mount -t devpts devpts /dev/pts
mount -t configfs configfs /sys/kernel/config
mount -t debugfs debugfs /sys/kernel/debug
mkdir -p "$SHARE"
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 share "$SHARE" || {
	echo "guest: cannot mount the share at '$SHARE'"
	busybox poweroff -f
}
hostname "$NAME"
ip link set lo up
# The harness runs Open MPI as root; pfsbench never sets these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
PFSBENCH=$(sed -n 's/^pfsbench=//p' "$SHARE/env")

node_net() {
	ip addr add "$1/24" dev eth0 && ip link set eth0 up
}

wait_for() {
	local i
	for ((i = 0; i < $2 * 5; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.2
	done
	echo "guest $NAME: no '$1' after $2 s"
	return 1
}

node_up() {
	local id=${NAME#n}
	node_net "10.99.0.$id" || return 1
	printf '10.99.0.%s n%s\n' 1 1 2 2 >>/etc/hosts
	mkdir -p /run/sshd
	/usr/sbin/sshd -f "$SHARE/ssh/sshd_config" -o "ListenAddress=10.99.0.$id" -E "$SHARE/$NAME-sshd.log"
}

cluster_up() {
	local i
	node_up || return 1
	mkdir -p /etc/corosync /var/lib/corosync /var/log/cluster /dev/misc
	# corosync's parser takes one key a line, nothing after a "{"
	cat >/etc/corosync/corosync.conf <<-CONF
	totem {
	version: 2
	cluster_name: pfsbench
	transport: knet
	crypto_cipher: none
	crypto_hash: none
	token: ${COROSYNC_TOKEN:-3000}
	}
	nodelist {
	node {
	ring0_addr: 10.99.0.1
	name: n1
	nodeid: 1
	}
	node {
	ring0_addr: 10.99.0.2
	name: n2
	nodeid: 2
	}
	}
	quorum {
	provider: corosync_votequorum
	two_node: 1
	}
	logging {
	to_logfile: yes
	logfile: $SHARE/$NAME-corosync.log
	to_stderr: no
	to_syslog: no
	}
	CONF
	corosync || return 1
	for ((i = 0; i < 300; i++)); do
		corosync-quorumtool -s 2>/dev/null | grep -q '^Quorate: *Yes' && break
		sleep 0.2
	done
	corosync-quorumtool -s || return 1
	# With no udev, the dlm's devices are not where dlm_controld looks.
	for i in dlm-control dlm-monitor dlm_plock; do
		ln -sf "../$i" "/dev/misc/$i"
	done
	# No fencing device can exist here: recovery goes on without one.
	dlm_controld --enable_fencing 0 || return 1
	for ((i = 0; i < 300; i++)); do
		dlm_tool status >/dev/null 2>&1 && break
		sleep 0.2
	done
	dlm_tool status || return 1
	# dlm_controld answers dlm_tool before it has given the kernel this
	# node's address (configfs comms/<nodeid>/local), and a mount before
	# that fails: "dlm: no local IP address has been set", error -107 (a
	# quiet check-gfs2 run, issue 24). Wait for it, and try the mount
	# again a few times.
	for ((i = 0; i < 300; i++)); do
		grep -qsx 1 /sys/kernel/config/dlm/cluster/comms/*/local && break
		sleep 0.2
	done
	mkdir -p /mnt/gfs2
	for ((i = 0; i < 5; i++)); do
		mount -t gfs2 /dev/vda /mnt/gfs2 && return 0
		sleep 2
	done
	return 1
}

# One guest's GlusterFS: glusterd's state stays in the overlay, and its
# port is the guest's own. Two bricks, ext3 on the guest's two disks, in a
# distribute volume named so that pfsbench's probe finds it, profiling on.
# (Across two guests, glusterd's peer probe hung for minutes under the
# emulator; one guest keeps the comparison to what can be run.)
gluster_up() {
	local vol=$1 i
	# under the emulator glusterd takes minutes where it takes seconds
	g() { gluster --mode=script --timeout=600 "$@"; }
	node_net 10.99.0.1 || return 1
	echo "10.99.0.1 n1" >>/etc/hosts
	mkdir -p /bricks/1 /bricks/2 /mnt/gluster /run/glusterd-state
	mount -t ext3 /dev/vda /bricks/1 && mount -t ext3 /dev/vdb /bricks/2 &&
		mkdir /bricks/1/b /bricks/2/b || return 1
	# a state directory of its own: whatever the host's /var/lib/glusterd holds
	cat >/run/glusterd.vol <<-VOL
	volume management
	type mgmt/glusterd
	option working-directory /run/glusterd-state
	option transport-type socket
	option transport.socket.listen-port 24007
	option ping-timeout 0
	option event-threads 1
	end-volume
	VOL
	glusterd -f /run/glusterd.vol -l "$SHARE/$NAME-glusterd.log" || return 1
	for ((i = 0; i < 600; i++)); do
		g volume info >/dev/null 2>&1 && break
		sleep 1
	done
	g volume create "$vol" n1:/bricks/1/b n1:/bricks/2/b force && g volume start "$vol" &&
		g volume profile "$vol" start || return 1
	mount -t glusterfs -o "log-file=$SHARE/$NAME-mount.log" "n1:/$vol" /mnt/gluster
}

stats_snap() {
	local d
	mkdir -p "$SHARE/stats"
	for d in /sys/kernel/debug/gfs2/*/; do
		cat "$d/glstats" >"$SHARE/stats/$1-$NAME.glstats"
		cat "$d/sbstats" >"$SHARE/stats/$1-$NAME.sbstats"
	done
}

stats_snap_pair() {
	stats_snap "$1"
	# shellcheck disable=SC2016 # expanded on n2
	ssh -F "$SHARE/ssh/ssh_config" n2 'cat /sys/kernel/debug/gfs2/*/sbstats' >"$SHARE/stats/$1-n2.sbstats"
}

pfs_run() {
	local name=$1 dir=$2 cmd=() n opts=${MPIRUN_OPTS:---oversubscribe -np 2} prog=${PFS_PROG:-$PFSBENCH} -
	shift 2
	set +x # the job's trace is not the run's stderr
	[ "$dir" = - ] || (cd "$dir" && find . | sort) >"$SHARE/$name.before"
	if [ -n "${PFS_NAMES:-}" ]; then
		opts=${MPIRUN_OPTS:---oversubscribe}
		for n in $PFS_NAMES; do
			[ ${#cmd[@]} -gt 0 ] && cmd+=(:)
			cmd+=(-np 1 -x "PFSBENCH_NODENAME=$n" "$prog" "$@")
		done
	else
		cmd=("$prog" "$@")
	fi
	# shellcheck disable=SC2086 # MPIRUN_OPTS is a list of words
	(cd "$SHARE" && timeout -k 5 "${PFS_TIMEOUT:-400}" mpirun $opts "${cmd[@]}") \
		>"$SHARE/$name.out" 2>"$SHARE/$name.err"
	echo $? >"$SHARE/$name.rc"
	[ "$dir" = - ] || (cd "$dir" && find . | sort) >"$SHARE/$name.after"
}

(
	set -x
	# shellcheck disable=SC1090 # written by the test
	. "$SHARE/$NAME.job"
) >"$SHARE/$NAME.log" 2>&1
echo $? >"$SHARE/$NAME.status"
sync
busybox poweroff -f
