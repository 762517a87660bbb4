/* rundir.c: the run directory, DIR/pfsbench.<stamp>.<node0>.<job> (or
 * DIR/pfsbench.<workload>.<key> for runs that leave their items for a later
 * one, or none for a run on a file the user named), its marker, one
 * directory per worker inside it, and their removal: only what the run
 * created, and nothing else. The marker (include/pfsbench/runmark.h) is
 * made first and removed last, so that whatever a killed run leaves,
 * `pfsbench clean` can tell it is pfsbench's. */
#include "internal.h"

#include "pfsbench/runmark.h"
#include "pfsbench/util.h"

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
	DIR *d = opendir(e->run_dir);
	struct dirent *de;
	unsigned mine = 0, total = 0;
	int rc = 0;

	if (!d)
		return pfs_error("cannot open '%s': %s", e->run_dir, strerror(errno));
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
	closedir(d);
	for (unsigned n = 0; !rc && n < e->topo.nnodes; n++)
		total += e->topo.nodes[n].nworkers;
	for (unsigned n = 0; !rc && mine < total && n < e->topo.nnodes; n++)
		for (unsigned w = 1; !rc && w <= e->topo.nodes[n].nworkers; w++) {
			struct stat st;

			if (!pfs_rundir_worker_path(e, e->topo.nodes[n].name, w, path, sizeof(path)) &&
			    !stat(path, &st) && S_ISDIR(st.st_mode))
				continue;
			rc = pfs_error("'%s' holds no directory for node %s worker %u: run on the nodes "
				       "and ranks of the run that left it",
				       e->run_dir, e->topo.nodes[n].name, w);
		}
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
	there = !stat(e->run_dir, &st) && S_ISDIR(st.st_mode);
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

/* Writes the marker into the run directory just made, or, for a resuming
 * run, takes the lock of the one the leaving run wrote (or writes one,
 * when an older pfsbench left none). rank 0 holds the lock to the end. */
static int mark_run_dir(struct pfs_engine *e)
{
	struct pfs_runmark m = { .format = PFS_RUNMARK_FORMAT };
	const char *base = strrchr(e->run_dir, '/') + 1;
	time_t now = time(NULL);
	char err[256], job[64];
	int dirfd, fd = -ENOENT;
	struct tm tm;

	gmtime_r(&now, &tm);
	job_of(job, sizeof(job));
	snprintf(m.run, sizeof(m.run), "%s", base);
	snprintf(m.workload, sizeof(m.workload), "%s", e->wl->name);
	strftime(m.started, sizeof(m.started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(m.node0, sizeof(m.node0), "%s", e->topo.nodes[0].name);
	snprintf(m.job, sizeof(m.job), "%s", job);
	snprintf(m.version, sizeof(m.version), "%s", PACKAGE_VERSION);
	dirfd = open(e->run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return pfs_error("cannot open '%s': %s", e->run_dir, strerror(errno));
	if (e->persist == PFS_PERSIST_RESUME) {
		fd = pfs_runmark_open(dirfd, &m, err, sizeof(err));
		if (fd < 0 && fd != -ENOENT) {
			close(dirfd);
			return pfs_error("cannot resume in '%s': its marker " PFS_RUNMARK_NAME ": %s",
					 e->run_dir, err);
		}
	}
	if (fd == -ENOENT)
		fd = pfs_runmark_create(dirfd, &m);
	close(dirfd);
	if (fd < 0)
		return pfs_error("cannot create '%s/" PFS_RUNMARK_NAME "': %s", e->run_dir,
				 fd == -ENAMETOOLONG ? "the node name is too long" : strerror(-fd));
	e->marker_fd = fd;
	return 0;
}

/* On rank 0. pfs_rundir_check named the directory; a resuming run finds
 * it there, and owns it from now on. */
int pfs_rundir_make(struct pfs_engine *e)
{
	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (e->persist != PFS_PERSIST_RESUME && mkdir(e->run_dir, 0755))
		return pfs_error("cannot create '%s': %s", e->run_dir, strerror(errno));
	/* Unmarked, the directory is not the run's: a new one goes again
	 * (empty), a resumed one stays as it was. */
	if (mark_run_dir(e)) {
		if (e->persist != PFS_PERSIST_RESUME)
			rmdir(e->run_dir);
		return -1;
	}
	e->run_dir_made = true;
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

	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (pfs_rundir_worker_path(e, w->node_name, w->worker, w->dir, sizeof(w->dir)))
		return pfs_error("the worker directory name is too long");
	if (e->persist != PFS_PERSIST_RESUME && mkdir(w->dir, 0755))
		return pfs_fail(w, "create", NULL, errno);
	e->worker_dir_made = true;
	w->dirfd = open(w->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->dirfd < 0)
		return pfs_fail(w, "open", NULL, errno);
	return 0;
}

/* Whether the run directory holds nothing but its marker: only then does
 * the marker go, so that whatever stays can still be told for pfsbench's. */
static bool only_marker_left(const char *run_dir)
{
	DIR *d = opendir(run_dir);
	struct dirent *ent;
	bool only = d != NULL;

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
	if (e->worker_dir_made && !w->keep && rmdir(w->dir))
		pfs_warn("cannot remove '%s': %s", w->dir, strerror(errno));
	pfs_engine_barrier(e);
	if (e->rank == 0 && e->run_dir_made && !w->keep) {
		int dirfd = open(e->run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (!only_marker_left(e->run_dir))
			pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(ENOTEMPTY));
		else if (dirfd < 0 ||
			 (unlinkat(dirfd, PFS_RUNMARK_NAME, 0) && errno != ENOENT))
			pfs_warn("cannot remove '%s/" PFS_RUNMARK_NAME "': %s", e->run_dir,
				 strerror(errno));
		else if (rmdir(e->run_dir))
			pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
	}
	/* The lock goes with the marker, or stays on it until the run ends. */
	if (e->marker_fd >= 0)
		close(e->marker_fd);
	e->marker_fd = -1;
}
