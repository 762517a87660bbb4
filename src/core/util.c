/* util.c: the error printer, number parsing, sorting and the median, the
 * clock, reading a text file. */
#include "pfsbench/core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Where messages go: stderr unless a run in-process (pfs_engine_run) was
 * handed a stream of its own. One stream for the process, as there is one
 * stderr: a run sets it at its start and puts the old one back at its end. */
static FILE *messages;

FILE *pfs_messages_to(FILE *fp)
{
	FILE *old = messages ? messages : stderr;

	messages = fp;
	return old;
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char line[1024], safe[PFS_PRINTABLE_SIZE(sizeof(line))];

	vsnprintf(line, sizeof(line), fmt, ap);
	/* A message names nodes, paths and values from files and the
	 * environment, and is one line: none of them may end it early or
	 * talk to the terminal (git's usage.c cleans every message too). One
	 * write, so lines of different ranks do not interleave mid-line. */
	fprintf(messages ? messages : stderr, "pfsbench: %s%s\n", prefix,
		pfs_printable(safe, sizeof(safe), line));
}

void pfs_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

int pfs_size_cmp(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return (a > b) - (a < b);
}

size_t pfs_size_rank(const size_t *vals, size_t n, size_t v)
{
	const size_t *hit = n ? bsearch(&v, vals, n, sizeof(*vals), pfs_size_cmp) : NULL;

	return hit ? (size_t)(hit - vals) : n;
}

int pfs_double_cmp(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

int pfs_membuf_open(struct pfs_membuf *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	return m->fp ? 0 : -ENOMEM;
}

int pfs_membuf_close(struct pfs_membuf *m)
{
	int bad = ferror(m->fp);

	if (fclose(m->fp) || bad) {
		free(m->buf);
		m->buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

double pfs_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), pfs_double_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

size_t pfs_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0; /* a continuation byte, C0/C1 overlong leads, past U+10FFFF */
	/* The second byte's range shuts out overlong forms (E0, F0),
	 * surrogates (ED) and code points past U+10FFFF (F4): RFC 3629. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

bool pfs_utf8_moves_text(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	if (n == 2)
		return s[0] == 0xd8 && s[1] == 0x9c;
	if (n != 3 || s[0] != 0xe2)
		return false;
	if (s[1] == 0x80)
		return s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xa8 && s[2] <= 0xae);
	return s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9;
}

bool pfs_utf8_is_c1(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

const char *pfs_printable(char *buf, size_t len, const char *str)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t used = 0;

	if (!len)
		return "";
	while (*s) {
		size_t n = pfs_utf8_len((const char *)s);
		/* Bytes to escape: a control, DEL, the backslash, a byte of no
		 * valid sequence, the two bytes of a C1 control in UTF-8, or
		 * the bytes of a character that moves text. */
		size_t esc = *s < 0x20 || *s == 0x7f || *s == '\\' ? 1
			     : !n				     ? 1
			     : pfs_utf8_is_c1((const char *)s, n) ? 2
			     : pfs_utf8_moves_text((const char *)s, n) ? n
								     : 0;
		size_t out = esc ? 4 * esc : n;

		if (used + out >= len)
			break;
		if (!esc)
			memcpy(buf + used, s, n);
		for (size_t i = 0; i < esc; i++) {
			buf[used + 4 * i] = '\\';
			buf[used + 4 * i + 1] = 'x';
			buf[used + 4 * i + 2] = hex[s[i] >> 4];
			buf[used + 4 * i + 3] = hex[s[i] & 15];
		}
		used += out;
		s += esc ? esc : n;
	}
	buf[used] = 0;
	return buf;
}

uint64_t pfs_u64_sat(double v)
{
	return v >= 0x1p64 ? UINT64_MAX : v > 0 ? (uint64_t)v : 0;
}

int pfs_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void pfs_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

int pfs_format(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int pfs_refuse(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		(void)vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int pfs_path_dir(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return pfs_format(dir, len, ".");
	return pfs_format(dir, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

int pfs_shell_quote(char *buf, size_t len, const char *s)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_./-+:=,@%";
	size_t n = 0;

	if (*s && strspn(s, plain) == strlen(s))
		return pfs_format(buf, len, "%s", s);
	if (len < 3)
		return -ENAMETOOLONG;
	buf[n++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t plen = piece ? 4 : 1;

		if (n + plen + 2 > len)
			return -ENAMETOOLONG;
		if (piece)
			memcpy(buf + n, piece, plen);
		else
			buf[n] = *s;
		n += plen;
	}
	buf[n++] = '\'';
	buf[n] = 0;
	return 0;
}

/* Parses the leading digits of s; *end points past them. */
static int parse_digits(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	*end = p;
	return 0;
}

int pfs_parse_u64(const char *s, uint64_t *out)
{
	const char *end;
	int rc;

	if (!s)
		return -EINVAL;
	rc = parse_digits(s, out, &end);
	if (rc)
		return rc;
	return *end ? -EINVAL : 0;
}

size_t pfs_env_count(const char *name, size_t dflt)
{
	const char *env = getenv(name);
	uint64_t n;

	if (!env || pfs_parse_u64(env, &n) || n == 0 || n > SIZE_MAX)
		return dflt;
	return (size_t)n;
}

int pfs_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "kmgt";
	const char *end, *u;
	uint64_t v, mult = 1;
	int rc;

	if (!s)
		return -EINVAL;
	rc = parse_digits(s, &v, &end);
	if (rc)
		return rc;
	if (*end) {
		u = strchr(units, end[0] | 0x20);
		if (!u)
			return -EINVAL;
		for (long i = 0; i <= u - units; i++)
			mult *= 1024;
		end++;
		if ((end[0] == 'i' && end[1] == 'B' && !end[2]) || (end[0] == 'B' && !end[1]))
			end += strlen(end);
		if (*end)
			return -EINVAL;
	}
	return pfs_mul_u64(v, mult, out);
}

int pfs_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return -ERANGE;
	*out = a * b;
	return 0;
}

static char *pattern_fill(char *buf, size_t len)
{
	for (size_t i = 0; buf && i < len; i++)
		buf[i] = (char)(i * 131 + 7);
	return buf;
}

char *pfs_pattern_alloc(size_t len)
{
	return pattern_fill(malloc(len ? len : 1), len);
}

char *pfs_pattern_alloc_aligned(size_t len, size_t align)
{
	void *buf = NULL;

	if (posix_memalign(&buf, align, len ? len : 1))
		return NULL;
	return pattern_fill(buf, len);
}

uint64_t pfs_mul_sat_u64(uint64_t a, uint64_t b)
{
	uint64_t v;

	return pfs_mul_u64(a, b, &v) ? UINT64_MAX : v;
}

uint64_t pfs_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

FILE *pfs_fopen_regular(const char *path, off_t *size)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err;
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb))
		err = errno;
	else if (!S_ISREG(sb.st_mode))
		err = EINVAL;
	else if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK))
		err = errno;
	else
		err = 0;
	if (err) {
		close(fd);
		errno = err;
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
		return NULL;
	}
	if (size)
		*size = sb.st_size;
	return f;
}

const char *pfs_strerror_regular(int err)
{
	return err == EINVAL ? "not a regular file" : strerror(err);
}

int pfs_read_text(const char *path, char **out)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	int rc = 0;

	*out = NULL;
	if (!f)
		return -errno;
	do {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				rc = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n);
	if (!rc && ferror(f))
		rc = -EIO;
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[len] = 0;
	*out = buf;
	return 0;
}

const char *pfs_errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "unknown errno";
}
