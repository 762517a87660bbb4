#!/bin/bash
# lib.sh - common start of the GFS2 tests (sourced). This machine's kernel
# has no gfs2 or dlm, so the tests boot Debian's kernel in QEMU's emulator
# (TCG: a KVM guest hangs at boot here) with a busybox initramfs the test
# builds. The guest's root is this machine's root over 9p, read-only, under
# an overlay on a tmpfs, so pfsbench, Open MPI, gfs2-utils, corosync and
# sshd come from here with no image to build. A second 9p share, read-write,
# at the same path in every guest ($SHARE), carries jobs in and results,
# reports and logs out. Guests have no network but, with two VMs, a private
# link between them (a QEMU socket netdev on 127.0.0.1).
#
# Owns: the kernel cache $GFS2_CACHE (Debian's kernel package, and what of
# it the guests need: vmlinuz and the modules, in load order), and, under
# $SCRATCH (removed at exit), the initramfs, the shared directory, disk
# images and the VMs, which are killed by pid at exit.
#
# Gives, on top of tests/fs/lib.sh (check, finish, skip, prov, fs_lock,
# check_create_unlink, check_tree, need_pkg, pfs_need_root, $SCRATCH):
#   gfs2_begin NODES          root, packages (NODES 2: the cluster's too), the
#                             lock, the kernel, the initramfs
#   vm_begin WHAT PKG...      the same for any test of VMs: root (WHAT says
#                             what needs it), the Debian packages PKG..., the
#                             lock, the kernel, the initramfs. The guests load
#                             GFS2_MODULES and then VM_MODULES_EXTRA (set by
#                             the test before; cached apart from GFS2's own)
#   vm_start NAME ARGS...     boots VM NAME (QEMU ARGS added); pid in VM_PID[NAME];
#                             VM_CPUS and VM_MEM (MiB) size it (default 1, 1024)
#   vm_wait NAME SECONDS      waits for VM NAME to power off; 1 when it did not
#   vm_kill NAME              kills VM NAME now (kill -9 of its QEMU)
#   vm_disk FILE SIZE MKFS... a sparse raw image, made GFS2 by mkfs.gfs2 MKFS...;
#                             $VM_DISK: the QEMU arguments that attach it
#   vm_disk_ext3 FILE SIZE    the same, made ext3 by mkfs.ext3
#   vm_blank FILE SIZE ID     a raw image of zeros, written (not sparse);
#                             $VM_DISK attaches it as QEMU drive ID (one ID
#                             a disk of a VM; the guest sees them as vda,
#                             vdb, ... in order)
#   vm_result NAME            $OUT, $ERR, $RC of run NAME a guest made (guest.sh)
#   vm_cluster_start          two VMs, n1 and n2, sharing a lock_dlm GFS2 and
#                             a private link; ssh keys made for them
#   vm_pair_start N1ARGS... -- N2ARGS...
#                             the same two VMs with QEMU arguments of each's
#                             own (disks) and no GFS2
#   MPIRUN_2NODES             mpirun options for n1 to start ranks on both
#   MPIRUN_HOSTS              the same without -np, for one app context a
#                             rank (guest.sh's PFS_NAMES)
#   vm_keep NAME FILE...      copies FILEs to $GFS2_KEEP/NAME, for reading later
#   sb_deltas BEFORE AFTER    what changed between two sbstats files
#   sb_sum BEFORE AFTER STAT  one statistic's change (dlm or queue), all types
#   fs_steps FILE             each step of results FILE: what ran, and each
#                             node's DLM requests and queued holders
# A guest runs $SHARE/NAME.job (bash) as written by the test, with the
# helpers of tests/gfs2/guest.sh, then powers off; its console is
# $SCRATCH/NAME.console.
# shellcheck source-path=SCRIPTDIR
GFS2_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$GFS2_HERE/../fs/lib.sh"

GFS2_CACHE=${GFS2_CACHE:-/var/cache/pfsbench-gfs2}
# What the guest loads from the initramfs, dependencies first (modprobe
# works them out). crc32c_generic before gfs2: libcrc32c will not load
# without a crc32c. ext4 (which mounts ext3) and fuse (GlusterFS's client)
# for compare.sh's runs of other filesystems in the same guests.
GFS2_MODULES=(virtio_pci virtio_blk virtio_net 9pnet_virtio 9p overlay crc32c_generic configfs dlm gfs2
	ext4 fuse)
# More modules a test's guests load after those (tests/blockdev: drbd,
# device-mapper, md); set before vm_begin.
VM_MODULES_EXTRA=()
SHARE=$SCRATCH/share
declare -A VM_PID=()

gfs2_begin() {
	local cluster=()
	[ "$1" -gt 1 ] && cluster=(corosync dlm-controld openssh-server openssh-client)
	vm_begin "booting virtual machines with GFS2" gfs2-utils "${cluster[@]}"
}

vm_begin() {
	local t0=$SECONDS
	pfs_need_root "$1"
	shift
	need_pkg qemu-system-x86 busybox-static "$@"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 after installing qemu-system-x86"
	# QEMU's processes and the CPU: one GFS2 test at a time on this machine.
	fs_lock gfs2
	T_CLEANUP+=("vm_kill_all")
	trap 'exit 130' INT TERM
	gfs2_kernel
	gfs2_initramfs
	mkdir -m 700 "$SHARE"
	echo "pfsbench=$PFSBENCH" >"$SHARE/env"
	echo "# kernel $GFS2_KVER and initramfs ready after $((SECONDS - t0)) s"
}

# gfs2_kernel: sets GFS2_KVER and GFS2_KDIR, the cache's directory with
# vmlinuz, the modules and their load order. Reuses the cache; fills it from
# one package named exactly (a pattern would fetch every flavour, 1.4 GB).
# A module list with VM_MODULES_EXTRA has a directory of its own, so that
# tests of either list do not unpack the package again for each other.
gfs2_kernel() {
	local pkg deb tmp order m d mods=("${GFS2_MODULES[@]}" "${VM_MODULES_EXTRA[@]}") tag=
	[ ${#VM_MODULES_EXTRA[@]} -eq 0 ] || tag=-$(printf '%s' "${mods[*]}" | cksum | cut -d' ' -f1)
	for d in "$GFS2_CACHE"/*/complete; do
		[ -e "$d" ] || continue
		d=$(dirname "$d")
		# made for another module list: made again below
		[ "$(cat "$d/modules")" = "${mods[*]}" ] || continue
		GFS2_KDIR=$d GFS2_KVER=$(cat "$d/version")
		return 0
	done
	pkg=$(gfs2_kernel_pkg)
	[ -n "$pkg" ] || {
		apt-get update -q >&2
		pkg=$(gfs2_kernel_pkg)
	}
	[ -n "$pkg" ] || skip "apt knows no linux-image-6.1.0-*-amd64-unsigned package (Debian's kernel with gfs2)"
	mkdir -p "$GFS2_CACHE"
	deb=$(find "$GFS2_CACHE" -maxdepth 1 -name "${pkg}_*.deb" | sort -V | tail -1)
	if [ -z "$deb" ]; then
		echo "# downloading $pkg into $GFS2_CACHE"
		# apt's sandbox user cannot write root's cache directory; the
		# warning saying so is noise
		(cd "$GFS2_CACHE" && apt-get download -q "$pkg" 2>&1 | grep -v unsandboxed >&2)
		deb=$(find "$GFS2_CACHE" -maxdepth 1 -name "${pkg}_*.deb" | sort -V | tail -1)
		[ -n "$deb" ] || skip "apt-get download $pkg failed"
	fi
	tmp=$(mktemp -d "$GFS2_CACHE/tmp.XXXXXX")
	T_CLEANUP+=("rm -rf '$tmp'")
	# a download cut short leaves a broken package: the next run fetches it again
	dpkg-deb -x "$deb" "$tmp/x" || { rm -f "$deb"; skip "cannot unpack '$deb' (removed)"; }
	GFS2_KVER=$(basename "$(find "$tmp/x/lib/modules" -mindepth 1 -maxdepth 1 -type d | head -1)")
	depmod -b "$tmp/x" "$GFS2_KVER" || skip "depmod of $GFS2_KVER failed"
	mkdir "$tmp/k"
	cp "$tmp/x/boot/vmlinuz-$GFS2_KVER" "$tmp/k/vmlinuz"
	# The insmod lines of every module, dependencies first, each once;
	# not crc32c-intel, which needs SSE 4.2, which TCG's CPU lacks.
	order=$(for m in "${mods[@]}"; do
		modprobe -d "$tmp/x" -S "$GFS2_KVER" --show-depends "$m" || echo "missing $m"
	done | awk '$1 == "insmod" && $2 !~ /crc32c-intel/ && !seen[$2]++ {print $2}
		$1 == "missing" {print; exit 1}') ||
		skip "kernel $GFS2_KVER lacks a module: $(tail -1 <<<"$order")"
	while read -r m; do
		cp "$m" "$tmp/k/"
		basename "$m"
	done <<<"$order" >"$tmp/k/order"
	echo "$GFS2_KVER" >"$tmp/k/version"
	echo "${mods[*]}" >"$tmp/k/modules"
	touch "$tmp/k/complete"
	d=$GFS2_CACHE/$(basename "$deb" .deb)$tag
	rm -rf "$d"
	mv "$tmp/k" "$d"
	GFS2_KDIR=$d
}

# The newest linux-image-6.1.0-N-amd64-unsigned apt knows, or nothing.
gfs2_kernel_pkg() {
	apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' 2>/dev/null |
		awk '{print $1}' | sort -V | tail -1
}

# gfs2_initramfs: $SCRATCH/initramfs: busybox, the modules, and an /init
# that loads them, mounts this machine's root read-only over 9p under an
# overlay on a tmpfs, and switches to it, running the pfs_guest= script of
# the kernel command line.
gfs2_initramfs() {
	local r=$SCRATCH/initramfs.d
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,lower,rw,newroot,modules}
	cp /bin/busybox "$r/bin/busybox"
	cp "$GFS2_KDIR"/*.ko "$GFS2_KDIR/order" "$r/modules/"
	mknod "$r/dev/console" c 5 1
	cat >"$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do
	insmod "/modules/$m" || echo "initramfs: cannot load $m"
done </modules/order
guest=
for a in $(cat /proc/cmdline); do
	case $a in pfs_guest=*) guest=${a#pfs_guest=} ;; esac
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 hostroot /lower &&
	mount -t tmpfs -o mode=755 rw /rw && mkdir /rw/upper /rw/work &&
	mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || {
	echo "initramfs: cannot mount the host's root"
	poweroff -f
}
for d in proc sys dev; do mount --move "/$d" "/newroot/$d"; done
exec switch_root /newroot /bin/bash "$guest"
INIT
	chmod +x "$r/init"
	(cd "$r" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1) >"$SCRATCH/initramfs"
}

# vm_start NAME ARGS...: boots VM NAME, $VM_MEM MiB (1024), $VM_CPUS CPUs
# (1; each an emulator thread of its own), no network but what ARGS add,
# running $SHARE/NAME.job; console to $SCRATCH/NAME.console.
vm_start() {
	local name=$1
	shift
	qemu-system-x86_64 -accel tcg,thread=multi -nodefaults -no-user-config -display none -monitor none \
		-no-reboot -m "${VM_MEM:-1024}" -smp "${VM_CPUS:-1}" -name "pfsbench-$name" \
		-serial "file:$SCRATCH/$name.console" \
		-kernel "$GFS2_KDIR/vmlinuz" -initrd "$SCRATCH/initramfs" \
		-append "console=ttyS0 loglevel=4 panic=-1 no_timer_check pfs_guest=$GFS2_HERE/guest.sh pfs_share=$SHARE pfs_name=$name" \
		-virtfs local,path=/,mount_tag=hostroot,security_model=passthrough,readonly=on,multidevs=remap \
		-virtfs "local,path=$SHARE,mount_tag=share,security_model=passthrough,multidevs=remap" \
		"$@" >"$SCRATCH/$name.qemu" 2>&1 8>&- &
	VM_PID[$name]=$!
}

# vm_cluster_start: boots n1 and n2, which run $SHARE/n1.job and n2.job
# (guest.sh's cluster_up joins the cluster). They share one raw image made
# lock_dlm GFS2 with 2 journals, and a link of their own: a QEMU socket on
# 127.0.0.1 that n1 listens on and n2 connects to. The ssh keys, made here,
# serve only these guests; sshd listens on the private link only.
vm_cluster_start() {
	vm_disk "$SCRATCH/gfs2.img" 1G -p lock_dlm -t pfsbench:gfs -j 2 -J 16
	vm_pair_start "${VM_DISK[@]}" -- "${VM_DISK[@]}"
}

# vm_pair_start N1ARGS... -- N2ARGS...: boots n1 and n2 with their own QEMU
# arguments (disks) and the private link, ssh keys made for them. The
# guests join with guest.sh's node_up (cluster_up for GFS2).
vm_pair_start() {
	local port n i a n1=() n2=() side=1
	for a in "$@"; do
		if [ "$a" = -- ]; then side=2
		elif [ $side = 1 ]; then n1+=("$a")
		else n2+=("$a"); fi
	done
	# a second pair in the same test keeps the first one's keys
	[ -d "$SHARE/ssh" ] || vm_pair_keys
	# a free port: QEMU fails when it is taken, and another is tried
	for ((n = 0; n < 20; n++)); do
		port=$((20000 + RANDOM % 30000))
		vm_start n1 "${n1[@]}" -netdev "socket,id=n0,listen=127.0.0.1:$port" \
			-device virtio-net-pci,netdev=n0,mac=52:54:00:99:00:01
		for ((i = 0; i < 50; i++)); do
			ss -Hltn "sport = :$port" | grep -q . && break
			kill -0 "${VM_PID[n1]}" 2>/dev/null || break
			sleep 0.1
		done
		ss -Hltn "sport = :$port" | grep -q . && break
		vm_kill n1
	done
	vm_start n2 "${n2[@]}" -netdev "socket,id=n0,connect=127.0.0.1:$port" \
		-device virtio-net-pci,netdev=n0,mac=52:54:00:99:00:02
}

# vm_pair_keys: $SHARE/ssh, the keys and configurations of sshd and ssh in
# the pair's guests.
vm_pair_keys() {
	mkdir -m 700 "$SHARE/ssh"
	ssh-keygen -q -t ed25519 -N '' -C pfsbench-gfs2-host -f "$SHARE/ssh/host_key"
	ssh-keygen -q -t ed25519 -N '' -C pfsbench-gfs2-user -f "$SHARE/ssh/id"
	cp "$SHARE/ssh/id.pub" "$SHARE/ssh/authorized_keys"
	cat >"$SHARE/ssh/sshd_config" <<-CONF
	HostKey $SHARE/ssh/host_key
	AuthorizedKeysFile $SHARE/ssh/authorized_keys
	PermitRootLogin prohibit-password
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	UsePAM no
	StrictModes no
	PidFile /run/sshd.pid
	CONF
	cat >"$SHARE/ssh/ssh_config" <<-CONF
	IdentityFile $SHARE/ssh/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
	CONF
}

# n1 starts one rank on each node over ssh, node order n1, n2; MPI and its
# daemons use the private link only.
# shellcheck disable=SC2034 # for the tests
MPIRUN_HOSTS="--host n1,n2 --mca btl tcp,self --mca btl_tcp_if_include eth0
	--mca oob_tcp_if_include eth0 --mca plm_rsh_args -F$SHARE/ssh/ssh_config"
# shellcheck disable=SC2034 # for the tests
MPIRUN_2NODES="-np 2 $MPIRUN_HOSTS"

# vm_wait NAME SECONDS: 0 when VM NAME powered off within SECONDS. A
# watchdog against a guest that hangs, never a judge of speed: TCG guests
# run 2-3x slower on a busy host (the stop-37 check of two-vms.sh ran 626 s
# at load 17 against 540 allowed, its work done), so the callers give
# about three times what a quiet machine takes.
vm_wait() {
	local pid=${VM_PID[$1]} i
	for ((i = 0; i < $2 * 5; i++)); do
		kill -0 "$pid" 2>/dev/null || {
			wait "$pid" 2>/dev/null
			return 0
		}
		sleep 0.2
	done
	return 1
}

vm_kill() {
	kill -9 "${VM_PID[$1]}" 2>/dev/null
	wait "${VM_PID[$1]}" 2>/dev/null
	return 0
}

vm_kill_all() {
	local name
	for name in "${!VM_PID[@]}"; do
		vm_kill "$name"
	done
}

# vm_disk FILE SIZE MKFS-OPTIONS...: a sparse raw image made GFS2 here
# (mkfs.gfs2 works on a file); removed with $SCRATCH.
vm_disk() {
	local img=$1 size=$2
	shift 2
	vm_image "$img" "$size" mkfs.gfs2 -O "$@"
}

# vm_disk_ext3 FILE SIZE: the same, ext3, attached the same way.
vm_disk_ext3() {
	vm_image "$1" "$2" mkfs.ext3 -q -F
}

# vm_image FILE SIZE MKFS...: FILE made by MKFS... FILE; $VM_DISK attaches it.
vm_image() {
	local img=$1 size=$2
	shift 2
	truncate -s "$size" "$img"
	"$@" "$img" >"$img.mkfs" 2>&1 || { not_ok "$*: $(tail -1 "$img.mkfs")"; finish; }
	vm_drive "$img" d0
}

# vm_blank FILE SIZE ID: FILE, SIZE of zeros; $VM_DISK attaches it as drive
# ID. The zeros are written: the host allocates a sparse image's blocks at
# their first write, which then costs more than every later one, and would
# favour whichever run of a comparison comes second.
vm_blank() {
	dd if=/dev/zero of="$1" bs=1M count="$2" iflag=count_bytes conv=fsync status=none ||
		{ not_ok "cannot write $2 of zeros to $1"; finish; }
	vm_drive "$1" "$3"
}

# vm_drive FILE ID: $VM_DISK, the QEMU arguments that attach FILE as drive ID.
vm_drive() {
	# Two VMs write a GFS2 at once: no host cache between them, no image
	# lock. Every image is attached the same way, so that runs of
	# different filesystems meet the same disk.
	# shellcheck disable=SC2034,SC2054 # for the tests; QEMU's commas
	VM_DISK=(-drive "file=$1,if=none,id=$2,format=raw,cache=none,file.locking=off"
		-device "virtio-blk-pci,drive=$2,share-rw=on")
}

# vm_result NAME: the run NAME a guest made with guest.sh's pfs_run:
# $OUT, $ERR, $RC; dir_unchanged then compares the guest's listings.
vm_result() {
	OUT=$SHARE/$1.out ERR=$SHARE/$1.err RC=$(cat "$SHARE/$1.rc" 2>/dev/null || echo 255)
	VM_RUN=$1
}

# dir_unchanged DIR (tests/mpi/lib.sh's, for a DIR inside a guest): the
# listing guest.sh took of DIR after run $VM_RUN is the one it took before.
dir_unchanged() {
	diff "$SHARE/$VM_RUN.after" "$SHARE/$VM_RUN.before" >/dev/null
}

# vm_keep NAME FILE...: FILEs (results files, reports, statistics) outlive
# $SCRATCH in $GFS2_KEEP/NAME (default /tmp/pfsbench-gfs2/NAME), replacing
# what an earlier run kept there.
vm_keep() {
	local d=${GFS2_KEEP:-/tmp/pfsbench-gfs2}/$1
	shift
	rm -rf "$d"
	mkdir -p "$d"
	cp -r "$@" "$d/"
	echo "# kept in $d: $(cd "$d" && echo *)"
}

# sb_deltas BEFORE AFTER: "TYPE dlm: +N TYPE queue: +N ..." for every
# counter of two sbstats files that changed (summed over CPUs). For the
# log; pfsbench's own parser is src/target/fsstats.c.
sb_deltas() {
	awk '$2 == "dlm:" || $2 == "queue:" {
		s = 0; for (i = 3; i <= NF; i++) s += $i
		if (FNR == NR) b[$1 " " $2] = s; else if (s != b[$1 " " $2]) printf "%s %s %+d  ", $1, $2, s - b[$1 " " $2]
	}' "$1" "$2"
}

# sb_sum BEFORE AFTER STAT: how much STAT (dlm or queue) grew between two
# sbstats files, summed over glock types and CPUs.
sb_sum() {
	awk -v stat="$3:" '$2 == stat {
		for (i = 3; i <= NF; i++) if (FNR == NR) b += $i; else a += $i
	} END {print a - b}' "$1" "$2"
}

# fs_steps FILE: one line a step of results FILE, in the order the steps
# ran, tab-separated: test, iteration, step, what ran ("Create on n2,
# Unlink on n1"), then for each node in node order: its name, 1 when it ran
# an op in the step, 1 when the step has GFS2 counters of it (a node whose
# counters did not move has none: zero deltas are not stored; the block
# device's blk.* and drbd.* beside them are not counted here), its DLM
# requests and its queued holders (`export --fs-stats`, summed over glock
# types).
fs_steps() {
	awk -F, '
	FNR == 1 {f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next}
	f == 1 {
		k = $c[1, "test"] SUBSEP $c[1, "iteration"] SUBSEP $c[1, "step"]
		n = $c[1, "node_index"]
		name[n] = $c[1, "node"]
		if (n + 1 > nodes) nodes = n + 1
		if (!(k in what)) {order[++steps] = k; what[k] = ""}
		w = $c[1, "op"] " on " $c[1, "node"]
		if (!((k, w) in did)) {did[k, w]; what[k] = what[k] (what[k] == "" ? "" : ", ") w}
		ran[k, n] = 1
		next
	}
	{
		k = $c[2, "test"] SUBSEP $c[2, "iteration"] SUBSEP $c[2, "step"]
		n = $c[2, "node_index"]
		if ($c[2, "name"] !~ /\.(dlm_requests|queued)$/) next
		has[k, n] = 1
		if ($c[2, "name"] ~ /\.dlm_requests$/) dlm[k, n] += $c[2, "value"]
		if ($c[2, "name"] ~ /\.queued$/) queued[k, n] += $c[2, "value"]
	}
	END {
		for (s = 1; s <= steps; s++) {
			k = order[s]
			split(k, p, SUBSEP)
			line = p[1] "\t" p[2] "\t" p[3] "\t" what[k]
			for (n = 0; n < nodes; n++)
				line = line "\t" name[n] "\t" ((k, n) in ran) "\t" ((k, n) in has) "\t" dlm[k, n] + 0 "\t" queued[k, n] + 0
			print line
		}
	}' <("$PFSBENCH" export "$1" --csv | tr -d '\r') <("$PFSBENCH" export "$1" --csv --fs-stats | tr -d '\r')
}

# vm_console NAME: the end of VM NAME's console and job log, for a failed check.
vm_console() {
	echo "--- $1: console (end)"
	tail -n 30 "$SCRATCH/$1.console" 2>/dev/null
	echo "--- $1: job log (end)"
	tail -n 40 "$SHARE/$1.log" 2>/dev/null
}
