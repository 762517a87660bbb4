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

/* A run that leaves its items for a later one, or resumes them, works in
 * DIR/pfsbench.<workload>.<key>, a name both runs derive from the options.
 * Names it and checks, before anything is created, that it is there for a
 * resuming run and not there for a leaving one. Returns 0, or -EEXIST or
 * -ENOENT with a message. */
int pfs_rundir_check_persist(struct pfs_engine *e)
{
	struct stat st;
	bool there;

	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/" PFS_RUNDIR_PREFIX "%s.%s",
		       e->common->dir, e->wl->name, e->persist_key))
		return pfs_error("the run directory name under '%s' is too long", e->common->dir);
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
	return 0;
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
static int name_fresh_run_dir(struct pfs_engine *e, const struct tm *tm, const char *job)
{
	char stamp[32];

	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", tm);
	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/" PFS_RUNDIR_PREFIX "%s.%s.%s",
		       e->common->dir, stamp, e->topo.nodes[0].name, job))
		return pfs_error("the run directory name under '%s' is too long", e->common->dir);
	flatten_after(e->run_dir, e->common->dir);
	return 0;
}

/* Writes the marker into the run directory just made, or, for a resuming
 * run, takes the lock of the one the leaving run wrote (or writes one,
 * when an older pfsbench left none). rank 0 holds the lock to the end. */
static int mark_run_dir(struct pfs_engine *e, const struct tm *tm, const char *job)
{
	struct pfs_runmark m = { .format = PFS_RUNMARK_FORMAT };
	const char *base = strrchr(e->run_dir, '/') + 1;
	char err[256];
	int dirfd, fd = -ENOENT;

	snprintf(m.run, sizeof(m.run), "%s", base);
	snprintf(m.workload, sizeof(m.workload), "%s", e->wl->name);
	strftime(m.started, sizeof(m.started), "%Y-%m-%dT%H:%M:%SZ", tm);
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

/* On rank 0. A persistent run's directory was named by
 * pfs_rundir_check_persist; a resuming run finds it there, and owns it
 * from now on. */
int pfs_rundir_make(struct pfs_engine *e)
{
	time_t now = time(NULL);
	char job[64];
	struct tm tm;

	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	gmtime_r(&now, &tm);
	job_of(job, sizeof(job));
	if (e->persist == PFS_PERSIST_NONE && name_fresh_run_dir(e, &tm, job))
		return -1;
	if (e->persist != PFS_PERSIST_RESUME && mkdir(e->run_dir, 0755))
		return pfs_error("cannot create '%s': %s", e->run_dir, strerror(errno));
	/* Unmarked, the directory is not the run's: a new one goes again
	 * (empty), a resumed one stays as it was. */
	if (mark_run_dir(e, &tm, job)) {
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
