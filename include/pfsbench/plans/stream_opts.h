/* stream_opts.h: the options of `pfsbench stream` (DRBD's dm on the
 * engine), shared by the workload (src/workloads/stream.c) and its report
 * (src/outputs/stream.c), so that neither reaches into the other; and the
 * facts both derive from them. Pure: no MPI. See docs/stream.md. */
#ifndef PFSBENCH_STREAM_OPTS_H
#define PFSBENCH_STREAM_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "pfsbench/core/options.h"

#define PFS_STREAM_NO_PATTERN 256u /* pattern: -a not given */
#define PFS_STREAM_DEFAULT_BLOCK 65536 /* -b's default, dm's */
/* The test's name, as rows say it: for its access pattern (--pattern),
 * so that a random stream's rows are never taken for a sequential one's
 * (compare pairs rows by test and op). */
#define PFS_STREAM_TEST "seq"
#define PFS_STREAM_TEST_RANDOM "rand"
#define PFS_STREAM_OP_WRITE "Write"
#define PFS_STREAM_OP_READ "Read"
/* --format hdparm's two timed ops (docs/stream.md, "hdparm's baseline") */
#define PFS_STREAM_OP_CACHED "Cached"
#define PFS_STREAM_OP_BUFFERED "Buffered"

/* --format: which tool's summary lines the report prints. */
enum pfs_stream_format {
	PFS_STREAM_FMT_DM,
	PFS_STREAM_FMT_DD,
	PFS_STREAM_FMT_LMDD,
	PFS_STREAM_FMT_FIO,
	PFS_STREAM_FMT_HDPARM, /* not only lines: hdparm -Tt's plan too */
};

/* --pattern: where the requests go. Sequential (dm's), or each block of
 * -b bytes of the rank's -s bytes exactly once, in a random order
 * (src/workloads/randio.c). */
enum pfs_stream_access { PFS_STREAM_SEQ, PFS_STREAM_RANDOM };

struct pfs_stream_opts {
	struct pfs_common_opts common; /* common.dir: where -o/-i is, set by validate */
	char output[PATH_MAX];  /* -o: a directory, or a file or device (--force) */
	char input[PATH_MAX];   /* -i: the same, to read */
	uint64_t block;         /* -b: request size (its default: the option table) */
	uint64_t size;          /* -s: bytes per rank; 0: not given (to the end) */
	uint64_t seek_in;       /* -k: where reading starts */
	uint64_t seek_out;      /* -l: where writing starts */
	uint64_t pattern;       /* -a: the fill byte, or PFS_STREAM_NO_PATTERN */
	uint64_t bandwidth;     /* -w: bytes a second per rank, 0: no cap */
	unsigned format;        /* --format: enum pfs_stream_format */
	unsigned access;        /* --pattern: enum pfs_stream_access */
	uint64_t seed;          /* --seed: the random order's key */
	uint64_t iodepth;       /* --iodepth: requests in flight (random) */
	bool direct;            /* -x */
	bool sync;              /* -y */
	bool marks;             /* -m */
	bool performance;       /* -p */
	bool dialog;            /* -d */
	bool shared;            /* --shared */
	bool prepare;           /* --prepare */
	bool keep;              /* --keep */
	bool verify;            /* --verify */
	/* Set by the workload's validate, no option: -o/-i names a file or
	 * device, not a directory (the run makes no directory). */
	bool named;
	/* ... and with named, a write's file that was not there: rank 0
	 * creates it exclusively (no --force needed: nothing is destroyed). */
	bool fresh;
};

/* A read run: -i was given (-o is then /dev/null or absent). */
static inline bool pfs_stream_reading(const struct pfs_stream_opts *o)
{
	return o->input[0] != 0;
}

/* The path the run streams to or from, as given. */
static inline const char *pfs_stream_target(const struct pfs_stream_opts *o)
{
	return pfs_stream_reading(o) ? o->input : o->output;
}

/* Where rank's stream starts: the seek, plus rank x -s in one file shared
 * by all ranks (--shared, or a named file or device). */
static inline uint64_t pfs_stream_offset(const struct pfs_stream_opts *o, bool one_file,
					 unsigned rank)
{
	uint64_t seek = pfs_stream_reading(o) ? o->seek_in : o->seek_out;

	return one_file ? seek + (uint64_t)rank * o->size : seek;
}

/* --pattern random: rank's order, keyed by --seed and the rank, so that
 * ranks sharing a file do not walk their ranges in step. */
static inline uint64_t pfs_stream_rank_seed(const struct pfs_stream_opts *o, unsigned rank)
{
	return o->seed ^ ((uint64_t)rank * 0x9e3779b97f4a7c15ull);
}

#endif
