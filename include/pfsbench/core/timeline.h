/* timeline.h: a rank's progress timeline kept at a bounded resolution,
 * per step and per run (docs/methodology.md, "Progress ticks";
 * docs/scale.md). Pure: no MPI, no clock.
 *
 * Per step: a step's ticks (struct pfs_tick, cumulative counts) are kept
 * every `every_us` at most, and never more than PFS_TIMELINE_STEP_MAX of
 * them: when a step's points fill that, adjacent pairs merge into their
 * later point and the spacing doubles. A step of any length so keeps
 * between PFS_TIMELINE_STEP_MAX / 2 and PFS_TIMELINE_STEP_MAX points once
 * it has filled them, evenly spread over it. A tick that comes before the
 * spacing is kept too, as the step's latest point, until the next tick
 * takes its place: a step's last point is its latest tick.
 *
 * Per run: a rank keeps at most `budget` points (PFS_TIMELINE_RUN_MAX)
 * over the whole run, those already gathered (`gone`) counted, paced by
 * the steps the plan makes: by the end of its k-th of S planned steps a
 * rank has used at most budget x k / S, so the first test iterations
 * (gathered, and so beyond reach, when the later ones run) cannot take it
 * all. When a point would pass that, every step still held is thinned (its
 * first and last points kept, every other point between them merged into
 * the next) and the spacing every later step starts with doubles. When
 * nothing is left to thin, the step keeps its first and its latest tick
 * only. A rank's points over a run of S steps: at most about
 * max(budget, 2 S) (docs/scale.md). */
#ifndef PFSBENCH_TIMELINE_H
#define PFSBENCH_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pfsbench/core/results.h"

#define PFS_TIMELINE_STEP_MAX 256 /* points of one rank in one step, at most */
/* Points of one rank in one run, until each step is down to two: 45 kB a
 * rank in the results file, 451 MB at 10,000 ranks (docs/scale.md). */
#define PFS_TIMELINE_RUN_MAX 1024

struct pfs_timeline {
	/* the run */
	size_t budget;     /* points of the run, at most (see above) */
	size_t gone;       /* points of this rank already gathered */
	uint64_t floor_us; /* the spacing a step starts with: doubled at each thinning */
	size_t steps;      /* the steps the plan makes; 0: not known, no pacing */
	size_t begun;      /* ... and those begun */
	bool tight;        /* nothing left to thin: the step keeps its first and latest */
	/* the step in progress */
	size_t first;        /* the step's first point in the rank's ticks */
	uint64_t every_us;   /* the spacing kept: doubled at each merge */
	uint64_t next_us;    /* no point before this time but the latest; 0: none yet */
	bool trailing;       /* the step's last point is only its latest tick */
	bool admit_trailing; /* the point admitted is to be such a latest tick */
};

/* A run begins: budget points at most (0: PFS_TIMELINE_RUN_MAX), ticks
 * every tick_us. */
void pfs_timeline_init(struct pfs_timeline *tl, size_t budget, uint64_t tick_us);

/* The run's plan makes `steps` steps: the budget is paced by them. */
void pfs_timeline_plan(struct pfs_timeline *tl, size_t steps);

/* A step begins: its points will start at ticks[first]. */
void pfs_timeline_begin(struct pfs_timeline *tl, size_t first);

/* Whether a tick at time_us is to be kept in the step whose points are
 * ticks[tl->first .. *n): every tick is, at least as the step's latest
 * point. Points may merge or thin first (*n shrinks, tl->first may move)
 * or the step's latest point give way (*n - 1); the caller then stores the
 * tick at ticks[*n] and calls pfs_timeline_kept. */
bool pfs_timeline_admit(struct pfs_timeline *tl, struct pfs_tick *ticks, size_t *n,
			uint64_t time_us);
void pfs_timeline_kept(struct pfs_timeline *tl, uint64_t time_us);

/* The n points held were gathered (and so leave the rank's ticks). */
void pfs_timeline_gathered(struct pfs_timeline *tl, size_t n);

/* Merges the n points of a step pairwise, each pair into its later point
 * (counts are cumulative: the later point holds both intervals' work), an
 * odd last one kept alone. Returns how many are left: (n + 1) / 2. */
size_t pfs_timeline_merge(struct pfs_tick *pts, size_t n);

/* Thins the n points of one or more whole steps (a step: a run of points
 * of the same test, iteration, step and rank): each keeps its first and
 * last point and every other point between them, from its first, the
 * others merged into their next (the counts being cumulative). Returns the
 * points left; *first, the start of a step in pts, follows it. */
size_t pfs_timeline_thin(struct pfs_tick *pts, size_t n, size_t *first);

#endif
