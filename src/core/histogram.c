/* histogram.c: the latency histogram's layout (bucket ranges), merging,
 * nearest-rank percentiles and its sparse form. The hot part, counting a
 * sample, is inline in histogram.h; this file holds what runs once per
 * phase or per report. Pure: no MPI, no HDF5, no I/O, no global state. */
#include "pfsbench/core/histogram.h"

#include <errno.h>
#include <float.h>
#include <string.h>

#define SUB (UINT64_C(1) << PFS_HIST_SUB_BITS)
#define LAST (PFS_HIST_BUCKETS - 1u)

/* The bucket of PFS_HIST_LIMIT_NS is the last: 2^41 <= 1 hour < 2^42, so
 * s = 41 - 7 = 34 and the bucket is 128 s + (1 hour >> s). */
_Static_assert(PFS_HIST_LIMIT_NS >> 41 == 1, "1 hour lies in [2^41, 2^42)");
_Static_assert((34u << PFS_HIST_SUB_BITS) + (PFS_HIST_LIMIT_NS >> 34) == LAST,
	       "PFS_HIST_BUCKETS is the bucket of 1 hour plus one");

void pfs_hist_init(struct pfs_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

/* Nominal range: the last bucket's as if nothing above 1 hour clamped into
 * it, the range its midpoint is taken from. Buckets below 2 x SUB hold one
 * value; above, bucket = 128 s + m with m = v >> s in [128, 255]. */
static void nominal_range(unsigned bucket, uint64_t *lo_ns, uint64_t *hi_ns)
{
	unsigned s;
	uint64_t m;

	if (bucket < 2 * SUB) {
		*lo_ns = *hi_ns = bucket;
		return;
	}
	s = (bucket >> PFS_HIST_SUB_BITS) - 1;
	m = (bucket & (SUB - 1)) + SUB;
	*lo_ns = m << s;
	*hi_ns = ((m + 1) << s) - 1;
}

void pfs_hist_bucket_range(unsigned bucket, uint64_t *lo_ns, uint64_t *hi_ns)
{
	if (bucket >= PFS_HIST_BUCKETS) {
		*lo_ns = UINT64_MAX;
		*hi_ns = 0;
		return;
	}
	nominal_range(bucket, lo_ns, hi_ns);
	if (bucket == LAST)
		*hi_ns = UINT64_MAX;
}

void pfs_hist_merge(struct pfs_hist *into, const struct pfs_hist *from)
{
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++)
		into->counts[b] += from->counts[b];
	into->n += from->n;
	if (from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
}

/* A sample's estimate: its bucket's midpoint, at most half a bucket
 * (2^(s-1)) from it, while the bucket starts at 128 x 2^s or more; so the
 * error is at most 1/256 of the sample, and none below 256 ns where
 * buckets hold one value. min and max are true samples, so clamping only
 * brings the estimate closer. */
static uint64_t estimate(const struct pfs_hist *h, unsigned bucket)
{
	uint64_t lo, hi, mid;

	nominal_range(bucket, &lo, &hi);
	mid = lo + (hi - lo) / 2;
	return mid < h->min_ns ? h->min_ns : mid > h->max_ns ? h->max_ns : mid;
}

/* Nearest rank: ceil(p/100 x n), at least 1. p x n / 100 is rounded three
 * times (p's decimal, the product, the quotient), so an exact integer rank
 * can arrive a few ulps above it and ceil would go one too far: a result
 * within 4 ulps of an integer is that integer. For p of up to 3 decimals a
 * true fraction is at least 1e-5 from an integer, so that is exact for
 * n up to about 1e10. */
static uint64_t nearest_rank(uint64_t n, double p)
{
	double x;
	uint64_t whole;

	if (!(p > 0)) /* also NaN */
		return 1;
	if (p >= 100)
		return n;
	x = p * (double)n / 100;
	whole = (uint64_t)x;
	if (x - (double)whole > x * 4 * DBL_EPSILON)
		whole++;
	return whole < 1 ? 1 : whole > n ? n : whole;
}

uint64_t pfs_hist_percentile(const struct pfs_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	rank = nearest_rank(h->n, p);
	if (rank == 1)
		return h->min_ns;
	if (rank == h->n)
		return h->max_ns;
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++) {
		seen += h->counts[b];
		if (seen >= rank)
			return estimate(h, b);
	}
	return h->max_ns; /* counts short of n: not from pfs_hist_add or add_cell */
}

double pfs_hist_mean(const struct pfs_hist *h)
{
	long double sum = 0;

	if (!h->n)
		return 0;
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++)
		if (h->counts[b])
			sum += (long double)h->counts[b] * (long double)estimate(h, b);
	return (double)(sum / (long double)h->n);
}

size_t pfs_hist_cells(const struct pfs_hist *h, struct pfs_hist_cell *out, size_t cap)
{
	size_t k = 0;

	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++) {
		if (!h->counts[b])
			continue;
		if (k < cap) {
			out[k].bucket = b;
			out[k].count = h->counts[b];
		}
		k++;
	}
	return k;
}

int pfs_hist_add_cell(struct pfs_hist *h, uint32_t bucket, uint64_t count)
{
	if (bucket >= PFS_HIST_BUCKETS || count > UINT64_MAX - h->n ||
	    count > UINT64_MAX - h->counts[bucket])
		return -EINVAL;
	h->counts[bucket] += count;
	h->n += count;
	return 0;
}

int pfs_hist_set_extremes(struct pfs_hist *h, uint64_t min_ns, uint64_t max_ns)
{
	unsigned lowest = 0, highest = LAST;

	if (!h->n)
		return min_ns == UINT64_MAX && max_ns == 0 ? 0 : -EINVAL;
	if (min_ns > max_ns)
		return -EINVAL;
	while (lowest < LAST && !h->counts[lowest])
		lowest++;
	while (highest > 0 && !h->counts[highest])
		highest--;
	if (!h->counts[lowest] || pfs_hist_bucket(min_ns) != lowest || pfs_hist_bucket(max_ns) != highest)
		return -EINVAL;
	h->min_ns = min_ns;
	h->max_ns = max_ns;
	return 0;
}
