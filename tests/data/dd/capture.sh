#!/bin/sh
# capture.sh: regenerates the GNU dd captures that tests/unit/test_ddfmt.c
# checks pfsbench's dd formatter against. Run it only on purpose, on the
# Debian 12 machine (coreutils 9.1), from anywhere:
#     sh tests/data/dd/capture.sh
# Each case's dd runs with LC_ALL=C; its stderr (the records lines and the
# bytes-copied line, nothing else) is kept as tests/data/dd/<case>.txt, and
# index.txt lists every case as "<case> <ns> <command>":
#   - ns "-": a real run, on tmpfs (/dev/shm) or, for the slow cases, on
#     the disk (/var/tmp) or behind a pipe that sleeps; only dd's printed,
#     rounded time is known, and the test checks every nanosecond count
#     that prints that time (see docs/formats.md);
#   - ns a number: a real dd whose monotonic clock fakeclock.c pins, so its
#     start and end readings are exactly ns apart; this reaches dd's exact
#     branches (zero time, times that divide or are multiples of a second,
#     times past an hour) that a real run reaches only by chance.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
version=$(LC_ALL=C dd --version | head -n 1)
case $version in
"dd (coreutils) 9.1") ;;
*) echo "capture.sh: want GNU dd 9.1 (Debian 12), found: $version" >&2; exit 1 ;;
esac

work=$(mktemp -d /dev/shm/pfs-dd-capture.XXXXXX)
disk=$(mktemp -d /var/tmp/pfs-dd-capture.XXXXXX)
trap 'rm -rf "$work" "$disk"' EXIT
cc -O2 -shared -fPIC -o "$work/fakeclock.so" "$here/fakeclock.c"
T=$work/out
D=$disk/out
export T D

index=$here/index.txt.new
: >"$index"
while IFS='|' read -r name ns cmd; do
	case $name in ''|'#'*) continue ;; esac
	rm -f "$T" "$D"
	if [ "$ns" = - ]; then
		LC_ALL=C sh -c "$cmd" 2>"$here/$name.txt" >/dev/null
	else
		LC_ALL=C LD_PRELOAD=$work/fakeclock.so PFS_FAKECLOCK_NS=$ns \
			sh -c "$cmd" 2>"$here/$name.txt" >/dev/null
	fi
	printf '%s %s %s\n' "$name" "$ns" "$cmd" >>"$index"
	cat "$here/$name.txt"
done <<'CASES'
# Real runs on tmpfs: sizes across dd's unit rules.
real-0B|-|dd if=/dev/zero of=$T bs=1 count=0
real-1B|-|dd if=/dev/zero of=$T bs=1 count=1
real-512B|-|dd if=/dev/zero of=$T bs=512 count=1
real-999B|-|dd if=/dev/zero of=$T bs=999 count=1
real-1000B|-|dd if=/dev/zero of=$T bs=1000 count=1
real-1023B|-|dd if=/dev/zero of=$T bs=1023 count=1
real-1024B|-|dd if=/dev/zero of=$T bs=1024 count=1
real-4KiB|-|dd if=/dev/zero of=$T bs=4k count=1
real-1MiB|-|dd if=/dev/zero of=$T bs=1M count=1
real-10MB|-|dd if=/dev/zero of=$T bs=1000000 count=10
real-64MiB|-|dd if=/dev/zero of=$T bs=1M count=64
real-999MiB|-|dd if=/dev/zero of=$T bs=1M count=999
real-5GiB-null|-|dd if=/dev/zero of=/dev/null bs=64M count=80
real-512B-x20000|-|dd if=/dev/zero of=$T bs=512 count=20000
real-partial|-|head -c 2500 /dev/zero | dd of=$T bs=1000
real-read|-|head -c 3000000 /dev/zero >$T && dd if=$T of=/dev/null bs=1M
real-truncated-1|-|printf 'abcdefgh\nab\n' | dd of=$T conv=block cbs=4
real-truncated-2|-|printf 'abcdefgh\nabcdef\nab\n' | dd of=$T conv=block cbs=4
# Real runs on a slow path: a pipe that sleeps, synchronous disk writes.
slow-1B-pipe|-|{ sleep 0.3; printf x; } | dd of=$T bs=1
slow-pipe-partial|-|{ head -c 100 /dev/zero; sleep 0.25; head -c 3000 /dev/zero; } | dd of=$T bs=1024
slow-pipe-1MiB|-|{ head -c 1048576 /dev/zero; sleep 1.2; } | dd of=$T bs=64k
slow-dsync|-|dd if=/dev/zero of=$D bs=4k count=200 oflag=dsync
slow-fsync-16MiB|-|dd if=/dev/zero of=$D bs=1M count=16 conv=fsync
# dd with its clock pinned: exact elapsed nanoseconds.
clock-0ns|0|dd if=/dev/zero of=$T bs=1M count=1
clock-1ns|1|dd if=/dev/zero of=$T bs=1M count=1
clock-1us|1000|dd if=/dev/zero of=$T bs=4k count=1
clock-3ns|3|dd if=/dev/zero of=$T bs=1000 count=1
clock-1s|1000000000|dd if=/dev/zero of=$T bs=1M count=100
clock-3s|3000000000|dd if=/dev/zero of=$T bs=1M count=100
clock-2.5s|2500000000|dd if=/dev/zero of=$T bs=1M count=100
clock-999.5Bps|2000000000|dd if=/dev/zero of=$T bs=1999 count=1
clock-hour|3600000000001|dd if=/dev/zero of=$T bs=1M count=1
clock-1e6s|1500000000000000|dd if=/dev/zero of=$T bs=1M count=1
clock-1B-2s|2000000000|dd if=/dev/zero of=$T bs=1 count=1
clock-0B|1000|dd if=/dev/zero of=$T bs=1 count=0
clock-5GiB|1000000007|dd if=/dev/zero of=/dev/null bs=64M count=80
clock-9.95MBps|100502513|dd if=/dev/zero of=$T bs=1000000 count=1
CASES
mv "$index" "$here/index.txt"
