/* fioterse.h: one job's line of fio's terse output, version 3 (fio
 * --minimal, --terse-version=3, as fio 3.33's stat.c prints it), from what
 * pfsbench measures of one rank's stream: bytes, requests, time, CPU, depth
 * and the latency histogram. Pure: no MPI, no I/O, no state.
 * docs/formats.md lists the 121 fields and which pfsbench fills. */
#ifndef PFSBENCH_FIOTERSE_H
#define PFSBENCH_FIOTERSE_H

#include <stddef.h>
#include <stdint.h>

struct pfs_hist;

/* A buffer of this many bytes always holds one line (a job name of at
 * most 256 bytes). */
#define PFS_FIOTERSE_MAX 4096

struct pfs_fioterse {
	const char *version;  /* field 2, where fio puts "fio-3.33" */
	const char *jobname;  /* field 3: no ';' or newline (the caller's) */
	int write;            /* the write status fields, else the read ones */
	uint64_t bytes;       /* moved */
	uint64_t ios;         /* requests */
	uint64_t elapsed_us;  /* the stream's time (fio counts ms) */
	uint64_t cpu_us;      /* user + system CPU over the stream */
	uint64_t depth;       /* requests in flight */
	const struct pfs_hist *lat; /* each request's latency; NULL: none */
};

/* The line, with its newline. 0, or -ENAMETOOLONG when len is too small. */
int pfs_fioterse_format(char *buf, size_t len, const struct pfs_fioterse *t);

#endif
