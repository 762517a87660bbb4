/* fioterse.c: fio's terse line, version 3 (include/pfsbench/formats/
 * fioterse.h). The layout and every printf format are fio 3.33's
 * (stat.c: show_thread_status_terse_all, show_ddir_status_terse; the
 * latency buckets of io_u.c: io_u_mark_lat_usec, io_u_mark_lat_msec);
 * docs/formats.md says which fields pfsbench fills and how. */
#include "pfsbench/formats/fioterse.h"
#include "pfsbench/core/histogram.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* fio's default percentile list, then 0 for the unused slots of its 20. */
static const double percentiles[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90,
				      95, 99, 99.5, 99.9, 99.95, 99.99 };
#define LIST_MAX 20

/* The lower bounds, in microseconds, of fio's latency buckets: the first
 * ten (io_u_lat_u, ns included in the first), then twelve in ms. */
static const uint64_t lat_u_us[10] = { 0, 2, 4, 10, 20, 50, 100, 250, 500, 750 };
static const uint64_t lat_m_ms[12] = { 0, 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000 };

struct out {
	char *buf;
	size_t len, used;
	bool full;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used)
		o->full = true;
	else
		o->used += (size_t)n;
}

/* A bucket's value: its midpoint clamped to [min, max], as pfs_hist_mean
 * takes it. */
static double bucket_value(const struct pfs_hist *h, unsigned b)
{
	uint64_t lo, hi;
	double v;

	pfs_hist_bucket_range(b, &lo, &hi);
	if (hi == UINT64_MAX)
		hi = lo;
	v = ((double)lo + (double)hi) / 2;
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return v;
}

/* The standard deviation (fio's: of n - 1) of the histogram's values. */
static double hist_stddev(const struct pfs_hist *h)
{
	double mean = pfs_hist_mean(h), m2 = 0;

	if (h->n < 2)
		return 0;
	for (unsigned b = 0; b < PFS_HIST_BUCKETS; b++)
		if (h->counts[b]) {
			double d = bucket_value(h, b) - mean;

			m2 += d * d * (double)h->counts[b];
		}
	return sqrt(m2 / (double)(h->n - 1));
}

/* fio's ";min;max;mean;dev" of a latency, in us. */
static void put_lat(struct out *o, const struct pfs_hist *h)
{
	if (!h || !h->n) {
		put(o, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
		return;
	}
	put(o, ";%llu;%llu;%f;%f", (unsigned long long)(h->min_ns / 1000),
	    (unsigned long long)(h->max_ns / 1000), pfs_hist_mean(h) / 1000,
	    hist_stddev(h) / 1000);
}

/* One direction's 41 fields; h is NULL for the direction not moved. */
static void put_ddir(struct out *o, const struct pfs_fioterse *t, bool moved)
{
	const struct pfs_hist *h = moved ? t->lat : NULL;
	uint64_t runt = moved ? t->elapsed_us / 1000 : 0, bytes = moved ? t->bytes : 0;
	uint64_t bw = 0, iops = 0;

	if (runt) {
		bw = ((1000 * bytes) / runt) / 1024;
		iops = (1000 * t->ios) / runt;
	}
	put(o, ";%llu;%llu;%llu;%llu", (unsigned long long)(bytes >> 10), (unsigned long long)bw,
	    (unsigned long long)iops, (unsigned long long)runt);
	/* No submission latency: pfsbench times a request as one span. */
	put(o, ";%llu;%llu;%f;%f", 0ULL, 0ULL, 0.0, 0.0);
	put_lat(o, h);
	for (size_t i = 0; i < LIST_MAX; i++) {
		if (i >= sizeof(percentiles) / sizeof(percentiles[0])) {
			put(o, ";0%%=0");
			continue;
		}
		put(o, ";%f%%=%llu", percentiles[i],
		    (unsigned long long)(h && h->n ? pfs_hist_percentile(h, percentiles[i]) / 1000
						   : 0));
	}
	put_lat(o, h);
	/* No bandwidth samples (fio's bw log of every 500 ms). */
	put(o, ";%llu;%llu;%f%%;%f;%f", 0ULL, 0ULL, 0.0, 0.0, 0.0);
}

/* fio's stat_calc_lat: a count as a percentage of all, at least 0.01 when
 * there is any. */
static double share(uint64_t count, uint64_t total)
{
	double v;

	if (!total)
		return 0;
	v = (double)count / (double)total * 100.0;
	return v < 0.01 && count ? 0.01 : v;
}

/* The 22 latency buckets: each histogram bucket counts where its lowest
 * value falls (the histogram's buckets are within 1 % of a value). */
static void put_lat_dist(struct out *o, const struct pfs_fioterse *t)
{
	uint64_t u[10] = { 0 }, m[12] = { 0 }, total = 0;
	const struct pfs_hist *h = t->lat;

	for (unsigned b = 0; h && b < PFS_HIST_BUCKETS; b++) {
		uint64_t lo, hi, us;
		int i;

		if (!h->counts[b])
			continue;
		pfs_hist_bucket_range(b, &lo, &hi);
		us = lo / 1000;
		total += h->counts[b];
		if (us < 1000) {
			for (i = 9; i > 0 && us < lat_u_us[i]; i--)
				;
			u[i] += h->counts[b];
		} else {
			for (i = 11; i > 0 && us / 1000 < lat_m_ms[i]; i--)
				;
			m[i] += h->counts[b];
		}
	}
	for (int i = 0; i < 10; i++)
		put(o, ";%3.2f%%", share(u[i], total));
	for (int i = 0; i < 12; i++)
		put(o, ";%3.2f%%", share(m[i], total));
}

int pfs_fioterse_format(char *buf, size_t len, const struct pfs_fioterse *t)
{
	struct out o = { buf, len, 0, false };
	/* fio's io_u_map: depths 1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 */
	unsigned slot = 0;

	for (uint64_t d = t->depth; d > 1 && slot < 6; d >>= 1)
		slot++;
	if (!len)
		return -ENAMETOOLONG;
	buf[0] = 0;
	put(&o, "%d;%s;%s;%d;%d", 3, t->version, t->jobname, 0, 0);
	put_ddir(&o, t, !t->write);
	put_ddir(&o, t, t->write);
	/* CPU: pfsbench keeps user + system as one: all of it under usr. */
	put(&o, ";%f%%;%f%%;%llu;%llu;%llu",
	    t->elapsed_us ? (double)t->cpu_us * 100 / (double)t->elapsed_us : 0.0, 0.0, 0ULL, 0ULL,
	    0ULL);
	for (unsigned i = 0; i < 7; i++)
		put(&o, ";%3.1f%%", i == slot && t->ios ? 100.0 : 0.0);
	put_lat_dist(&o, t);
	put(&o, "\n");
	return o.full ? -ENAMETOOLONG : 0;
}
