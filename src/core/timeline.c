/* timeline.c: a rank's progress timeline at a bounded resolution
 * (include/pfsbench/core/timeline.h). What a merge or a thinning loses:
 * the counts at the points dropped, so a plot sees the rate averaged over
 * twice the spacing there; a step's last point, and so its count so far,
 * is always kept, and a thinning keeps its first too. */
#include "pfsbench/core/timeline.h"

#include <stdint.h>
#include <string.h>

void pfs_timeline_init(struct pfs_timeline *tl, size_t budget, uint64_t tick_us)
{
	memset(tl, 0, sizeof(*tl));
	tl->budget = budget ? budget : PFS_TIMELINE_RUN_MAX;
	tl->floor_us = tick_us ? tick_us : 1;
}

void pfs_timeline_plan(struct pfs_timeline *tl, size_t steps)
{
	tl->steps = steps;
}

void pfs_timeline_begin(struct pfs_timeline *tl, size_t first)
{
	tl->begun++;
	tl->tight = false;
	tl->first = first;
	tl->every_us = tl->floor_us;
	tl->next_us = 0;
	tl->trailing = false;
}

void pfs_timeline_gathered(struct pfs_timeline *tl, size_t n)
{
	tl->gone += n;
}

size_t pfs_timeline_merge(struct pfs_tick *pts, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i += 2)
		pts[k++] = pts[i + 1 < n ? i + 1 : i];
	return k;
}

static bool same_step(const struct pfs_tick *a, const struct pfs_tick *b)
{
	return a->step == b->step && a->iteration == b->iteration && a->rank == b->rank &&
	       strncmp(a->test, b->test, sizeof(a->test)) == 0;
}

size_t pfs_timeline_thin(struct pfs_tick *pts, size_t n, size_t *first)
{
	size_t k = 0, a = 0;
	bool at_end = first && *first >= n; /* a step with no point yet */

	while (a < n) {
		size_t b = a + 1;

		while (b < n && same_step(&pts[b], &pts[a]))
			b++;
		if (first && *first == a)
			*first = k;
		/* [a, b): its first, every other one after it, its last. */
		for (size_t i = a; i < b; i++)
			if ((i - a) % 2 == 0 || i == b - 1)
				pts[k++] = pts[i];
		a = b;
	}
	if (at_end)
		*first = k;
	return k;
}

/* What the run may have kept by the end of this step: its share of the
 * budget, by the steps begun of those planned. */
static size_t allowance(const struct pfs_timeline *tl)
{
	if (!tl->steps || !tl->begun || tl->begun >= tl->steps || tl->budget > SIZE_MAX / tl->begun)
		return tl->budget;
	return tl->budget * tl->begun / tl->steps;
}

/* The run's points would pass its allowance: the steps held thin, and so
 * does the spacing of what follows; nothing to thin, the step is tight
 * (the steps held are down to two points each, and this one will be). */
static void make_room(struct pfs_timeline *tl, struct pfs_tick *ticks, size_t *n)
{
	size_t was = *n;

	*n = pfs_timeline_thin(ticks, *n, &tl->first);
	if (*n == was) {
		tl->tight = true;
		return;
	}
	if (tl->floor_us > UINT64_MAX / 4 || tl->every_us > UINT64_MAX / 4)
		return; /* spacing past any run's length: no need to grow */
	tl->floor_us *= 2;
	tl->every_us = tl->every_us * 2 > tl->floor_us ? tl->every_us * 2 : tl->floor_us;
}

bool pfs_timeline_admit(struct pfs_timeline *tl, struct pfs_tick *ticks, size_t *n,
			uint64_t time_us)
{
	size_t have;
	bool due;

	/* The latest tick so far gives way to this one. */
	if (tl->trailing) {
		(*n)--;
		tl->trailing = false;
	}
	have = *n - tl->first;
	due = have == 0 || (!tl->tight && time_us >= tl->next_us);
	if (have >= PFS_TIMELINE_STEP_MAX) {
		*n = tl->first + pfs_timeline_merge(ticks + tl->first, have);
		tl->every_us *= 2;
		/* The points kept are now every_us apart: the next one too. */
		tl->next_us = ticks[*n - 1].time_us + tl->every_us;
		due = time_us >= tl->next_us;
	}
	while (!tl->tight && tl->gone + *n >= allowance(tl))
		make_room(tl, ticks, n);
	if (tl->tight && *n - tl->first >= 2)
		(*n)--; /* a tight step: its first point and its latest */
	if (tl->tight)
		due = *n == tl->first;
	tl->admit_trailing = !due;
	return true;
}

void pfs_timeline_kept(struct pfs_timeline *tl, uint64_t time_us)
{
	tl->trailing = tl->admit_trailing;
	if (!tl->trailing)
		tl->next_us = time_us + tl->every_us;
}
