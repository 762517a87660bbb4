/* interrupt.h: SIGINT and SIGTERM during a run. The handler only records
 * the signal; the engine polls for it and stops every rank together, so the
 * results file is closed with status "aborted" before mpirun's SIGKILL. */
#ifndef PFSBENCH_INTERRUPT_H
#define PFSBENCH_INTERRUPT_H

/* Installs the handlers; pfs_interrupt_restore puts back the old ones. */
int pfs_interrupt_install(void);
void pfs_interrupt_restore(void);

/* The signal that arrived since install, or 0. */
int pfs_interrupted(void);

#endif
