/* hdparmfmt.h: hdparm -Tt's timing lines, exactly as hdparm 9.65 (Debian
 * 12's) prints them, from what pfsbench measures (bytes read, elapsed
 * time). Pure: no MPI, no I/O, no state. docs/formats.md gives the rules
 * and how they were read (hdparm's source and its output on a loop
 * device). */
#ifndef PFSBENCH_HDPARMFMT_H
#define PFSBENCH_HDPARMFMT_H

#include <stddef.h>
#include <stdint.h>

/* hdparm reads in blocks of 2 MiB, and counts its MB as 2^20 bytes. */
#define PFS_HDPARM_BLOCK (2u * 1024 * 1024)
#define PFS_HDPARM_CACHED_S 2u   /* -T reads for this long */
#define PFS_HDPARM_BUFFERED_S 3u /* -t reads for this long, or to the device's end */

/* A buffer of this many bytes always holds any one line below. */
#define PFS_HDPARMFMT_MAX 128

enum pfs_hdparm_timing { PFS_HDPARM_CACHED, PFS_HDPARM_BUFFERED };

/* One timing line, with its newline:
 *   " Timing cached reads:   %3u MB in %5.2f seconds = %6.2f MB/sec\n"
 *   " Timing buffered disk reads: %3u MB in %5.2f seconds = %6.2f MB/sec\n"
 * MB = bytes / 2^20, whole (hdparm's count of 2 MiB blocks x 2), seconds =
 * elapsed_us / 10^6. Below 1 MB/sec the rate is printed in kB/sec (x 1024),
 * by each line's own test, as hdparm's: cached when MB < seconds, buffered
 * when MB / seconds <= 1. 0, -EINVAL for a zero time (hdparm never has
 * one: it reads at least once), or -ENAMETOOLONG when len is too small. */
int pfs_hdparmfmt_format(char *buf, size_t len, enum pfs_hdparm_timing which, uint64_t bytes,
			 uint64_t elapsed_us);

#endif
