/* create_unlink.c: Red Hat's create_unlink_perf on the pfsbench engine.
 *
 * Ops: Create (-f empty files), Write (-s bytes into each of the first -F
 * files, fsync before close), Read (them back), Unlink (all -f files), and
 * CreateUnlink (create one file, unlink it, -f times; two rows). Tests are
 * plans of those ops over the nodes: se, pa, ua, ub, uc, defined precisely
 * in docs/methodology.md. Files live in the worker's own directory as
 * f0000000000, f0000000001, ...; with --shared-dir, those of every worker
 * of every node live in one directory, the run directory, each name
 * followed by its worker's .<node index>.<worker> (mdtest's default, one
 * directory, without -u). Only names of those forms that this run created
 * are ever removed.
 *
 * --stat adds a Stat op (fstatat, no link followed, of every file in
 * creation order) between Read and Unlink of se and pa, before ub's Unlink.
 *
 * --shift N (mdtest -N): in se, pa and ub, Read and Unlink act on the files
 * of the same worker on node (k + N) mod nodes, its peer, so that no node
 * reads or removes what its own cache holds. Which files exist is then
 * known to two workers: the owner, who created them, and its reader, who
 * removes them. They keep each other informed through the engine's ledgers
 * (include/pfsbench/engine/worker.h): the owner publishes the range of its files
 * that exist, the reader how far it has removed them; the owner's cleanup
 * removes only what its reader has not, so every file is removed exactly
 * once, also after a failure in the middle of a shifted Unlink.
 *
 * --direct: Write and Read open with O_DIRECT, from a page-aligned buffer;
 * the engine has probed the filesystem and check_direct the sizes first. */
#include "pfsbench/core/sys.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cu_opts {
	struct pfs_common_opts common;
	uint64_t files;       /* -f: per worker, Create and Unlink */
	uint64_t write_files; /* -F: per worker, Write and Read */
	uint64_t size;        /* -s: bytes per written file */
	uint64_t shift;       /* --shift: Read, Stat and Unlink on node (k + shift) mod nodes */
	bool fsync;
	bool shared_dir;      /* --shared-dir: every worker's files in the run directory */
	bool stat;            /* --stat: a Stat op before Unlink */
};

/* Read, Stat and Unlink of the peer's files are ops of their own, so that plans
 * say which tests shift (ua and uc never do). */
enum cu_op { OP_CREATE, OP_WRITE, OP_READ, OP_UNLINK, OP_CREATE_UNLINK, OP_READ_PEER,
	     OP_UNLINK_PEER, OP_STAT, OP_STAT_PEER };

#define NAME_PREFIX "f"
#define NAME_DIGITS 10
#define MAX_FILES 9999999999ull
#define IO_CHUNK (1u << 20)
/* With --shared-dir, ".<node index>.<worker>" after the digits: each at
 * most 10 digits, as the pattern of cu_run_items says. */
#define TAG_MAX 24

/* Which of this worker's files exist: exactly the indexes [lo, hi) of
 * generation gen. Once all are gone the numbering starts again at 0 in a
 * new generation, so each test uses the same names. With --shift, the view
 * of the peer's files: [plo, phi) of its generation pgen exist, as far as
 * this worker knows; it removes them from plo up. */
struct cu_state {
	uint64_t lo, hi, gen;
	uint64_t plo, phi, pgen;
	char *buf;
	size_t buflen;
	/* Where this worker's files are: its own directory, or for
	 * --shared-dir the run directory, where its peer's are too (peer_dir
	 * says which). tag and ptag end their names: empty, or for
	 * --shared-dir the worker's. */
	int dirfd;
	const char *dir;
	bool shared;
	char tag[TAG_MAX], ptag[TAG_MAX];
	char run_dir[PATH_MAX];
};

/* The ledger: what a worker tells its peer and its reader. */
enum { L_GEN, L_LO, L_HI, L_PGEN, L_PLO };

/* ---- names ------------------------------------------------------------ */

struct cu_name {
	char s[NAME_DIGITS + 1 + TAG_MAX];
};

/* The name of file idx, tag after the digits (TAG_MAX with its NUL). */
static void name_set(struct cu_name *n, uint64_t idx, const char *tag)
{
	n->s[0] = NAME_PREFIX[0];
	for (int i = NAME_DIGITS; i >= 1; i--, idx /= 10)
		n->s[i] = (char)('0' + idx % 10);
	memcpy(n->s + NAME_DIGITS + 1, tag, strlen(tag) + 1);
}

/* The next name, in place: a few instructions instead of a snprintf. */
static void name_next(struct cu_name *n)
{
	for (int i = NAME_DIGITS; i >= 1; i--) {
		if (n->s[i] != '9') {
			n->s[i]++;
			return;
		}
		n->s[i] = '0';
	}
}

/* Its names, for `pfsbench clean`: what name_set and name_next make, in
 * a worker's directory, and with --shared-dir's tag in the run directory. */
static const struct pfs_item cu_items[] = {
	{ NAME_PREFIX "[0-9]{" PFS_ITEM_STR(NAME_DIGITS) "}", PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item cu_run_items[] = {
	{ NAME_PREFIX "[0-9]{" PFS_ITEM_STR(NAME_DIGITS) "}.[0-9]{1,10}.[0-9]{1,10}", PFS_ITEM_FILE,
	  NULL },
	{ NULL, 0, NULL },
};

/* ---- ops ---------------------------------------------------------------- */

/* O_NOFOLLOW as well as O_EXCL: the shared directory is everyone's. */
static inline __attribute__((always_inline)) int create_one(struct pfs_worker *w,
								const struct cu_state *st,
								const char *name)
{
	int fd = pfs_openat(st->dirfd, name,
			    O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0644);

	if (fd < 0)
		return pfs_fail_in(w, "create", st->dir, name, errno);
	if (pfs_close(fd))
		return pfs_fail_in(w, "close", st->dir, name, errno);
	return 0;
}

static void restart_names(struct cu_state *st)
{
	if (st->lo == st->hi && st->hi) {
		st->lo = st->hi = 0;
		st->gen++;
	}
}

/* What the last exchange said: the reader removed this worker's files
 * below its L_PLO (of this generation); the peer's files that exist. */
static void cu_absorb(const struct pfs_worker *w, struct cu_state *st)
{
	const uint64_t *r = w->reader_ledger, *p = w->peer_ledger;

	if (w->has_reader && r[L_PGEN] == st->gen && r[L_PLO] > st->lo)
		st->lo = r[L_PLO] < st->hi ? r[L_PLO] : st->hi;
	if (!w->has_peer)
		return;
	if (p[L_GEN] != st->pgen) {
		st->pgen = p[L_GEN];
		st->plo = p[L_LO];
	} else if (p[L_LO] > st->plo) {
		st->plo = p[L_LO];
	}
	st->phi = p[L_HI] > st->plo ? p[L_HI] : st->plo;
}

static void cu_publish(struct pfs_worker *w, const struct cu_state *st)
{
	w->ledger[L_GEN] = st->gen;
	w->ledger[L_LO] = st->lo;
	w->ledger[L_HI] = st->hi;
	w->ledger[L_PGEN] = st->pgen;
	w->ledger[L_PLO] = st->plo;
}

/* The directory of this worker's files (peer false) or of its peer's,
 * and its path into *dir. The engine opens the peer's own directory after
 * setup, so it is looked up here. */
static int peer_dir(const struct pfs_worker *w, const struct cu_state *st, bool peer,
		    const char **dir)
{
	if (!peer || st->shared) {
		*dir = st->dir;
		return st->dirfd;
	}
	*dir = w->peer_dir;
	return w->peer_dirfd;
}

/* One batch of creates, names from *n on, items [i, end): a constant lat
 * gives two loops, the plain one as short as a bare C loop's. Returns the
 * items done. */
static inline __attribute__((always_inline)) uint64_t
create_batch(struct pfs_worker *w, const struct cu_state *st, struct cu_name *n, uint64_t i,
	     uint64_t end, bool lat)
{
	for (; i < end; i++, name_next(n)) {
		uint64_t t = lat ? pfs_lat_start(w) : 0;

		if (create_one(w, st, n->s))
			break;
		if (lat)
			pfs_lat_stop(w, t);
	}
	return i;
}

/* Unlink, or stat without following a link: a constant call gives
 * each its own loop. */
static inline __attribute__((always_inline)) uint64_t
name_batch(struct pfs_worker *w, int dirfd, const char *dir, struct cu_name *n, uint64_t i,
	   uint64_t end, bool lat, bool unlink)
{
	struct stat sb;

	for (; i < end; i++, name_next(n)) {
		uint64_t t = lat ? pfs_lat_start(w) : 0;

		if (unlink ? pfs_unlinkat(dirfd, n->s, 0)
			   : fstatat(dirfd, n->s, &sb, AT_SYMLINK_NOFOLLOW)) {
			pfs_fail_in(w, unlink ? "unlink" : "stat", dir, n->s, errno);
			break;
		}
		if (lat)
			pfs_lat_stop(w, t);
	}
	return i;
}

/* Create and Unlink run in batches between looks at the clock
 * (pfs_batch), counting in a local, so the loop around each syscall is as
 * short as a plain C loop's. A stonewall may end Create early, and then
 * raise its target to the busiest rank's count. */
static int op_create(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st)
{
	struct cu_name n;
	uint64_t end, first, done;

	restart_names(st);
	first = st->hi;
	name_set(&n, first, st->tag);
	pfs_op_start(w, "Create", PFS_UNIT_FILES, o->files, PFS_OP_HOT);
	while (w->items < w->target) {
		if (!pfs_batch(w, &end))
			return -ECANCELED;
		done = w->lat ? create_batch(w, st, &n, w->items, end, true)
			      : create_batch(w, st, &n, w->items, end, false);
		w->items = done;
		st->hi = first + done;
		if (done < end)
			return -1;
	}
	return pfs_op_done(w);
}

/* Unlink the files [*lo, hi) of the directory dirfd, advancing *lo as
 * they go, or (unlink false) stat them, in creation order, *lo staying:
 * this worker's own, or with --shift its peer's (peer). */
static int op_names(struct pfs_worker *w, struct cu_state *st, bool peer, uint64_t *lo,
		    uint64_t hi, bool unlink)
{
	const char *dir;
	int dirfd = peer_dir(w, st, peer, &dir);
	struct cu_name n;
	uint64_t end, first = *lo, done;

	name_set(&n, first, peer ? st->ptag : st->tag);
	pfs_op_start(w, unlink ? "Unlink" : "Stat", PFS_UNIT_FILES, hi - first, PFS_OP_HOT);
	while (w->items < w->target) {
		if (!pfs_batch(w, &end))
			return -ECANCELED;
		if (unlink)
			done = w->lat ? name_batch(w, dirfd, dir, &n, w->items, end, true, true)
				      : name_batch(w, dirfd, dir, &n, w->items, end, false, true);
		else
			done = w->lat ? name_batch(w, dirfd, dir, &n, w->items, end, true, false)
				      : name_batch(w, dirfd, dir, &n, w->items, end, false, false);
		w->items = done;
		if (unlink)
			*lo = first + done;
		if (done < end)
			return -1;
	}
	return pfs_op_done(w);
}

static int direct_flag(const struct cu_opts *o)
{
	return o->common.direct ? O_DIRECT : 0;
}

static int write_one(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st,
		     const char *name)
{
	int fd = pfs_openat(st->dirfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | direct_flag(o), 0), rc;

	if (fd < 0)
		return pfs_fail_in(w, "open", st->dir, name, errno);
	rc = pfs_write_all(fd, st->buf, st->buflen, o->size);
	if (rc) {
		pfs_close(fd);
		return pfs_fail_in(w, "write", st->dir, name, -rc);
	}
	/* On network and cluster filesystems write errors surface here. */
	if (o->fsync && pfs_fsync(fd)) {
		int err = errno;

		pfs_close(fd);
		return pfs_fail_in(w, "fsync", st->dir, name, err);
	}
	if (pfs_close(fd))
		return pfs_fail_in(w, "close", st->dir, name, errno);
	return 0;
}

static int read_one(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st,
		    int dirfd, const char *dir, const char *name)
{
	int fd = pfs_openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | direct_flag(o), 0);
	uint64_t got = 0;
	ssize_t n;

	if (fd < 0)
		return pfs_fail_in(w, "open", dir, name, errno);
	while ((n = pfs_read(fd, st->buf, st->buflen)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			pfs_close(fd);
			return pfs_fail_in(w, "read", dir, name, err);
		}
		got += (uint64_t)n;
	}
	pfs_close(fd);
	/* A short file means a lost write: the filesystem's fault, not ours. */
	if (got != o->size)
		return pfs_fail_in(w, "read all of", dir, name, EIO);
	return 0;
}

/* Write and Read the first -F of the files Create made (fewer when a
 * stonewall stopped Create before -F); with peer, Read those of the peer. */
static int op_rw(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st, bool wr,
		 bool peer)
{
	uint64_t lo = peer ? st->plo : st->lo, have = (peer ? st->phi : st->hi) - lo;
	const char *dir;
	int dirfd = peer_dir(w, st, peer, &dir);
	struct cu_name n;

	name_set(&n, lo, peer ? st->ptag : st->tag);
	pfs_op_start(w, wr ? "Write" : "Read", PFS_UNIT_FILES,
		     o->write_files < have ? o->write_files : have, 0);
	for (; w->items < w->target; w->items++, w->bytes += o->size, name_next(&n)) {
		uint64_t t;

		if (pfs_tick(w))
			return -ECANCELED;
		t = pfs_lat_start(w);
		if (wr ? write_one(w, o, st, n.s) : read_one(w, o, st, dirfd, dir, n.s))
			return -1;
		pfs_lat_stop(w, t);
	}
	return pfs_op_done(w);
}

/* uc: the two kinds of op interleave, so each is timed on its own and the
 * rows carry the sum of each kind's times. The clock is read around every
 * item anyway, so both kinds' latencies are always recorded. */
static int op_create_unlink(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st)
{
	struct cu_name n;
	uint64_t t0, t1, t2, create_ns = 0, unlink_ns = 0;
	struct pfs_hist *unlink_lat;

	restart_names(st);
	name_set(&n, st->hi, st->tag);
	pfs_op_start(w, "Create", PFS_UNIT_FILES, o->files, 0);
	unlink_lat = pfs_op_lat2(w);
	for (; w->items < w->target; w->items++, name_next(&n)) {
		if (pfs_tick(w))
			return -ECANCELED;
		t0 = pfs_now_ns();
		if (create_one(w, st, n.s))
			return -1;
		st->hi++;
		t1 = pfs_now_ns();
		if (pfs_unlinkat(st->dirfd, n.s, 0))
			return pfs_fail_in(w, "unlink", st->dir, n.s, errno);
		st->lo++;
		t2 = pfs_now_ns();
		create_ns += t1 - t0;
		unlink_ns += t2 - t1;
		if (w->lat) {
			pfs_hist_add(w->lat, t1 - t0);
			pfs_hist_add(unlink_lat, t2 - t1);
		}
	}
	if (pfs_emit(w, &(struct pfs_sample){ "Create", PFS_UNIT_FILES, w->items, 0,
					      create_ns / 1000, w->lat }) ||
	    pfs_emit(w, &(struct pfs_sample){ "Unlink", PFS_UNIT_FILES, w->items, 0,
					      unlink_ns / 1000, unlink_lat }))
		return -ENOMEM;
	return 0;
}

static int run_one(struct pfs_worker *w, const struct cu_opts *o, struct cu_state *st,
		   enum cu_op op)
{
	uint64_t lo;

	switch (op) {
	case OP_CREATE:
		return op_create(w, o, st);
	case OP_WRITE:
		return op_rw(w, o, st, true, false);
	case OP_READ:
		return op_rw(w, o, st, false, false);
	case OP_UNLINK:
		return op_names(w, st, false, &st->lo, st->hi, true);
	case OP_CREATE_UNLINK:
		return op_create_unlink(w, o, st);
	case OP_READ_PEER:
		return op_rw(w, o, st, false, true);
	case OP_UNLINK_PEER:
		return op_names(w, st, true, &st->plo, st->phi, true);
	case OP_STAT:
		lo = st->lo;
		return op_names(w, st, false, &lo, st->hi, false);
	case OP_STAT_PEER:
		lo = st->plo;
		return op_names(w, st, true, &lo, st->phi, false);
	}
	return -EINVAL;
}

/* Every op first takes in what the last exchange of ledgers said, and
 * ends, also when it failed, by saying where its files stand now. */
static int cu_run_op(struct pfs_worker *w, unsigned op)
{
	struct cu_state *st = w->state;
	int rc;

	cu_absorb(w, st);
	rc = run_one(w, w->opts, st, (enum cu_op)op);
	cu_publish(w, st);
	return rc;
}

/* ---- setup and cleanup ------------------------------------------------------ */

static int cu_setup(struct pfs_worker *w)
{
	const struct cu_opts *o = w->opts;
	struct cu_state *st = w->state;

	st->dirfd = w->dirfd;
	st->dir = w->dir;
	st->shared = o->shared_dir;
	if (o->shared_dir) {
		/* The run directory: the worker's own directory's parent. */
		char *slash;

		memcpy(st->run_dir, w->dir, sizeof(st->run_dir));
		slash = strrchr(st->run_dir, '/');
		if (slash)
			*slash = 0;
		st->dirfd = w->run_dirfd;
		st->dir = st->run_dir;
		pfs_format(st->tag, sizeof(st->tag), ".%u.%u", w->node, w->worker);
		pfs_format(st->ptag, sizeof(st->ptag), ".%u.%u", w->peer_node, w->worker);
	}
	st->buflen = o->size < IO_CHUNK ? (size_t)o->size : IO_CHUNK;
	/* O_DIRECT needs the buffer aligned too: a page covers any logical
	 * block size the probe accepts (check_direct). */
	st->buf = o->common.direct ? pfs_pattern_alloc_aligned(st->buflen, 4096)
				   : pfs_pattern_alloc(st->buflen);
	if (!st->buf)
		return pfs_fail(w, "allocate", "the I/O buffer", ENOMEM);
	return 0;
}

/* Removes exactly the files this worker created that neither it nor its
 * reader has removed: the engine has just passed the ledgers, so the
 * reader's progress is known. The peer's files are the peer's to remove. */
static int cu_cleanup(struct pfs_worker *w)
{
	struct cu_state *st = w->state;
	struct cu_name n;
	int rc = 0;

	cu_absorb(w, st);
	name_set(&n, st->lo, st->tag);
	for (; st->lo < st->hi; st->lo++, name_next(&n))
		if (pfs_unlinkat(st->dirfd, n.s, 0) && errno != ENOENT)
			rc = -errno;
	free(st->buf);
	st->buf = NULL;
	return rc;
}

/* ---- plans -------------------------------------------------------------------- */

/* Create steps may be stonewalled (--stonewall): the plan says which. */
static struct pfs_step step_of(int node, unsigned op)
{
	struct pfs_step s = PFS_STEP1(node, op);

	return op == OP_CREATE ? pfs_step_with(s, PFS_STEP_STONEWALL) : s;
}

/* The op a plan gives for Create, Write, Read, Stat and Unlink: with
 * --shift, Read, Stat and Unlink act on the peer's files. Without options
 * (a plan asked for its shape only), no shift. */
static unsigned shifted(const void *opts, unsigned op)
{
	const struct cu_opts *o = opts;

	if (!o || !o->shift)
		return op;
	return op == OP_READ ? OP_READ_PEER : op == OP_UNLINK ? OP_UNLINK_PEER
		: op == OP_STAT ? OP_STAT_PEER : op;
}

/* The ops of se and pa, in order, into ops[5]; their number. Stat, when
 * asked, comes after Read, right before Unlink: Create, Write and Read
 * then run exactly as without it, so their rows compare with runs
 * without --stat, and Stat finds every file (Read only opens -F). */
static unsigned ops_of(const void *opts, unsigned *ops)
{
	const struct cu_opts *o = opts;
	unsigned n = 0;

	ops[n++] = OP_CREATE;
	ops[n++] = OP_WRITE;
	ops[n++] = shifted(opts, OP_READ);
	if (o && o->stat)
		ops[n++] = shifted(opts, OP_STAT);
	ops[n++] = shifted(opts, OP_UNLINK);
	return n;
}

/* se: each op, node by node. */
static size_t plan_se(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	unsigned ops[5], nops = ops_of(opts, ops);
	size_t i = 0;

	for (unsigned k = 0; k < nops; k++)
		for (unsigned n = 0; n < nnodes; n++)
			i = pfs_plan_put(steps, cap, i, step_of((int)n, ops[k]));
	return i;
}

/* pa: each op on all nodes at once. */
static size_t plan_pa(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	unsigned ops[5], nops = ops_of(opts, ops);
	size_t i = 0;

	(void)nnodes;
	for (unsigned k = 0; k < nops; k++)
		i = pfs_plan_put(steps, cap, i, step_of(PFS_ALL_NODES, ops[k]));
	return i;
}

/* ua: a pipeline; node k unlinks while node k+1 creates. Not stonewalled:
 * a step's stonewall stops all its ops, and here Unlink shares the step. */
static size_t plan_ua(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	size_t i = pfs_plan_put(steps, cap, 0, PFS_STEP1(0, OP_CREATE));

	(void)opts;
	for (unsigned n = 1; n < nnodes; n++)
		i = pfs_plan_put(steps, cap, i, PFS_STEP2((int)n - 1, OP_UNLINK, (int)n, OP_CREATE));
	return pfs_plan_put(steps, cap, i, PFS_STEP1((int)nnodes - 1, OP_UNLINK));
}

/* ub: node by node creates, then every node unlinks at once (with
 * --stat, every node stats at once first). */
static size_t plan_ub(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	const struct cu_opts *o = opts;
	size_t i = 0;

	for (unsigned n = 0; n < nnodes; n++)
		i = pfs_plan_put(steps, cap, i, step_of((int)n, OP_CREATE));
	if (o && o->stat)
		i = pfs_plan_put(steps, cap, i, PFS_STEP1(PFS_ALL_NODES, shifted(opts, OP_STAT)));
	return pfs_plan_put(steps, cap, i, PFS_STEP1(PFS_ALL_NODES, shifted(opts, OP_UNLINK)));
}

/* uc: node by node, create one file and unlink it, -f times. */
static size_t plan_uc(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	size_t i = 0;

	(void)opts;
	for (unsigned n = 0; n < nnodes; n++)
		i = pfs_plan_put(steps, cap, i, PFS_STEP1((int)n, OP_CREATE_UNLINK));
	return i;
}

static const struct pfs_test cu_tests[] = {
	{ "se", PFS_ORDER_PLAN, plan_se },
	{ "pa", PFS_ORDER_COMPLETION, plan_pa },
	{ "ua", PFS_ORDER_COMPLETION, plan_ua },
	{ "ub", PFS_ORDER_COMPLETION, plan_ub },
	{ "uc", PFS_ORDER_PLAN, plan_uc },
	{ NULL, 0, NULL },
};

/* ---- options ------------------------------------------------------------------ */

static const struct pfs_option cu_options[] = {
	PFS_OPT_STR(struct cu_opts, common.dir, "mount", 'm', "DIR",
		    "directory to test in (required); the run works in a new directory inside it", 0),
	PFS_OPT_NUM_DEF(struct cu_opts, files, "files", 'f', PFS_OPT_COUNT, MAX_FILES, "N",
			"files per worker for Create and Unlink", "50000"),
	PFS_OPT_NUM_DEF(struct cu_opts, write_files, "write-files", 'F', PFS_OPT_COUNT, MAX_FILES,
			"N", "files per worker for Write and Read", "2500"),
	PFS_OPT_NUM_DEF(struct cu_opts, size, "size", 's', PFS_OPT_SIZE, 0, "SIZE",
			"bytes written to each file, suffixes k, m, g", "4m"),
	PFS_OPT_TESTS(struct cu_opts, "tests", 't', "tests to run, in order, of se,pa,ua,ub,uc"),
	PFS_OPT_NOFLAG(struct cu_opts, fsync, "no-fsync", 0,
		       "do not fsync each written file before closing it"),
	PFS_OPT_NUM(struct cu_opts, shift, "shift", 0, PFS_OPT_UINT, 1000000, "N",
		    "se, pa, ub: Read, Stat and Unlink the files of node (k+N) mod nodes (mdtest -N)"),
	PFS_OPT_FLAG(struct cu_opts, shared_dir, "shared-dir", 0,
		     "all workers of all nodes create their files in one directory, the run "
		     "directory (mdtest without -u)"),
	PFS_OPT_FLAG(struct cu_opts, stat, "stat", 0,
		     "se, pa, ub: a Stat op, stat every file in creation order, before Unlink"),
	PFS_STONEWALL_OPTION(struct cu_opts),
	PFS_RUNTIME_OPTION(struct cu_opts, PFS_RUNTIME_SAME_HELP),
	PFS_DIRECT_OPTION(struct cu_opts, "Write and Read with O_DIRECT (refused where the filesystem "
			  "refuses it, or -s is no multiple of its block)"),
	PFS_COMMON_OPTIONS(struct cu_opts),
	PFS_OPT_END,
};

static const char *const cu_op_names[] = { "Create", "Write", "Read", "Unlink", "CreateUnlink",
					   "Read", "Unlink", "Stat", "Stat", NULL };

/* Whether -t selects a test whose Read and Unlink --shift and --stat act
 * on: se, pa or ub. */
static bool selects_se_pa_ub(const struct cu_opts *o)
{
	bool any = false;

	for (unsigned t = 0; t < o->common.ntests; t++)
		any |= cu_tests[o->common.tests[t]].plan != plan_ua &&
		       cu_tests[o->common.tests[t]].plan != plan_uc;
	return any;
}

static int cu_validate(void *opts, char *err, size_t errlen)
{
	struct cu_opts *o = opts;

	if (!o->common.dir[0]) {
		pfs_format(err, errlen, "-m DIR is required: the directory to test in");
		return -EINVAL;
	}
	if (o->write_files > o->files) {
		pfs_format(err, errlen, "-F (%llu) cannot exceed -f (%llu): Write uses created files",
			   (unsigned long long)o->write_files, (unsigned long long)o->files);
		return -EINVAL;
	}
	if (o->shift && !selects_se_pa_ub(o)) {
		pfs_format(err, errlen, "--shift acts on the Read and Unlink of se, pa and "
			   "ub, and -t selects none of them");
		return -EINVAL;
	}
	if (o->stat && !selects_se_pa_ub(o)) {
		pfs_format(err, errlen, "--stat adds a Stat op to se, pa and ub, and -t selects "
			   "none of them");
		return -EINVAL;
	}
	return 0;
}

/* --shift N needs the nodes: 2 or more, more than N, and the same number
 * of workers on each, since worker w reads the files of worker w. */
static int cu_peers(const void *opts, const struct pfs_topology *topo, int *peer, char *err,
		    size_t errlen)
{
	const struct cu_opts *o = opts;

	for (unsigned k = 0; k < topo->nnodes; k++)
		peer[k] = -1;
	if (!o->shift)
		return 0;
	if (topo->nnodes < 2) {
		pfs_format(err, errlen, "--shift needs 2 nodes or more: with one node every file "
			   "is read where it was written");
		return -EINVAL;
	}
	if (o->shift >= topo->nnodes) {
		pfs_format(err, errlen, "--shift %llu: this run has %u nodes, so N must be 1 to %u "
			   "(node k reads node (k+N) mod %u)",
			   (unsigned long long)o->shift, topo->nnodes, topo->nnodes - 1, topo->nnodes);
		return -EINVAL;
	}
	if (topo->workers_min != topo->workers_max) {
		pfs_format(err, errlen, "--shift needs the same number of workers on every node "
			   "(these have %u to %u): worker w reads the files of worker w",
			   topo->workers_min, topo->workers_max);
		return -EINVAL;
	}
	for (unsigned k = 0; k < topo->nnodes; k++)
		peer[k] = (int)((k + o->shift) % topo->nnodes);
	return 0;
}

/* --direct: every write and read moves whole blocks; the buffer is
 * IO_CHUNK at most, so it must be whole blocks too. */
static int cu_check_direct(const void *opts, uint64_t align, char *err, size_t errlen)
{
	const struct cu_opts *o = opts;

	if (o->size % align || (o->size > IO_CHUNK && IO_CHUNK % align))
		return pfs_refuse(err, errlen, -EINVAL,
				  "-s %llu is no multiple of %llu bytes, the block O_DIRECT "
				  "needs there",
				  (unsigned long long)o->size, (unsigned long long)align);
	return 0;
}

/* The report's header says when Read and Unlink shift, when the files
 * share one directory, and when Write and Read bypass the page cache. */
static void cu_note(const void *opts, unsigned nnodes, char *note, size_t len)
{
	const struct cu_opts *o = opts;
	size_t at = 0;

	note[0] = 0;
	if (o->shift) {
		pfs_format(note, len, "Shift %llu: in se, pa and ub, node k reads%s and unlinks the "
			   "files of node (k+%llu) mod %u",
			   (unsigned long long)o->shift, o->stat ? ", stats" : "",
			   (unsigned long long)o->shift, nnodes);
		at = strlen(note);
	}
	if (o->shared_dir) {
		pfs_format(note + at, len - at, "%s directory: every worker of every node creates "
			   "its files in the run directory", at ? "; shared" : "Shared");
		at = strlen(note);
	}
	if (o->common.direct && at + 1 < len)
		pfs_format(note + at, len - at, "%sDirect: Write and Read use O_DIRECT",
			   at ? "; " : "");
}

/* At its peak a worker holds -f files, -F of them with -s bytes. */
static void cu_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	const struct cu_opts *o = opts;

	needs->bytes = pfs_mul_sat_u64(pfs_mul_sat_u64(o->write_files, o->size), nranks);
	needs->inodes = pfs_mul_sat_u64(o->files + 1, nranks);
}

const struct pfs_workload pfs_workload_create_unlink = {
	.name = "create-unlink",
	.summary = "Create, Write, Read and Unlink files across nodes, as Red Hat's "
		   "create_unlink_perf does.",
	.synopsis = "-m DIR [-i N] [-f N] [-F N] [-s SIZE] [-t se,pa,ua,ub,uc] [--shift N] "
		    "[--shared-dir] [--stat] [options]",
	.options = cu_options,
	.opts_size = sizeof(struct cu_opts),
	.state_size = sizeof(struct cu_state),
	.tests = cu_tests,
	.op_names = cu_op_names,
	.report = &pfs_output_table,
	.validate = cu_validate,
	.needs = cu_needs,
	.setup = cu_setup,
	.run_op = cu_run_op,
	.cleanup = cu_cleanup,
	.items = cu_items,
	.run_items = cu_run_items,
	.note = cu_note,
	.peers = cu_peers,
	.check_direct = cu_check_direct,
};
