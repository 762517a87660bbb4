/* gnuplot.c: runs gnuplot on a script; see include/pfsbench/pictures/gnuplot.h.
 * The script goes to gnuplot's stdin while its stderr is read, with poll,
 * so neither side can block the other; gnuplot's stdout is /dev/null. */
#include "pfsbench/pictures/gnuplot.h"
#include "pfsbench/core/util.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PFS_GNUPLOT_PATH
#define PFS_GNUPLOT_PATH ""
#endif

/* What gnuplot said last, kept for the message when it fails. */
#define STDERR_KEEP 2048

static bool executable(const char *path)
{
	return path[0] == '/' && !access(path, X_OK);
}

/* "gnuplot" along PATH. */
static int search_path(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		if (n && !pfs_format(buf, len, "%.*s/%s", (int)n, p, name) && executable(buf))
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

int pfs_gnuplot_find(char *buf, size_t len)
{
	const char *env = getenv("PFSBENCH_GNUPLOT");

	if (env && *env) {
		/* Set means that one, or none: never another behind the user's back. */
		if (strchr(env, '/'))
			return !pfs_format(buf, len, "%s", env) && !access(env, X_OK) ? 0 : -ENOENT;
		return search_path(env, buf, len);
	}
	if (PFS_GNUPLOT_PATH[0] && !pfs_format(buf, len, "%s", PFS_GNUPLOT_PATH) && executable(buf))
		return 0;
	return search_path("gnuplot", buf, len);
}

int pfs_gnuplot_missing(const char *command)
{
	return pfs_error("%s needs gnuplot, which is not installed: install Debian's %s "
			 "(apt-get install %s)",
			 command, PFS_GNUPLOT_PACKAGE, PFS_GNUPLOT_PACKAGE);
}

/* gnuplot starts in dir, by its descriptor: the script names its output
 * files relative to it, so they go where dir is, whatever its name has
 * become. */
static void child(const char *gnuplot, int dir, int in, int err)
{
	int null = open("/dev/null", O_WRONLY);

	if (null < 0 || dup2(in, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0 || fchdir(dir)) {
		fprintf(stderr, "cannot start gnuplot: %s\n", strerror(errno));
		_exit(127);
	}
	execl(gnuplot, "gnuplot", "-d", (char *)NULL);
	fprintf(stderr, "cannot run '%s': %s\n", gnuplot, strerror(errno));
	_exit(127);
}

/* The last complete lines of what gnuplot said, on one line each. */
static void report(const char *gnuplot, const char *said, int status)
{
	const char *p = said;

	if (WIFEXITED(status))
		pfs_error("gnuplot ('%s') failed with exit status %d%s", gnuplot, WEXITSTATUS(status),
			  *said ? "; it said:" : "");
	else
		pfs_error("gnuplot ('%s') was killed by signal %d%s", gnuplot,
			  WIFSIGNALED(status) ? WTERMSIG(status) : 0, *said ? "; it said:" : "");
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n)
			fprintf(stderr, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

int pfs_gnuplot_run(const char *gnuplot, const char *script, size_t len, int dir)
{
	int in[2] = { -1, -1 }, err[2] = { -1, -1 }, status = 0, rc = -1;
	char said[STDERR_KEEP + 1] = "";
	size_t written = 0, kept = 0;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	bool err_open = true;
	pid_t pid;

	if (pipe2(in, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) {
		pfs_error("cannot make a pipe for gnuplot: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		pfs_error("cannot start gnuplot: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		child(gnuplot, dir, in[0], err[1]);
	close(in[0]);
	close(err[1]);
	in[0] = err[1] = -1;
	/* A gnuplot that dies early must not kill us with SIGPIPE. */
	sigaction(SIGPIPE, &ign, &old);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	while (in[1] >= 0 || err_open) {
		struct pollfd fds[2] = { { .fd = err_open ? err[0] : -1, .events = POLLIN },
					 { .fd = in[1], .events = POLLOUT } };

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[0].revents) {
			char buf[1024];
			ssize_t n = read(err[0], buf, sizeof(buf));

			if (n <= 0) {
				err_open = false;
			} else {
				/* Keep the last STDERR_KEEP bytes. */
				size_t k = (size_t)n > STDERR_KEEP ? STDERR_KEEP : (size_t)n;

				if (kept + k > STDERR_KEEP) {
					memmove(said, said + kept + k - STDERR_KEEP, STDERR_KEEP - k);
					kept = STDERR_KEEP - k;
				}
				memcpy(said + kept, buf + n - k, k);
				kept += k;
				said[kept] = 0;
			}
		}
		if (in[1] >= 0 && fds[1].revents) {
			ssize_t n = write(in[1], script + written, len - written);

			if (n > 0)
				written += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == len) {
				close(in[1]);
				in[1] = -1;
			}
		}
	}
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && written == len)
		rc = 0;
	else
		report(gnuplot, said, status);
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	return rc;
}
