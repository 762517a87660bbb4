/* bonnie.c: bonnie++ on the pfsbench engine, on every rank at once.
 *
 * Each rank does what one bonnie++ process does, in its own directory, and
 * every test is one step: all ranks start it together after a barrier and
 * the next test waits for the slowest (bonnie++'s -p/-y semaphores, built
 * in). Caches are never dropped between the tests: bonnie++ does not drop
 * them. What each test does, and what of it is timed, follows bonnie++'s
 * code (bonnie++.cpp, bon_io.cpp, bon_file.cpp of 1.97.3 and 2.00a, and
 * Debian's 2.00a under strace), not its manual, which is out of date:
 *
 *   putc       3 MiB (--char-size) written by 1-byte write(2)s to a new
 *              file, then fsync and close
 *   put_block  the whole file (-s) written again in blocks of CHUNK bytes
 *   rewrite    each block read, one byte changed, lseek back, written
 *   getc       3 MiB read by 1-byte read(2)s
 *   get_block  the whole file read in blocks
 *   seeks      SEEKS random blocks, shared by PROCS concurrent seekers
 *              (threads) that read their tickets from a pipe, one read(2)
 *              a ticket as bonnie++'s do; each an lseek and a read; 1 in
 *              10 then changes a byte and writes the block back (fsync
 *              with -b)
 *   seq_create NUM x 1024 files created in name order over DIRS
 *              directories, each with MIN..MAX bytes; then syncfs
 *   seq_stat   the directories read, every file stat'ed and read
 *   seq_del    the directories read, every file removed, the directories
 *              too; then syncfs
 *   ran_*      the same with names that start with random characters,
 *              stat'ed and removed in a random order
 *
 * Every I/O test ends with fsync and close inside its time, as bonnie++'s
 * CFileOp::Close; opening the file and choosing names are outside it.
 * Only files and directories this rank made are ever removed: a name
 * found by readdir is checked against the names made.
 *
 * --runtime S: every test but the stat and delete tests is a stonewalled
 * step (cuts()), stopped S s after its barrier at the busiest rank's count
 * (bonnie_threads.c holds the threads for the agreement); each test asks
 * for what the tests before it left (pfs_bonnie_asked): the blocks
 * put_block wrote (io_blocks), the files the create test made (made). */
#include "pfsbench/core/sys.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/bonnie_plan.h"
#include "pfsbench/workloads/bonnie_threads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pthread.h>
#include <pwd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <time.h>
#include <unistd.h>

#define IO_FILE "Bonnie.io"     /* the I/O tests' file */
#define TEST_DIR "Bonnie.files" /* the file tests' directory */
#define HEX_DIGITS 10           /* a name's index, as bonnie++'s %010x */
#define SUBDIR_DIGITS 5         /* a subdirectory's name: its index, "00003" */
#define SUBDIR_FMT "%0" PFS_ITEM_STR(SUBDIR_DIGITS) "u"
#define DIR_PREFIX (SUBDIR_DIGITS + 1) /* "00003/" */
/* A name's characters: bonnie++'s random ones, and its hex digits. */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define HEX_CHARS "0123456789abcdef"
#define NAME_SLOT (DIR_PREFIX + PFS_BONNIE_NAME_BYTES)
#define RAND_CHARS_MAX 12       /* random characters in a name, 0 to 12 */

/* Its names, for `pfsbench clean`: the I/O file; the file tests'
 * directory, its subdirectories (-n's DIRS > 1) and in either the files,
 * named as make_names names them. */
#define SEQ_NAME "[" HEX_CHARS "]{" PFS_ITEM_STR(HEX_DIGITS) "}[" NAME_CHARS "]{0," \
		 PFS_ITEM_STR(RAND_CHARS_MAX) "}"
#define RAN_NAME "[" NAME_CHARS "]{0," PFS_ITEM_STR(RAND_CHARS_MAX) "}[" HEX_CHARS "]{" \
		 PFS_ITEM_STR(HEX_DIGITS) "}"
static const struct pfs_item bonnie_names[] = {
	{ SEQ_NAME, PFS_ITEM_FILE, NULL },
	{ RAN_NAME, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item bonnie_test_dir[] = {
	{ "[0-9]{" PFS_ITEM_STR(SUBDIR_DIGITS) "}", PFS_ITEM_DIR, bonnie_names },
	{ SEQ_NAME, PFS_ITEM_FILE, NULL },
	{ RAN_NAME, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item bonnie_items[] = {
	{ IO_FILE, PFS_ITEM_FILE, NULL },
	{ TEST_DIR, PFS_ITEM_DIR, bonnie_test_dir },
	{ NULL, 0, NULL },
};

struct bonnie_state {
	struct pfs_bonnie_plan p;
	uint64_t rng;
	char *buf;         /* one block or file chunk, page aligned */
	size_t buflen;
	bool io_made;      /* IO_FILE exists */
	uint64_t io_blocks; /* the blocks put_block wrote: fewer than the plan's
			     * when --runtime cut it, and then all the later
			     * I/O tests read, rewrite and seek in */
	/* The file tests. */
	uint64_t nfiles;
	char *names;       /* nfiles paths in TEST_DIR, NAME_SLOT bytes each */
	uint64_t name_key; /* the names' random part (name_make) */
	size_t base;       /* where the name starts in a path: after "00003/" */
	uint32_t *order;   /* the random stat's and delete's order */
	uint64_t made;     /* names [0, made) were created (fewer than nfiles when
			    * --runtime cut the create test): the stat and
			    * delete tests take these, cleanup tries them */
	int tdfd;          /* TEST_DIR, open from create to delete */
	int *syncfd;       /* -b: each subdirectory, open for its fsyncs */
	unsigned dirs_made;
	bool tdir_made;
	bool dir_sync;     /* -b: fsync directories too, until one refuses */
	int32_t *tickets;  /* the seeks' tickets, and an end ticket per seeker */
};

/* ---- random numbers: splitmix64, seeded by -z and the rank --------------- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* ---- names -------------------------------------------------------------- */

/* File i's path in TEST_DIR ("00003/name" with several directories, as
 * bonnie++ names them), and its name alone. */
static char *path_of(const struct bonnie_state *st, uint64_t i)
{
	return st->names + i * NAME_SLOT;
}

static char *name_of(const struct bonnie_state *st, uint64_t i)
{
	return path_of(st, i) + st->base;
}

/* Files are spread over the directories in runs of consecutive indexes. */
static unsigned dir_of(const struct bonnie_state *st, uint64_t i)
{
	return (unsigned)(i * st->p.num_dirs / st->nfiles);
}

/* bonnie++'s names: the index in 10 hex digits and 0 to 12 random
 * letters and digits, the index first for the sequential tests and last
 * for the random ones, so that the random tests' names do not come in
 * the order they are made. Name i's random part comes from i and the
 * test's key alone, not from the generator's running sequence, so that
 * owned() can make it again rather than read it from the table: comparing
 * against a table of a quarter of a million names cost seq_stat 2 % of
 * its time, most likely in cache misses. Each character takes 6 bits of
 * one random number, through NAME_CHARS and its first two characters
 * again for the 2 values left over (a bias no filesystem can tell): 62
 * divisions and remainders by 62 made this 165 user instructions a name,
 * and seq_stat and seq_del make every name again (issue 33). Writes the
 * random characters to r (room for RAND_CHARS_MAX) and returns how many. */
static unsigned name_rand(uint64_t key, uint64_t i, char *r)
{
	static const char chars[64 + 1] = NAME_CHARS "ab";
	_Static_assert(sizeof(NAME_CHARS) == 62 + 1, "NAME_CHARS and 2 more: 64 characters");
	uint64_t s = key ^ (i * UINT64_C(0xd1b54a32d192ed03)), x = rng_next(&s);
	/* the top byte scaled to 0..12, the other 56 bits 9 characters */
	unsigned len = (unsigned)(((x >> 56) * (RAND_CHARS_MAX + 1)) >> 8), k;

	for (k = 0; k < len && k < 9; k++, x >>= 6)
		r[k] = chars[x & 63];
	for (x = k < len ? rng_next(&s) : 0; k < len; k++, x >>= 6)
		r[k] = chars[x & 63];
	return len;
}

/* Name i, into n (room for PFS_BONNIE_NAME_BYTES). */
static void name_make(uint64_t key, uint64_t i, bool random, char *n)
{
	static const char hex[] = HEX_CHARS;
	char r[RAND_CHARS_MAX];
	unsigned len = name_rand(key, i, r);
	char *h = random ? n + len : n;

	memcpy(random ? n : n + HEX_DIGITS, r, len);
	for (int k = HEX_DIGITS - 1; k >= 0; k--)
		h[k] = hex[(i >> (4 * (HEX_DIGITS - 1 - k))) & 15];
	n[HEX_DIGITS + len] = '\0';
}

static void make_names(struct bonnie_state *st, bool random)
{
	st->name_key = rng_next(&st->rng);
	for (uint64_t i = 0; i < st->nfiles; i++) {
		if (st->base)
			snprintf(path_of(st, i), NAME_SLOT, SUBDIR_FMT "/", dir_of(st, i));
		name_make(st->name_key, i, random, name_of(st, i));
	}
}

/* The index of the sequential name found in directory d, or -1 when it is
 * none this rank made there: its hex digits give the index, from which
 * the rest is made again. */
static int64_t owned(const struct bonnie_state *st, unsigned d, const char *name)
{
	char r[RAND_CHARS_MAX];
	uint64_t i = 0;
	unsigned len;

	for (int k = 0; k < HEX_DIGITS; k++) {
		char c = name[k];
		unsigned v = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 16;

		if (v == 16)
			return -1;
		i = i * 16 + v;
	}
	if (i >= st->made || dir_of(st, i) != d)
		return -1;
	len = name_rand(st->name_key, i, r);
	/* strncmp stops at the end of a shorter name */
	if (strncmp(name + HEX_DIGITS, r, len) || name[HEX_DIGITS + len])
		return -1;
	return (int64_t)i;
}

/* The path of directory d, or of name in it, relative to the worker's
 * directory, for messages. */
static void file_path(char *buf, size_t len, const struct bonnie_state *st, unsigned d,
		      const char *name)
{
	if (st->p.num_dirs > 1)
		snprintf(buf, len, TEST_DIR "/" SUBDIR_FMT "%s%s", d, name ? "/" : "", name ? name : "");
	else
		snprintf(buf, len, TEST_DIR "%s%s", name ? "/" : "", name ? name : "");
}

/* Shuffles the order of the random stat and delete (Fisher-Yates): of
 * the files made. */
static void shuffle(struct bonnie_state *st)
{
	for (uint64_t i = 0; i < st->made; i++)
		st->order[i] = (uint32_t)i;
	for (uint64_t i = st->made; i > 1; i--) {
		uint64_t j = rng_next(&st->rng) % i;
		uint32_t t = st->order[i - 1];

		st->order[i - 1] = st->order[j];
		st->order[j] = t;
	}
}

/* ---- the I/O tests: their threads are in bonnie_threads.c ------------------ */

/* An I/O test: its thread, with the state's buffer. Creating the file
 * removes the last test's first, outside the time. */
static int op_io(struct pfs_worker *w, struct bonnie_state *st, enum pfs_bonnie_io kind)
{
	static const enum pfs_bonnie_test test[] = { PFS_BONNIE_PUTC, PFS_BONNIE_PUT_BLOCK,
						     PFS_BONNIE_REWRITE, PFS_BONNIE_GETC,
						     PFS_BONNIE_GET_BLOCK };
	bool create = kind == PFS_BONNIE_IO_PUTC || kind == PFS_BONNIE_IO_PUT_BLOCK;
	struct pfs_bonnie_run r = {
		.dirfd = w->dirfd, .file = IO_FILE, .kind = kind, .oflags = create ? O_CREAT | O_EXCL : 0,
		.own_fds = true, .chunk = st->p.io_chunk,
		.items = pfs_bonnie_asked(&st->p, test[kind], st->io_blocks, 0),
	};
	struct pfs_bonnie_thread h = { .run = &r, .buf = st->buf, .lat = malloc(sizeof(*h.lat)) };
	int rc;

	if (!h.lat)
		return pfs_fail(w, "allocate", "the I/O test's thread", ENOMEM);
	pfs_hist_init(h.lat);
	if (create && st->io_made) {
		if (pfs_unlinkat(w->dirfd, IO_FILE, 0) && errno != ENOENT) {
			free(h.lat);
			return pfs_fail(w, "remove", IO_FILE, errno);
		}
		st->io_made = false;
	}
	rc = pfs_bonnie_threads_run(w, &r, &h, 1, test[kind], PFS_UNIT_BYTES, "the I/O test's thread");
	st->io_made |= r.made;
	/* what the later I/O tests find in the file */
	if (!rc && kind == PFS_BONNIE_IO_PUT_BLOCK)
		st->io_blocks = w->items;
	free(h.lat);
	return rc;
}

static void seekers_free(struct pfs_bonnie_thread *sk, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(sk[i].lat);
		free(sk[i].buf);
	}
	free(sk);
}

static int op_seeks(struct pfs_worker *w, const struct pfs_bonnie_opts *o, struct bonnie_state *st)
{
	unsigned procs = st->p.seek_procs;
	/* in the blocks put_block wrote; none in an empty file */
	uint64_t nseeks = pfs_bonnie_asked(&st->p, PFS_BONNIE_SEEKS, st->io_blocks, 0);
	struct pfs_bonnie_run r = {
		.dirfd = w->dirfd, .file = IO_FILE, .kind = PFS_BONNIE_IO_SEEKS, .tickets = st->tickets,
		.ticket_bytes = ((size_t)nseeks + procs) * sizeof(*st->tickets), .nseeks = nseeks,
		.items = nseeks, .chunks = st->io_blocks, .chunk = st->p.io_chunk, .sync = o->sync,
	};
	struct pfs_bonnie_thread *sk = calloc(procs, sizeof(*sk));
	int rc;

	/* bonnie++'s tickets: a number from 0 to 2^31 - 1, negated when it
	 * is a multiple of 10 (that seek rewrites its block), and then one
	 * end ticket per seeker. A ticket picks its block modulo the file's
	 * blocks, so seeks reach the first 2^31 blocks only, as bonnie++'s. */
	for (uint64_t i = 0; i < nseeks; i++) {
		int32_t t = (int32_t)(rng_next(&st->rng) >> 33);

		st->tickets[i] = t % (int32_t)PFS_BONNIE_UPDATE_EVERY ? t : -t;
	}
	for (unsigned i = 0; i < procs; i++)
		st->tickets[nseeks + i] = PFS_BONNIE_TICKET_END;
	for (unsigned i = 0; sk && i < procs; i++) {
		sk[i].run = &r;
		sk[i].lat = malloc(sizeof(*sk[i].lat));
		if (!sk[i].lat || posix_memalign((void **)&sk[i].buf, 4096, st->p.io_chunk)) {
			seekers_free(sk, procs);
			sk = NULL;
			break;
		}
		pfs_hist_init(sk[i].lat);
	}
	if (!sk)
		return pfs_fail(w, "allocate", "the seekers", ENOMEM);
	rc = pfs_bonnie_threads_run(w, &r, sk, procs, PFS_BONNIE_SEEKS, PFS_UNIT_OPS, "the seekers");
	seekers_free(sk, procs);
	return rc;
}

/* ---- the file tests ------------------------------------------------------------ */

/* Each file test runs in a thread of its own, as the I/O tests do, and for
 * the same reason: every openat, fstatat, unlinkat and getdents64 names a
 * directory by its descriptor, and in a process whose threads share one
 * descriptor table the kernel takes a reference on that directory in each
 * call (fdget_raw, fput), and the table's lock to give out and take back
 * each file's descriptor. bonnie++'s single thread does neither. The
 * thread unshares its table, opens the test's directories itself (outside
 * the time), does the test and what bonnie++ times after it (syncfs; the
 * delete tests remove the directories), and closes them before it ends:
 * no descriptor of the file tests is ever in the main thread's table. It
 * inherits the -u/-g identity the main thread has taken. The main thread
 * starts and ends the op's clock and speaks to the engine, as for the I/O
 * tests (pfs_bonnie_run_wait). */
struct ftest {
	struct pfs_worker *w; /* the thread reads dirfd, and names for messages */
	const struct pfs_bonnie_opts *o;
	struct bonnie_state *st;
	enum pfs_bonnie_test test;
	struct pfs_bonnie_run run; /* its lock, start, stop, and count of items */
	struct pfs_hist *lat;  /* NULL: latency is not recorded */
	uint64_t items, bytes;
	uint64_t wait_ns; /* its waits for a CPU over the test (pfs_wait_meter) */
	/* the first failure, which the main thread reports */
	int err;
	const char *op;
	char path[sizeof(TEST_DIR) + 8 + NAME_MAX]; /* a stranger's name too */
};

/* Records the first failure, on name in directory d (NULL: the directory),
 * and stops the test; returns -err. d == DIR_TOP: name is the path itself
 * (NULL: the worker's directory). */
#define DIR_TOP UINT_MAX
static int ft_fail(struct ftest *f, const char *op, unsigned d, const char *name, int err)
{
	if (!f->err) {
		f->op = op;
		f->err = err ? err : EIO;
		if (d == DIR_TOP)
			snprintf(f->path, sizeof(f->path), "%s", name ? name : "");
		else
			file_path(f->path, sizeof(f->path), f->st, d, name);
	}
	pfs_bonnie_run_stop(&f->run);
	return -f->err;
}

/* Before each item: publishes the count of items done, which the main
 * thread reads at any time, and says whether the engine asked for a stop. */
static bool ft_stopped(struct ftest *f)
{
	atomic_store_explicit(&f->run.done, f->items, memory_order_relaxed);
	return pfs_bonnie_run_stopped(&f->run);
}

static uint64_t ft_lat_start(const struct ftest *f)
{
	return f->lat ? pfs_now_ns() : 0;
}

/* An item done: its latency, and the count. */
static void ft_done(struct ftest *f, uint64_t t0)
{
	if (f->lat)
		pfs_hist_add(f->lat, pfs_now_ns() - t0);
	f->items++;
}

static void syncfds_close(struct bonnie_state *st)
{
	for (unsigned d = 0; st->syncfd && d < st->p.num_dirs; d++) {
		if (st->syncfd[d] >= 0)
			pfs_close(st->syncfd[d]);
		st->syncfd[d] = -1;
	}
}

static void dirs_close(struct bonnie_state *st)
{
	syncfds_close(st);
	if (st->tdfd >= 0)
		pfs_close(st->tdfd);
	st->tdfd = -1;
}

/* The thread's directories, outside the time: TEST_DIR (which the create
 * tests make first, and its subdirectories after it, as bonnie++ does)
 * and, with -b in the tests that create and delete, each directory open
 * for its fsyncs, as bonnie++ keeps them. */
static int dirs_open(struct ftest *f, bool make)
{
	struct bonnie_state *st = f->st;
	bool sub = st->p.num_dirs > 1;
	char name[16];

	if (make) {
		if (pfs_mkdirat(f->w->dirfd, TEST_DIR, 0700))
			return ft_fail(f, "create", DIR_TOP, TEST_DIR, errno);
		st->tdir_made = true;
	}
	st->tdfd = pfs_openat(f->w->dirfd, TEST_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (st->tdfd < 0)
		return ft_fail(f, "open", DIR_TOP, TEST_DIR, errno);
	for (unsigned d = 0; make && sub && d < st->p.num_dirs; d++) {
		snprintf(name, sizeof(name), SUBDIR_FMT, d);
		if (pfs_mkdirat(st->tdfd, name, 0700))
			return ft_fail(f, "create", d, NULL, errno);
		st->dirs_made = d + 1;
	}
	if (!f->o->sync || f->test == PFS_BONNIE_SEQ_STAT || f->test == PFS_BONNIE_RAN_STAT)
		return 0;
	for (unsigned d = 0; d < st->p.num_dirs; d++) {
		snprintf(name, sizeof(name), SUBDIR_FMT, d);
		st->syncfd[d] = pfs_openat(st->tdfd, sub ? name : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		if (st->syncfd[d] < 0)
			return ft_fail(f, "open", d, NULL, errno);
	}
	return 0;
}

/* The end of a delete test, inside its time as in bonnie++: the
 * directories go, then syncfs (bonnie++'s sync(), for this filesystem
 * only). */
static int dirs_remove(struct ftest *f)
{
	struct bonnie_state *st = f->st;
	char name[16];

	syncfds_close(st);
	for (unsigned d = st->p.num_dirs > 1 ? st->p.num_dirs : 0; d-- > 0;) {
		snprintf(name, sizeof(name), SUBDIR_FMT, d);
		if (pfs_unlinkat(st->tdfd, name, AT_REMOVEDIR))
			return ft_fail(f, "remove", d, NULL, errno);
		st->dirs_made = d;
	}
	dirs_close(st);
	if (pfs_unlinkat(f->w->dirfd, TEST_DIR, AT_REMOVEDIR))
		return ft_fail(f, "remove", DIR_TOP, TEST_DIR, errno);
	st->tdir_made = false;
	st->made = 0;
	if (syncfs(f->w->dirfd))
		return ft_fail(f, "syncfs", DIR_TOP, NULL, errno);
	return 0;
}

/* -b: after each create and delete, bonnie++ fsyncs the directory; where
 * a filesystem refuses, it stops doing so, and so does pfsbench. */
static void dir_sync(struct ftest *f, int dfd)
{
	if (f->st->dir_sync && pfs_fsync(dfd)) {
		f->st->dir_sync = false;
		pfs_warn("node %s worker %u: cannot fsync a directory (%s); -b goes on without",
			 f->w->node_name, f->w->worker, strerror(errno));
	}
}

static int create_one(struct ftest *f, uint64_t i)
{
	struct bonnie_state *st = f->st;
	uint32_t range = st->p.max_bytes - st->p.min_bytes;
	uint64_t size = st->p.min_bytes + (range ? rng_next(&st->rng) % ((uint64_t)range + 1) : 0);
	unsigned d = dir_of(st, i);
	int fd = pfs_openat(st->tdfd, path_of(st, i), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
			    0600), rc;

	if (fd < 0)
		return ft_fail(f, "create", d, name_of(st, i), errno);
	st->made = i + 1;
	rc = pfs_write_all(fd, st->buf, st->p.file_chunk, size);
	if (!rc && f->o->sync && pfs_fsync(fd))
		rc = -errno;
	if (rc) {
		pfs_close(fd);
		return ft_fail(f, f->o->sync ? "write and fsync" : "write", d, name_of(st, i), -rc);
	}
	if (f->o->sync)
		dir_sync(f, st->syncfd[d]);
	if (pfs_close(fd))
		return ft_fail(f, "close", d, name_of(st, i), errno);
	f->bytes += size;
	return 0;
}

/* seq_create and ran_create, then syncfs inside the time. The count is
 * compared after the stop check, which may have held the thread at the
 * deadline and lowered it (--runtime). */
static int files_create(struct ftest *f)
{
	int rc;

	for (;;) {
		uint64_t lat;

		if (ft_stopped(f))
			return -ECANCELED;
		if (f->items >= f->run.items)
			break;
		lat = ft_lat_start(f);
		if ((rc = create_one(f, f->items)))
			return rc;
		ft_done(f, lat);
	}
	if (syncfs(f->st->tdfd))
		return ft_fail(f, "syncfs", DIR_TOP, TEST_DIR, errno);
	return 0;
}

/* stat, and read what the file holds: path is relative to dfd, the file
 * is name in directory d (for messages). */
static int stat_one(struct ftest *f, int dfd, const char *path, unsigned d, const char *name)
{
	struct bonnie_state *st = f->st;
	uint32_t chunk = st->p.file_chunk;
	struct stat sb;
	uint64_t left;
	ssize_t n;
	int fd;

	if (fstatat(dfd, path, &sb, AT_SYMLINK_NOFOLLOW))
		return ft_fail(f, "stat", d, name, errno);
	if (!S_ISREG(sb.st_mode))
		return ft_fail(f, "read", d, name, EINVAL);
	if (!sb.st_size)
		return 0;
	fd = pfs_openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0);
	if (fd < 0)
		return ft_fail(f, "open", d, name, errno);
	for (left = (uint64_t)sb.st_size; left; left -= (uint64_t)n) {
		n = pfs_read(fd, st->buf, left < chunk ? (size_t)left : chunk);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;

			pfs_close(fd);
			return ft_fail(f, "read", d, name, err);
		}
	}
	pfs_close(fd);
	f->bytes += (uint64_t)sb.st_size;
	return 0;
}

static int remove_one(struct ftest *f, int dfd, const char *path, unsigned d, const char *name)
{
	if (pfs_unlinkat(dfd, path, 0))
		return ft_fail(f, "remove", d, name, errno);
	if (f->o->sync)
		dir_sync(f, f->st->syncfd[d]);
	return 0;
}

/* seq_stat and seq_del: each directory read, each of its files stat'ed
 * and read, or removed, in the order readdir gives them. A name this rank
 * did not make stops the test, untouched. */
static int files_by_readdir(struct ftest *f, bool del)
{
	struct bonnie_state *st = f->st;
	int rc = 0;

	for (unsigned d = 0; d < st->p.num_dirs && !rc; d++) {
		char sub[16];
		int fd;
		DIR *dir;

		/* bonnie++ goes into each directory and reads it */
		snprintf(sub, sizeof(sub), SUBDIR_FMT, d);
		fd = pfs_openat(st->tdfd, st->base ? sub : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
		dir = fd >= 0 ? fdopendir(fd) : NULL;

		if (!dir) {
			if (fd >= 0)
				pfs_close(fd);
			return ft_fail(f, "open", d, NULL, errno);
		}
		for (;;) {
			uint64_t lat = ft_lat_start(f);
			struct dirent *ent;

			errno = 0;
			if (!(ent = readdir(dir))) {
				if (errno)
					rc = ft_fail(f, "read", d, NULL, errno);
				break;
			}
			if (ent->d_name[0] == '.')
				continue;
			if (ft_stopped(f)) {
				rc = -ECANCELED;
				break;
			}
			if (owned(st, d, ent->d_name) < 0) {
				rc = ft_fail(f, del ? "remove a file it did not create:"
						    : "read a file it did not create:",
					     d, ent->d_name, EPERM);
				break;
			}
			rc = del ? remove_one(f, fd, ent->d_name, d, ent->d_name)
				 : stat_one(f, fd, ent->d_name, d, ent->d_name);
			if (rc)
				break;
			ft_done(f, lat);
		}
		closedir(dir);
	}
	if (rc)
		return rc;
	if (f->items != st->made)
		return ft_fail(f, del ? "remove every file in" : "read every file in", DIR_TOP,
			       TEST_DIR, ENOENT);
	return del ? dirs_remove(f) : 0;
}

/* ran_stat and ran_del: the files in the order shuffle() chose. */
static int files_random(struct ftest *f, bool del)
{
	struct bonnie_state *st = f->st;
	int rc;

	while (f->items < st->made) {
		uint32_t i = st->order[f->items];
		unsigned d = dir_of(st, i);
		uint64_t lat;

		if (ft_stopped(f))
			return -ECANCELED;
		lat = ft_lat_start(f);
		rc = del ? remove_one(f, st->tdfd, path_of(st, i), d, name_of(st, i))
			 : stat_one(f, st->tdfd, path_of(st, i), d, name_of(st, i));
		if (rc)
			return rc;
		ft_done(f, lat);
	}
	return del ? dirs_remove(f) : 0;
}

static void *ftest_main(void *arg)
{
	struct ftest *f = arg;
	struct pfs_bonnie_run *r = &f->run;
	enum pfs_bonnie_test t = f->test;
	bool create = t == PFS_BONNIE_SEQ_CREATE || t == PFS_BONNIE_RAN_CREATE;
	bool del = t == PFS_BONNIE_SEQ_DEL || t == PFS_BONNIE_RAN_DEL;
	int own = pfs_bonnie_table_unshare();
	int rc = own ? ft_fail(f, "unshare the descriptor table in", DIR_TOP, NULL, -own)
		     : dirs_open(f, create);
	int meter = pfs_wait_meter_open();
	uint64_t wait0;

	pfs_bonnie_run_ready_wait(r);
	/* The row's clock is the main thread's op, started before go: the
	 * meter read from here to before finished lies inside it, so a wait
	 * can never exceed the row's time (read before the ready wait, a
	 * wake-up throttled by a CPU quota made a row's wait 2.1x its time,
	 * issue 24). */
	wait0 = pfs_wait_meter_ns(meter);
	if (!rc && !pfs_bonnie_run_stopped(r)) {
		if (create)
			files_create(f);
		else if (t == PFS_BONNIE_SEQ_STAT || t == PFS_BONNIE_SEQ_DEL)
			files_by_readdir(f, del);
		else
			files_random(f, del);
	}
	atomic_store(&r->done, f->items);
	f->wait_ns = pfs_wait_meter_since(meter, wait0);
	pfs_wait_meter_close(meter);
	dirs_close(f->st);
	pfs_bonnie_run_signal(r, &r->finished);
	if (!own)
		pfs_bonnie_table_drop();
	return NULL;
}

/* A file test: what comes before it in the main thread (the names, the
 * order), its thread, and its row. */
static int op_files(struct pfs_worker *w, const struct pfs_bonnie_opts *o,
		    struct bonnie_state *st, enum pfs_bonnie_test t)
{
	bool create = t == PFS_BONNIE_SEQ_CREATE || t == PFS_BONNIE_RAN_CREATE;
	bool random = t == PFS_BONNIE_RAN_CREATE || t == PFS_BONNIE_RAN_STAT || t == PFS_BONNIE_RAN_DEL;
	struct ftest f = { .w = w, .o = o, .st = st, .test = t };
	uint64_t asked;
	struct pfs_hist *hist;
	pthread_attr_t attr;
	pthread_t tid;
	int rc;

	if (create) {
		/* bonnie++ removes the I/O tests' file before the file tests. */
		if (st->io_made && pfs_unlinkat(w->dirfd, IO_FILE, 0) && errno != ENOENT)
			return pfs_fail(w, "remove", IO_FILE, errno);
		st->io_made = false;
		make_names(st, random);
		st->dir_sync = o->sync;
	} else if (random) {
		shuffle(st);
	}
	/* a create test makes every file unless --runtime cuts it; the stat
	 * and delete tests take exactly the files made */
	asked = pfs_bonnie_asked(&st->p, t, 0, st->made);
	f.run.items = asked;
	if (!(hist = malloc(sizeof(*hist))))
		return pfs_fail(w, "allocate", "the file test's thread", ENOMEM);
	pfs_hist_init(hist);
	if ((rc = pfs_bonnie_run_init(&f.run))) {
		free(hist);
		return pfs_fail(w, "start", "the file test's thread", rc);
	}
	if (!(rc = pthread_attr_init(&attr))) {
		rc = pthread_attr_setstacksize(&attr, PFS_BONNIE_THREAD_STACK);
		if (!rc)
			rc = pthread_create(&tid, &attr, ftest_main, &f);
		pthread_attr_destroy(&attr);
	}
	if (!rc) {
		bool ready;

		pfs_bonnie_run_await_ready(&f.run, 1);
		/* read before go: after it, the thread may write f.err */
		ready = !f.err;
		/* its directories are open: the clock starts, and says whether
		 * latency is recorded; the thread reads f.lat after go */
		if (ready) {
			pfs_op_start(w, pfs_bonnie_test_names[t], PFS_UNIT_FILES, asked, 0);
			f.lat = w->lat ? hist : NULL;
		}
		pfs_bonnie_run_go(&f.run);
		if (ready)
			pfs_bonnie_run_wait(w, &f.run, 1);
		pthread_join(tid, NULL);
		w->items = f.items;
		w->bytes = f.bytes;
		w->thread_wait_ns = f.wait_ns;
		w->thread_waited = true;
		if (w->lat && f.lat)
			pfs_hist_merge(w->lat, f.lat);
	}
	pfs_bonnie_run_destroy(&f.run);
	free(hist);
	if (rc)
		return pfs_fail(w, "start", "the file test's thread", rc);
	if (f.err)
		return pfs_fail(w, f.op, f.path[0] ? f.path : NULL, f.err);
	if (w->stopped)
		return -ECANCELED;
	return pfs_op_done(w);
}

/* ---- the ops, and who does them ---------------------------------------------------- */

/* -u and -g: the ops create and open files as that user and group
 * (setfsuid, setfsgid: this thread's filesystem identity, which the
 * seekers inherit), and the engine's own files stay root's. */
static int identity(struct pfs_worker *w, const struct pfs_bonnie_opts *o, bool enter)
{
	if (o->gid >= 0) {
		gid_t g = enter ? (gid_t)o->gid : 0;

		setfsgid(g);
		if ((gid_t)setfsgid(g) != g)
			return pfs_fail(w, "switch the filesystem group of", NULL, EPERM);
	}
	if (o->uid >= 0) {
		uid_t u = enter ? (uid_t)o->uid : 0;

		setfsuid(u);
		if ((uid_t)setfsuid(u) != u)
			return pfs_fail(w, "switch the filesystem user of", NULL, EPERM);
	}
	return 0;
}

static int bonnie_run_op(struct pfs_worker *w, unsigned op)
{
	const struct pfs_bonnie_opts *o = w->opts;
	struct bonnie_state *st = w->state;
	int rc, rc2;

	if (op >= PFS_BONNIE_TESTS)
		return -EINVAL;
	if ((rc = identity(w, o, true)))
		return rc;
	switch ((enum pfs_bonnie_test)op) {
	case PFS_BONNIE_PUTC:
		rc = op_io(w, st, PFS_BONNIE_IO_PUTC);
		break;
	case PFS_BONNIE_PUT_BLOCK:
		rc = op_io(w, st, PFS_BONNIE_IO_PUT_BLOCK);
		break;
	case PFS_BONNIE_REWRITE:
		rc = op_io(w, st, PFS_BONNIE_IO_REWRITE);
		break;
	case PFS_BONNIE_GETC:
		rc = op_io(w, st, PFS_BONNIE_IO_GETC);
		break;
	case PFS_BONNIE_GET_BLOCK:
		rc = op_io(w, st, PFS_BONNIE_IO_GET_BLOCK);
		break;
	case PFS_BONNIE_SEEKS:
		rc = op_seeks(w, o, st);
		break;
	default:
		rc = op_files(w, o, st, (enum pfs_bonnie_test)op);
		break;
	}
	rc2 = identity(w, o, false);
	return rc ? rc : rc2;
}

/* ---- setup and cleanup ------------------------------------------------------------ */

static int bonnie_setup(struct pfs_worker *w)
{
	const struct pfs_bonnie_opts *o = w->opts;
	struct bonnie_state *st = w->state;
	char err[PFS_REFUSAL_MAX];

	st->tdfd = -1;
	/* validate() resolved the same strings on rank 0. */
	if (pfs_bonnie_resolve(o, &st->p, err, sizeof(err)))
		return pfs_fail(w, "resolve the options of", err, EINVAL);
	st->rng = o->seed ^ ((uint64_t)w->rank << 32);
	st->buflen = st->p.io_chunk > st->p.file_chunk ? st->p.io_chunk : st->p.file_chunk;
	if (posix_memalign((void **)&st->buf, 4096, st->buflen)) {
		st->buf = NULL;
		return pfs_fail(w, "allocate", "the I/O buffer", ENOMEM);
	}
	memset(st->buf, 0, st->buflen);
	st->io_blocks = pfs_bonnie_io_bytes(&st->p) / st->p.io_chunk;
	st->nfiles = pfs_bonnie_files(&st->p);
	if (st->nfiles) {
		st->base = st->p.num_dirs > 1 ? DIR_PREFIX : 0;
		st->names = malloc(st->nfiles * NAME_SLOT);
		st->order = malloc(st->nfiles * sizeof(*st->order));
		st->syncfd = malloc(st->p.num_dirs * sizeof(*st->syncfd));
		if (!st->names || !st->order || !st->syncfd)
			return pfs_fail(w, "allocate", "the file names", ENOMEM);
		for (unsigned d = 0; d < st->p.num_dirs; d++)
			st->syncfd[d] = -1;
	}
	if (st->p.file_mib) {
		st->tickets = malloc(((size_t)st->p.seeks + st->p.seek_procs) * sizeof(*st->tickets));
		if (!st->tickets)
			return pfs_fail(w, "allocate", "the seeks", ENOMEM);
	}
	/* -u/-g: the user must be able to create in the worker's directory. */
	if ((o->uid >= 0 || o->gid >= 0) &&
	    fchown(w->dirfd, o->uid >= 0 ? (uid_t)o->uid : (uid_t)-1,
		   o->gid >= 0 ? (gid_t)o->gid : (gid_t)-1))
		return pfs_fail(w, "change the owner of", NULL, errno);
	return 0;
}

/* Removes what this rank made and is still there: the I/O file, the
 * files of names [0, made), the directories. Goes on past errors. */
static int bonnie_cleanup(struct pfs_worker *w)
{
	struct bonnie_state *st = w->state;
	char path[64];
	int rc = 0;

	dirs_close(st);
	if (st->io_made && pfs_unlinkat(w->dirfd, IO_FILE, 0) && errno != ENOENT)
		rc = -errno;
	st->io_made = false;
	for (uint64_t i = 0; st->tdir_made && i < st->made; i++) {
		snprintf(path, sizeof(path), TEST_DIR "/%s", path_of(st, i));
		if (pfs_unlinkat(w->dirfd, path, 0) && errno != ENOENT && !rc)
			rc = -errno;
	}
	for (unsigned d = st->dirs_made; d-- > 0;) {
		file_path(path, sizeof(path), st, d, NULL);
		if (pfs_unlinkat(w->dirfd, path, AT_REMOVEDIR) && errno != ENOENT && !rc)
			rc = -errno;
	}
	if (st->tdir_made && pfs_unlinkat(w->dirfd, TEST_DIR, AT_REMOVEDIR) && errno != ENOENT &&
	    !rc)
		rc = -errno;
	st->made = st->dirs_made = 0;
	st->tdir_made = false;
	free(st->buf);
	free(st->names);
	free(st->order);
	free(st->syncfd);
	free(st->tickets);
	st->buf = st->names = NULL;
	st->order = NULL;
	st->syncfd = NULL;
	st->tickets = NULL;
	return rc;
}

/* ---- the test: every bonnie++ test in its order, all nodes at once ------------------ */

/* --runtime: every test but the stat and delete tests stops S s after its
 * barrier, and wears out to the busiest rank's count then (the engine's
 * stonewall, docs/bonnie.md); the later tests take what it left. */
static bool cuts(const struct pfs_bonnie_opts *o, unsigned t)
{
	return o->common.runtime_s && pfs_bonnie_runtime_cuts((enum pfs_bonnie_test)t);
}

static size_t bonnie_plan(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	const struct pfs_bonnie_opts *o = opts;
	struct pfs_bonnie_plan p;
	char err[PFS_REFUSAL_MAX];
	size_t n = 0;

	(void)nnodes;
	if (pfs_bonnie_resolve(opts, &p, err, sizeof(err)))
		return 0;
	for (unsigned t = 0; t < PFS_BONNIE_TESTS; t++)
		if (pfs_bonnie_runs(&p, t))
			n = pfs_plan_put(steps, cap, n,
					 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, t),
						       PFS_STEP_KEEP_CACHE |
							       (cuts(o, t) ? PFS_STEP_STONEWALL : 0)));
	return n;
}

static const struct pfs_test bonnie_tests[] = {
	{ PFS_BONNIE_TEST_NAME, PFS_ORDER_PLAN, bonnie_plan },
	{ NULL, 0, NULL },
};

/* ---- options ------------------------------------------------------------------------- */

#define BON struct pfs_bonnie_opts
/* A string whose default bonnie works out at run time (shown is what
 * --help says of it): its field starts empty. */
#define BON_STR(field, lname, sname, arg, help, shown)                                        \
	PFS_OPT_ENTRY_SHOWN(BON, field, char[sizeof(((BON *)0)->field)], lname, sname,          \
			    PFS_OPT_STRING, 0, arg, help, 0, shown)
static const struct pfs_option bonnie_options[] = {
	PFS_OPT_STR_DEF(BON, common.dir, "directory", 'd', "DIR",
			"directory to test in; the run works in a new directory inside it", 0, "."),
	BON_STR(size, "size", 's', "SIZE[:CHUNK[:SEEKS[:PROCS]]]",
		"MiB of the I/O tests' file per rank (suffix g, t; 0: no I/O tests), its block size, "
		"the random seeks and seekers",
		"twice -r:8k:8192:5"),
	BON_STR(files, "files", 'n', "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
		"NUM x 1024 files per rank for the file tests (0: none), of MIN to MAX bytes, over "
		"DIRS directories, written CHUNK bytes at a time",
		"16:0:0"),
	BON_STR(ram, "ram", 'r', "MiB", "the RAM to assume in MiB (32 or 32m)", "this machine's"),
	PFS_OPT_FLAG(BON, sync, "sync", 'b',
		     "fsync where bonnie++ -b does: each created file and its directory, each "
		     "removal's directory, each block a seek rewrites"),
	PFS_OPT_FLAG(BON, no_char, "no-char", 'f', "skip the per-char tests"),
	PFS_OPT_FLAG(BON, no_io, "no-io", 'F', "skip the I/O tests (-s 0)"),
	PFS_OPT_ENTRY_SHOWN(BON, char_bytes, uint64_t, "char-size", 0, PFS_OPT_SIZE, 0, "SIZE",
			    "bytes of the per-char tests (suffix k, m; at most the file)", 0,
			    "3m, as bonnie++"),
	PFS_OPT_ENTRY(BON, common.iterations, uint64_t, "repeat", 'x', PFS_OPT_COUNT, 1000000, "N",
		      "run the tests N times (as -i); then only CSV lines, after a header",
		      NULL, PFS_OPTF_NOT_PARAM),
	BON_STR(machine, "machine", 'm', "NAME", "the name of the aggregate lines",
		"the host name, or 'N nodes'"),
	PFS_OPT_FLAG(BON, quiet, "quiet", 'q', "the tables on stderr, only the CSV lines on stdout"),
	PFS_RUNTIME_OPTION(BON, "stop each test but the stat and delete tests SECONDS after it "
				"starts, every rank at the busiest rank's count; the later tests take "
				"what it left (docs/bonnie.md)"),
	PFS_OPT_STR(BON, user, "user", 'u', "USER[:GROUP]",
		    "as root: create and open the files as USER (and GROUP)", 0),
	PFS_OPT_STR(BON, group, "group", 'g', "GROUP", "as root: create and open the files as GROUP",
		    0),
	PFS_OPT_ENTRY_SHOWN(BON, seed, uint64_t, "seed", 'z', PFS_OPT_UINT, UINT32_MAX, "N",
			    "the random seed of names, sizes and seeks", 0, "from the time"),
	PFS_OPT_STR_DEF(BON, version, "bonnie-version", 0, "1.96|1.98",
			"the layout of the tables and CSV lines: bonnie++ 1.96's or 1.98's, which "
			"bonnie++ 2.00a and its bon_csv2txt and bon_csv2html use",
			0, "1.96"),
	PFS_COMMON_OPTIONS(BON),
	PFS_OPT_END,
};
#undef BON_STR
#undef BON

static void bonnie_defaults(void *opts)
{
	struct pfs_bonnie_opts *o = opts;

	o->seed = UINT64_MAX;
	o->uid = o->gid = -1;
}

/* A name bonnie++'s CSV can carry: no comma, no control character. */
static bool csv_safe(const char *s)
{
	for (; *s; s++)
		if (*s == ',' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* A user or group by name or number. */
static int id_of(const char *s, bool group, int64_t *id)
{
	uint64_t v;

	if (!pfs_parse_u64(s, &v) && v < UINT32_MAX) {
		*id = (int64_t)v;
		return 0;
	}
	if (group) {
		struct group *g = getgrnam(s);

		if (g)
			*id = g->gr_gid;
		return g ? 0 : -ENOENT;
	} else {
		struct passwd *p = getpwnam(s);

		if (p)
			*id = p->pw_uid;
		return p ? 0 : -ENOENT;
	}
}

static int resolve_ids(struct pfs_bonnie_opts *o, char *err, size_t errlen)
{
	char user[sizeof(o->user)], *colon;
	const char *group = o->group;

	if (!o->user[0] && !o->group[0])
		return 0;
	if (geteuid() != 0) {
		pfs_format(err, errlen, "-u and -g switch the user only when run as root");
		return -EINVAL;
	}
	memcpy(user, o->user, sizeof(user));
	colon = strchr(user, ':');
	if (colon) {
		*colon = '\0';
		if (o->group[0]) {
			pfs_format(err, errlen, "a group in -u USER:GROUP and in -g: give one");
			return -EINVAL;
		}
		group = colon + 1;
	}
	if (user[0] && id_of(user, false, &o->uid)) {
		pfs_format(err, errlen, "-u: no user '%s'", user);
		return -EINVAL;
	}
	if (group[0] && id_of(group, true, &o->gid)) {
		pfs_format(err, errlen, "no group '%s'", group);
		return -EINVAL;
	}
	/* bonnie++: a user without a group takes the user's own group. */
	if (user[0] && !group[0]) {
		struct passwd *p = getpwuid((uid_t)o->uid);

		if (p)
			o->gid = p->pw_gid;
	}
	return 0;
}

/* On rank 0. The effective -s, -r and -z are written back into the
 * options, so the results file and `pfsbench show` know them. */
static int bonnie_validate(void *opts, char *err, size_t errlen)
{
	struct pfs_bonnie_opts *o = opts;
	struct pfs_bonnie_plan p;
	int rc;

	if (!csv_safe(o->machine)) {
		pfs_format(err, errlen, "-m: a name without commas or control characters, for the CSV");
		return -EINVAL;
	}
	if (o->seed == UINT64_MAX)
		o->seed = (uint32_t)((uint64_t)time(NULL) ^ (uint64_t)getpid());
	if (!o->ram[0])
		snprintf(o->ram, sizeof(o->ram), "%" PRIu64, pfs_local_mem_bytes() >> 20);
	if ((rc = pfs_bonnie_resolve(o, &p, err, errlen)))
		return rc;
	if (!o->size[0] && !o->no_io)
		snprintf(o->size, sizeof(o->size), "%" PRIu64, p.file_mib);
	return resolve_ids(o, err, errlen);
}

/* The results file's run_note and the text's notes say that --runtime
 * may cut the tests; which it cut, the report says from the rows. */
static void bonnie_note(const void *opts, unsigned nnodes, char *note, size_t len)
{
	const struct pfs_bonnie_opts *o = opts;

	(void)nnodes;
	if (o->common.runtime_s)
		pfs_format(note, len,
			   "--runtime %" PRIu64 ": each test but the stat and delete tests stops %" PRIu64
			   " s after its start, every rank at the busiest rank's count; the later "
			   "tests take what it wrote or created",
			   o->common.runtime_s, o->common.runtime_s);
}

/* At its peak a rank holds the I/O file, or its small files. */
static void bonnie_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	struct pfs_bonnie_plan p;
	char err[PFS_REFUSAL_MAX];
	uint64_t files, dirs, bytes;

	needs->bytes = needs->inodes = 0;
	if (pfs_bonnie_resolve(opts, &p, err, sizeof(err)))
		return;
	files = pfs_bonnie_files(&p);
	dirs = files ? 1 + (p.num_dirs > 1 ? p.num_dirs : 0) : 0;
	bytes = pfs_mul_sat_u64(files, p.max_bytes);
	bytes = bytes > UINT64_MAX - dirs * 4096 ? UINT64_MAX : bytes + dirs * 4096;
	if (pfs_bonnie_io_bytes(&p) > bytes)
		bytes = pfs_bonnie_io_bytes(&p);
	needs->bytes = pfs_mul_sat_u64(bytes, nranks);
	needs->inodes = pfs_mul_sat_u64(files + dirs + 1, nranks);
}

const struct pfs_workload pfs_workload_bonnie = {
	.name = "bonnie",
	.summary = "bonnie++'s I/O and file tests on every rank at once, with its tables and CSV.",
	.synopsis = "[-d DIR] [-s SIZE[:CHUNK[:SEEKS[:PROCS]]]] [-n NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]] "
		    "[-r MiB] [-b] [-f] [-F] [--char-size SIZE] [-x N] [-m NAME] [-q] [-u USER[:GROUP]] "
		    "[-g GROUP] [-z SEED] [--bonnie-version 1.96|1.98] [options]",
	.options = bonnie_options,
	.opts_size = sizeof(struct pfs_bonnie_opts),
	.state_size = sizeof(struct bonnie_state),
	.tests = bonnie_tests,
	.op_names = pfs_bonnie_test_names,
	.report = &pfs_output_bonnie,
	.defaults = bonnie_defaults,
	.validate = bonnie_validate,
	.needs = bonnie_needs,
	.note = bonnie_note,
	.setup = bonnie_setup,
	.run_op = bonnie_run_op,
	.cleanup = bonnie_cleanup,
	.items = bonnie_items,
};
