/* interrupt.h: SIGINT and SIGTERM during a run. The handler only records
 * the signal and who sent it; the engine polls for it and stops every rank
 * together, so the results file is closed with status "aborted" before
 * mpirun's SIGKILL. Long system calls that cannot poll (the cache drop's
 * sync) run aside and are waited for with an eye on the flag. */
#ifndef PFSBENCH_INTERRUPT_H
#define PFSBENCH_INTERRUPT_H

#include <stddef.h>

/* Installs the handlers; pfs_interrupt_restore puts back the old ones.
 * Installs nest (ab's rounds around each run's engine): an inner one keeps
 * the handlers and the signal already caught, and only the outermost
 * restore puts back the old handlers. */
int pfs_interrupt_install(void);
void pfs_interrupt_restore(void);

/* The first signal that arrived since install, or 0. */
int pfs_interrupted(void);

/* "SIGTERM from mpirun (pid 4711)", "SIGINT": the first signal and, where
 * the kernel says, the process that sent it. Under mpirun a Ctrl-C, a kill
 * of mpirun or a batch system's time limit all reach the ranks as mpirun's
 * SIGTERM; naming the sender keeps that visible. Not for signal handlers. */
void pfs_interrupt_describe(char *buf, size_t len);

#endif
