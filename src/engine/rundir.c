/* rundir.c: the run directory, DIR/pfsbench.<stamp>.<node0>.<job> (or
 * DIR/pfsbench.<workload>.<key> for runs that leave their items for a later
 * one, or none for a run on a file the user named), its marker, one
 * directory per worker inside it, and their removal: only what the run
 * created, and nothing else. The marker (include/pfsbench/core/runmark.h) is
 * made first and removed last, so that whatever a killed run leaves,
 * `pfsbench clean` can tell it is pfsbench's.
 *
 * The target directory may be writable by others, who may rename the run
 * directory away and put a symbolic link or a directory of theirs in its
 * place at any moment. So nothing here is reached by path: each rank opens
 * the target directory once, the run directory relative to it without
 * following a link, and checks that it is the one rank 0 made (same
 * device and inode); every worker directory, item and removal is relative
 * to that descriptor. A run whose directory was swapped keeps working in
 * the one it opened, or stops with a message naming what changed. */
#include "internal.h"

#include "pfsbench/core/runmark.h"
#include "pfsbench/core/util.h"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Makes what was appended to the directory dir of path (a name built of a
 * node name or a key) one safe name: a '/' or a control character in it
 * becomes '_', so a node name such as "../x" cannot put a directory
 * outside the run directory. It starts after dir, not after the last
 * '/': a '/' in the node name would be that last one. */
static void flatten_after(char *path, const char *dir)
{
	for (char *p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/' || (unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '_';
}

/* The name of the run directory in the target directory. */
static const char *run_name(const struct pfs_engine *e)
{
	return strrchr(e->run_dir, '/') + 1;
}

/* The name of a worker's directory (path, as pfs_rundir_worker_path
 * made it) in the run directory. */
static const char *worker_name(const struct pfs_engine *e, const char *path)
{
	return path + strlen(e->run_dir) + 1;
}

/* The target directory as given, opened once on this rank: the only path
 * the run resolves. Returns 0 or a negative errno. */
static int open_target(struct pfs_engine *e)
{
	if (e->target_dirfd < 0)
		e->target_dirfd = open(e->common->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return e->target_dirfd < 0 ? -errno : 0;
}

/* Opens the directory name in parent without following a symbolic link,
 * and checks that what was opened is what the name held a moment before
 * (same device and inode), into *st. Returns a descriptor, or a negative
 * errno: -ESTALE when the name changed in between or is a link. */
static int open_dir_at(int parent, const char *name, struct stat *st)
{
	struct stat before;
	int fd;

	if (fstatat(parent, name, &before, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (S_ISLNK(before.st_mode))
		return -ESTALE;
	if (!S_ISDIR(before.st_mode))
		return -ENOTDIR;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP || errno == ENOTDIR ? -ESTALE : -errno;
	if (fstat(fd, st) || st->st_dev != before.st_dev || st->st_ino != before.st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* The reason for a negative errno of open_dir_at. */
static const char *dir_error(int rc)
{
	return rc == -ESTALE ? "it was renamed or replaced (by a symbolic link or another "
			       "directory) while the run opened it"
			     : strerror(-rc);
}

/* The refusal of a directory too long for the paths the run makes in it
 * (what: which path), with the directory cut short: it is long. */
static int too_long(const struct pfs_engine *e, const char *what)
{
	size_t len = strlen(e->common->dir);

	return pfs_error("'%.*s%s' is too long a directory to work in: %s would not fit PATH_MAX "
			 "(%d)",
			 len > 40 ? 40 : (int)len, e->common->dir, len > 40 ? "..." : "", what,
			 PATH_MAX);
}

/* Whether name, an entry of the run directory, is the directory of one of
 * this run's workers: <node>.<worker>, as pfs_rundir_worker_path makes it. */
static bool is_ours(const struct pfs_engine *e, const char *name)
{
	const char *dot = strrchr(name, '.');
	char path[PATH_MAX + PFS_NODE_NAME_MAX + 16], *end;
	unsigned long worker;
	size_t len = strlen(e->run_dir);

	if (!dot || dot[1] < '1' || dot[1] > '9')
		return false;
	errno = 0;
	worker = strtoul(dot + 1, &end, 10);
	if (*end || errno || worker > UINT32_MAX)
		return false;
	for (unsigned n = 0; n < e->topo.nnodes; n++)
		if (worker <= e->topo.nodes[n].nworkers &&
		    !pfs_rundir_worker_path(e, e->topo.nodes[n].name, (unsigned)worker, path,
					    sizeof(path)) &&
		    !strcmp(path + len + 1, name))
			return true;
	return false;
}

/* A resuming run works on the worker directories the earlier run left,
 * each worker on its own: each must be one of this run's workers, and
 * each of this run's workers must find its own, or the run would leave
 * another's items behind (tree -R on fewer ranks than -C) or fail on its
 * missing ones. Returns 0, or -EINVAL after the message. */
static int check_workers(struct pfs_engine *e)
{
	char path[PATH_MAX + PFS_NODE_NAME_MAX + 16];
	struct stat dst;
	int dfd = open_dir_at(e->target_dirfd, run_name(e), &dst);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;
	unsigned mine = 0, total = 0;
	int rc = 0;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return pfs_error("cannot open '%s': %s", e->run_dir,
				 dir_error(dfd < 0 ? dfd : -errno));
	}
	while (!rc && (de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		if (!is_ours(e, de->d_name))
			rc = pfs_error("'%s' holds '%s', the directory of a worker this run does not "
				       "have: run on the nodes and ranks of the run that left it",
				       e->run_dir, de->d_name);
		mine++;
	}
	for (unsigned n = 0; !rc && n < e->topo.nnodes; n++)
		total += e->topo.nodes[n].nworkers;
	for (unsigned n = 0; !rc && mine < total && n < e->topo.nnodes; n++)
		for (unsigned w = 1; !rc && w <= e->topo.nodes[n].nworkers; w++) {
			struct stat st;

			if (!pfs_rundir_worker_path(e, e->topo.nodes[n].name, w, path, sizeof(path)) &&
			    !fstatat(dirfd(d), worker_name(e, path), &st, AT_SYMLINK_NOFOLLOW) &&
			    S_ISDIR(st.st_mode))
				continue;
			rc = pfs_error("'%s' holds no directory for node %s worker %u: run on the nodes "
				       "and ranks of the run that left it",
				       e->run_dir, e->topo.nodes[n].name, w);
		}
	closedir(d);
	return rc ? -EINVAL : 0;
}

/* A run that leaves its items for a later one, or resumes them, works in
 * DIR/pfsbench.<workload>.<key>, a name both runs derive from the options.
 * Names it and checks, before anything is created, that it is there for a
 * resuming run (and holds this run's workers' directories) and not there
 * for a leaving one. Returns 0, or -EEXIST, -ENOENT or -EINVAL with a
 * message. */
static int check_persist(struct pfs_engine *e)
{
	struct stat st;
	bool there;

	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/" PFS_RUNDIR_PREFIX "%s.%s",
		       e->common->dir, e->wl->name, e->persist_key))
		return too_long(e, "the run directory");
	flatten_after(e->run_dir, e->common->dir);
	if (open_target(e))
		return pfs_error("cannot open '%s': %s", e->common->dir, strerror(errno));
	/* A symbolic link under the name is no run directory. */
	there = !fstatat(e->target_dirfd, run_name(e), &st, AT_SYMLINK_NOFOLLOW) &&
		S_ISDIR(st.st_mode);
	if (e->persist == PFS_PERSIST_LEAVE && there) {
		pfs_error("'%s' exists: an earlier run with these options left it there; remove "
			  "it first (see pfsbench %s --help)", e->run_dir, e->wl->name);
		return -EEXIST;
	}
	if (e->persist == PFS_PERSIST_RESUME && !there) {
		pfs_error("nothing to resume: no earlier run with these options left '%s'",
			  e->run_dir);
		return -ENOENT;
	}
	return e->persist == PFS_PERSIST_RESUME ? check_workers(e) : 0;
}

/* The batch job, or the pid of rank 0: with the time and node 0, what
 * tells this run from any other. */
static void job_of(char *job, size_t len)
{
	const char *v = getenv("SLURM_JOB_ID");

	if (!v)
		v = getenv("PBS_JOBID");
	if (!v)
		v = getenv("LSB_JOBID");
	if (v)
		snprintf(job, len, "%s", v);
	else
		snprintf(job, len, "p%ld", (long)getpid());
}

/* A name no other run shares: time, host and the batch job (or pid). */
static int name_fresh_run_dir(struct pfs_engine *e)
{
	time_t now = time(NULL);
	char stamp[32], job[64];
	struct tm tm;

	gmtime_r(&now, &tm);
	job_of(job, sizeof(job));
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/" PFS_RUNDIR_PREFIX "%s.%s.%s",
		       e->common->dir, stamp, e->topo.nodes[0].name, job))
		return too_long(e, "the run directory");
	flatten_after(e->run_dir, e->common->dir);
	return 0;
}

/* The longest path the run makes: a worker's directory (its node's
 * highest worker number has the most digits), or the run directory, with
 * the longest name the workload opens in it by path. Every node's, since
 * --shift opens other nodes' directories. It must fit PATH_MAX, or a
 * worker would fail once the others had begun. Returns 0 or -1 after the
 * message. */
static int check_length(struct pfs_engine *e)
{
	/* room for any worker's path, so that it is measured, not refused */
	char path[PATH_MAX + PFS_NODE_NAME_MAX + 16];
	char what[PFS_NODE_NAME_MAX + 96];
	size_t longest = strlen(e->run_dir);
	const char *node = e->topo.nodes[0].name;
	unsigned worker = e->topo.nodes[0].nworkers;

	for (unsigned n = 0; n < e->topo.nnodes; n++) {
		const struct pfs_node *nd = &e->topo.nodes[n];

		if (!pfs_rundir_worker_path(e, nd->name, nd->nworkers, path, sizeof(path)) &&
		    strlen(path) > longest) {
			longest = strlen(path);
			node = nd->name;
			worker = nd->nworkers;
		}
	}
	longest += e->wl->path_tail;
	if (longest < PATH_MAX)
		return 0;
	pfs_format(what, sizeof(what), "the paths in node %s worker %u's directory (%zu characters)",
		   node, worker, longest);
	return too_long(e, what);
}

/* On rank 0, before anything is created: names the run directory (a
 * resuming run's must be there, a leaving run's must not), and checks
 * that the run's paths fit. Returns 0, or -1 after the message. */
int pfs_rundir_check(struct pfs_engine *e)
{
	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (e->persist == PFS_PERSIST_NONE ? name_fresh_run_dir(e) : check_persist(e))
		return -1;
	return check_length(e);
}

/* Writes the marker into the run directory just made (e->run_dirfd), or,
 * for a resuming run, takes the lock of the one the leaving run wrote (or
 * writes one, when an older pfsbench left none). rank 0 holds the lock to
 * the end. */
static int mark_run_dir(struct pfs_engine *e)
{
	struct pfs_runmark m = { .format = PFS_RUNMARK_FORMAT };
	time_t now = time(NULL);
	char err[PFS_REFUSAL_MAX], job[64];
	int fd = -ENOENT;
	struct tm tm;

	gmtime_r(&now, &tm);
	job_of(job, sizeof(job));
	snprintf(m.run, sizeof(m.run), "%s", run_name(e));
	snprintf(m.workload, sizeof(m.workload), "%s", e->wl->name);
	strftime(m.started, sizeof(m.started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(m.node0, sizeof(m.node0), "%s", e->topo.nodes[0].name);
	snprintf(m.job, sizeof(m.job), "%s", job);
	snprintf(m.version, sizeof(m.version), "%s", PACKAGE_VERSION);
	if (e->persist == PFS_PERSIST_RESUME) {
		fd = pfs_runmark_open(e->run_dirfd, &m, err, sizeof(err));
		if (fd < 0 && fd != -ENOENT)
			return pfs_error("cannot resume in '%s': its marker " PFS_RUNMARK_NAME ": %s",
					 e->run_dir, err);
	}
	if (fd == -ENOENT)
		fd = pfs_runmark_create(e->run_dirfd, &m);
	if (fd < 0)
		return pfs_error("cannot create '%s/" PFS_RUNMARK_NAME "': %s", e->run_dir,
				 fd == -ENAMETOOLONG ? "the node name is too long" : strerror(-fd));
	e->marker_fd = fd;
	return 0;
}

/* Removes the (empty) run directory, relative to the target directory,
 * while its name still is the directory rank 0 made: a directory put in
 * its place is not ours to remove. */
static void remove_run_dir(struct pfs_engine *e)
{
	struct stat st;

	if (fstatat(e->target_dirfd, run_name(e), &st, AT_SYMLINK_NOFOLLOW) ||
	    (uint64_t)st.st_dev != e->run_dir_dev || (uint64_t)st.st_ino != e->run_dir_ino)
		pfs_warn("left '%s': it is no longer the run's directory (renamed or replaced "
			 "while the run worked)", e->run_dir);
	else if (unlinkat(e->target_dirfd, run_name(e), AT_REMOVEDIR))
		pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(errno));
}

/* Whether the directory rank 0 opened is the run's: the one mkdirat made,
 * not one someone put under its name between the mkdirat and the open.
 * Nobody can make a directory owned by another user, so the directory's
 * owner must be the marker's, which this run created in it (so a root
 * squashed to nobody on NFS passes too). A resumed run's directory, made
 * by an earlier run, must be ours outright. */
static int check_owner(struct pfs_engine *e, const struct stat *dir)
{
	struct stat mark;

	if (e->persist == PFS_PERSIST_RESUME ? dir->st_uid == geteuid()
					     : !fstat(e->marker_fd, &mark) &&
						       mark.st_uid == dir->st_uid)
		return 0;
	return pfs_error("cannot use '%s': it belongs to uid %u, not to this run (it was replaced "
			 "while the run made it)",
			 e->run_dir, (unsigned)dir->st_uid);
}

/* On rank 0. pfs_rundir_check named the directory; a resuming run finds
 * it there, and owns it from now on. Made relative to the target
 * directory's descriptor, opened without following a link and checked
 * (open_dir_at, check_owner); its device and inode go to every rank
 * (open_run_dir). */
int pfs_rundir_make(struct pfs_engine *e)
{
	bool fresh = e->persist != PFS_PERSIST_RESUME;
	struct stat st;
	int rc;

	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (open_target(e))
		return pfs_error("cannot open '%s': %s", e->common->dir, strerror(errno));
	if (fresh && mkdirat(e->target_dirfd, run_name(e), 0755))
		return pfs_error("cannot create '%s': %s", e->run_dir, strerror(errno));
	rc = open_dir_at(e->target_dirfd, run_name(e), &st);
	if (rc < 0)
		return pfs_error("cannot open '%s': %s", e->run_dir, dir_error(rc));
	e->run_dirfd = rc;
	e->run_dir_dev = (uint64_t)st.st_dev;
	e->run_dir_ino = (uint64_t)st.st_ino;
	/* Unmarked, the directory is not the run's: a new one goes again
	 * (empty), a resumed one stays as it was. */
	rc = mark_run_dir(e);
	if (!rc && check_owner(e, &st)) {
		if (fresh)
			unlinkat(e->run_dirfd, PFS_RUNMARK_NAME, 0);
		close(e->marker_fd);
		e->marker_fd = -1;
		fresh = false; /* not ours: nothing to remove */
		rc = -1;
	}
	if (rc) {
		if (fresh)
			remove_run_dir(e);
		close(e->run_dirfd);
		e->run_dirfd = -1;
		return -1;
	}
	e->run_dir_made = true;
	return 0;
}

/* On every rank but 0, once rank 0 made the run directory and sent its
 * device and inode: the same directory, opened here. On another node the
 * device number is that node's, so only the inode is compared there.
 * Returns 0 or a negative errno after pfs_fail. */
static int open_run_dir(struct pfs_engine *e)
{
	struct stat st;
	int rc;

	if (e->run_dirfd >= 0)
		return 0;
	if (open_target(e))
		return pfs_fail_in(&e->w, "open", e->common->dir, NULL, errno);
	rc = open_dir_at(e->target_dirfd, run_name(e), &st);
	if (rc >= 0 && ((uint64_t)st.st_ino != e->run_dir_ino ||
			(e->topo.node == 0 /* rank 0's */ &&
			 (uint64_t)st.st_dev != e->run_dir_dev))) {
		close(rc);
		rc = -ESTALE;
	}
	if (rc < 0)
		return pfs_failf(&e->w, -rc, "cannot open '%s': %s", e->run_dir, dir_error(rc));
	e->run_dirfd = rc;
	return 0;
}

/* The directory of a node's worker: <run dir>/<node name>.<worker>. */
int pfs_rundir_worker_path(const struct pfs_engine *e, const char *node_name, unsigned worker,
			   char *path, size_t len)
{
	if (pfs_format(path, len, "%s/%s.%u", e->run_dir, node_name, worker))
		return -ENAMETOOLONG;
	flatten_after(path, e->run_dir);
	return 0;
}

int pfs_rundir_make_worker(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;
	struct stat st;
	int rc;

	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (pfs_rundir_worker_path(e, w->node_name, w->worker, w->dir, sizeof(w->dir)))
		return pfs_error("the worker directory name is too long");
	rc = open_run_dir(e);
	if (rc)
		return rc;
	w->run_dirfd = e->run_dirfd;
	if (e->persist != PFS_PERSIST_RESUME && mkdirat(e->run_dirfd, worker_name(e, w->dir), 0755))
		return pfs_fail(w, "create", NULL, errno);
	e->worker_dir_made = true;
	rc = open_dir_at(e->run_dirfd, worker_name(e, w->dir), &st);
	if (rc < 0)
		return pfs_failf(w, -rc, "cannot open '%s': %s", w->dir, dir_error(rc));
	w->dirfd = rc;
	return 0;
}

/* Whether the run directory holds nothing but its marker: only then does
 * the marker go, so that whatever stays can still be told for pfsbench's. */
static bool only_marker_left(int run_dirfd)
{
	int fd = openat(run_dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *ent;
	bool only = d != NULL;

	if (!d && fd >= 0)
		close(fd);
	while (only && (ent = readdir(d)))
		only = !strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..") ||
		       !strcmp(ent->d_name, PFS_RUNMARK_NAME);
	if (d)
		closedir(d);
	return only;
}

/* Removes what the run created and nothing else: the workload removes its
 * own items, then each worker its empty directory, then rank 0 the marker
 * and the run directory. rmdir never removes a directory someone else
 * filled. When the run leaves its items for a later one (w->keep), all of
 * it stays, the marker too. With --shift, call pfs_peer_exchange first
 * (run.c's remove_run). */
void pfs_rundir_remove(struct pfs_engine *e)
{
	struct pfs_worker *w = &e->w;

	if (e->setup_done && e->wl->cleanup(w))
		pfs_warn("node %s worker %u: some files were left in '%s'", w->node_name, w->worker,
			 w->dir);
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
	if (w->peer_dirfd >= 0)
		close(w->peer_dirfd);
	w->peer_dirfd = -1;
	if (e->worker_dir_made && !w->keep &&
	    unlinkat(e->run_dirfd, worker_name(e, w->dir), AT_REMOVEDIR))
		pfs_warn("cannot remove '%s': %s", w->dir, strerror(errno));
	pfs_engine_barrier(e);
	if (e->rank == 0 && e->setup_done && e->wl->cleanup_run && e->wl->cleanup_run(w))
		pfs_warn("some of what the workers shared was left in '%s'", e->run_dir);
	if (e->rank == 0 && e->run_dir_made && !w->keep) {
		if (!only_marker_left(e->run_dirfd))
			pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(ENOTEMPTY));
		else if (unlinkat(e->run_dirfd, PFS_RUNMARK_NAME, 0) && errno != ENOENT)
			pfs_warn("cannot remove '%s/" PFS_RUNMARK_NAME "': %s", e->run_dir,
				 strerror(errno));
		else
			remove_run_dir(e);
	}
	w->run_dirfd = -1;
	if (e->run_dirfd >= 0)
		close(e->run_dirfd);
	e->run_dirfd = -1;
	if (e->target_dirfd >= 0)
		close(e->target_dirfd);
	e->target_dirfd = -1;
	/* The lock goes with the marker, or stays on it until the run ends. */
	if (e->marker_fd >= 0)
		close(e->marker_fd);
	e->marker_fd = -1;
}
