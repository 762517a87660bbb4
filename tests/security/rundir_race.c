/* rundir_race.c: the attacker of tests/security/run-dir.sh (issue 26,
 * attack 3), run as an unprivileged user with runuser. D is writable by
 * that user and not sticky; root runs pfsbench -m D.
 *
 *   rundir_race D TARGET STOP WHEN
 *
 * It makes a symbolic link to TARGET in D beforehand, watches D with
 * inotify and, for the first run directory (D/pfsbench.*) that appears,
 * swaps the link into its place in one step (renameat2 RENAME_EXCHANGE:
 * at no moment is the name missing, so a rank that resolves it meets the
 * directory or the link, never ENOENT), then moves the directory to
 * D/away.1. WHEN says at which moment:
 *
 *   made     as soon as the run directory appears
 *   marked   once its marker (.pfsbench-run) is in it
 *   worker   once its first worker's directory is in it
 *   item     once that directory holds its first item: every rank has
 *            opened its directories, and the run goes on in the one
 *            moved away
 *
 * It also watches TARGET, and the directories in it or made in it, and
 * counts what anyone else creates there while it runs: the old code
 * removed at its end, through the link, what it had made in TARGET, so a
 * look after the run found nothing.
 *
 * Blocked in poll until inotify reports, it swaps with one system call
 * once it has read the event: the window it needs on pfsbench 5cdb329
 * lies between the run directory's marker and the workers' mkdir by
 * path, a few broadcasts long, which the Python attacker used before
 * (polling with glob) never hit in 40 tries. Prints "ready" once the watches are set (the
 * test waits for it before starting the run), after a swap "swapped
 * NAME", and at its end "outside N" (the entries others created in
 * TARGET) then the first few of them, one "outside: PATH" each. Stops
 * when STOP exists or 60 s have passed; exit status 0, or 2 when it
 * cannot set itself up. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RUN_PREFIX "pfsbench."
#define MARKER ".pfsbench-run"
#define LINK_NAME ".race-link"
#define AWAY_NAME "away.1"
#define POLL_MS 20
#define GIVE_UP_S 60
#define MAX_WATCHED 64	/* directories watched in TARGET */
#define MAX_SHOWN 5	/* entries of others' in TARGET printed */

enum when { WHEN_MADE, WHEN_MARKED, WHEN_WORKER, WHEN_ITEM };

struct race {
	const char *dir;	/* D */
	const char *stop;	/* STOP */
	enum when when;
	int dfd;		/* D */
	int ifd;		/* inotify */
	int run_wd;		/* the watch on the run directory, or -1 */
	int worker_wd;		/* on its first worker's directory, or -1 */
	char run[NAME_MAX + 1]; /* its name in D, or "" */
	bool swapped;
	int target_wd[MAX_WATCHED]; /* TARGET's watch, then its directories' */
	char target_rel[MAX_WATCHED][NAME_MAX + 1]; /* their paths in TARGET ("" for it) */
	unsigned ntarget;
	const char *target;
	unsigned long outside;	/* entries others created in TARGET */
	char shown[MAX_SHOWN][2 * NAME_MAX + 2];
};

static void setup_failed(const char *what, const char *path)
{
	fprintf(stderr, "rundir_race: cannot %s '%s': %s\n", what, path, strerror(errno));
	exit(2);
}

/* The one step: the link takes the run directory's name, the directory
 * the link's; then the directory leaves for away.1, where the test looks
 * for what the run left. */
static void swap(struct race *r)
{
	if (renameat2(r->dfd, r->run, r->dfd, LINK_NAME, RENAME_EXCHANGE)) {
		fprintf(stderr, "rundir_race: cannot exchange '%s/%s': %s\n", r->dir, r->run,
			strerror(errno));
		return;
	}
	r->swapped = true;
	if (renameat(r->dfd, LINK_NAME, r->dfd, AWAY_NAME))
		fprintf(stderr, "rundir_race: cannot move '%s/%s' away: %s\n", r->dir, r->run,
			strerror(errno));
	printf("swapped %s\n", r->run);
	fflush(stdout);
}

/* The first entry of the directory name in D (a directory, when
 * dirs_only), into first: what may have come before the watch on the
 * directory did. */
static bool first_entry(const struct race *r, const char *name, bool dirs_only,
			char first[NAME_MAX + 1])
{
	int fd = openat(r->dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	bool found = false;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!found && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    (!dirs_only || de->d_type == DT_DIR)) {
			snprintf(first, NAME_MAX + 1, "%s", de->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

/* Watches D/run/sub (sub "" for the run directory) for what is created in
 * it. */
static int watch_run(struct race *r, const char *sub)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s%s%s", r->dir, r->run, *sub ? "/" : "", sub) >=
	    (int)sizeof(path))
		return -1;
	return inotify_add_watch(r->ifd, path, IN_CREATE | IN_ONLYDIR | IN_DONT_FOLLOW);
}

/* The run's first worker directory appeared: swap now, or watch it for
 * its first item. */
static void worker_made(struct race *r, const char *name)
{
	char rel[2 * NAME_MAX + 2], first[NAME_MAX + 1];

	if (r->when == WHEN_WORKER) {
		swap(r);
		return;
	}
	r->worker_wd = watch_run(r, name);
	snprintf(rel, sizeof(rel), "%s/%s", r->run, name);
	if (r->worker_wd >= 0 && first_entry(r, rel, false, first))
		swap(r);
}

/* A run directory appeared in D: swap now, or watch it for WHEN. */
static void run_dir_made(struct race *r, const char *name)
{
	char first[NAME_MAX + 1], marker[NAME_MAX + sizeof(MARKER) + 1];
	struct stat st;

	snprintf(r->run, sizeof(r->run), "%s", name);
	if (r->when == WHEN_MADE) {
		swap(r);
		return;
	}
	r->run_wd = watch_run(r, "");
	if (r->run_wd < 0)
		return;
	snprintf(marker, sizeof(marker), "%s/" MARKER, name);
	if (r->when == WHEN_MARKED) {
		if (!fstatat(r->dfd, marker, &st, AT_SYMLINK_NOFOLLOW))
			swap(r);
	} else if (first_entry(r, name, true, first)) {
		worker_made(r, first);
	}
}

/* Watches TARGET/rel (rel "" for TARGET) for what others create in it. */
static int watch_target(struct race *r, const char *rel)
{
	char path[PATH_MAX];
	int wd;

	if (r->ntarget == MAX_WATCHED ||
	    snprintf(path, sizeof(path), "%s%s%s", r->target, *rel ? "/" : "", rel) >=
		    (int)sizeof(path))
		return -1;
	wd = inotify_add_watch(r->ifd, path, IN_CREATE | IN_ONLYDIR | IN_DONT_FOLLOW);
	if (wd < 0)
		return -1;
	r->target_wd[r->ntarget] = wd;
	snprintf(r->target_rel[r->ntarget], sizeof(r->target_rel[0]), "%s", rel);
	r->ntarget++;
	return 0;
}

/* Something was created in TARGET or one of its directories: not by us,
 * who make nothing there. A directory is watched in turn, for the files
 * made in it. Returns whether the event was TARGET's. */
static bool on_target_event(struct race *r, const struct inotify_event *ev)
{
	char rel[2 * NAME_MAX + 2];

	for (unsigned i = 0; i < r->ntarget; i++) {
		if (ev->wd != r->target_wd[i])
			continue;
		snprintf(rel, sizeof(rel), "%s%s%s", r->target_rel[i], *r->target_rel[i] ? "/" : "",
			 ev->name);
		if (r->outside < MAX_SHOWN)
			snprintf(r->shown[r->outside], sizeof(r->shown[0]), "%s", rel);
		r->outside++;
		if ((ev->mask & IN_ISDIR) && !*r->target_rel[i])
			watch_target(r, ev->name);
		return true;
	}
	return false;
}

static void on_event(struct race *r, const struct inotify_event *ev)
{
	if (!ev->len || on_target_event(r, ev) || r->swapped)
		return;
	if (!r->run[0]) {
		if ((ev->mask & IN_ISDIR) && !strncmp(ev->name, RUN_PREFIX, strlen(RUN_PREFIX)))
			run_dir_made(r, ev->name);
	} else if (ev->wd == r->run_wd) {
		if (r->when == WHEN_MARKED && !strcmp(ev->name, MARKER))
			swap(r);
		else if (r->when != WHEN_MARKED && (ev->mask & IN_ISDIR) && r->worker_wd < 0)
			worker_made(r, ev->name);
	} else if (ev->wd == r->worker_wd) {
		swap(r);
	}
}

static void read_events(struct race *r)
{
	_Alignas(struct inotify_event) char buf[16384];
	ssize_t len;

	while ((len = read(r->ifd, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + len;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			on_event(r, ev);
			p += sizeof(*ev) + ev->len;
		}
}

/* TARGET and the directories already in it (the test's node1.1 and
 * node1.2, waiting for a worker that opens its own by path). */
static void watch_target_tree(struct race *r)
{
	DIR *d = opendir(r->target);
	struct dirent *de;

	if (!d || watch_target(r, ""))
		setup_failed("watch", r->target);
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			watch_target(r, de->d_name);
	closedir(d);
}

static enum when parse_when(const char *s)
{
	if (!strcmp(s, "made"))
		return WHEN_MADE;
	if (!strcmp(s, "marked"))
		return WHEN_MARKED;
	if (!strcmp(s, "worker"))
		return WHEN_WORKER;
	if (!strcmp(s, "item"))
		return WHEN_ITEM;
	fprintf(stderr, "rundir_race: WHEN is made, marked, worker or item, not '%s'\n", s);
	exit(2);
}

int main(int argc, char **argv)
{
	struct race r = { .run_wd = -1, .worker_wd = -1 };
	struct pollfd pfd;
	time_t end = time(NULL) + GIVE_UP_S;

	if (argc != 5) {
		fprintf(stderr, "usage: rundir_race D TARGET STOP made|marked|worker|item\n");
		return 2;
	}
	r.dir = argv[1];
	r.target = argv[2];
	r.stop = argv[3];
	r.when = parse_when(argv[4]);
	r.dfd = open(r.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r.dfd < 0)
		setup_failed("open", r.dir);
	unlinkat(r.dfd, LINK_NAME, 0);
	if (symlinkat(argv[2], r.dfd, LINK_NAME))
		setup_failed("make a link in", r.dir);
	r.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r.ifd < 0 || inotify_add_watch(r.ifd, r.dir, IN_CREATE | IN_ONLYDIR) < 0)
		setup_failed("watch", r.dir);
	watch_target_tree(&r);
	printf("ready\n");
	fflush(stdout);
	pfd = (struct pollfd){ .fd = r.ifd, .events = POLLIN };
	while (access(r.stop, F_OK) && time(NULL) < end)
		if (poll(&pfd, 1, POLL_MS) > 0)
			read_events(&r);
	if (!r.swapped)
		unlinkat(r.dfd, LINK_NAME, 0);
	printf("outside %lu\n", r.outside);
	for (unsigned long i = 0; i < r.outside && i < MAX_SHOWN; i++)
		printf("outside: %s\n", r.shown[i]);
	return 0;
}
