/* test_histogram.c: the latency histogram. Percentiles are checked against
 * the exact nearest-rank percentiles of the sorted samples, with the rank
 * computed here in integers from p as a fraction, on random samples of
 * several distributions (fixed seed) and on adversarial ones; merging split
 * sets must give the histogram of the union exactly; the sparse form must
 * round-trip and refuse what a hostile file could hold. */
#include "cmocka_prelude.h"

#include "pfsbench/core/histogram.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOUR_NS PFS_HIST_LIMIT_NS
#define LAST (PFS_HIST_BUCKETS - 1u)

/* ---- helpers ------------------------------------------------------------- */

/* splitmix64: a fixed seed gives the same samples on every machine. */
static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* uniform in [lo, hi] */
static uint64_t rng_between(uint64_t lo, uint64_t hi)
{
	return lo + rng_next() % (hi - lo + 1);
}

static double rng_unit(void)
{
	return (double)(rng_next() >> 11) / 9007199254740992.0; /* [0, 1) */
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* p = num / den percent */
struct pct {
	uint64_t num, den;
};

static const struct pct required[] = { { 0, 1 }, { 1, 1 }, { 50, 1 }, { 90, 1 },
				       { 99, 1 }, { 999, 10 }, { 100, 1 } };
#define N_REQUIRED (sizeof(required) / sizeof(required[0]))

/* The exact nearest-rank percentile of sorted[0..n-1], n > 0: the
 * ceil(p/100 x n)-th smallest, at least the 1st, in integers. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, struct pct p)
{
	uint64_t q = 100 * p.den, rank = (p.num * n + q - 1) / q;

	return sorted[(rank ? rank : 1) - 1];
}

static void fill(struct pfs_hist *h, const uint64_t *v, size_t n)
{
	pfs_hist_init(h);
	for (size_t i = 0; i < n; i++)
		pfs_hist_add(h, v[i]);
}

/* The documented bound: within 1/256 of the exact sample (so within 1 %),
 * for samples below the last bucket's nominal top; above it, between the
 * last bucket's start and max. Every required p, and p = 0 and 100 exact. */
static void check_percentiles(const char *what, uint64_t *v, size_t n)
{
	struct pfs_hist h;
	uint64_t last_lo, last_hi;

	fill(&h, v, n);
	qsort(v, n, sizeof(*v), cmp_u64);
	pfs_hist_bucket_range(LAST, &last_lo, &last_hi);
	assert_int_equal(h.n, n);
	assert_int_equal(h.min_ns, v[0]);
	assert_int_equal(h.max_ns, v[n - 1]);
	for (size_t i = 0; i < N_REQUIRED; i++) {
		double p = (double)required[i].num / (double)required[i].den;
		uint64_t want = exact_percentile(v, n, required[i]);
		uint64_t got = pfs_hist_percentile(&h, p);
		uint64_t err = got > want ? got - want : want - got;
		int ok;

		if (want < (UINT64_C(210) << 34))
			ok = err <= want / 256 && (double)err <= 0.01 * (double)want;
		else
			ok = got >= last_lo && got <= v[n - 1];
		if (!ok || ((p == 0 || p == 100) && err))
			fail_msg("%s, n = %zu: p%g is %" PRIu64 ", exact %" PRIu64, what, n, p,
				 got, want);
	}
}

/* ---- layout -------------------------------------------------------------- */

static void test_values_below_256_have_a_bucket_each(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 256; v++) {
		uint64_t lo, hi;

		assert_int_equal(pfs_hist_bucket(v), v);
		pfs_hist_bucket_range((unsigned)v, &lo, &hi);
		assert_int_equal(lo, v);
		assert_int_equal(hi, v);
	}
}

/* Every value lands in exactly one bucket, whose range holds it; ranges
 * tile [0, UINT64_MAX] in order; a bucket is at most 1/128 of its lowest
 * value wide. */
static void test_buckets_tile_the_values_within_1_in_128(void **state)
{
	uint64_t prev_hi = 0;

	(void)state;
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++) {
		uint64_t lo, hi;

		pfs_hist_bucket_range(b, &lo, &hi);
		assert_int_equal(lo, b ? prev_hi + 1 : 0);
		assert_true(lo <= hi);
		assert_int_equal(pfs_hist_bucket(lo), b);
		assert_int_equal(pfs_hist_bucket(hi), b);
		assert_int_equal(pfs_hist_bucket(lo + (hi - lo) / 2), b);
		if (b != LAST && lo >= 128)
			assert_true((hi - lo + 1) * 128 <= lo);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, UINT64_MAX);
}

static void test_one_hour_and_above_land_in_the_last_bucket(void **state)
{
	uint64_t lo, hi;

	(void)state;
	assert_int_equal(pfs_hist_bucket(HOUR_NS), LAST);
	assert_int_equal(pfs_hist_bucket(HOUR_NS + 1), LAST);
	assert_int_equal(pfs_hist_bucket(UINT64_C(1) << 42), LAST);
	assert_int_equal(pfs_hist_bucket(UINT64_MAX), LAST);
	pfs_hist_bucket_range(LAST, &lo, &hi);
	assert_int_equal(lo, UINT64_C(209) << 34);
	assert_int_equal(hi, UINT64_MAX);
	assert_int_equal(pfs_hist_bucket(lo - 1), LAST - 1);
	/* 100 ns, the low end of the promised range, is exact */
	assert_int_equal(pfs_hist_bucket(100), 100);
}

static void test_bucket_range_of_a_bucket_out_of_range_is_empty(void **state)
{
	uint64_t lo = 1, hi = 1;

	(void)state;
	pfs_hist_bucket_range(PFS_HIST_BUCKETS, &lo, &hi);
	assert_int_equal(lo, UINT64_MAX);
	assert_int_equal(hi, 0);
	pfs_hist_bucket_range(UINT32_MAX, &lo, &hi);
	assert_true(lo > hi);
}

static void test_powers_of_two_and_their_neighbours_land_in_their_range(void **state)
{
	(void)state;
	for (unsigned e = 0; e < 64; e++) {
		uint64_t p = UINT64_C(1) << e, vs[] = { p - 1, p, p + 1 };

		for (size_t i = 0; i < 3; i++) {
			uint64_t lo, hi;

			pfs_hist_bucket_range(pfs_hist_bucket(vs[i]), &lo, &hi);
			assert_true(lo <= vs[i] && vs[i] <= hi);
		}
	}
}

/* ---- percentiles --------------------------------------------------------- */

static void test_empty_histogram(void **state)
{
	struct pfs_hist h;

	(void)state;
	pfs_hist_init(&h);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.min_ns, UINT64_MAX);
	assert_int_equal(h.max_ns, 0);
	assert_int_equal(pfs_hist_percentile(&h, 50), 0);
	assert_int_equal(pfs_hist_percentile(&h, 100), 0);
	assert_true(pfs_hist_mean(&h) == 0);
}

#define N_RANDOM 20000

static void test_percentiles_of_uniform_samples(void **state)
{
	static uint64_t v[N_RANDOM];
	static const uint64_t spans[][2] = { { 0, 1000 }, { 100, 1000000 },
					     { 1000, 10000000000 } };

	(void)state;
	rng_state = 1;
	for (size_t s = 0; s < sizeof(spans) / sizeof(spans[0]); s++) {
		for (size_t n = 1; n <= N_RANDOM; n = n * 7 + 3) {
			for (size_t i = 0; i < n; i++)
				v[i] = rng_between(spans[s][0], spans[s][1]);
			check_percentiles("uniform", v, n);
		}
	}
}

/* Log-uniform from 100 ns to 1 hour: every decade weighs the same, the
 * whole promised range is used. */
static void test_percentiles_of_log_uniform_samples(void **state)
{
	static uint64_t v[N_RANDOM];
	double lo = log(100), hi = log((double)HOUR_NS);

	(void)state;
	rng_state = 2;
	for (size_t n = 1; n <= N_RANDOM; n = n * 5 + 1) {
		for (size_t i = 0; i < n; i++)
			v[i] = (uint64_t)exp(lo + (hi - lo) * rng_unit());
		check_percentiles("log-uniform 100 ns..1 h", v, n);
	}
}

/* Two modes far apart, as a cache hit and a network round trip: most
 * samples near 5 us, 3 % near 20 ms, so p99 and p99.9 sit in the far mode
 * and p90 in the near one. */
static void test_percentiles_of_bimodal_samples(void **state)
{
	static uint64_t v[N_RANDOM];

	(void)state;
	rng_state = 3;
	for (size_t n = 1; n <= N_RANDOM; n = n * 3 + 2) {
		for (size_t i = 0; i < n; i++)
			v[i] = rng_next() % 100 < 3 ? rng_between(18000000, 22000000)
						    : rng_between(4500, 5500);
		check_percentiles("bimodal", v, n);
	}
}

static void test_percentiles_of_adversarial_samples(void **state)
{
	static uint64_t v[10000];
	size_t n;

	(void)state;
	/* all equal, at a bucket's start, middle and end */
	for (uint64_t x = 123456000; x < 123456000 + 2000000; x += 500000) {
		for (n = 0; n < 1000; n++)
			v[n] = x;
		check_percentiles("all equal", v, n);
	}
	/* bucket edges below and at the first split power of two */
	{
		static const uint64_t edges[] = { 127, 128, 255, 256, 257, 511, 512, 513 };

		for (n = 0; n < 4000; n++)
			v[n] = edges[n % 8];
		check_percentiles("bucket edges", v, n);
	}
	/* powers of two +-1, 1 ns to 2^41 ns */
	for (n = 0; n < 42 * 3; n++)
		v[n] = (UINT64_C(1) << (n / 3)) + (n % 3) - 1;
	check_percentiles("powers of two +-1", v, n);
	/* one huge outlier among equal small samples */
	for (n = 0; n < 9999; n++)
		v[n] = 1000 + n % 7;
	v[n++] = 3000000000000;
	check_percentiles("one huge outlier", v, n);
	/* a single sample anywhere */
	{
		static const uint64_t one[] = { 0, 1, 127, 128, 255, 256, 1000, 123456789,
						3600000000000, 7200000000000, UINT64_MAX };

		for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
			v[0] = one[i];
			check_percentiles("n = 1", v, 1);
		}
	}
	/* above 1 hour: a few among small samples, then only such */
	for (n = 0; n < 1000; n++)
		v[n] = n % 50 == 0 ? 7200000000000 + n : 2000 + n;
	check_percentiles("2 % above 1 h", v, n);
	v[0] = 7200000000000;
	v[1] = 10800000000000;
	v[2] = 18000000000000;
	v[3] = UINT64_MAX;
	check_percentiles("only above 1 h", v, 4);
	/* zeros, alone and with others */
	for (n = 0; n < 100; n++)
		v[n] = 0;
	check_percentiles("all 0", v, n);
	for (n = 0; n < 1000; n++)
		v[n] = n % 2 ? 0 : 1000000 + n;
	check_percentiles("half 0", v, n);
}

/* Values below 256 are exact, so every p of a grid must give exactly the
 * sample of the nearest rank: checks the rank itself, off-by-ones and
 * decimals a double cannot hold (0.1, 99.9, ...) included. */
static void test_nearest_rank_is_exact_for_decimal_p(void **state)
{
	uint64_t v[256];
	struct pfs_hist h;

	(void)state;
	for (size_t n = 1; n <= 256; n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = i;
		fill(&h, v, n);
		for (uint64_t k = 0; k <= 100000; k += n < 20 ? 1 : 37) {
			struct pct p = { k, 1000 };
			uint64_t want = exact_percentile(v, n, p);

			if (pfs_hist_percentile(&h, (double)k / 1000) != want)
				fail_msg("n = %zu: p%g is %" PRIu64 ", exact %" PRIu64, n,
					 (double)k / 1000, pfs_hist_percentile(&h, (double)k / 1000),
					 want);
		}
	}
}

/* Ranks that decimals make integer at large n: p x n / 100 exact. The
 * first three come out a few ulps above the integer in doubles (1.1 x 3000
 * / 100 = 33.00000000000001), where a plain ceil is one rank too far. */
static void test_nearest_rank_at_large_n(void **state)
{
	struct pfs_hist h;
	static const struct {
		uint64_t n;
		struct pct p;
	} cases[] = {
		{ 3000, { 11, 10 } },	      { 100000, { 22, 10 } },
		{ 1000000, { 83, 10 } },      { 1000, { 999, 10 } },
		{ 100000, { 9999, 100 } },
		{ 1000000, { 99999, 1000 } }, { 10000000, { 1, 10 } },
		{ 3000000, { 333, 10 } },     { 7000000, { 57, 1 } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t n = cases[i].n, q = 100 * cases[i].p.den;
		uint64_t rank = (cases[i].p.num * n + q - 1) / q;

		/* rank - 1 samples of 10 and the rest of 20: p lands on the
		 * boundary, one rank off would give the other value */
		pfs_hist_init(&h);
		assert_int_equal(pfs_hist_add_cell(&h, 10, rank - 1), 0);
		assert_int_equal(pfs_hist_add_cell(&h, 20, n - rank + 1), 0);
		assert_int_equal(pfs_hist_set_extremes(&h, 10, 20), 0);
		assert_int_equal(pfs_hist_percentile(&h, (double)cases[i].p.num / (double)cases[i].p.den),
				 20);
		pfs_hist_init(&h);
		assert_int_equal(pfs_hist_add_cell(&h, 10, rank), 0);
		assert_int_equal(pfs_hist_add_cell(&h, 20, n - rank), 0);
		assert_int_equal(pfs_hist_set_extremes(&h, 10, 20), 0);
		assert_int_equal(pfs_hist_percentile(&h, (double)cases[i].p.num / (double)cases[i].p.den),
				 10);
	}
}

static void test_p_outside_0_to_100_is_clamped(void **state)
{
	struct pfs_hist h;

	(void)state;
	pfs_hist_init(&h);
	pfs_hist_add(&h, 5);
	pfs_hist_add(&h, 500000);
	assert_int_equal(pfs_hist_percentile(&h, -1), 5);
	assert_int_equal(pfs_hist_percentile(&h, NAN), 5);
	assert_int_equal(pfs_hist_percentile(&h, 101), 500000);
	assert_int_equal(pfs_hist_percentile(&h, INFINITY), 500000);
}

static void test_mean_within_1_in_256(void **state)
{
	static uint64_t v[N_RANDOM];
	struct pfs_hist h;
	long double sum = 0;
	double lo = log(100), hi = log((double)HOUR_NS / 2);

	(void)state;
	rng_state = 4;
	for (size_t i = 0; i < N_RANDOM; i++) {
		v[i] = (uint64_t)exp(lo + (hi - lo) * rng_unit());
		sum += v[i];
	}
	fill(&h, v, N_RANDOM);
	assert_true(fabs(pfs_hist_mean(&h) - (double)(sum / N_RANDOM)) <=
		    (double)(sum / N_RANDOM) / 256);
	fill(&h, v, 1);
	assert_true(pfs_hist_mean(&h) == (double)v[0]);
}

/* ---- merge --------------------------------------------------------------- */

/* Random samples dealt at random into k parts: merging the parts, in any
 * order and with empty ones, gives the histogram of all samples, bit for
 * bit. */
static void test_merge_of_a_split_equals_the_whole(void **state)
{
	static struct pfs_hist whole, parts[5], merged;
	double lo = log(1), hi = log((double)HOUR_NS * 4);

	(void)state;
	rng_state = 5;
	for (unsigned round = 0; round < 40; round++) {
		unsigned k = 1 + round % 5;
		size_t n = rng_between(0, 5000);

		pfs_hist_init(&whole);
		for (unsigned j = 0; j < k; j++)
			pfs_hist_init(&parts[j]);
		for (size_t i = 0; i < n; i++) {
			uint64_t x = (uint64_t)exp(lo + (hi - lo) * rng_unit());

			pfs_hist_add(&whole, x);
			pfs_hist_add(&parts[rng_next() % k], x);
		}
		pfs_hist_init(&merged);
		for (unsigned j = 0; j < k; j++)
			pfs_hist_merge(&merged, &parts[(j + round) % k]);
		assert_memory_equal(&merged, &whole, sizeof(whole));
	}
}

static void test_merge_with_empty_changes_nothing(void **state)
{
	static struct pfs_hist a, empty, copy;

	(void)state;
	pfs_hist_init(&a);
	pfs_hist_init(&empty);
	pfs_hist_add(&a, 0);
	pfs_hist_add(&a, 77777);
	copy = a;
	pfs_hist_merge(&a, &empty);
	assert_memory_equal(&a, &copy, sizeof(a));
	pfs_hist_merge(&empty, &a);
	assert_memory_equal(&empty, &copy, sizeof(a));
}

/* ---- sparse form --------------------------------------------------------- */

static void rebuild(struct pfs_hist *to, const struct pfs_hist *from)
{
	static struct pfs_hist_cell cells[PFS_HIST_BUCKETS];
	size_t k = pfs_hist_cells(from, cells, PFS_HIST_BUCKETS);

	pfs_hist_init(to);
	for (size_t i = 0; i < k; i++) {
		if (i)
			assert_true(cells[i].bucket > cells[i - 1].bucket);
		assert_true(cells[i].count > 0);
		assert_int_equal(pfs_hist_add_cell(to, cells[i].bucket, cells[i].count), 0);
	}
	assert_int_equal(pfs_hist_set_extremes(to, from->min_ns, from->max_ns), 0);
}

static void test_sparse_round_trip(void **state)
{
	static struct pfs_hist h, back;
	double lo = log(1), hi = log((double)HOUR_NS * 2);

	(void)state;
	rng_state = 6;
	pfs_hist_init(&h);
	rebuild(&back, &h);
	assert_memory_equal(&back, &h, sizeof(h));
	for (unsigned round = 0; round < 10; round++) {
		size_t n = rng_between(1, 20000);

		pfs_hist_init(&h);
		for (size_t i = 0; i < n; i++)
			pfs_hist_add(&h, (uint64_t)exp(lo + (hi - lo) * rng_unit()));
		rebuild(&back, &h);
		assert_memory_equal(&back, &h, sizeof(h));
	}
	/* every bucket used */
	pfs_hist_init(&h);
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++) {
		uint64_t lo_ns, hi_ns;

		pfs_hist_bucket_range(b, &lo_ns, &hi_ns);
		pfs_hist_add(&h, lo_ns);
	}
	pfs_hist_add(&h, UINT64_MAX);
	assert_int_equal(pfs_hist_cells(&h, NULL, 0), PFS_HIST_BUCKETS);
	rebuild(&back, &h);
	assert_memory_equal(&back, &h, sizeof(h));
}

static void test_cells_writes_at_most_cap(void **state)
{
	struct pfs_hist h;
	struct pfs_hist_cell out[4];

	(void)state;
	pfs_hist_init(&h);
	pfs_hist_add(&h, 1);
	pfs_hist_add(&h, 1);
	pfs_hist_add(&h, 300);
	pfs_hist_add(&h, 5000000);
	memset(out, 0xa5, sizeof(out));
	assert_int_equal(pfs_hist_cells(&h, out, 2), 3);
	assert_int_equal(out[0].bucket, 1);
	assert_int_equal(out[0].count, 2);
	assert_int_equal(out[1].bucket, pfs_hist_bucket(300));
	assert_int_equal(out[1].count, 1);
	assert_int_equal(out[2].bucket, 0xa5a5a5a5u);
	assert_int_equal(pfs_hist_cells(&h, NULL, 0), 3);
	assert_int_equal(pfs_hist_cells(&h, out, 4), 3);
	assert_int_equal(out[2].bucket, pfs_hist_bucket(5000000));
}

static void test_add_cell_refuses_what_a_hostile_file_could_hold(void **state)
{
	static struct pfs_hist h, copy;

	(void)state;
	pfs_hist_init(&h);
	assert_int_equal(pfs_hist_add_cell(&h, 7, 3), 0);
	copy = h;
	assert_int_equal(pfs_hist_add_cell(&h, PFS_HIST_BUCKETS, 1), -EINVAL);
	assert_int_equal(pfs_hist_add_cell(&h, UINT32_MAX, 1), -EINVAL);
	/* the bucket's count would wrap */
	assert_int_equal(pfs_hist_add_cell(&h, 7, UINT64_MAX - 2), -EINVAL);
	/* n would wrap, though no one bucket would */
	assert_int_equal(pfs_hist_add_cell(&h, 8, UINT64_MAX - 2), -EINVAL);
	assert_memory_equal(&h, &copy, sizeof(h));
	/* up to the limit is fine */
	assert_int_equal(pfs_hist_add_cell(&h, 8, UINT64_MAX - 3), 0);
	assert_int_equal(h.n, UINT64_MAX);
	assert_int_equal(pfs_hist_add_cell(&h, LAST, 1), -EINVAL);
	assert_int_equal(pfs_hist_add_cell(&h, LAST, 0), 0);
}

static void test_set_extremes_refuses_values_the_buckets_deny(void **state)
{
	static struct pfs_hist h, copy;

	(void)state;
	pfs_hist_init(&h);
	assert_int_equal(pfs_hist_set_extremes(&h, UINT64_MAX, 0), 0);
	assert_int_equal(pfs_hist_set_extremes(&h, 0, 0), -EINVAL);
	assert_int_equal(pfs_hist_add_cell(&h, pfs_hist_bucket(1000), 2), 0);
	assert_int_equal(pfs_hist_add_cell(&h, pfs_hist_bucket(9000000), 1), 0);
	copy = h;
	assert_int_equal(pfs_hist_set_extremes(&h, 9000000, 1000), -EINVAL); /* min > max */
	assert_int_equal(pfs_hist_set_extremes(&h, 990, 9000000), -EINVAL);	 /* below the lowest */
	assert_int_equal(pfs_hist_set_extremes(&h, 1000, 9900000), -EINVAL); /* above the highest */
	assert_int_equal(pfs_hist_set_extremes(&h, 1000, 5000), -EINVAL);    /* not in the highest */
	assert_int_equal(pfs_hist_set_extremes(&h, UINT64_MAX, 0), -EINVAL);
	assert_memory_equal(&h, &copy, sizeof(h));
	assert_int_equal(pfs_hist_set_extremes(&h, 1001, 9000001), 0);
	assert_int_equal(h.min_ns, 1001);
	assert_int_equal(h.max_ns, 9000001);
	/* inconsistent n (not made by add_cell): refused, no overrun */
	pfs_hist_init(&h);
	h.n = 3;
	assert_int_equal(pfs_hist_set_extremes(&h, 1, 2), -EINVAL);
	/* above 1 hour: the last bucket takes any max */
	pfs_hist_init(&h);
	assert_int_equal(pfs_hist_add_cell(&h, LAST, 1), 0);
	assert_int_equal(pfs_hist_set_extremes(&h, UINT64_MAX, UINT64_MAX), 0);
	assert_int_equal(pfs_hist_percentile(&h, 50), UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_below_256_have_a_bucket_each),
		cmocka_unit_test(test_buckets_tile_the_values_within_1_in_128),
		cmocka_unit_test(test_one_hour_and_above_land_in_the_last_bucket),
		cmocka_unit_test(test_bucket_range_of_a_bucket_out_of_range_is_empty),
		cmocka_unit_test(test_powers_of_two_and_their_neighbours_land_in_their_range),
		cmocka_unit_test(test_empty_histogram),
		cmocka_unit_test(test_percentiles_of_uniform_samples),
		cmocka_unit_test(test_percentiles_of_log_uniform_samples),
		cmocka_unit_test(test_percentiles_of_bimodal_samples),
		cmocka_unit_test(test_percentiles_of_adversarial_samples),
		cmocka_unit_test(test_nearest_rank_is_exact_for_decimal_p),
		cmocka_unit_test(test_nearest_rank_at_large_n),
		cmocka_unit_test(test_p_outside_0_to_100_is_clamped),
		cmocka_unit_test(test_mean_within_1_in_256),
		cmocka_unit_test(test_merge_of_a_split_equals_the_whole),
		cmocka_unit_test(test_merge_with_empty_changes_nothing),
		cmocka_unit_test(test_sparse_round_trip),
		cmocka_unit_test(test_cells_writes_at_most_cap),
		cmocka_unit_test(test_add_cell_refuses_what_a_hostile_file_could_hold),
		cmocka_unit_test(test_set_extremes_refuses_values_the_buckets_deny),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
