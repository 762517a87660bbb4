/* clean.c: `pfsbench clean [--dry-run] DIR`, which removes what killed runs
 * left in DIR: each run directory DIR/pfsbench.* whose marker
 * (include/pfsbench/core/runmark.h) names a workload, and in it only what that
 * workload's tables say it creates (include/pfsbench/core/itemname.h), by name
 * and type. Anything else is listed and stays, with the directories that
 * hold it and the marker, so that a later clean can finish the job.
 *
 * Every name in DIR may be anyone's: nothing is followed through a
 * symbolic link (the walk goes by descriptors, openat with O_NOFOLLOW,
 * unlinkat), nothing on another filesystem or behind a mount point is
 * entered (bind mounts of the same filesystem too: the mount IDs are
 * compared, not only st_dev), and the walk is a
 * loop with one open directory a level and a bound on the levels, so a
 * deep tree neither grows the stack nor uses up descriptors. One pass
 * over each directory, with the types readdir gives: no stat a file. Runs
 * on one node, without MPI. */
#include "pfsbench/commands/commands.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/itemname.h"
#include "pfsbench/core/runmark.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Levels below a run directory the walk enters. tree's deepest (256
 * levels below LEVEL0) is 258; each level holds one descriptor. */
#define MAX_DEPTH 320

/* What a directory whose item says nothing of its contents may hold. */
static const struct pfs_item nothing[] = { { NULL, 0, NULL } };

/* One directory the walk is in. */
struct level {
	DIR *d;
	const struct pfs_item *items; /* what it may hold; NULL at the run directory */
	size_t path_len;              /* the path through its name */
	size_t name_at;               /* where its name starts in the path */
	bool keep;                    /* something in it stays */
};

struct clean {
	bool dry_run;
	const struct pfs_workload *wl;
	struct pfs_item worker_item; /* a worker's directory, holding wl->items */
	dev_t dev;                   /* the run directory's filesystem */
	uint64_t mnt;                /* and its mount (0: the kernel tells none) */
	char *path;                  /* of the entry at hand, for messages */
	size_t path_cap;
	struct level lv[MAX_DEPTH + 1];
	unsigned depth;              /* lv[0 .. depth - 1] are open */
	uint64_t files, dirs, left;  /* in the run directory at hand */
};

struct clean_opts {
	const char *dir;
	bool dry_run;
};

static const struct pfs_option clean_options[] = {
	PFS_OPT_POS(struct clean_opts, dir, "DIR", "the directory the runs worked in"),
	PFS_OPT_FLAG_F(struct clean_opts, dry_run, "dry-run", 'n',
		       "list what would be removed; remove nothing", PFS_OPTF_REPEAT),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};

/* Text from the directory or a marker as a message shows it
 * (pfs_printable): control characters (a newline in a name would forge a
 * line of output), C1 controls, invalid UTF-8 and backslashes escaped. */
static void put_text(FILE *out, const char *text)
{
	size_t need = PFS_PRINTABLE_SIZE(strlen(text));
	char *buf = malloc(need);

	fputs(buf ? pfs_printable(buf, need, text) : "(out of memory)", out);
	free(buf);
}

/* Lists what stays, on stdout: "left 'path': why". */
static void leave(struct clean *c, const char *why, int err)
{
	fputs("left '", stdout);
	put_text(stdout, c->path);
	fputs("': ", stdout);
	put_text(stdout, why); /* it may quote the marker */
	fprintf(stdout, "%s%s\n", err ? ": " : "", err ? strerror(err) : "");
	c->left++;
}

/* Makes room for need bytes of path; 0 or -ENOMEM. */
static int path_reserve(struct clean *c, size_t need)
{
	size_t cap = c->path_cap ? c->path_cap : 4096;
	char *p;

	if (need <= c->path_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(p = realloc(c->path, cap)))
		return -ENOMEM;
	c->path = p;
	c->path_cap = cap;
	return 0;
}

/* Puts "/name" at at in the path; 0 or -ENOMEM. */
static int path_push(struct clean *c, size_t at, const char *name)
{
	if (path_reserve(c, at + 1 + strlen(name) + 1))
		return -ENOMEM;
	c->path[at] = '/';
	strcpy(c->path + at + 1, name);
	return 0;
}

static const char *type_name(int t)
{
	return t == PFS_ITEM_DIR ? "a directory" : "a regular file";
}

/* The type of entry ent of the directory dfd: a PFS_ITEM_*, or 0 for
 * anything else (a symbolic link, a device...). The type readdir gives
 * when it gives one, else lstat's. */
static int type_of(int dfd, const struct dirent *ent, const char **what)
{
	struct stat st;
	unsigned char t = ent->d_type;

	if (t == DT_UNKNOWN) {
		if (fstatat(dfd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW))
			return -errno;
		t = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR
		  : S_ISLNK(st.st_mode) ? DT_LNK : DT_UNKNOWN;
	}
	*what = t == DT_LNK ? "a symbolic link" : "neither a regular file nor a directory";
	return t == DT_REG ? PFS_ITEM_FILE : t == DT_DIR ? PFS_ITEM_DIR : 0;
}

/* What the run directory's workload says of the entry name of type type
 * (a PFS_ITEM_*, or 0 for what, another kind) in the directory at l: its
 * item, or NULL with *why said. */
static const struct pfs_item *expected(struct clean *c, const struct level *l, const char *name,
				       int type, const char *what, const char **why)
{
	const struct pfs_item *items = l->items ? l->items : c->wl->run_items, *it, *other = NULL;
	static char msg[256];

	if (type > 0 && (it = pfs_item_find(items, name, (enum pfs_item_type)type, &other)))
		return it;
	if (!type && (it = pfs_item_find(items, name, PFS_ITEM_FILE, &other)))
		other = it; /* else other is a directory of that name, if any */
	/* beside the workers' directories: <node>.<worker> */
	if (!l->items && !other && pfs_runmark_worker_name(name)) {
		if (type == PFS_ITEM_DIR)
			return &c->worker_item;
		other = &c->worker_item;
	}
	if (other)
		snprintf(msg, sizeof(msg), "%s, where %s makes %s", type ? type_name(type) : what,
			 c->wl->name, type_name(other->type));
	else
		snprintf(msg, sizeof(msg), "not a name %s makes here", c->wl->name);
	*why = msg;
	return NULL;
}

/* The ID of the mount fd is on (as /proc/self/mountinfo numbers them):
 * statx's, else /proc/self/fdinfo's; 0 when neither says (st_dev is then
 * all there is). A bind mount of the same filesystem has the run
 * directory's st_dev but a mount of its own. */
static uint64_t mount_id(int fd)
{
	struct statx stx;
	char path[64], line[128];
	uint64_t id = 0;
	FILE *f;

	if (!statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx) &&
	    (stx.stx_mask & STATX_MNT_ID))
		return stx.stx_mnt_id;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %" SCNu64, &id) == 1)
			break;
	fclose(f);
	return id;
}

/* Whether the directory open as fd (st from fstat) is where the run
 * directory is: the same filesystem and the same mount. */
static bool same_mount(const struct clean *c, int fd, const struct stat *st)
{
	return st->st_dev == c->dev && (!c->mnt || mount_id(fd) == c->mnt);
}

/* Opens the directory name of the directory at the top for the walk:
 * never through a symbolic link, never onto another filesystem or
 * mount. */
static int enter(struct clean *c, const char *name, const struct pfs_item *items, size_t name_at)
{
	struct level *l;
	struct stat st;
	int fd;

	if (c->depth > MAX_DEPTH) {
		leave(c, "deeper than any pfsbench run makes", 0);
		return -1;
	}
	l = &c->lv[c->depth];
	fd = openat(dirfd(c->lv[c->depth - 1].d), name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		leave(c, "cannot open it", errno);
		return -1;
	}
	if (fstat(fd, &st)) {
		int err = errno;

		close(fd);
		leave(c, "cannot open it", err);
		return -1;
	}
	if (st.st_dev != c->dev) {
		close(fd);
		leave(c, "on another filesystem", 0);
		return -1;
	}
	if (!same_mount(c, fd, &st)) {
		close(fd);
		leave(c, "a mount point: not entered", 0);
		return -1;
	}
	if (!(l->d = fdopendir(fd))) {
		close(fd);
		leave(c, "cannot open it", errno);
		return -1;
	}
	l->items = items;
	l->path_len = name_at + strlen(name);
	l->name_at = name_at;
	l->keep = false;
	c->depth++;
	return 0;
}

/* Closes the directory at the top; removes it when all in it went. */
static void finish_level(struct clean *c)
{
	struct level *l = &c->lv[--c->depth];
	struct level *up = &c->lv[c->depth - 1];

	closedir(l->d);
	c->path[l->path_len] = '\0';
	if (l->keep) {
		up->keep = true;
		return;
	}
	if (!c->dry_run && unlinkat(dirfd(up->d), c->path + l->name_at, AT_REMOVEDIR)) {
		leave(c, "cannot remove it", errno);
		up->keep = true;
		return;
	}
	c->dirs++;
}

/* Walks the run directory, open at lv[0], removing what its workload
 * made. Returns 0, or -ENOMEM after saying so. */
static int walk(struct clean *c)
{
	while (c->depth > 0) {
		struct level *l = &c->lv[c->depth - 1];
		const struct pfs_item *it;
		const char *why = NULL;
		struct dirent *ent;
		int type;

		errno = 0;
		if (!(ent = readdir(l->d))) {
			if (errno) {
				c->path[l->path_len] = '\0';
				leave(c, "cannot read all of it", errno);
				l->keep = true;
			}
			if (c->depth == 1)
				return 0; /* the run directory: the caller's */
			finish_level(c);
			continue;
		}
		if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, ".."))
			continue;
		if (c->depth == 1 && !strcmp(ent->d_name, PFS_RUNMARK_NAME))
			continue; /* removed last, by the caller */
		if (path_push(c, l->path_len, ent->d_name))
			return pfs_error("out of memory");
		type = type_of(dirfd(l->d), ent, &why);
		if (type < 0) {
			leave(c, "cannot tell its type", -type);
			l->keep = true;
			continue;
		}
		it = expected(c, l, ent->d_name, type, why, &why);
		if (!it) {
			leave(c, why, 0);
			l->keep = true;
			continue;
		}
		if (it->type == PFS_ITEM_DIR) {
			if (enter(c, ent->d_name, it->inside ? it->inside : nothing, l->path_len + 1))
				l->keep = true;
			continue;
		}
		if (!c->dry_run && unlinkat(dirfd(l->d), ent->d_name, 0)) {
			if (errno == ENOENT)
				continue; /* gone already: nothing to do, nothing to count */
			if (errno == EBUSY) /* a file something is mounted on */
				leave(c, "a mount point: not removed", 0);
			else
				leave(c, "cannot remove it", errno);
			l->keep = true;
			continue;
		}
		c->files++;
	}
	return 0;
}

/* The line that says what became of a run directory. */
static void summary(const struct clean *c, const struct pfs_runmark *m)
{
	putchar('\'');
	put_text(stdout, c->path);
	fputs("': ", stdout);
	put_text(stdout, m->workload);
	fputs(" run", stdout);
	if (m->started[0]) {
		fputs(" of ", stdout);
		put_text(stdout, m->started);
	}
	if (m->node0[0]) {
		fputs(" on ", stdout);
		put_text(stdout, m->node0);
	}
	if (m->job[0]) {
		fputs(", job ", stdout);
		put_text(stdout, m->job);
	}
	printf(": %s %" PRIu64 " file%s, %" PRIu64 " director%s; %s %" PRIu64 "\n",
	       c->dry_run ? "would remove" : "removed", c->files, c->files == 1 ? "" : "s",
	       c->dirs, c->dirs == 1 ? "y" : "ies", c->dry_run ? "would leave" : "left", c->left);
}

/* Cleans the run directory name of DIR (open as dfd, its path in
 * c->path). Returns 0 when all of it went (or would), 1 when something
 * stays, -1 when out of memory. */
static int clean_run(struct clean *c, int dfd, uint64_t dir_mnt, const char *name)
{
	struct pfs_runmark m;
	char err[256], why[512];
	size_t len = strlen(c->path);
	struct stat st;
	int rfd, mfd, rc = 0;
	DIR *d;

	c->files = c->dirs = c->left = 0;
	rfd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0 || fstat(rfd, &st)) {
		leave(c, "cannot open it", errno);
		if (rfd >= 0)
			close(rfd);
		return 1;
	}
	c->dev = st.st_dev;
	c->mnt = dir_mnt;
	if (dir_mnt && mount_id(rfd) != dir_mnt) {
		/* pfsbench makes its run directories; it mounts nothing on them. */
		leave(c, "a mount point: not entered", 0);
		close(rfd);
		return 1;
	}
	mfd = pfs_runmark_open(rfd, &m, err, sizeof(err));
	if (mfd == -ENOENT)
		snprintf(why, sizeof(why), "no marker " PFS_RUNMARK_NAME ": not a pfsbench run directory");
	else if (mfd == -EBUSY)
		snprintf(why, sizeof(why), "in use: a pfsbench run holds its marker");
	else if (mfd < 0)
		snprintf(why, sizeof(why), "its marker " PFS_RUNMARK_NAME " is not pfsbench's: %s", err);
	else if (strcmp(m.run, name))
		snprintf(why, sizeof(why), "its marker names another run directory, '%s'", m.run);
	else if (!(c->wl = pfs_workload_find(m.workload)))
		snprintf(why, sizeof(why), "its marker names a workload this pfsbench does not know, "
			 "'%s'", m.workload);
	else
		why[0] = '\0';
	if (why[0] || !(d = fdopendir(rfd))) {
		if (why[0])
			leave(c, why, 0);
		else
			leave(c, "cannot read it", errno);
		if (mfd >= 0)
			close(mfd);
		close(rfd);
		return 1;
	}
	c->worker_item = (struct pfs_item){ NULL, PFS_ITEM_DIR, c->wl->items ? c->wl->items : nothing };
	c->lv[0] = (struct level){ d, NULL, len, 0, false };
	c->depth = 1;
	if (walk(c))
		rc = -1;
	while (c->depth > 1) { /* out of memory: close what is open, remove nothing more */
		closedir(c->lv[--c->depth].d);
		c->lv[0].keep = true;
	}
	c->path[len] = '\0';
	if (!rc && !c->lv[0].keep) {
		/* All the rest went: the marker, then the run directory. */
		if (!c->dry_run && unlinkat(rfd, PFS_RUNMARK_NAME, 0))
			leave(c, "cannot remove its marker", errno);
		else if (!c->dry_run && unlinkat(dfd, name, AT_REMOVEDIR))
			leave(c, "cannot remove it", errno);
		else
			c->files++, c->dirs++;
	}
	closedir(d);
	close(mfd);
	c->depth = 0;
	summary(c, &m);
	return rc ? rc : c->left ? 1 : 0;
}

/* The walk holds a descriptor a level: make sure the limit allows them. */
static void allow_descriptors(void)
{
	struct rlimit rl;
	rlim_t want = MAX_DEPTH + 64;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int clean_main(int argc, char **argv)
{
	struct clean c = { 0 };
	const char *dir;
	size_t dir_len;
	uint64_t dir_mnt;
	bool found = false, left = false, nomem = false;
	struct clean_opts o = { 0 };
	struct dirent *ent;
	DIR *d;
	int dfd, status = pfs_command_parse(&pfs_command_clean, &o, argc, argv);

	if (status >= 0)
		return status;
	c.dry_run = o.dry_run;
	dir = o.dir;
	/* DIR itself is the user's word, symbolic link or not; nothing in it is. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOCTTY | O_CLOEXEC);
	if (dfd < 0) {
		fprintf(stderr, "pfsbench clean: cannot open '%s': %s\n", dir,
			errno == ENOTDIR ? "not a directory" : strerror(errno));
		return PFS_EXIT_USAGE;
	}
	if (!(d = fdopendir(dfd))) {
		fprintf(stderr, "pfsbench clean: cannot read '%s': %s\n", dir, strerror(errno));
		close(dfd);
		return PFS_EXIT_USAGE;
	}
	allow_descriptors();
	dir_mnt = mount_id(dfd);
	/* Paths in messages: DIR as given, without trailing slashes. */
	dir_len = strlen(dir);
	while (dir_len > 1 && dir[dir_len - 1] == '/')
		dir_len--;
	while (!nomem && (errno = 0, ent = readdir(d))) {
		const char *why = NULL;
		int type, rc;

		if (strncmp(ent->d_name, PFS_RUNDIR_PREFIX, strlen(PFS_RUNDIR_PREFIX)))
			continue;
		found = true;
		if (path_reserve(&c, dir_len + 1) || path_push(&c, dir_len, ent->d_name)) {
			nomem = true;
			break;
		}
		memcpy(c.path, dir, dir_len);
		type = type_of(dfd, ent, &why);
		if (type != PFS_ITEM_DIR) {
			leave(&c, type < 0 ? "cannot tell its type" : type == PFS_ITEM_FILE
				  ? "a regular file, not a run directory" : why, type < 0 ? -type : 0);
			left = true;
			continue;
		}
		rc = clean_run(&c, dfd, dir_mnt, ent->d_name);
		nomem |= rc < 0;
		left |= rc != 0;
	}
	if (!nomem && errno) {
		fprintf(stderr, "pfsbench clean: cannot read all of '%s': %s\n", dir, strerror(errno));
		left = true;
	}
	closedir(d);
	free(c.path);
	if (nomem)
		return PFS_EXIT_FAILED;
	if (!found)
		printf("nothing to clean in '%s'\n", dir);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pfsbench clean: cannot write to standard output\n");
		return PFS_EXIT_FAILED;
	}
	return left ? PFS_EXIT_FAILED : PFS_EXIT_OK;
}

const struct pfs_command pfs_command_clean = {
	.name = "clean",
	.summary = "remove what killed runs left in a directory, and only that",
	.synopsis = "[--dry-run] DIR",
	.about = "Removes the run directories DIR/pfsbench.* that killed runs left: in each\n"
		 "whose marker (" PFS_RUNMARK_NAME ") names the run, the files and directories\n"
		 "its workload creates, by name and type. Anything else is listed and left\n"
		 "where it is, with the directories that hold it.\n",
	.after = "Exit status: 0 when all was removed (or nothing was there), 1 when something\n"
		 "was left, 2 for bad input. See pfsbench(1).\n",
	.options = clean_options,
	.opts_size = sizeof(struct clean_opts),
	.main = clean_main,
};
