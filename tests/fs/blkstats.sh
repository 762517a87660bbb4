#!/bin/bash
# blkstats.sh - the block device's own counters per step (docs/filesystems.md,
# "Block-device counters"), checked against what the runs must have done on
# an ext4 of the test's own on a loop device:
#   stream -y writes 64 MiB: the Write step moves the loop device's
#     write_sectors by at least 64 MiB / 512; a read of it after the cache
#     drop moves read_sectors by as much, and writes little;
#   create-unlink (whose target is a directory) on the same ext4: its Read
#     steps read the files back after the drop;
#   stream and matrix on the loop device itself (--force): the device's
#     own counters, not /dev's;
#   show --fs-stats and compare --fs-stats print them; a run on tmpfs has
#     none, says why, and exits 0.
# Root only; exit 77 = skipped, with the reason.
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

need_loop
[ -r /sys/dev/block ] || skip "no /sys/dev/block"

MIB64=$((64 * 1024 * 1024 / 512)) # sectors in 64 MiB

loop_fs ext4 ext4 256M "" mkfs.ext4 -q -F || finish
name=$(basename "$DEV")
majmin=$(lsblk -dno MAJ:MIN "$DEV" | tr -d ' ')
echo "# ext4 on $DEV ($majmin)"

# Two write runs of 2 ranks x 32 MiB with fsync, each read back after the
# cache drop (the read removes the --keep files).
for r in 1 2; do
	pfs 2 stream -o "$M" -b 1m -s 32m -y --keep --results "$SCRATCH/w$r.h5"
	check "write $r: exits 0" test "$RC" -eq 0
	[ "$RC" -eq 0 ] || cat "$ERR"
	check "write $r: each node's blockdev is $name ($majmin)" test "$(nodes_blockdev "$SCRATCH/w$r.h5")" = "$name ($majmin)"
	ws=$(counter "$SCRATCH/w$r.h5" Write blk.write_sectors)
	echo "# write $r: blk.write_sectors $ws in the Write step, $MIB64 written"
	check "write $r: the Write step wrote at least 64 MiB on $name ($ws >= $MIB64 sectors)" test "$ws" -ge "$MIB64"
	check "write $r: and issued write I/Os" test "$(counter "$SCRATCH/w$r.h5" Write blk.write_ios)" -gt 0
	pfs 2 stream -i "$M" -b 1m -s 32m --results "$SCRATCH/r$r.h5"
	check "read $r: exits 0" test "$RC" -eq 0
	[ "$RC" -eq 0 ] || cat "$ERR"
	rs=$(counter "$SCRATCH/r$r.h5" Read blk.read_sectors)
	rw=$(counter "$SCRATCH/r$r.h5" Read blk.write_sectors)
	echo "# read $r: blk.read_sectors $rs, blk.write_sectors $rw in the Read step"
	check "read $r: the Read step read the 64 MiB back from $name ($rs >= $MIB64 sectors)" test "$rs" -ge "$MIB64"
	check "read $r: and wrote under an eighth of it ($rw < $((MIB64 / 8)) sectors)" test "$rw" -lt $((MIB64 / 8))
done
check "the reads removed their files" dir_unchanged "$M"

OUT=$SCRATCH/show.out
"$PFSBENCH" show "$SCRATCH/w1.h5" --fs-stats >"$OUT" 2>&1
check "show --fs-stats exits 0" test $? -eq 0
check "show --fs-stats names the block device" grep -q "block device: $name ($majmin)" "$OUT"
check "show --fs-stats prints blk.write_sectors" grep -qE '^ +blk\.write_sectors +[0-9]+$' "$OUT"
[ "$T_FAILED" -eq 0 ] || cat "$OUT"

OUT=$SCRATCH/compare.out
"$PFSBENCH" compare "$SCRATCH/w1.h5" "$SCRATCH/w2.h5" --fs-stats >"$OUT" 2>&1
check "compare --fs-stats of the two writes exits 0" test $? -eq 0
line=$(grep -E '^seq +[0-9]+ Write +blk\.write_sectors ' "$OUT")
echo "# compare: $line"
check "compare --fs-stats: both writes' write_sectors side by side, each >= $MIB64" \
	awk -v m="$MIB64" '{exit !($5 >= m && $6 >= m && NF >= 7)}' <<<"$line"
[ "$T_FAILED" -eq 0 ] || cat "$OUT"
# The JSON kept in a file, with compare's status and messages: a CI run
# once failed this check with nothing in its log to say how.
JSON=$SCRATCH/compare.json
"$PFSBENCH" compare "$SCRATCH/w1.h5" "$SCRATCH/w2.h5" --fs-stats --json >"$JSON" 2>"$SCRATCH/compare.err"
check "compare --fs-stats --json of the two writes exits 0" test $? -eq 0
check "compare --fs-stats --json: both writes' write_sectors >= $MIB64 in 'counters'" \
	/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[2]))
v = [c["sides"] for c in d["counters"] if c["name"] == "blk.write_sectors" and not c["gauge"]]
ok = len(v) == 1 and None not in v[0] and min(v[0]) >= int(sys.argv[1])
if not ok:
    print("# blk.write_sectors lines in counters:", v)
sys.exit(not ok)' "$MIB64" "$JSON"
[ "$T_FAILED" -eq 0 ] || { echo "# $JSON:"; cat "$JSON"; echo "# its stderr:"; cat "$SCRATCH/compare.err"; }
"$PFSBENCH" compare "$SCRATCH/w1.h5" "$SCRATCH/w2.h5" --fs-stats --csv >"$SCRATCH/csv.out" 2>&1
check "compare --fs-stats --csv: refused, exit 2" test $? -eq 2

# create-unlink on the same ext4: a directory's filesystem's device. Its
# Read steps read 2 workers x 5 files x 64 KiB after the cache drop.
pfs 2 create-unlink -m "$M" -f 200 -F 5 -s 64k --results "$SCRATCH/cu.h5"
check_create_unlink EXT4 "$M" "$SCRATCH/cu.h5"
check "create-unlink: the node's blockdev is $name ($majmin)" test "$(nodes_blockdev "$SCRATCH/cu.h5")" = "$name ($majmin)"
# Two tests read (se and pa), each 2 workers x 5 files x 64 KiB.
cs=$(counter "$SCRATCH/cu.h5" Read blk.read_sectors)
echo "# create-unlink: blk.read_sectors $cs in its Read steps (se and pa: $((2 * 2 * 5 * 128)) sectors of files)"
check "create-unlink: its Read steps read the files back ($cs >= $((2 * 2 * 5 * 128)) sectors)" \
	test "$cs" -ge $((2 * 2 * 5 * 128))

# dm's "with file system" mode: a new file named by -o on the ext4.
pfs 1 stream -o "$M/dummy-out" -b 1m -s 16m -y --results "$SCRATCH/named.h5"
check "stream -o a new file: exits 0" test "$RC" -eq 0
check "stream -o a new file: the blockdev is its filesystem's, $name ($majmin)" test "$(nodes_blockdev "$SCRATCH/named.h5")" = "$name ($majmin)"
ws=$(counter "$SCRATCH/named.h5" Write blk.write_sectors)
check "stream -o a new file: its Write step wrote 16 MiB on $name ($ws >= 32768 sectors)" test "$ws" -ge 32768
rm -f "$M/dummy-out"

# The loop device itself, named: its own counters (st_rdev), not /dev's.
img=$SCRATCH/raw.img
truncate -s 80M "$img"
RAW=$(losetup --find --show "$img") || { not_ok "attach a second loop device"; finish; }
T_CLEANUP+=("losetup -d '$RAW'")
rawname=$(basename "$RAW") rawmm=$(lsblk -dno MAJ:MIN "$RAW" | tr -d ' ')
pfs 1 stream -o "$RAW" --force -b 1m -s 64m -y --results "$SCRATCH/raw.h5"
check "stream on $RAW: exits 0" test "$RC" -eq 0
[ "$RC" -eq 0 ] || cat "$ERR"
check "stream on $RAW: the blockdev is $rawname ($rawmm)" test "$(nodes_blockdev "$SCRATCH/raw.h5")" = "$rawname ($rawmm)"
ws=$(counter "$SCRATCH/raw.h5" Write blk.write_sectors)
check "stream on $RAW: its Write step wrote 64 MiB on it ($ws >= $MIB64 sectors)" test "$ws" -ge "$MIB64"
# matrix on it: two cells of 4 MiB (64 KiB and 1 MiB requests, O_DIRECT,
# fsync), each Write step at least 4 MiB on the device.
pfs 1 matrix --write "$RAW" --force --req 64k,1m --xfer 4m --results "$SCRATCH/matrix.h5"
check "matrix on $RAW: exits 0" test "$RC" -eq 0
[ "$RC" -eq 0 ] || cat "$ERR"
check "matrix on $RAW: the blockdev is $rawname ($rawmm)" test "$(nodes_blockdev "$SCRATCH/matrix.h5")" = "$rawname ($rawmm)"
ws=$(counter "$SCRATCH/matrix.h5" Write blk.write_sectors)
check "matrix on $RAW: its two Write steps wrote 2 x 4 MiB on it ($ws >= 16384 sectors)" test "$ws" -ge 16384

# tmpfs: no block device; said, and the run goes on.
mkdir "$SCRATCH/tmpfs"
mount -t tmpfs -o size=64m tmpfs "$SCRATCH/tmpfs" || { not_ok "mount a tmpfs"; finish; }
T_CLEANUP+=("umount '$SCRATCH/tmpfs'")
pfs 1 stream -o "$SCRATCH/tmpfs" -b 1m -s 8m --results "$SCRATCH/tmpfs.h5"
check "tmpfs: exits 0" test "$RC" -eq 0
check "tmpfs: the blockdev says none and why" grep -q "^none: device [0-9]*:[0-9]* is no block device /sys/dev/block knows$" <(nodes_blockdev "$SCRATCH/tmpfs.h5")
check "tmpfs: no counters stored" test "$("$PFSBENCH" export "$SCRATCH/tmpfs.h5" --csv --fs-stats | wc -l)" -eq 1
OUT=$SCRATCH/show-tmpfs.out
"$PFSBENCH" show "$SCRATCH/tmpfs.h5" --fs-stats >"$OUT" 2>&1
check "tmpfs: show --fs-stats exits 0 and says no counters were recorded" grep -q "(no counters recorded)" "$OUT"
OUT=$SCRATCH/compare-tmpfs.out
"$PFSBENCH" compare "$SCRATCH/w1.h5" "$SCRATCH/tmpfs.h5" --fs-stats >"$OUT" 2>&1
check "compare --fs-stats of ext4 and tmpfs: exits 0, '-' for tmpfs's side" \
	grep -qE '^seq +[0-9]+ Write +blk\.write_sectors +[0-9]+ +- *$' "$OUT"
[ "$T_FAILED" -eq 0 ] || cat "$OUT"
finish
