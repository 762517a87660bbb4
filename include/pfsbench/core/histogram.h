/* histogram.h: latency histograms. A log-linear (HDR-style) count of
 * nanosecond latencies in bounded memory, about 1 % relative precision from
 * 100 ns to 1 hour, exact min and max; nearest-rank percentiles, merging,
 * and a sparse form for transport and storage. Pure: no MPI, no HDF5, no
 * I/O, no global state. docs/histogram.md describes it for users. */
#ifndef PFSBENCH_HISTOGRAM_H
#define PFSBENCH_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

/* Layout. Values 0..255 ns have one bucket each: bucket = value (0..127
 * are below the first power of two that is split; 128..255 is that power
 * of two split into 128 buckets of 1 ns). Above, each power of two
 * [2^e, 2^(e+1)), e >= 8, is split into 128 buckets of width 2^(e-7), so a
 * bucket is never wider than 1/128 of its lowest value. Both are one
 * formula: s = max(0, floor(log2 v) - 7), bucket = 128 s + (v >> s).
 * Values from PFS_HIST_LIMIT_NS up count in the bucket of
 * PFS_HIST_LIMIT_NS, the last one. */
#define PFS_HIST_SUB_BITS 7
#define PFS_HIST_LIMIT_NS UINT64_C(3600000000000) /* 1 hour */
/* 1 hour is 209.5 x 2^34 ns, e = 41, s = 34: its bucket is
 * 128 x 34 + 209 = 4561 (histogram.c checks this at compile time). */
#define PFS_HIST_BUCKETS 4562

/* One histogram: 36,520 bytes. n is the sum of counts. While n == 0,
 * min_ns is UINT64_MAX and max_ns 0, so merging needs no special case.
 * There is no sum: pfs_hist_mean estimates the mean from the buckets.
 * No padding: two histograms with the same samples are equal by memcmp. */
struct pfs_hist {
	uint64_t n;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t counts[PFS_HIST_BUCKETS];
};

/* An empty histogram. */
void pfs_hist_init(struct pfs_hist *h);

/* The bucket of a latency. Branch-free: it runs once per op in the op
 * loops. v | 128 keeps clz defined for 0 and makes s 0 below 256; the
 * compare becomes a conditional move. */
static inline unsigned pfs_hist_bucket(uint64_t ns)
{
	uint64_t v = ns < PFS_HIST_LIMIT_NS ? ns : PFS_HIST_LIMIT_NS;
	unsigned s = 56u - (unsigned)__builtin_clzll(v | (1u << PFS_HIST_SUB_BITS));

	return (s << PFS_HIST_SUB_BITS) + (unsigned)(v >> s);
}

/* Counts one latency. min and max are exact whatever the bucket. */
static inline void pfs_hist_add(struct pfs_hist *h, uint64_t ns)
{
	h->counts[pfs_hist_bucket(ns)]++;
	h->n++;
	h->min_ns = ns < h->min_ns ? ns : h->min_ns;
	h->max_ns = ns > h->max_ns ? ns : h->max_ns;
}

/* The inclusive range [*lo_ns, *hi_ns] of the values that land in bucket;
 * the last bucket's *hi_ns is UINT64_MAX, since everything above 1 hour
 * lands there. A bucket >= PFS_HIST_BUCKETS gives the empty range
 * [UINT64_MAX, 0]. */
void pfs_hist_bucket_range(unsigned bucket, uint64_t *lo_ns, uint64_t *hi_ns);

/* into += from: counts and n summed, min of the mins, max of the maxes.
 * The result equals the histogram of both sets of samples exactly. */
void pfs_hist_merge(struct pfs_hist *into, const struct pfs_hist *from);

/* The p-th percentile, p in [0, 100], by nearest rank: the value of the
 * ceil(p/100 x n)-th smallest sample (at least the 1st), so p = 0 gives
 * min and p = 100 max, exactly, as do all p whose rank is 1 or n. Other
 * ranks give the midpoint of the sample's bucket clamped to [min, max]:
 * within 1/256 (0.39 %) of the sample, or exact below 256 ns, for samples
 * under 1 hour; a sample beyond the last bucket's nominal top (2^34 x 210
 * ns, 60.1 min) is reported as a value between 59.98 min and max. 0 when
 * n == 0. p below 0 or NaN counts as 0, above 100 as 100. p x n / 100
 * within a few ulps of an integer counts as that integer, so decimal p
 * such as 99.9, which doubles cannot hold, give the decimal's rank. */
uint64_t pfs_hist_percentile(const struct pfs_hist *h, double p);

/* The mean, estimated as every sample at its bucket's midpoint clamped to
 * [min, max]: within 1/256 of the true mean for samples under 1 hour. 0
 * when n == 0. */
double pfs_hist_mean(const struct pfs_hist *h);

/* Sparse form: the nonzero buckets, in increasing bucket order. With
 * min_ns and max_ns, which the caller keeps beside them, they are the whole
 * histogram. */
struct pfs_hist_cell {
	uint32_t bucket;
	uint64_t count;
};

/* Writes the first min(cap, k) of h's k nonzero buckets to out and returns
 * k: a return above cap means out was too small (out may be NULL when cap
 * is 0, to size it). At most PFS_HIST_BUCKETS. */
size_t pfs_hist_cells(const struct pfs_hist *h, struct pfs_hist_cell *out, size_t cap);

/* Adds count samples to bucket, for rebuilding a histogram from cells,
 * which may come from a hostile file: 0, or -EINVAL (h unchanged) for a
 * bucket >= PFS_HIST_BUCKETS or when the bucket's count or n would pass
 * UINT64_MAX. A count of 0 changes nothing. */
int pfs_hist_add_cell(struct pfs_hist *h, uint32_t bucket, uint64_t count);

/* Restores min and max after the cells were added: 0, or -EINVAL (h
 * unchanged) unless min_ns <= max_ns, min_ns lies in the lowest nonzero
 * bucket and max_ns in the highest. An empty histogram accepts only the
 * values pfs_hist_init leaves, UINT64_MAX and 0. */
int pfs_hist_set_extremes(struct pfs_hist *h, uint64_t min_ns, uint64_t max_ns);

#endif
