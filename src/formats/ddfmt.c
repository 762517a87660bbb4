/* ddfmt.c: the summary lines of DRBD's dm, GNU coreutils 9.1 dd and
 * lmbench's lmdd, computed with each tool's own arithmetic so that the same
 * bytes and time give the same characters; and dm's number parser. The
 * rules, and the functions they were read in, are in docs/formats.md. */
#include "pfsbench/formats/ddfmt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#define NS_PER_S 1000000000u
#define US_PER_S 1000000u

/* ---- dm ------------------------------------------------------------------ */

int pfs_ddfmt_format_dm(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_us)
{
	/* dm splits gettimeofday's difference into seconds and microseconds
	 * and prints the seconds as minutes:seconds, so the minutes grow past
	 * an hour. rate = bytes / 2^20 / seconds, in doubles, as dm. A zero
	 * time divides by zero as dm does: "inf", or the platform's NaN for
	 * no bytes. */
	int64_t sec = (int64_t)(elapsed_us / US_PER_S);
	int64_t usec = (int64_t)(elapsed_us % US_PER_S);
	double mibps = ((double)bytes / (1 << 20)) / ((double)sec + (double)usec / US_PER_S);

	return pfs_format(buf, len, "%.2f MB/sec (%" PRIu64 " B / %02" PRId64 ":%02" PRId64
			  ".%06" PRId64 ")\n",
			  mibps, bytes, sec / 60, sec % 60, usec);
}

/* A printable excerpt of hostile input for a message: at most 40 bytes,
 * anything outside printable ASCII as '?', "..." when cut. */
static void excerpt(const char *s, char *out, size_t outlen)
{
	enum { KEEP = 40 };
	size_t i;

	for (i = 0; s[i] && i < KEEP && i + 4 < outlen; i++)
		out[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (s[i] && i + 4 <= outlen) {
		memcpy(out + i, "...", 3);
		i += 3;
	}
	out[i] = '\0';
}

static int dm_number_error(int rc, const char *s, char *err, size_t errlen)
{
	char shown[48];

	if (err && errlen) {
		excerpt(s, shown, sizeof(shown));
		/* A cut message still says what failed. */
		(void)pfs_format(err, errlen, "%s is %s", shown,
				 rc == -ERANGE ? "out of range" : "not a valid number");
	}
	return rc;
}

static unsigned digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return (unsigned)(c - '0');
	if (c >= 'a' && c <= 'f')
		return (unsigned)(c - 'a') + 10;
	if (c >= 'A' && c <= 'F')
		return (unsigned)(c - 'A') + 10;
	return 99;
}

int pfs_ddfmt_parse_dm_number(const char *s, uint64_t *out, char *err, size_t errlen)
{
	/* dm reads a number with strtol(s, &end, 0), so 0x is hex and a
	 * leading 0 octal, then looks at the one character after it. */
	const char *p = s;
	unsigned base = 10, shift, d;
	uint64_t v = 0;
	bool digits = false, too_big = false;

	if (!s)
		return dm_number_error(-EINVAL, "(null)", err, errlen);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0')
		base = 8; /* the 0 is itself an octal digit */
	for (; (d = digit_value(*p)) < base; p++) {
		digits = true;
		if (v > (uint64_t)(INT64_MAX - d) / base)
			too_big = true;
		else
			v = v * base + d;
	}
	switch (*p) {
	case '\0': shift = 0; break;
	case 's': case 'S': shift = 9; break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	default: return dm_number_error(-EINVAL, s, err, errlen);
	}
	/* dm ignores whatever follows the suffix ("4kb" is 4k); we refuse it. */
	if (!digits || (*p && p[1]))
		return dm_number_error(-EINVAL, s, err, errlen);
	if (too_big || v > ((uint64_t)INT64_MAX >> shift))
		return dm_number_error(-ERANGE, s, err, errlen);
	*out = v << shift;
	return 0;
}

/* ---- dd ------------------------------------------------------------------ */

/* dd prints sizes and rates with gnulib's human_readable() and the options
 * autoscale, round to nearest, a space before the unit, SI prefixes and a
 * B: "1.0 kB", "977 KiB", "41.9 MB". The value is n x from / to.
 * What follows keeps human_readable's two ways of getting there, since
 * they round and print differently: exactly, in integers, when from and to
 * divide one another (sizes, and rates over times that divide or are whole
 * multiples of a second), with one decimal under 10; else in long double
 * (every other rate), with one decimal under 100 and a unit of at least k:
 * 500 B/s prints "0.5 kB/s". */

#define HUMAN_EXPONENT_MAX 8 /* Y */

struct human {
	char num[48];  /* "1.0", "977", "0.3" */
	int exponent;  /* of base: 0 is plain bytes */
};

/* The exact way: amt plus tenths, with rounding saying what lies below the
 * tenths (0 nothing, 1 under half, 2 half, 3 over half), is scaled down by
 * base, carrying the rounding state, then rounded to nearest with ties to
 * even, as human_readable does. */
static int human_exact(struct human *h, uint64_t amt, unsigned tenths, unsigned rounding,
		       unsigned base)
{
	bool point = false;
	unsigned shown_tenths = 0;

	h->exponent = 0;
	if (amt >= base) {
		do {
			unsigned r10 = (unsigned)(amt % base) * 10 + tenths;
			unsigned r2 = (r10 % base) * 2 + (rounding >> 1);

			amt /= base;
			tenths = r10 / base;
			rounding = r2 < base ? (r2 + rounding != 0) : 2 + (base < r2 + rounding);
			h->exponent++;
		} while (amt >= base && h->exponent < HUMAN_EXPONENT_MAX);
		if (amt < 10) {
			if (rounding + (tenths & 1) > 2) {
				tenths++;
				rounding = 0;
				if (tenths == 10) {
					amt++;
					tenths = 0;
				}
			}
			if (amt < 10) {
				point = true;
				shown_tenths = tenths;
				tenths = rounding = 0;
			}
		}
	}
	if (tenths + (rounding + (amt & 1) > 0) > 5) {
		amt++;
		if (amt == base && h->exponent < HUMAN_EXPONENT_MAX) {
			/* 999.5 kB is 1.0 MB */
			h->exponent++;
			amt = 1;
			point = true;
			shown_tenths = 0;
		}
	}
	if (point)
		return pfs_format(h->num, sizeof(h->num), "%" PRIu64 ".%u", amt, shown_tenths);
	return pfs_format(h->num, sizeof(h->num), "%" PRIu64, amt);
}

/* The long double way: the unit is the largest power of base, from base
 * itself up, that is not over the value; one decimal, unless that makes
 * more than four characters (three with base 1024), then none. */
static int human_float(struct human *h, uint64_t n, uint64_t from, uint64_t to, unsigned base)
{
	long double amt = (long double)n * ((long double)from / (long double)to);
	long double unit = 1;
	int rc;

	h->exponent = 0;
	do {
		unit *= base;
		h->exponent++;
	} while (unit * base <= amt && h->exponent < HUMAN_EXPONENT_MAX);
	amt /= unit;
	rc = pfs_format(h->num, sizeof(h->num), "%.1Lf", amt);
	if (!rc && strlen(h->num) > 3u + (base != 1024))
		rc = pfs_format(h->num, sizeof(h->num), "%.0Lf", amt * 10 / 10);
	return rc;
}

/* n x from / to bytes in base 1000 or 1024, with its unit: "1.0 MiB". */
static int human_bytes(char *out, size_t outlen, int *exponent, uint64_t n, uint64_t from,
		       uint64_t to, unsigned base)
{
	static const char letters[] = "\0KMGTPEZY";
	struct human h;
	int rc;

	if (to <= from && from % to == 0 && n <= UINT64_MAX / (from / to)) {
		rc = human_exact(&h, n * (from / to), 0, 0, base);
	} else if (to > from && from != 0 && to % from == 0) {
		uint64_t divisor = to / from;
		uint64_t r10 = (n % divisor) * 10;
		uint64_t r2 = (r10 % divisor) * 2;

		rc = human_exact(&h, n / divisor, (unsigned)(r10 / divisor),
				 r2 < divisor ? (r2 > 0) : 2 + (divisor < r2), base);
	} else {
		rc = human_float(&h, n, from, to, base);
	}
	if (rc)
		return rc;
	*exponent = h.exponent;
	if (!h.exponent)
		return pfs_format(out, outlen, "%s B", h.num);
	return pfs_format(out, outlen, "%s %c%sB", h.num,
			  base == 1000 && h.exponent == 1 ? 'k' : letters[h.exponent],
			  base == 1024 ? "i" : "");
}

int pfs_ddfmt_format_dd_records(char *buf, size_t len, const struct pfs_ddfmt_records *r)
{
	size_t used;
	int rc;

	if (r->in_full > INT64_MAX || r->in_partial > INT64_MAX || r->out_full > INT64_MAX ||
	    r->out_partial > INT64_MAX || r->truncated > INT64_MAX)
		return -ERANGE;
	rc = pfs_format(buf, len, "%" PRIu64 "+%" PRIu64 " records in\n%" PRIu64 "+%" PRIu64
			" records out\n",
			r->in_full, r->in_partial, r->out_full, r->out_partial);
	if (rc || !r->truncated)
		return rc;
	used = strlen(buf);
	return pfs_format(buf + used, len - used, "%" PRIu64 " truncated record%s\n",
			  r->truncated, r->truncated == 1 ? "" : "s");
}

int pfs_ddfmt_format_dd_copied(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_ns)
{
	char si[32], iec[32], rate[32], secs[32];
	int si_exp, iec_exp, rate_exp, rc;

	if (bytes > INT64_MAX || elapsed_ns > INT64_MAX)
		return -ERANGE;
	rc = human_bytes(si, sizeof(si), &si_exp, bytes, 1, 1, 1000);
	if (!rc)
		rc = human_bytes(iec, sizeof(iec), &iec_exp, bytes, 1, 1, 1024);
	/* rate = bytes x 10^9 / ns, scaled as the sizes are; a zero time is
	 * dd's start and end readings being equal */
	if (!rc && elapsed_ns)
		rc = human_bytes(rate, sizeof(rate), &rate_exp, bytes, NS_PER_S, elapsed_ns, 1000);
	else if (!rc)
		rc = pfs_format(rate, sizeof(rate), "Infinity B");
	/* %g: six significant digits, so long runs may print 1.5e+06 s */
	if (!rc)
		rc = pfs_format(secs, sizeof(secs), "%g s", (double)(int64_t)elapsed_ns / NS_PER_S);
	if (rc)
		return rc;
	if (!si_exp)
		return pfs_format(buf, len, "%" PRIu64 " %s copied, %s, %s/s\n", bytes,
				  bytes == 1 ? "byte" : "bytes", secs, rate);
	if (!iec_exp)
		return pfs_format(buf, len, "%" PRIu64 " bytes (%s) copied, %s, %s/s\n", bytes, si,
				  secs, rate);
	return pfs_format(buf, len, "%" PRIu64 " bytes (%s, %s) copied, %s, %s/s\n", bytes, si, iec,
			  secs, rate);
}

/* ---- lmdd ---------------------------------------------------------------- */

int pfs_ddfmt_format_lmdd(char *buf, size_t len, uint64_t bytes, uint64_t elapsed_us)
{
	/* lmbench's bandwidth(): the time is rebuilt from gettimeofday's
	 * seconds and microseconds in doubles, MB = 10^6 bytes ("bandwidths
	 * are all power of ten"), rate = MB / seconds. A zero time divides by
	 * zero as lmdd does. */
	double secs = (double)(elapsed_us / US_PER_S);
	double mb = (double)bytes / (1000 * 1000.0);

	secs *= US_PER_S;
	secs += (double)(elapsed_us % US_PER_S);
	secs /= US_PER_S;
	return pfs_format(buf, len, "%.4f MB in %.4f secs, %.4f MB/sec\n", mb, secs, mb / secs);
}
