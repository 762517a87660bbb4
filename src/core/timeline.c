/* timeline.c: a rank's progress timeline at a bounded resolution
 * (include/pfsbench/core/timeline.h). What a merge loses: the counts at the
 * earlier point of each pair, so a plot of the step sees the rate averaged
 * over twice the spacing; the last point, and so the step's count so far,
 * is always kept. */
#include "pfsbench/core/timeline.h"

void pfs_timeline_begin(struct pfs_timeline *tl, size_t first, uint64_t every_us)
{
	tl->first = first;
	tl->every_us = every_us ? every_us : 1;
	tl->next_us = 0;
}

size_t pfs_timeline_merge(struct pfs_tick *pts, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i += 2)
		pts[k++] = pts[i + 1 < n ? i + 1 : i];
	return k;
}

bool pfs_timeline_admit(struct pfs_timeline *tl, struct pfs_tick *ticks, size_t *n,
			uint64_t time_us)
{
	size_t have = *n - tl->first;

	if (tl->next_us && time_us < tl->next_us)
		return false;
	if (have >= PFS_TIMELINE_STEP_MAX) {
		*n = tl->first + pfs_timeline_merge(ticks + tl->first, have);
		tl->every_us *= 2;
		/* The points kept are now every_us apart: the next one too. */
		if (time_us < ticks[*n - 1].time_us + tl->every_us) {
			tl->next_us = ticks[*n - 1].time_us + tl->every_us;
			return false;
		}
	}
	return true;
}

void pfs_timeline_kept(struct pfs_timeline *tl, uint64_t time_us)
{
	tl->next_us = time_us + tl->every_us;
}
