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
 * With --shared-dir all workers share one tree, as mdtest's shared tree:
 * rank 0 makes its skeleton (LEVEL0 and the d<j> directories) in the run
 * directory before the run's clock starts, and every worker's items are
 * in the skeleton's directories, named with its tag (".<node index>.
 * <worker>"): Mkdir makes -d directories d<j><tag> in every directory
 * above the bottom level, Create -f files f<j><tag> in every directory;
 * Rmdir removes the worker's d<j><tag>, and rank 0 the skeleton once every
 * worker has cleaned up (cleanup_run).
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
/* With --shared-dir, ".<node index>.<worker>" after the digits: each at
 * most 10 digits, as the pattern of tree_shared_inside says. */
#define TAG_MAX 24

/* In the order the plan runs them; Stat only with --stat. Then the walks
 * that are no op of the plan: a worker's cleanup, and with --shared-dir
 * rank 0's making of the skeleton (setup) and its removal (cleanup_run). */
enum tree_op { OP_MKDIR, OP_CREATE, OP_STAT, OP_UNLINK, OP_RMDIR, OP_CLEANUP, OP_SKELETON,
	       OP_CLEANUP_TREE };
#define IS_CLEANUP(op) ((op) == OP_CLEANUP || (op) == OP_CLEANUP_TREE)

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
	/* --shared-dir: the tree is the skeleton (all of it made in setup,
	 * dirs_made is all of it), and the worker's own directories, d<j><tag>
	 * beside the skeleton's d<j>, are the first own_dirs_made in pre-order. */
	bool shared;
	uint64_t own_dirs_made;
	char tag[TAG_MAX];     /* after every item's name: empty, or --shared-dir's */
	size_t tag_len;
	int root_fd;           /* where LEVEL0 is: the worker's or the run directory */
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

/* The same, and the worker's tag after the digits (an item of its own). */
static void own_name_first(struct tree_state *st, size_t at, char c, unsigned digits)
{
	size_t end = name_first(st->path, at, c, digits);

	memcpy(st->path + end, st->tag, st->tag_len + 1);
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
/* --shared-dir's tree, in the run directory: the skeleton's directories,
 * and in them every worker's tagged directories (empty) and files. */
#define TREE_TAG_PATTERN ".[0-9]{1,10}.[0-9]{1,10}"
static const struct pfs_item tree_shared_inside[4];
static const struct pfs_item tree_shared_inside[4] = {
	{ DIR_PREFIX "[0-9]{1," PFS_ITEM_STR(MAX_DIGITS) "}", PFS_ITEM_DIR, tree_shared_inside },
	{ DIR_PREFIX "[0-9]{1," PFS_ITEM_STR(MAX_DIGITS) "}" TREE_TAG_PATTERN, PFS_ITEM_DIR, NULL },
	{ FILE_PREFIX "[0-9]{1," PFS_ITEM_STR(MAX_DIGITS) "}" TREE_TAG_PATTERN, PFS_ITEM_FILE, NULL },
	{ NULL, 0, NULL },
};
static const struct pfs_item tree_run_items[] = {
	{ TOP, PFS_ITEM_DIR, tree_shared_inside },
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

/* What enter() and each_item() return besides 0 and errors: the walk has
 * reached what the op's count or what exists allows, and ends. */
#define WALK_END 2

/* The op on this worker's items of one kind in the directory whose path
 * ends at end, as many as the op's target allows: its files (Create,
 * Stat, Unlink, cleanup), or with --shared-dir its own directories
 * d<j><tag> in a skeleton directory above the bottom level (Mkdir, Rmdir,
 * cleanup). dirs is a constant where each op's loop is compiled. */
static inline __attribute__((always_inline)) int
each_item(struct pfs_worker *w, struct tree_state *st, enum tree_op op, bool dirs, bool lat,
	  int dfd, size_t end, uint64_t *done)
{
	const struct pfs_tree_opts *o = w->opts;
	unsigned digits = dirs ? st->dir_digits : st->file_digits;
	uint64_t n = dirs ? o->fanout : o->files;
	char *name = st->path + end + 1;
	char *last = name + 1 + digits;
	int rm_flags = dirs ? AT_REMOVEDIR : 0;
	struct stat sb;
	int rc = 0;

	own_name_first(st, end, dirs ? DIR_PREFIX[0] : FILE_PREFIX[0], digits);
	for (uint64_t j = 0; j < n; j++, digits_next(last, digits)) {
		uint64_t t;

		if (op == OP_CLEANUP) {
			/* Goes on past errors: remove as much as can be removed. */
			if (pfs_unlinkat(dfd, name, rm_flags) && errno != ENOENT && !rc)
				rc = -errno;
			continue;
		}
		/* Told to stop, or the op's count is done (a stonewall; Rmdir
		 * and Unlink: all that exists). */
		if (pfs_tick_at(w, *done)) {
			rc = w->stopped ? -ECANCELED : WALK_END;
			break;
		}
		t = lat ? pfs_now_ns() : 0;
		if (op == OP_CREATE)
			rc = create_file(w, st, dfd, name);
		else if (op == OP_MKDIR ? pfs_mkdirat(dfd, name, 0755)
			 : op == OP_STAT ? fstatat(dfd, name, &sb, AT_SYMLINK_NOFOLLOW)
					 : pfs_unlinkat(dfd, name, rm_flags))
			rc = pfs_fail(w, op == OP_STAT ? "stat" : op == OP_MKDIR ? "create" : "remove",
				      st->path, errno);
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

	bool dirs_only = op == OP_MKDIR || op == OP_RMDIR || op == OP_SKELETON ||
			 op == OP_CLEANUP_TREE;
	int rc;

	if (!IS_CLEANUP(op) && op != OP_SKELETON) {
		/* Told to stop, or the op's count is done (a stonewall). */
		if (pfs_tick_at(w, *done))
			return w->stopped ? -ECANCELED : WALK_END;
		/* Every directory after this one in pre-order is missing too. */
		if (op != OP_MKDIR && dir_idx >= st->dirs_made)
			return WALK_END;
	}
	if (op == OP_SKELETON || (op == OP_MKDIR && !st->shared)) {
		uint64_t t = lat ? pfs_now_ns() : 0;

		if (pfs_mkdirat(parent, name, 0755))
			return pfs_fail(w, "create", st->path, errno);
		if (op == OP_MKDIR) {
			if (lat)
				pfs_hist_add(w->lat, pfs_now_ns() - t);
			(*done)++;
		}
	}
	/* At the bottom a directory holds files only. */
	if (dirs_only && bottom)
		return 0;
	l->fd = pfs_openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (l->fd < 0) {
		if (IS_CLEANUP(op))
			return errno == ENOENT ? 1 : -errno;
		return pfs_fail(w, "open", st->path, errno);
	}
	if (st->shared && (op == OP_MKDIR || op == OP_RMDIR))
		return each_item(w, st, op, true, lat, l->fd, l->end, done);
	if (dirs_only)
		return 0;
	if (st->shared && op == OP_CLEANUP && !bottom) {
		rc = each_item(w, st, op, true, lat, l->fd, l->end, done);
		if (rc)
			return rc;
	}
	return each_item(w, st, op, false, lat, l->fd, l->end, done);
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
	if (op != OP_RMDIR && !IS_CLEANUP(op))
		return 0;
	/* The skeleton is rank 0's, removed after every worker's cleanup. */
	if (st->shared && op != OP_CLEANUP_TREE)
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
	if (IS_CLEANUP(op))
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
		.fd = -1, .parent = st->root_fd, .idx = 0, .name = 0, .end = sizeof(TOP) - 1
	};
	for (;;) {
		rc = enter(w, st, op, lat, depth, depth == bottom, dir_idx++, &done);
		if (rc == WALK_END)
			break;
		if (rc < 0 && !IS_CLEANUP(op))
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
			if (rc < 0 && !IS_CLEANUP(op))
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
		/* Shared: the worker's own, -d in every directory above the
		 * bottom level, all of the tree's but the top. */
		pfs_op_start(w, PFS_TREE_OP_MKDIR, PFS_UNIT_DIRS,
			     st->shared ? st->totals.dirs - 1 : st->totals.dirs, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_MKDIR, true) : walk(w, OP_MKDIR, false);
		*(st->shared ? &st->own_dirs_made : &st->dirs_made) = w->items;
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
	default: {
		uint64_t *made = st->shared ? &st->own_dirs_made : &st->dirs_made;

		pfs_op_start(w, PFS_TREE_OP_RMDIR, PFS_UNIT_DIRS, *made, PFS_OP_HOT);
		rc = w->lat ? walk(w, OP_RMDIR, true) : walk(w, OP_RMDIR, false);
		*made -= w->items;
		break;
	}
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
	st->root_fd = w->dirfd;
	st->shared = o->shared_dir;
	if (st->shared) {
		st->root_fd = w->run_dirfd;
		pfs_format(st->tag, sizeof(st->tag), ".%u.%u", w->node, w->worker);
		st->tag_len = strlen(st->tag);
		st->dirs_made = st->totals.dirs; /* the skeleton, made below */
	}
	len = sizeof(TOP) + (size_t)o->levels * (2 + st->dir_digits) + 2 +
	      (st->dir_digits > st->file_digits ? st->dir_digits : st->file_digits) + TAG_MAX;
	st->path = malloc(len);
	st->lv = calloc((size_t)o->levels + 1, sizeof(*st->lv));
	if (!st->path || !st->lv)
		return pfs_fail(w, "allocate", "the walk", ENOMEM);
	/* The shared skeleton, before the run's clock starts (the engine's
	 * barriers keep every worker out of it until then). */
	if (st->shared && w->rank == 0) {
		int rc = walk(w, OP_SKELETON, false);

		if (rc)
			return rc;
	}
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
	free(st->buf);
	st->buf = NULL;
	/* Rank 0 removes the shared skeleton after every worker's cleanup. */
	if (st->shared && w->rank == 0)
		return rc;
	free(st->path);
	free(st->lv);
	st->path = NULL;
	st->lv = NULL;
	return rc;
}

/* --shared-dir, on rank 0 once every worker has removed its items: the
 * skeleton, by the names of the plan (rmdir leaves a directory that holds
 * anything else). */
static int tree_cleanup_run(struct pfs_worker *w)
{
	struct tree_state *st = w->state;
	int rc = 0;

	if (st->shared && !w->keep && st->path && st->lv)
		rc = walk(w, OP_CLEANUP_TREE, false);
	free(st->path);
	free(st->lv);
	st->path = NULL;
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
	PFS_OPT_FLAG(struct pfs_tree_opts, shared_dir, "shared-dir", 0,
		     "one tree for all workers, as mdtest's shared tree: every worker's "
		     "directories and files in each of its directories (docs/tree.md)"),
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
	if (o->shared_dir && (o->create_only || o->remove_only)) {
		pfs_format(err, errlen, "--shared-dir and %s exclude each other: a -R run could not "
			   "tell which workers' items the shared tree holds", o->create_only ? "-C" : "-R");
		return -EINVAL;
	}
	if (o->shared_dir && (o->common.stonewall_s || o->common.runtime_s)) {
		pfs_format(err, errlen, "--shared-dir and %s exclude each other: not yet "
			   "(docs/tree.md)", o->common.runtime_s ? "--runtime" : "--stonewall");
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
	uint64_t own, skeleton;

	needs->bytes = needs->inodes = 0;
	if (o->remove_only)
		return;
	if (pfs_tree_totals(o->levels, o->fanout, o->files, o->blocks, &t)) {
		needs->bytes = needs->inodes = UINT64_MAX;
		return;
	}
	/* Each worker's directories: its tree's, or shared all but the top,
	 * beside a skeleton of the tree's made once. Saturated: "too much" is
	 * the answer where a count does not fit. */
	own = o->shared_dir ? t.dirs - 1 : t.dirs;
	skeleton = o->shared_dir ? t.dirs : 0;
	needs->bytes = pfs_add_sat_u64(
		pfs_mul_sat_u64(pfs_add_sat_u64(t.bytes, pfs_mul_sat_u64(own, PFS_TREE_BLOCK)), nranks),
		pfs_mul_sat_u64(skeleton, PFS_TREE_BLOCK));
	needs->inodes = pfs_add_sat_u64(pfs_mul_sat_u64(pfs_add_sat_u64(own, t.files), nranks), skeleton);
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

static void tree_note(const void *opts, unsigned nnodes, char *note, size_t len)
{
	const struct pfs_tree_opts *o = opts;

	(void)nnodes;
	note[0] = 0;
	if (o->shared_dir)
		pfs_format(note, len, "Shared directory: one tree in the run directory for every "
			   "worker of every node (rank 0 made its skeleton before the clock "
			   "started); each worker's directories and files are in every directory of it");
}

static void tree_dry_run(FILE *out, const void *opts, unsigned nranks, unsigned nnodes)
{
	pfs_tree_describe(out, opts, nranks, nnodes);
}

const struct pfs_workload pfs_workload_tree = {
	.name = "tree",
	.summary = "Create and remove a tree of directories and small files on every rank, "
		   "as LLNL's fdtree does.",
	.synopsis = "[-l N] [-d N] [-f N] [-s N] [-o DIR] [-C | -R] [--shared-dir] [--stat] "
		    "[--dry-run] [options]",
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
	.cleanup_run = tree_cleanup_run,
	.items = tree_items,
	.run_items = tree_run_items,
	.persist = tree_persist,
	.dry_run = tree_dry_run,
	.note = tree_note,
};
