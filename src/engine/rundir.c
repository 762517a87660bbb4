/* rundir.c: the run directory, DIR/pfsbench.<stamp>.<node0>.<job> (or
 * DIR/pfsbench.<workload>.<key> for runs that leave their items for a later
 * one, or none for a run on a file the user named), one directory per
 * worker inside it, and their removal: only what the run created, and
 * nothing else. */
#include "internal.h"

#include "pfsbench/util.h"

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

	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/pfsbench.%s.%s", e->common->dir,
		       e->wl->name, e->persist_key))
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

/* A name no other run shares: time, host and the batch job (or pid). */
static int name_fresh_run_dir(struct pfs_engine *e)
{
	const char *job = getenv("SLURM_JOB_ID");
	char stamp[32], jobbuf[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!job)
		job = getenv("PBS_JOBID");
	if (!job)
		job = getenv("LSB_JOBID");
	if (!job) {
		snprintf(jobbuf, sizeof(jobbuf), "p%ld", (long)getpid());
		job = jobbuf;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", &tm);
	if (pfs_format(e->run_dir, sizeof(e->run_dir), "%s/pfsbench.%s.%s.%s", e->common->dir,
		       stamp, e->topo.nodes[0].name, job))
		return pfs_error("the run directory name under '%s' is too long", e->common->dir);
	flatten_after(e->run_dir, e->common->dir);
	return 0;
}

/* On rank 0. A persistent run's directory was named by
 * pfs_rundir_check_persist; a resuming run finds it there, and owns it
 * from now on. */
int pfs_rundir_make(struct pfs_engine *e)
{
	if (e->persist == PFS_PERSIST_NAMED)
		return 0;
	if (e->persist == PFS_PERSIST_NONE && name_fresh_run_dir(e))
		return -1;
	if (e->persist != PFS_PERSIST_RESUME && mkdir(e->run_dir, 0755))
		return pfs_error("cannot create '%s': %s", e->run_dir, strerror(errno));
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

/* Removes what the run created and nothing else: the workload removes its
 * own items, then each worker its empty directory, then rank 0 the run
 * directory. rmdir never removes a directory someone else filled. When the
 * run leaves its items for a later one (w->keep), all of it stays. With
 * --shift, call pfs_peer_exchange first (run.c's remove_run). */
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
	if (e->rank == 0 && e->run_dir_made && !w->keep && rmdir(e->run_dir))
		pfs_warn("cannot remove '%s': %s", e->run_dir, strerror(errno));
}
