/* ddfmt.h: the one-line summaries of three sequential-I/O tools, exactly as
 * each prints them, from what pfsbench measures (bytes, elapsed time,
 * records): DRBD's dm (its final throughput line and its number parser),
 * GNU coreutils 9.1 dd (its records lines and its bytes-copied line) and
 * lmbench's lmdd (its bandwidth line). Pure: no MPI, no I/O, no state.
 * docs/formats.md gives each tool's rules and where they were read. */
#ifndef PFSBENCH_DDFMT_H
#define PFSBENCH_DDFMT_H

#include <stddef.h>
#include <stdint.h>

/* A buffer of this many bytes always holds any one of the texts below. */
#define PFS_DDFMT_MAX 256

/* dm's final line, with its newline:
 * "%.2f MB/sec (%llu B / %02ld:%02ld.%06ld)\n", MB = 2^20 bytes, the time
 * as minutes (no hours: they grow past 59), seconds and microseconds.
 * dm's clock is gettimeofday, so the time is in microseconds.
 * 0, or -ENAMETOOLONG when len is too small. */
int pfs_ddfmt_format_dm(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_us);

/* Parses one of dm's numbers (-b, -s, -k, -l, -w, -a): decimal, 0x hex or
 * 0-prefixed octal, then at most one suffix: s/S = 512, k/K = 2^10,
 * m/M = 2^20, g/G = 2^30. Nothing else: no sign, no space, nothing after
 * the suffix, at most 2^63 - 1. Returns 0, -EINVAL with dm's own words
 * "<s> is not a valid number" in err, or -ERANGE with "<s> is out of
 * range" (err may be NULL; a long or unprintable <s> is shortened and
 * made printable). */
int pfs_ddfmt_parse_dm_number(const char *s, uint64_t *out, char *err, size_t errlen);

/* dd's record counts: full and partial blocks read and written, and
 * records cut by conv=block. */
struct pfs_ddfmt_records {
	uint64_t in_full;
	uint64_t in_partial;
	uint64_t out_full;
	uint64_t out_partial;
	uint64_t truncated;
};

/* dd's "N+M records in" and "N+M records out" lines, then "N truncated
 * record(s)" when N > 0. 0, -ERANGE for a count over INT64_MAX (dd's
 * counters are intmax_t), or -ENAMETOOLONG. */
int pfs_ddfmt_format_dd_records(char *buf, size_t len, const struct pfs_ddfmt_records *r);

/* dd's bytes-copied line, with its newline, e.g.
 * "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.0146194 s, 71.7 MB/s".
 * dd's clock is in nanoseconds. 0, -ERANGE for bytes or a time over
 * INT64_MAX, or -ENAMETOOLONG. */
int pfs_ddfmt_format_dd_copied(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_ns);

/* lmdd's line, with its newline: "%.4f MB in %.4f secs, %.4f MB/sec\n",
 * MB = 10^6 bytes. lmdd's clock is gettimeofday: microseconds.
 * 0, or -ENAMETOOLONG. */
int pfs_ddfmt_format_lmdd(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_us);

#endif
