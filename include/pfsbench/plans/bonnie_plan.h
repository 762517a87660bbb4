/* bonnie_plan.h: the bonnie workload's options as bonnie++ spells them, and
 * what they resolve to (src/plans/bonnie_plan.c): sizes, counts, the tests that
 * run. Shared by the workload (src/workloads/bonnie.c) and its report
 * (src/outputs/bonnie.c), so that neither reaches into the other. The
 * numbers are never stored: both sides resolve them from the option
 * strings, which the results file keeps, so `pfsbench show` prints what
 * the run printed. Pure: no MPI. docs/bonnie.md describes it for users. */
#ifndef PFSBENCH_BONNIE_PLAN_H
#define PFSBENCH_BONNIE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/options.h"
#include "pfsbench/formats/bonniefmt.h"

/* The rows' test. Their ops are bonnie++'s CSV names of the tests
 * (pfs_bonnie_test_name: "putc", ..., "ran_del"), in enum pfs_bonnie_test
 * order, which is also the workload's op index. */
#define PFS_BONNIE_TEST_NAME "bonnie"


/* bonnie++'s constants (its bonnie.h). */
#define PFS_BONNIE_DEFAULT_FILE_MIB 300u /* -s when the RAM is unknown or small */
#define PFS_BONNIE_CHAR_BYTES (3u << 20) /* written and read a byte at a time */
#define PFS_BONNIE_UPDATE_EVERY 10u      /* 1 seek in 10 rewrites its block */
#define PFS_BONNIE_NAME_BYTES 23u        /* 10 hex digits, up to 12 random characters, NUL */
#define PFS_BONNIE_DIRS_MAX 99999u       /* subdirectories are named %05u */
#define PFS_BONNIE_SEEK_PROCS_MAX 1024u

struct pfs_bonnie_opts {
	struct pfs_common_opts common; /* -d is common.dir */
	/* As given; validate() writes the effective -s and -r when left out,
	 * so that the results file says what ran. */
	char size[64];   /* -s SIZE[:CHUNK[:SEEKS[:PROCS]]] */
	char files[96];  /* -n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]] */
	char ram[32];    /* -r MiB */
	char machine[PFS_BONNIE_NAME_MAX]; /* -m: the aggregate's name */
	char user[64];   /* -u USER[:GROUP] */
	char group[64];  /* -g GROUP */
	uint64_t seed;   /* -z; validate() picks one when not given */
	uint64_t char_bytes; /* --char-size; 0: bonnie++'s 3 MiB */
	char version[8]; /* --bonnie-version: "1.96" or "1.98", the layout */
	bool no_char;    /* -f: no per-char tests */
	bool no_io;      /* -F: no I/O tests at all (-s 0) */
	bool sync;       /* -b: fsync where bonnie++ -b does */
	bool quiet;      /* -q: the tables on stderr, only the CSV on stdout */
	/* Set by validate() on rank 0 for -u and -g; -1 for none. Not options. */
	int64_t uid, gid;
};

/* What the options resolve to, for one rank. */
struct pfs_bonnie_plan {
	uint64_t file_mib;   /* size of the I/O file; 0: no I/O tests */
	uint64_t char_bytes; /* per-char tests' bytes: min(3 MiB or --char-size, the
			      * file), 0 with -f */
	uint32_t io_chunk;   /* bytes per block of the block tests and seeks */
	uint32_t seeks;      /* random seeks, shared by ... */
	uint32_t seek_procs; /* ... this many concurrent seekers */
	uint32_t num_files_x1024; /* files of the file tests / 1024; 0: no file tests */
	uint32_t max_bytes;  /* each file's size is random in [min_bytes, max_bytes] */
	uint32_t min_bytes;
	uint32_t num_dirs;   /* directories the files are spread over (1: none) */
	uint32_t file_chunk; /* bytes per write and read of a file's data */
	uint64_t ram_mib;    /* -r: what the checks compare with; 0: none */
};

/* Resolves o into p by bonnie++'s rules (docs/bonnie.md): sizes in MiB
 * unless a suffix says otherwise, chunks powers of two from 256 bytes to
 * 1 MiB, -s left out meaning twice -r (at least 300 MiB). Returns 0, or
 * -EINVAL with a message naming the option in err. Every check bonnie++
 * makes is made here, and those it leaves to chance (a seeker count or a
 * file count that cannot be held) too. */
int pfs_bonnie_resolve(const struct pfs_bonnie_opts *o, struct pfs_bonnie_plan *p, char *err,
		       size_t errlen);

/* Whether test t runs in plan p. */
bool pfs_bonnie_runs(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t);

/* Bytes of one I/O file and of one rank's small files at their largest. */
uint64_t pfs_bonnie_io_bytes(const struct pfs_bonnie_plan *p);
uint64_t pfs_bonnie_files(const struct pfs_bonnie_plan *p);

/* --runtime S (docs/bonnie.md): whether it cuts test t, which then stops
 * S s after its barrier, every rank at the busiest rank's count then.
 * Every test but the stat and delete tests, which take exactly the files
 * the create test before made: nothing is left, nothing else is touched. */
bool pfs_bonnie_runtime_cuts(enum pfs_bonnie_test t);

/* The items test t asks of a rank, in its rows' items (bytes of the
 * per-char tests, blocks of the block tests, seeks, files), given what the
 * tests before it left: file_blocks, the blocks put_block wrote (all of
 * them unless --runtime cut it), and files, the files the create test
 * before made. A read never asks for more than the file holds: getc
 * reads at most the file, rewrite and get_block its blocks, seeks pick
 * among them (none in an empty file); stat and delete take the files
 * made. One rule for the workload, which does it, and its report, which
 * says what a cut left out. */
uint64_t pfs_bonnie_asked(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t,
			  uint64_t file_blocks, uint64_t files);

/* Bytes of one of test t's items for the I/O tests (1 per-char, the block
 * otherwise); 0 for the seeks and the file tests, which count no bytes. */
uint64_t pfs_bonnie_item_bytes(const struct pfs_bonnie_plan *p, enum pfs_bonnie_test t);

/* The default file size for ram_mib MiB of RAM, as bonnie++ picks it:
 * twice the RAM, at least 300 MiB, rounded up to a whole GiB when more
 * than half a GiB above one. */
uint64_t pfs_bonnie_default_file_mib(uint64_t ram_mib);

#endif
