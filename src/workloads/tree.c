/* tree.c: LLNL's fdtree on the pfsbench engine.
 *
 * Every worker builds one tree in its own directory: LEVEL0 at the top;
 * below every directory above the bottom level, -d directories d<j>; in
 * every directory, -f files f<j> of -s 4 KiB blocks. Indexes are decimal,
 * zero-padded to the width of the largest, so a name never changes length:
 * LEVEL0/d3/d0/f7. The test "tree" has four ops, each on every node at once
 * (the engine puts barriers and cache drops between them): Mkdir (pre-order),
 * Create (the files with their data), with --stat Stat (fstatat of every
 * file, in Create's order), Unlink, Rmdir (post-order). -C runs the first
 * two and leaves the trees, -R the rest (see docs/tree.md).
 *
 * The walk is iterative and relative to directory descriptors: memory is one
 * record a level and one path buffer, whatever the size of the tree, and the
 * kernel looks up one name per call. Only names of the plan are ever
 * touched, and only inside the worker's directory. */
#include "pfsbench/core/sys.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/worker.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/plans/tree_plan.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define TOP "LEVEL0"
#define DIR_PREFIX "d"  /* a directory below the top: d<index> */
#define FILE_PREFIX "f" /* a file: f<index> */
#define MAX_DIGITS 20   /* of an index: UINT64_MAX has 20 */
#define IO_CHUNK (1u << 20)

/* In the order the plan runs them; Stat only with --stat. */
enum tree_op { OP_MKDIR, OP_CREATE, OP_STAT, OP_UNLINK, OP_RMDIR, OP_CLEANUP };

/* One directory on the way from the top to where the walk is. */
struct tree_level {
	int fd;       /* open while the walk needs it, else -1 */
	int parent;   /* the descriptor of the directory it is in */
	uint64_t idx; /* its index among its siblings */
	size_t name;  /* where its name starts in the path */
	size_t end;   /* length of the path through its name */
};

struct tree_state {
	struct pfs_tree_totals totals;
	/* What exists: the first dirs_made directories in pre-order (the order
	 * Mkdir makes them), and the first files_made files in the order Create
	 * makes them. A stonewall can leave fewer than the plan. */
	uint64_t dirs_made, files_made;
	struct tree_level *lv; /* levels + 1 */
	char *path;            /* of the current item, relative to the worker's directory */
	unsigned dir_digits, file_digits;
	char *buf;
	size_t buflen;
	uint64_t file_bytes;
};

/* ---- names, built in place ---------------------------------------------- */

static unsigned digits_of(uint64_t n)
{
	unsigned d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

/* Adds one to the n-digit decimal number that ends just before end. */
static inline void digits_next(char *end, unsigned n)
{
	for (char *p = end - 1; n--; p--) {
		if (*p != '9') {
			(*p)++;
			return;
		}
		*p = '0';
	}
}

/* Appends "/<c>00..0" to the path of length at, returns the new length. */
static size_t name_first(char *path, size_t at, char c, unsigned digits)
{
	path[at] = '/';
	path[at + 1] = c;
	memset(path + at + 2, '0', digits);
	path[at + 2 + digits] = 0;
	return at + 2 + digits;
}

/* Makes the directory at depth the first child of the one above it. */
static void dir_first(struct tree_state *st, unsigned depth)
{
	struct tree_level *l = &st->lv[depth];

	l->idx = 0;
	l->fd = -1;
	l->parent = st->lv[depth - 1].fd;
	l->name = st->lv[depth - 1].end + 1;
	l->end = name_first(st->path, st->lv[depth - 1].end, DIR_PREFIX[0], st->dir_digits);
}

/* Makes it its next sibling, once leave() has closed it and cut the path
 * after its name. */
static inline void dir_next(struct tree_state *st, unsigned depth)
{
	struct tree_level *l = &st->lv[depth];

	l->idx++;
	digits_next(st->path + l->end, st->dir_digits);
}

/* Its names, for `pfsbench clean`: the top, and below it directories and
 * files to any depth, of any number of digits (the widths follow -d and -f). */
static const struct pfs_item tree_inside[3];
static const struct pfs_item tree_inside[3] = {
	{ DIR_PREFIX "[0-9]{1," PFS_ITEM_STR(MAX_DIGITS) "}", PFS_ITEM_DIR, tree_inside },
	{ FILE_PREFIX "[0-9]{1," PFS_ITEM_STR(MAX_DIGITS) "}", PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item tree_items[] = {
	{ TOP, PFS_ITEM_DIR, tree_inside },
	{ NULL, 0, NULL },
};

/* ---- the work on each item ---------------------------------------------- */

static inline __attribute__((always_inline)) int
create_file(struct pfs_worker *w, struct tree_state *st, int dfd, const char *name)
{
	int fd = pfs_openat(dfd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644), rc;

	if (fd < 0)
		return pfs_fail(w, "create", st->path, errno);
	rc = pfs_write_all(fd, st->buf, st->buflen, st->file_bytes);
	if (rc) {
		pfs_close(fd);
		return pfs_fail(w, "write", st->path, -rc);
	}
	/* On network and cluster filesystems write errors surface here. */
	if (pfs_close(fd))
		return pfs_fail(w, "close", st->path, errno);
	return 0;
}

/* What enter() and each_file() return besides 0 and errors: the walk has
 * reached what the op's count or what exists allows, and ends. */
#define WALK_END 2

/* Creates or removes the files of the directory whose path ends at end,
 * as many as the op's target allows. */
static inline __attribute__((always_inline)) int
each_file(struct pfs_worker *w, struct tree_state *st, enum tree_op op, bool lat, int dfd,
	  size_t end, uint64_t *done)
{
	const struct pfs_tree_opts *o = w->opts;
	char *name = st->path + end + 1;
	char *last = name + 1 + st->file_digits;
	struct stat sb;
	int rc = 0;

	name_first(st->path, end, FILE_PREFIX[0], st->file_digits);
	for (uint64_t j = 0; j < o->files; j++, digits_next(last, st->file_digits)) {
		uint64_t t;

		if (op == OP_CLEANUP) {
			/* Goes on past errors: remove as much as can be removed. */
			if (pfs_unlinkat(dfd, name, 0) && errno != ENOENT && !rc)
				rc = -errno;
			continue;
		}
		/* Told to stop, or the op's count is done (a stonewall). */
		if (pfs_tick_at(w, *done)) {
			rc = w->stopped ? -ECANCELED : WALK_END;
			break;
		}
		t = lat ? pfs_now_ns() : 0;
		if (op == OP_CREATE)
			rc = create_file(w, st, dfd, name);
		else if (op == OP_STAT ? fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW)
				       : pfs_unlinkat(dfd, name, 0))
			rc = pfs_fail(w, op == OP_STAT ? "stat" : "remove", st->path, errno);
		if (rc)
			break;
		if (lat)
			pfs_hist_add(w->lat, pfs_now_ns() - t);
		(*done)++;
	}
	st->path[end] = 0;
	return rc;
}

/* Before the walk goes below the directory at depth (or past it, at the
 * bottom), the dir_idx-th in pre-order. Opens it when its files or
 * children need it. Returns 0, 1 when its subtree is not there (cleanup
 * only), WALK_END, or a negative errno. */
static inline __attribute__((always_inline)) int
enter(struct pfs_worker *w, struct tree_state *st, enum tree_op op, bool lat, unsigned depth,
      bool bottom, uint64_t dir_idx, uint64_t *done)
{
	struct tree_level *l = &st->lv[depth];
	int parent = l->parent;
	const char *name = st->path + l->name;

	if (op != OP_CLEANUP) {
		/* Told to stop, or the op's count is done (a stonewall). */
		if (pfs_tick_at(w, *done))
			return w->stopped ? -ECANCELED : WALK_END;
		/* Every directory after this one in pre-order is missing too. */
		if (op != OP_MKDIR && dir_idx >= st->dirs_made)
			return WALK_END;
	}
	if (op == OP_MKDIR) {
		uint64_t t = lat ? pfs_now_ns() : 0;

		if (pfs_mkdirat(parent, name, 0755))
			return pfs_fail(w, "create", st->path, errno);
		if (lat)
			pfs_hist_add(w->lat, pfs_now_ns() - t);
		(*done)++;
	}
	if ((op == OP_MKDIR || op == OP_RMDIR) && bottom)
		return 0;
	l->fd = pfs_openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (l->fd < 0) {
		if (op == OP_CLEANUP)
			return errno == ENOENT ? 1 : -errno;
		return pfs_fail(w, "open", st->path, errno);
	}
	if (op == OP_MKDIR || op == OP_RMDIR)
		return 0;
	return each_file(w, st, op, lat, l->fd, l->end, done);
}

/* After the walk is done with the directory at depth and below it. */
static inline __attribute__((always_inline)) int
leave(struct pfs_worker *w, struct tree_state *st, enum tree_op op, bool lat, unsigned depth,
      uint64_t *done)
{
	struct tree_level *l = &st->lv[depth];
	uint64_t t;

	st->path[l->end] = 0; /* cut off what deeper levels appended */
	if (l->fd >= 0)
		pfs_close(l->fd);
	l->fd = -1;
	if (op != OP_RMDIR && op != OP_CLEANUP)
		return 0;
	t = op == OP_RMDIR && lat ? pfs_now_ns() : 0;
	if (!pfs_unlinkat(l->parent, st->path + l->name, AT_REMOVEDIR)) {
		if (op == OP_RMDIR) {
			if (lat)
				pfs_hist_add(w->lat, pfs_now_ns() - t);
			(*done)++;
		}
		return 0;
	}
	if (op == OP_CLEANUP)
		return errno == ENOENT ? 0 : -errno;
	return pfs_fail(w, "remove", st->path, errno);
}

/* Walks the tree depth first, without recursion. Each directory is entered
 * before its children and left after them; an error stops the walk
 * (except in cleanup, which goes on to remove all it can). When the op has
 * done its count, or the directories end where Mkdir stopped, the walk
 * ends; Rmdir then still removes the directories above. */
static inline __attribute__((always_inline)) int
walk(struct pfs_worker *w, enum tree_op op, bool lat)
{
	const struct pfs_tree_opts *o = w->opts;
	struct tree_state *st = w->state;
	unsigned depth = 0, bottom = (unsigned)o->levels;
	uint64_t dir_idx = 0, done = 0; /* done: the op's items, in a register */
	int rc, first_err = 0;

	memcpy(st->path, TOP, sizeof(TOP));
	st->lv[0] = (struct tree_level){
		.fd = -1, .parent = w->dirfd, .idx = 0, .name = 0, .end = sizeof(TOP) - 1
	};
	for (;;) {
		rc = enter(w, st, op, lat, depth, depth == bottom, dir_idx++, &done);
		if (rc == WALK_END)
			break;
		if (rc < 0 && op != OP_CLEANUP)
			goto out;
		if (rc < 0 && !first_err)
			first_err = rc;
		if (rc == 0 && depth < bottom) {
			dir_first(st, ++depth);
			continue;
		}
		/* Leave this directory, and each ancestor whose last child it is. */
		for (;;) {
			rc = leave(w, st, op, lat, depth, &done);
			if (rc < 0 && op != OP_CLEANUP)
				goto out;
			if (rc < 0 && !first_err)
				first_err = rc;
			if (depth == 0) {
				rc = first_err;
				goto out;
			}
			if (st->lv[depth].idx + 1 < o->fanout) {
				dir_next(st, depth);
				break;
			}
			depth--;
		}
	}
	/* WALK_END: the directory at depth was not entered (or, for Create
	 * and Unlink, is done with); Rmdir removes its ancestors. */
	rc = 0;
	if (op == OP_RMDIR)
		for (unsigned d = depth; d-- > 0 && !rc;)
			rc = leave(w, st, op, lat, d, &done);
out:
	for (unsigned i = 0; i <= depth; i++)
		if (st->lv[i].fd >= 0) {
			pfs_close(st->lv[i].fd);
			st->lv[i].fd = -1;
		}
	w->items = done;
	return rc;
}

static const char *const tree_op_names[] = { PFS_TREE_OP_MKDIR, PFS_TREE_OP_CREATE,
					     PFS_TREE_OP_STAT, PFS_TREE_OP_UNLINK,
					     PFS_TREE_OP_RMDIR, NULL };

static int tree_run_op(struct pfs_worker *w, unsigned op)
{
	const struct pfs_tree_opts *o = w->opts;
	struct tree_state *st = w->state;
	int rc;

	if (op > OP_RMDIR)
		return -EINVAL;
	/* Each op a constant: the compiler drops the other ops' branches from
	 * each phase's loop. */
	switch (op) {
	case OP_MKDIR:
		pfs_op_start(w, PFS_TREE_OP_MKDIR, PFS_UNIT_DIRS, st->totals.dirs, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_MKDIR, true) : walk(w, OP_MKDIR, false);
		st->dirs_made = w->items;
		break;
	case OP_CREATE:
		pfs_op_start(w, PFS_TREE_OP_CREATE, PFS_UNIT_FILES,
			     pfs_mul_sat_u64(st->dirs_made, o->files), PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_CREATE, true) : walk(w, OP_CREATE, false);
		st->files_made = w->items;
		/* Every file has the same size: counted once, not per file. */
		w->bytes = w->items * st->file_bytes;
		break;
	case OP_STAT:
		pfs_op_start(w, PFS_TREE_OP_STAT, PFS_UNIT_FILES, st->files_made, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_STAT, true) : walk(w, OP_STAT, false);
		break;
	case OP_UNLINK:
		pfs_op_start(w, PFS_TREE_OP_UNLINK, PFS_UNIT_FILES, st->files_made, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_UNLINK, true) : walk(w, OP_UNLINK, false);
		st->files_made -= w->items;
		break;
	default:
		pfs_op_start(w, PFS_TREE_OP_RMDIR, PFS_UNIT_DIRS, st->dirs_made, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_RMDIR, true) : walk(w, OP_RMDIR, false);
		st->dirs_made -= w->items;
		break;
	}
	return rc ? rc : pfs_op_done(w);
}

/* ---- setup and cleanup ------------------------------------------------------ */

static int tree_setup(struct pfs_worker *w)
{
	const struct pfs_tree_opts *o = w->opts;
	struct tree_state *st = w->state;
	size_t len;

	/* validate() checked that these fit. */
	pfs_tree_totals(o->levels, o->fanout, o->files, o->blocks, &st->totals);
	st->dir_digits = digits_of(o->fanout - 1);
	st->file_digits = digits_of(o->files - 1);
	st->file_bytes = o->blocks * PFS_TREE_BLOCK;
	len = sizeof(TOP) + (size_t)o->levels * (2 + st->dir_digits) + 2 + st->file_digits;
	st->path = malloc(len);
	st->lv = calloc((size_t)o->levels + 1, sizeof(*st->lv));
	if (!st->path || !st->lv)
		return pfs_fail(w, "allocate", "the walk", ENOMEM);
	if (o->remove_only) {
		/* A -C run made the whole tree: it refuses --stonewall. */
		st->dirs_made = st->totals.dirs;
		st->files_made = st->totals.files;
		return 0;
	}
	st->buflen = st->file_bytes < IO_CHUNK ? (size_t)st->file_bytes : IO_CHUNK;
	st->buf = pfs_pattern_alloc(st->buflen);
	if (!st->buf)
		return pfs_fail(w, "allocate", "the I/O buffer", ENOMEM);
	return 0;
}

/* Removes what is left of this worker's tree, by the names of the plan: a
 * subtree whose directory is not there is skipped, and rmdir leaves a
 * directory that holds anything else. Nothing is removed from a tree the
 * run leaves for a later one (w->keep). */
static int tree_cleanup(struct pfs_worker *w)
{
	struct tree_state *st = w->state;
	int rc = 0;

	if (!w->keep && st->path && st->lv)
		rc = walk(w, OP_CLEANUP, false);
	free(st->path);
	free(st->lv);
	free(st->buf);
	st->path = st->buf = NULL;
	st->lv = NULL;
	return rc;
}

/* ---- the test: its phases, all nodes at once ------------------------------- */

static size_t tree_plan(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	const struct pfs_tree_opts *o = opts;
	unsigned first = o->remove_only ? OP_STAT : OP_MKDIR;
	unsigned last = o->create_only ? OP_CREATE : OP_RMDIR;
	size_t n = 0;

	(void)nnodes;
	/* The creating phases may be stonewalled; Stat and removal act on
	 * what exists. */
	for (unsigned op = first; op <= last; op++)
		if (op != OP_STAT || o->stat)
			n = pfs_plan_put(steps, cap, n,
					 pfs_step_with(PFS_STEP1(PFS_ALL_NODES, op),
						       op <= OP_CREATE ? PFS_STEP_STONEWALL : 0));
	return n;
}

static const struct pfs_test tree_tests[] = {
	{ "tree", PFS_ORDER_PLAN, tree_plan },
	{ NULL, 0, NULL },
};

/* ---- options ------------------------------------------------------------------ */

static const struct pfs_option tree_options[] = {
	PFS_OPT_NUM_DEF(struct pfs_tree_opts, levels, "levels", 'l', PFS_OPT_UINT,
			PFS_TREE_MAX_LEVELS, "N", "directory levels below the top directory", "4"),
	PFS_OPT_NUM_DEF(struct pfs_tree_opts, fanout, "dirs", 'd', PFS_OPT_COUNT, 0, "N",
			"directories in each directory above the bottom level", "10"),
	PFS_OPT_NUM_DEF(struct pfs_tree_opts, files, "files", 'f', PFS_OPT_COUNT, 0, "N",
			"files in each directory", "10"),
	PFS_OPT_NUM_DEF(struct pfs_tree_opts, blocks, "size", 's', PFS_OPT_COUNT, 0, "N",
			"file size in 4 KiB blocks", "10"),
	PFS_OPT_STR_DEF(struct pfs_tree_opts, common.dir, "start", 'o', "DIR",
			"directory to build the trees in", 0, "."),
	PFS_OPT_FLAG(struct pfs_tree_opts, create_only, "create-only", 'C',
		     "create the trees and leave them in DIR/pfsbench.tree.l<L>.d<D>.f<F>.s<S>"),
	PFS_OPT_FLAG(struct pfs_tree_opts, remove_only, "remove-only", 'R',
		     "remove the trees a -C run with the same -o, -l, -d, -f and -s left, on its ranks"),
	PFS_OPT_FLAG(struct pfs_tree_opts, stat, "stat", 0,
		     "a Stat phase between Create and Unlink: stat every file, in Create's order"),
	PFS_OPT_FLAG(struct pfs_tree_opts, common.dry_run, "dry-run", 0,
		     "print the totals and the space and inodes needed; create nothing"),
	PFS_STONEWALL_OPTION(struct pfs_tree_opts),
	PFS_RUNTIME_OPTION(struct pfs_tree_opts, PFS_RUNTIME_SAME_HELP),
	PFS_COMMON_OPTIONS(struct pfs_tree_opts),
	PFS_OPT_END,
};

static int tree_validate(void *opts, char *err, size_t errlen)
{
	struct pfs_tree_opts *o = opts;
	struct pfs_tree_totals t;

	if (o->create_only && o->remove_only) {
		pfs_format(err, errlen, "-C and -R exclude each other: -C leaves trees, -R removes them");
		return -EINVAL;
	}
	if (o->create_only && o->common.stonewall_s) {
		pfs_format(err, errlen, "-C and --stonewall exclude each other: -R could not know "
			   "how much of the trees a stonewall left");
		return -EINVAL;
	}
	if (o->create_only && o->stat) {
		pfs_format(err, errlen, "--stat runs between Create and Unlink, and -C stops after "
			   "Create: give --stat to the -R run");
		return -EINVAL;
	}
	if ((o->create_only || o->remove_only) && o->common.iterations > 1) {
		pfs_format(err, errlen, "-C and -R run once: -i must be 1");
		return -EINVAL;
	}
	if (pfs_tree_totals(o->levels, o->fanout, o->files, o->blocks, &t)) {
		pfs_format(err, errlen,
			   "-l %" PRIu64 " -d %" PRIu64 " -f %" PRIu64 " -s %" PRIu64
			   " make a tree too large to count",
			   o->levels, o->fanout, o->files, o->blocks);
		return -EINVAL;
	}
	return 0;
}

/* At its peak every worker holds its whole tree: the files' data and, on
 * most filesystems, a block for each directory. -R creates nothing. */
static void tree_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	const struct pfs_tree_opts *o = opts;
	struct pfs_tree_totals t;
	uint64_t dir_bytes;

	needs->bytes = needs->inodes = 0;
	if (o->remove_only)
		return;
	if (pfs_tree_totals(o->levels, o->fanout, o->files, o->blocks, &t) ||
	    pfs_mul_u64(t.dirs, PFS_TREE_BLOCK, &dir_bytes) || t.bytes > UINT64_MAX - dir_bytes ||
	    pfs_mul_u64(t.bytes + dir_bytes, nranks, &needs->bytes) ||
	    pfs_mul_u64(t.dirs + t.files, nranks, &needs->inodes))
		needs->bytes = needs->inodes = UINT64_MAX;
}

/* -C leaves the trees where -R with the same options finds them. */
static int tree_persist(const void *opts, char *key, size_t keylen)
{
	const struct pfs_tree_opts *o = opts;

	if (!o->create_only && !o->remove_only)
		return PFS_PERSIST_NONE;
	if (pfs_format(key, keylen, "l%" PRIu64 ".d%" PRIu64 ".f%" PRIu64 ".s%" PRIu64, o->levels,
		       o->fanout, o->files, o->blocks))
		return -ENAMETOOLONG;
	return o->create_only ? PFS_PERSIST_LEAVE : PFS_PERSIST_RESUME;
}

static void tree_dry_run(FILE *out, const void *opts, unsigned nranks, unsigned nnodes)
{
	pfs_tree_describe(out, opts, nranks, nnodes);
}

const struct pfs_workload pfs_workload_tree = {
	.name = "tree",
	.summary = "Create and remove a tree of directories and small files on every rank, "
		   "as LLNL's fdtree does.",
	.synopsis = "[-l N] [-d N] [-f N] [-s N] [-o DIR] [-C | -R] [--dry-run] [options]",
	.options = tree_options,
	.opts_size = sizeof(struct pfs_tree_opts),
	.state_size = sizeof(struct tree_state),
	.tests = tree_tests,
	.op_names = tree_op_names,
	.report = &pfs_output_fdtree,
	.validate = tree_validate,
	.needs = tree_needs,
	.setup = tree_setup,
	.run_op = tree_run_op,
	.cleanup = tree_cleanup,
	.items = tree_items,
	.persist = tree_persist,
	.dry_run = tree_dry_run,
};
