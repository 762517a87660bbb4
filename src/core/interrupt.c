/* interrupt.c: records SIGINT and SIGTERM for the engine to act on. The one
 * piece of global state is what a signal handler must leave behind: the
 * first signal and its sender, and how deep the installs nest. */
#include "pfsbench/core/interrupt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static volatile sig_atomic_t caught;
static volatile sig_atomic_t sender; /* pid, or 0 when the kernel sent it */
/* SIGUSR1 and SIGUSR2 stop a run too: Open MPI's mpirun passes them to
 * every rank at once, where it turns SIGINT and SIGTERM into a SIGTERM with
 * a SIGKILL close behind (odls_base_sigkill_timeout, 1 s), too soon for a
 * large run's clean-up. The launchers send them (docs/cluster.md). */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGUSR1, SIGUSR2 };
#define NSTOP (sizeof(stop_signals) / sizeof(stop_signals[0]))
static struct sigaction old_actions[NSTOP];
/* Installs not yet restored: ab's rounds hold the handlers between their
 * runs, each run's engine installs inside them. */
static unsigned depth;

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	(void)uctx;
	/* The first one counts: mpirun's SIGTERM after a user's SIGINT to the
	 * rank must not hide what the user did. */
	if (caught)
		return;
	sender = info && info->si_code <= 0 ? (sig_atomic_t)info->si_pid : 0;
	caught = sig;
}

int pfs_interrupt_install(void)
{
	struct sigaction sa;

	/* An inner install keeps the handlers and what they caught: a
	 * signal between two of ab's runs stops the next one. */
	if (depth++)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART: a file operation in flight finishes rather than failing
	 * with EINTR; the op loop sees the flag at its next poll. */
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	caught = 0;
	sender = 0;
	for (size_t i = 0; i < NSTOP; i++)
		if (sigaction(stop_signals[i], &sa, &old_actions[i]))
			return -errno;
	return 0;
}

void pfs_interrupt_restore(void)
{
	if (!depth || --depth)
		return;
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_signals[i], &old_actions[i], NULL);
}

int pfs_interrupted(void)
{
	return caught;
}

/* The sender's command name from /proc, or "" when it cannot be read. */
static void sender_name(pid_t pid, char *name, size_t len)
{
	char path[64];
	FILE *f;

	name[0] = 0;
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(name, (int)len, f))
		name[0] = 0;
	fclose(f);
	name[strcspn(name, "\n")] = 0;
	/* A command name is the process's to choose: print letters only. */
	for (char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

void pfs_interrupt_describe(char *buf, size_t len)
{
	int sig = caught;
	pid_t pid = (pid_t)sender;
	const char *what = sig == SIGINT    ? "SIGINT"
			   : sig == SIGTERM ? "SIGTERM"
			   : sig == SIGUSR1 ? "SIGUSR1"
			   : sig == SIGUSR2 ? "SIGUSR2"
					    : "a signal";
	char name[32];

	if (!len)
		return;
	if (!sig) {
		buf[0] = 0;
		return;
	}
	if (pid <= 0) {
		snprintf(buf, len, "%s", what);
		return;
	}
	sender_name(pid, name, sizeof(name));
	if (pid == getppid() && name[0])
		snprintf(buf, len, "%s from %s (pid %ld, this process's parent)", what, name,
			 (long)pid);
	else if (name[0])
		snprintf(buf, len, "%s from %s (pid %ld)", what, name, (long)pid);
	else
		snprintf(buf, len, "%s from pid %ld", what, (long)pid);
}
