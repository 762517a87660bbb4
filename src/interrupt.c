/* interrupt.c: records SIGINT and SIGTERM for the engine to act on. The one
 * piece of global state is the flag a signal handler must have. */
#include "pfsbench/interrupt.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

static volatile sig_atomic_t caught;
static struct sigaction old_int, old_term;

static void on_signal(int sig)
{
	caught = sig;
}

int pfs_interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART: a file operation in flight finishes rather than failing
	 * with EINTR; the op loop sees the flag at its next poll. */
	sa.sa_flags = SA_RESTART;
	caught = 0;
	if (sigaction(SIGINT, &sa, &old_int) || sigaction(SIGTERM, &sa, &old_term))
		return -errno;
	return 0;
}

void pfs_interrupt_restore(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

int pfs_interrupted(void)
{
	return caught;
}
