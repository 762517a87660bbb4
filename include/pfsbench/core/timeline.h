/* timeline.h: a rank's progress timeline kept at a bounded resolution. A
 * step's ticks (struct pfs_tick, cumulative counts) are kept every
 * `every_us` at most, and never more than PFS_TIMELINE_STEP_MAX of them:
 * when a step's points fill that, adjacent pairs merge into their later
 * point and the spacing doubles. A step of any length so keeps between
 * PFS_TIMELINE_STEP_MAX / 2 and PFS_TIMELINE_STEP_MAX points once it has
 * filled them, evenly spread over it (docs/methodology.md, "Progress
 * ticks"; docs/scale.md). Pure: no MPI, no clock. */
#ifndef PFSBENCH_TIMELINE_H
#define PFSBENCH_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

#define PFS_TIMELINE_STEP_MAX 256 /* points of one rank in one step, at most */

struct pfs_timeline {
	size_t first;      /* the step's first point in the rank's ticks */
	uint64_t every_us; /* the spacing kept: the tick's, doubled at each merge */
	uint64_t next_us;  /* no point before this time; 0: the step has none yet */
};

/* A step begins: its points will start at ticks[first], every every_us. */
void pfs_timeline_begin(struct pfs_timeline *tl, size_t first, uint64_t every_us);

/* Whether a tick at time_us is to be kept in the step whose points are
 * ticks[tl->first .. *n). When it is and the step is full, its points
 * merge first (*n shrinks, every_us doubles); the caller then stores the
 * tick at ticks[*n] and calls pfs_timeline_kept. */
bool pfs_timeline_admit(struct pfs_timeline *tl, struct pfs_tick *ticks, size_t *n,
			uint64_t time_us);
void pfs_timeline_kept(struct pfs_timeline *tl, uint64_t time_us);

/* Merges the n points of a step pairwise, each pair into its later point
 * (counts are cumulative: the later point holds both intervals' work), an
 * odd last one kept alone. Returns how many are left: (n + 1) / 2. */
size_t pfs_timeline_merge(struct pfs_tick *pts, size_t n);

#endif
