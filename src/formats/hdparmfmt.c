/* hdparmfmt.c: hdparm -Tt's two timing lines (include/pfsbench/formats/
 * hdparmfmt.h). hdparm's figures: MB = its count of 2 MiB reads x 2 (an
 * unsigned integer), seconds = a double from a microsecond timer, rate =
 * MB / seconds; printed with %3u, %5.2f and %6.2f, so the figures widen
 * rather than cut. */
#include "pfsbench/formats/hdparmfmt.h"

#include "pfsbench/core/util.h"

#include <errno.h>
#include <stdbool.h>

#define MIB (1024.0 * 1024.0)

int pfs_hdparmfmt_format(char *buf, size_t len, enum pfs_hdparm_timing which, uint64_t bytes,
			 uint64_t elapsed_us)
{
	const char *label = which == PFS_HDPARM_CACHED ? "cached reads:  " : "buffered disk reads:";
	unsigned long long mb = (unsigned long long)((double)bytes / MIB);
	double secs = (double)elapsed_us / 1e6, rate;
	bool per_mb;

	if (!elapsed_us)
		return -EINVAL;
	rate = (double)mb / secs;
	/* Each line has its own test for "more than 1 MB/s". */
	per_mb = which == PFS_HDPARM_CACHED ? (double)mb >= secs : rate > 1.0;
	return pfs_format(buf, len, " Timing %s %3llu MB in %5.2f seconds = %6.2f %s\n", label, mb,
			  secs, per_mb ? rate : rate * 1024, per_mb ? "MB/sec" : "kB/sec");
}
