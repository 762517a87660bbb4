#!/bin/bash
# drbd.sh - DRBD's dm benchmark (the seed drbd-dm-throughput.txt) on a
# two-node DRBD of virtual machines (tests/blockdev/lib.sh): each VM has a
# disk of its own, /dev/vda, and the two replicate it over their private
# link, DRBD 8.4 (Debian's kernel) driven by Debian's drbd-utils, protocol
# C. The test brings the resource up (create-md, up, primary --force on n1,
# the initial sync to UpToDate/UpToDate) and runs the dm launcher's seed
# line, `dm -a 0 -b 1M -s SIZE -y -m -p -o TARGET`, on n1:
#   lower         the lower-level device /dev/vda, before DRBD is on it
#   connected1    /dev/drbd0, connected (the first writes since it became
#   connected2    Primary), then the same again at once (the seed's
#                 warm-up: the activity log is hot for the second)
#   disconnected  /dev/drbd0 after `drbdadm disconnect` (then connect, and
#                 the resync of what it wrote)
#   xfs           a new file on xfs on /dev/drbd0
# and prints `pfsbench compare` of connected1 against connected2.
# Checks: every run exits 0, prints its 32 R marks and dm's throughput line
# of the whole size, which agrees with its results file (complete, every
# byte); /proc/drbd says Connected Primary/Secondary UpToDate/UpToDate,
# protocol C before the runs on DRBD; a connected run's writes were sent
# (ns) and written on the peer (dw), a disconnected one's were written on
# n1 only; the first connected run updated the activity log (al) and the
# second did not (the seed's warm-up); the xfs run's results file says XFS
# on /dev/drbd0. No rate is
# judged: under TCG the figures are the emulator's (docs/blockdev.md).
# Prints each results file's `show --fs-stats` and provenance, and keeps
# them in $GFS2_KEEP/drbd (default /tmp/pfsbench-blockdev/drbd). Root
# only; exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

t0=$SECONDS
# openssh-client: vm_pair_start makes the pair's ssh keys (unused here)
blockdev_begin "booting virtual machines with DRBD" drbd-utils xfsprogs openssh-client
mkdir "$SHARE/drbd"
# dm's size per run, and each node's disk: room for xfs's log and DRBD's
# metadata at its end
S=32M BYTES=$((32 << 20)) DISK=96M
cat >"$SHARE/drbd.conf" <<CONF
global {
	usage-count no;
}
resource pfs {
	net {
		protocol C;
		# TCG guests on a busy host stall for seconds: with DRBD's
		# defaults (an answer to its ping within 0.5 s, to a request
		# within 6 s) a CI run lost the connection during xfs's Write
		# and resynced (ns +288 KiB of 32,768). In 0.1 s: 9 s and 10 s.
		timeout 90;
		ping-timeout 100;
		ping-int 30;
		connect-int 30;
	}
	on n1 {
		device /dev/drbd0;
		disk /dev/vda;
		address 10.99.0.1:7789;
		meta-disk internal;
	}
	on n2 {
		device /dev/drbd0;
		disk /dev/vda;
		address 10.99.0.2:7789;
		meta-disk internal;
	}
}
CONF
M=/mnt/drbd
# n1 runs dm; n2 is the peer. Each run: /proc/drbd of both nodes around it.
cat >"$SHARE/n1.job" <<JOB
set -e
PS4='+ \${SECONDS}s '
. $GFS2_HERE/../blockdev/guest.sh
# n2 serves until n1 is done, also when n1's job fails
trap 'touch $SHARE/n1.done' EXIT
node_net 10.99.0.1
MPIRUN_OPTS="-np 1" PFS_PROG=\$DM
run_dm() {
	local name=\$1 target=\$2
	shift 2
	drbd_snap \$name.before
	pfs_run \$name - -a 0 -b 1M -s $S -y -m -p -o \$target "\$@" --results $SHARE/\$name.h5
	drbd_snap \$name.after
}
# the lower-level device, before DRBD holds it (destructive: --force)
quiet wait_for $SHARE/n2.up 300
run_dm lower /dev/vda --force
drbd create-md pfs
drbd_bring up pfs
drbd_wait ' cs:Connected ' 300
start=\$SECONDS
drbd primary --force pfs
drbd_wait ' ds:UpToDate/UpToDate ' 900
echo "initial sync: \$((SECONDS - start)) s" >$SHARE/sync-time
drbd_snap synced
run_dm connected1 /dev/drbd0 --force
run_dm connected2 /dev/drbd0 --force
drbd disconnect pfs
drbd_wait ' cs:StandAlone ' 60
run_dm disconnected /dev/drbd0 --force
drbd_bring connect pfs
start=\$SECONDS
drbd_wait ' cs:Connected .* ds:UpToDate/UpToDate ' 600
echo "resync: \$((SECONDS - start)) s" >>$SHARE/sync-time
# xfs refuses under 300 MB but for its own test suite, whose variables
# let it make a small one
TEST_DIR=/tmp TEST_DEV=/dev/drbd0 QA_CHECK_FS=1 mkfs.xfs -q /dev/drbd0
mkdir -p $M
mount -t xfs /dev/drbd0 $M
run_dm xfs $M/dummy-out
stat -c %s $M/dummy-out >$SHARE/xfs-size
rm $M/dummy-out
umount $M
drbd secondary pfs
drbd down pfs
JOB
cat >"$SHARE/n2.job" <<JOB
set -e
PS4='+ \${SECONDS}s '
. $GFS2_HERE/../blockdev/guest.sh
node_net 10.99.0.2
drbd create-md pfs
drbd_bring up pfs
touch $SHARE/n2.up
drbd_serve $SHARE/n1.done 1500
drbd down pfs
JOB
vm_blank "$SCRATCH/n1.img" $DISK d0
n1disk=("${VM_DISK[@]}")
vm_blank "$SCRATCH/n2.img" $DISK d0
start=$SECONDS
vm_pair_start "${n1disk[@]}" -- "${VM_DISK[@]}"
check "n1 ran its job and powered off within 1800 s" vm_wait n1 1800
check "n2 powered off" vm_wait n2 300
echo "# the VMs ran $((SECONDS - start)) s; $(tr '\n' ' ' <"$SHARE/sync-time" 2>/dev/null)"
for n in n1 n2; do
	check "$n's job succeeded" test "$(cat "$SHARE/$n.status" 2>/dev/null)" = 0
done
[ "$T_FAILED" -eq 0 ] || { vm_console n1; vm_console n2; }

# drbd_state LABEL NODE: the state line of resource 0 in a /proc/drbd snapshot
drbd_state() {
	sed -n 's/^ *0: //p' "$SHARE/drbd/$1-$2" | awk '{print $1, $2, $3, $4}'
}
# drbd_delta RUN NODE COUNTER: how much a /proc/drbd counter (KiB for ns,
# nr, dw, dr) grew on NODE around RUN
drbd_delta() {
	awk -v k="$3" '{for (i = 1; i <= NF; i++) if (index($i, k ":") == 1) v[FILENAME] = substr($i, length(k) + 2)}
		END {print v[ARGV[2]] - v[ARGV[1]]}' "$SHARE/drbd/$1.before-$2" "$SHARE/drbd/$1.after-$2"
}
# dm_checks NAME: run NAME's output and results file
dm_checks() {
	local name=$1 line mbs us
	vm_result "$name"
	check "$name: dm exits 0" test "$RC" -eq 0
	check "$name: 32 R marks, one a 1 MiB request" test "$(sed -n 1p "$OUT")" = "$(printf 'R%.0s' {1..32})"
	line=$(sed -n 2p "$OUT")
	check "$name: dm's throughput line of $BYTES bytes ('$line')" \
		grep -Eqx "[0-9]+\.[0-9]{2} MB/sec \($BYTES B / [0-9]{2}:[0-9]{2}\.[0-9]{6}\)" <<<"$line"
	check "$name: results file complete" test "$(prov "$SHARE/$name.h5" status)" = complete
	read -r bytes us < <("$PFSBENCH" export "$SHARE/$name.h5" --csv | tr -d '\r' |
		awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} {b += $c["bytes"]; u += $c["elapsed_us"]} END {print b, u}')
	check "$name: the results file's row wrote $BYTES bytes" test "$bytes" = "$BYTES"
	mbs=$(awk -v b="$bytes" -v u="$us" 'BEGIN {if (u > 0) printf "%.2f", b / 1048576 / (u / 1e6)}')
	check "$name: dm's MB/sec is the results file's bytes / time ($mbs)" test "${line%% *}" = "$mbs"
	RATE[$name]=${line%% *}
}
declare -A RATE=()
RUNS=(lower connected1 connected2 disconnected xfs)
for r in "${RUNS[@]}"; do
	dm_checks "$r"
done
check "lower: the run's target is /dev/vda" grep -q -- "-o /dev/vda " <<<"$(prov "$SHARE/lower.h5" command_line)"
check "after the initial sync: Connected Primary/Secondary UpToDate/UpToDate, protocol C" \
	test "$(drbd_state synced n1)" = "cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate C"
check "the peer: Connected Secondary/Primary UpToDate/UpToDate, protocol C" \
	test "$(drbd_state synced n2)" = "cs:Connected ro:Secondary/Primary ds:UpToDate/UpToDate C"
KIB=$((BYTES >> 10))
for r in connected1 connected2; do
	check "$r: n1 was Connected Primary UpToDate/UpToDate" \
		test "$(drbd_state $r.before n1)" = "cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate C"
	check "$r: n1 sent at least the $KIB KiB it wrote (ns +$(drbd_delta "$r" n1 ns))" test "$(drbd_delta "$r" n1 ns)" -ge $KIB
	check "$r: n2 wrote them too (dw +$(drbd_delta "$r" n2 dw))" test "$(drbd_delta "$r" n2 dw)" -ge $KIB
done
# The seed's warm-up: the first writes since n1 became Primary updated the
# activity log (an on-disk transaction for the extents they made hot), the
# same writes again found every extent hot (8 extents of 4 MiB; the log
# holds 1237 by default).
check "connected1: the activity log was updated (al +$(drbd_delta connected1 n1 al))" \
	test "$(drbd_delta connected1 n1 al)" -gt 0
check "connected2: the activity log was hot: no update (al +$(drbd_delta connected2 n1 al))" \
	test "$(drbd_delta connected2 n1 al)" -eq 0
r=disconnected
check "$r: n1 was StandAlone" test "$(drbd_state $r.before n1 | cut -d' ' -f1)" = cs:StandAlone
check "$r: n1 wrote its $KIB KiB (dw +$(drbd_delta "$r" n1 dw))" test "$(drbd_delta "$r" n1 dw)" -ge $KIB
check "$r: and sent nothing (ns +$(drbd_delta "$r" n1 ns))" test "$(drbd_delta "$r" n1 ns)" -eq 0
check "$r: n2 wrote nothing (dw +$(drbd_delta "$r" n2 dw))" test "$(drbd_delta "$r" n2 dw)" -eq 0
check "xfs: reconnected and resynced before it" \
	test "$(drbd_state xfs.before n1)" = "cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate C"
check "xfs: results file: fstype XFS" test "$(prov "$SHARE/xfs.h5" fstype)" = XFS
check "xfs: results file: mount source /dev/drbd0" test "$(prov "$SHARE/xfs.h5" mount_source)" = /dev/drbd0
check "xfs: dm's file held $BYTES bytes" test "$(cat "$SHARE/xfs-size" 2>/dev/null)" = "$BYTES"
# What the results files say of the same runs, from n1's probe
# (docs/filesystems.md, "Block-device counters"): the device and DRBD's
# state at the run's start, and /proc/drbd's and the device's counters
# over the Write step.
check "lower: the node's block device is vda" grep -q '^vda (' <<<"$(nodes_blockdev "$SHARE/lower.h5")"
check "lower: the device wrote its $BYTES bytes in the Write step (blk.write_sectors)" \
	test "$(counter "$SHARE/lower.h5" Write blk.write_sectors)" -ge $((BYTES / 512))
for r in connected1 connected2 disconnected xfs; do
	check "$r: the node's block device is drbd0, DRBD 8.4" \
		grep -q '^drbd0 (147:0); drbd 8\.4 ' <<<"$(nodes_blockdev "$SHARE/$r.h5")"
done
for r in connected1 connected2 xfs; do
	check "$r: the results file says Connected Primary/Secondary UpToDate/UpToDate, protocol C" \
		grep -q 'cs:Connected ro:Primary/Secondary ds:UpToDate/UpToDate protocol C' <<<"$(nodes_blockdev "$SHARE/$r.h5")"
	check "$r: drbd.ns_kib in the Write step: at least the $KIB KiB written" \
		test "$(counter "$SHARE/$r.h5" Write drbd.ns_kib)" -ge $KIB
done
check "disconnected: the results file says StandAlone" \
	grep -q 'cs:StandAlone' <<<"$(nodes_blockdev "$SHARE/disconnected.h5")"
check "disconnected: drbd.dw_kib at least $KIB KiB, drbd.ns_kib 0 in the Write step" \
	test "$(counter "$SHARE/disconnected.h5" Write drbd.dw_kib)" -ge $KIB -a \
	"$(counter "$SHARE/disconnected.h5" Write drbd.ns_kib)" -eq 0
check "connected1: drbd.al moved in the Write step ($(counter "$SHARE/connected1.h5" Write drbd.al))" \
	test "$(counter "$SHARE/connected1.h5" Write drbd.al)" -gt 0
check "connected2: drbd.al did not ($(counter "$SHARE/connected2.h5" Write drbd.al))" \
	test "$(counter "$SHARE/connected2.h5" Write drbd.al)" -eq 0
[ "$T_FAILED" -eq 0 ] || { for r in "${RUNS[@]}"; do vm_result "$r"; show_run; done; }

# The seed's warm-up: the first connected run against the second.
"$PFSBENCH" compare "$SHARE/connected1.h5" "$SHARE/connected2.h5" --fs-stats >"$SHARE/warmup.txt" 2>&1
check "compare of the two connected runs exits 0" test $? -eq 0
check "compare has the Write line" grep -q '^seq  *Write ' "$SHARE/warmup.txt"
check "compare --fs-stats shows the activity log's updates in the first run, none in the second" \
	grep -Eq '^seq +[0-9]+ Write +drbd\.al +[1-9][0-9]* +0 +none$' "$SHARE/warmup.txt"
echo "# warm-up: pfsbench compare connected1.h5 connected2.h5"
sed 's/^/#   /' "$SHARE/warmup.txt"

echo "# dm -a 0 -b 1M -s $S -y -m -p on n1 (TCG emulation: the figures are the emulator's, only their ratios mean something):"
printf '#   %-13s %10s  %s\n' run "MB/sec" "/proc/drbd on n1 (ns, dw, al KiB or count) / n2 (nr, dw)"
for r in "${RUNS[@]}"; do
	printf '#   %-13s %10s  n1 ns +%s dw +%s al +%s / n2 nr +%s dw +%s\n' "$r" "${RATE[$r]:-?}" \
		"$(drbd_delta "$r" n1 ns)" "$(drbd_delta "$r" n1 dw)" "$(drbd_delta "$r" n1 al)" \
		"$(drbd_delta "$r" n2 nr)" "$(drbd_delta "$r" n2 dw)"
done
h5s=()
for r in "${RUNS[@]}"; do h5s+=("$SHARE/$r.h5"); done
results_info "${h5s[@]}"
vm_keep drbd "$SHARE"/*.h5 "$SHARE"/*.out "$SHARE/warmup.txt" "$SHARE/drbd" "$SHARE/drbd.conf" "$SHARE"/n?.log
echo "# drbd.sh took $((SECONDS - t0)) s"
finish
