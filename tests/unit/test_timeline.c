/* test_timeline.c: a rank's timeline of a step stays within
 * PFS_TIMELINE_STEP_MAX points however long the step, keeps its latest
 * count (the counts are cumulative: what the step did so far is never
 * lost), keeps its times strictly increasing and its counts never
 * decreasing, and spaces its points evenly as they merge. Over a run, its
 * points stay within the run's budget until each step is down to its first
 * and latest tick, and every step keeps those two. */
#include "cmocka_prelude.h"

#include "pfsbench/core/timeline.h"

#include <stdint.h>
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

	pfs_timeline_init(&tl, SIZE_MAX, TICK_US); /* the step's bound alone */
	pfs_timeline_begin(&tl, before);
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
		 * jitter; the last is the latest tick, however soon. */
		if (i < n - 1)
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

/* ---- the run's budget ------------------------------------------------------
 */

/* A run of nsteps steps of step_ticks ticks each, gathered (the points
 * leave the rank) every `block` steps, under budget; every point kept
 * goes to out (the results file). Checks after every tick that the run's
 * points stay within max(its share of the budget so far, 2 a step), and
 * a tight step within two. Returns the points in out. */
static size_t run(struct pfs_tick *out, size_t nsteps, size_t step_ticks, size_t block,
		  size_t budget)
{
	struct pfs_tick *ticks = calloc(budget + 2 * nsteps + 1, sizeof(*ticks));
	struct pfs_timeline tl;
	size_t n = 0, nout = 0;
	uint64_t t = 0;

	assert_non_null(ticks);
	pfs_timeline_init(&tl, budget, TICK_US);
	pfs_timeline_plan(&tl, nsteps);
	for (size_t s = 0; s < nsteps; s++) {
		uint64_t items = 0;
		size_t share = budget * (s + 1) / nsteps;

		if (s && s % block == 0) {
			memcpy(out + nout, ticks, n * sizeof(*ticks));
			nout += n;
			pfs_timeline_gathered(&tl, n);
			n = 0;
		}
		pfs_timeline_begin(&tl, n);
		t += 50000; /* the barrier */
		for (size_t i = 0; i < step_ticks; i++) {
			t += TICK_US;
			items += 3 + s % 5;
			if (!pfs_timeline_admit(&tl, ticks, &n, t))
				continue;
			memset(&ticks[n], 0, sizeof(ticks[n]));
			strcpy(ticks[n].test, "pa");
			ticks[n].iteration = (uint32_t)(s / block);
			ticks[n].step = (uint32_t)s;
			ticks[n].time_us = t;
			ticks[n].items = items;
			ticks[n].bytes = items * 4096;
			n++;
			pfs_timeline_kept(&tl, t);
			assert_true(tl.gone + n <= (share > 2 * (s + 1) ? share : 2 * (s + 1)));
			if (tl.tight)
				assert_true(n - tl.first <= 2);
		}
	}
	memcpy(out + nout, ticks, n * sizeof(*ticks));
	nout += n;
	assert_true(nout <= (budget > 2 * nsteps ? budget : 2 * nsteps));
	free(ticks);
	return nout;
}

/* Every step is there, in order, with its first tick (time and count) and
 * its latest (the step's whole count: the counts are cumulative, so the
 * step's sum is kept), times increasing and counts never decreasing. */
static void check_run(const struct pfs_tick *p, size_t n, size_t nsteps, size_t step_ticks)
{
	size_t i = 0;
	uint64_t t = 0;

	for (size_t s = 0; s < nsteps; s++) {
		uint64_t per = 3 + s % 5;
		size_t a = i;

		t += 50000;
		assert_true(i < n);
		assert_int_equal(p[i].step, s);
		assert_int_equal(p[i].time_us, t + TICK_US);
		assert_int_equal(p[i].items, per);
		while (i < n && p[i].step == s)
			i++;
		t += step_ticks * TICK_US;
		assert_int_equal(p[i - 1].time_us, t);
		assert_int_equal(p[i - 1].items, per * step_ticks);
		assert_int_equal(p[i - 1].bytes, per * step_ticks * 4096);
		for (size_t j = a + 1; j < i; j++) {
			assert_true(p[j].time_us > p[j - 1].time_us);
			assert_true(p[j].items >= p[j - 1].items);
		}
	}
	assert_int_equal(i, n);
}

/* Runs: how many points a rank keeps, at least and at most, and whether
 * check_run holds (a step over 256 ticks merges its first point away). */
static const struct run_case {
	size_t nsteps, step_ticks, block, budget, least, most;
	bool ends;
} run_cases[] = {
	/* An hour of 2.5-s steps, 1,440 of them: 36,000 ticks a rank before;
	 * now 2 a step (the budget's share is under that), in one block or
	 * gathered every 4 steps. */
	{ 1440, 25, 1440, PFS_TIMELINE_RUN_MAX, 2 * 1440, 2 * 1440, true },
	{ 1440, 25, 4, PFS_TIMELINE_RUN_MAX, 2 * 1440, 2 * 1440, true },
	/* Fewer steps than half the budget: the run's points stay within it,
	 * and the budget is used, not left idle. */
	{ 400, 60, 400, PFS_TIMELINE_RUN_MAX, 2 * 400, PFS_TIMELINE_RUN_MAX, true },
	{ 400, 60, 4, PFS_TIMELINE_RUN_MAX, PFS_TIMELINE_RUN_MAX / 2, PFS_TIMELINE_RUN_MAX, true },
	/* A few long steps (300 ticks, merged per step), a small budget. */
	{ 40, 300, 8, 256, 2 * 40, 256, false },
};

static void test_runs(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(run_cases) / sizeof(run_cases[0]); c++) {
		const struct run_case *rc = &run_cases[c];
		struct pfs_tick *out = calloc(rc->nsteps * rc->step_ticks, sizeof(*out));
		size_t n;

		assert_non_null(out);
		n = run(out, rc->nsteps, rc->step_ticks, rc->block, rc->budget);
		assert_in_range(n, rc->least, rc->most);
		if (rc->ends)
			check_run(out, n, rc->nsteps, rc->step_ticks);
		for (size_t i = 1; i < n; i++)
			if (out[i].step == out[i - 1].step)
				assert_true(out[i].time_us > out[i - 1].time_us);
		free(out);
	}
}

/* The thinning itself: each step keeps its first, every other one, its
 * last; a step of one or two points is left whole. */
static void test_thin_steps(void **state)
{
	static const uint32_t step[] = { 1, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4 };
	static const uint64_t kept[] = { 0, 1, 2, 3, 5, 7, 8, 10, 11 };
	struct pfs_tick p[12];
	size_t first = 8, n;

	(void)state;
	memset(p, 0, sizeof(p));
	for (size_t i = 0; i < 12; i++) {
		p[i].step = step[i];
		p[i].time_us = i;
	}
	n = pfs_timeline_thin(p, 12, &first);
	assert_int_equal(n, 9);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(p[i].time_us, kept[i]);
	assert_int_equal(first, 6); /* step 4 now starts at 6 */
	/* Again: steps of three points lose their middle one. */
	first = n;
	assert_int_equal(pfs_timeline_thin(p, n, &first), 7);
	assert_int_equal(first, 7);
	assert_int_equal(p[4].time_us, 7);
	assert_int_equal(p[6].time_us, 11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hour_bounded),
		cmocka_unit_test(test_short_step_whole),
		cmocka_unit_test(test_jitter),
		cmocka_unit_test(test_earlier_steps_untouched),
		cmocka_unit_test(test_merge_pairs),
		cmocka_unit_test(test_thin_steps),
		cmocka_unit_test(test_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
