/* test_timeline.c: a rank's timeline of a step stays within
 * PFS_TIMELINE_STEP_MAX points however long the step, keeps its latest
 * count (the counts are cumulative: what the step did so far is never
 * lost), keeps its times strictly increasing and its counts never
 * decreasing, and spaces its points evenly as they merge. */
#include "cmocka_prelude.h"

#include "pfsbench/core/timeline.h"

#include <stdlib.h>
#include <string.h>

#define TICK_US 100000u

/* Feeds a step of nticks ticks, one every TICK_US (jitter us late each),
 * of items i * 7 and bytes i * 4096 at tick i, after `before` points of
 * earlier steps; checks the bounds after every tick. Returns the points. */
static size_t feed(struct pfs_tick *ticks, size_t before, size_t nticks, uint64_t jitter,
		   uint64_t *every_us)
{
	struct pfs_timeline tl;
	size_t n = before;
	uint64_t last_items = 0, t0 = 5000000;

	pfs_timeline_begin(&tl, before, TICK_US);
	for (size_t i = 1; i <= nticks; i++) {
		uint64_t t = t0 + i * TICK_US + (i % 3) * jitter;

		if (pfs_timeline_admit(&tl, ticks, &n, t)) {
			memset(&ticks[n], 0, sizeof(ticks[n]));
			ticks[n].time_us = t;
			ticks[n].items = i * 7;
			ticks[n].bytes = i * 4096;
			n++;
			pfs_timeline_kept(&tl, t);
			last_items = i * 7;
		}
		assert_true(n - before <= PFS_TIMELINE_STEP_MAX);
		assert_true(n > before);
		/* The newest point kept is the newest tick kept. */
		assert_int_equal(ticks[n - 1].items, last_items);
	}
	*every_us = tl.every_us;
	return n;
}

static void check_step(const struct pfs_tick *p, size_t n, uint64_t every_us)
{
	for (size_t i = 1; i < n; i++) {
		assert_true(p[i].time_us > p[i - 1].time_us);
		assert_true(p[i].items >= p[i - 1].items);
		assert_true(p[i].bytes >= p[i - 1].bytes);
		/* Merged points are at least the spacing apart, less a tick's
		 * jitter. */
		assert_true(p[i].time_us - p[i - 1].time_us + TICK_US >= every_us);
	}
}

/* A long step of nticks ticks (jitter us late at most), fed whole. */
static void long_step(size_t nticks, uint64_t jitter, uint64_t *every)
{
	struct pfs_tick *ticks = calloc(PFS_TIMELINE_STEP_MAX + 1, sizeof(*ticks));
	size_t n;

	assert_non_null(ticks);
	n = feed(ticks, 0, nticks, jitter, every);
	assert_true(n <= PFS_TIMELINE_STEP_MAX);
	assert_true(n >= PFS_TIMELINE_STEP_MAX / 2);
	check_step(ticks, n, *every);
	free(ticks);
}

/* An hour of ticks: 36,000 fed, at most 256 kept, at least half of that. */
static void test_hour_bounded(void **state)
{
	uint64_t every;

	(void)state;
	long_step(36000, 0, &every);
	/* 36,000 ticks in 256 points: 8 merges, 25.6 s apart. */
	assert_int_equal(every, (uint64_t)TICK_US << 8);
}

/* A short step keeps every tick, unmerged. */
static void test_short_step_whole(void **state)
{
	struct pfs_tick ticks[PFS_TIMELINE_STEP_MAX + 1];
	uint64_t every;
	size_t n;

	(void)state;
	n = feed(ticks, 0, PFS_TIMELINE_STEP_MAX, 0, &every);
	assert_int_equal(n, PFS_TIMELINE_STEP_MAX);
	assert_int_equal(every, TICK_US);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ticks[i].items, (i + 1) * 7);
}

/* Ticks come late by a varying few ms: the bound and the order hold. */
static void test_jitter(void **state)
{
	uint64_t every;

	(void)state;
	long_step(5000, 3000, &every);
}

/* A later step's merges leave the earlier steps' points alone. */
static void test_earlier_steps_untouched(void **state)
{
	struct pfs_tick *ticks = calloc(10 + PFS_TIMELINE_STEP_MAX + 1, sizeof(*ticks));
	uint64_t every;
	size_t n;

	(void)state;
	for (size_t i = 0; i < 10; i++)
		ticks[i].items = 1000 + i;
	n = feed(ticks, 10, 3000, 0, &every);
	assert_true(n - 10 <= PFS_TIMELINE_STEP_MAX);
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(ticks[i].items, 1000 + i);
	check_step(ticks + 10, n - 10, every);
	free(ticks);
}

/* The merge itself: pairs into their later point, an odd last kept. */
static void test_merge_pairs(void **state)
{
	struct pfs_tick p[5];

	(void)state;
	memset(p, 0, sizeof(p));
	for (size_t i = 0; i < 5; i++) {
		p[i].time_us = 10 * (i + 1);
		p[i].items = 100 * (i + 1);
	}
	assert_int_equal(pfs_timeline_merge(p, 5), 3);
	assert_int_equal(p[0].time_us, 20);
	assert_int_equal(p[1].time_us, 40);
	assert_int_equal(p[2].time_us, 50);
	assert_int_equal(p[2].items, 500);
	assert_int_equal(pfs_timeline_merge(p, 1), 1);
	assert_int_equal(p[0].items, 200);
	assert_int_equal(pfs_timeline_merge(p, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hour_bounded),
		cmocka_unit_test(test_short_step_whole),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_earlier_steps_untouched),
		cmocka_unit_test(test_merge_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
