/* util.h: small helpers every module uses: the error printer, number and
 * size parsing, the monotonic clock, checked formatting. No MPI here. */
#ifndef PFSBENCH_UTIL_H
#define PFSBENCH_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* Exit statuses of the program, documented in pfsbench.1. */
enum {
	PFS_EXIT_OK = 0,
	PFS_EXIT_FAILED = 1, /* a run started and failed, or a command failed */
	PFS_EXIT_USAGE = 2,  /* bad input or a refused plan: nothing was created */
};

/* A number macro as a string, so a help text can say it without writing
 * it again: PFS_STRINGIFY(PFS_SHOW_ROWS_MAX) is "10000". */
#define PFS_STRINGIFY_(x) #x
#define PFS_STRINGIFY(x) PFS_STRINGIFY_(x)

/* Prints "pfsbench: <message>" to stderr and returns -1, so that a failure
 * path reads `return pfs_error(...)`. */
int pfs_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pfs_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Sends pfs_error's and pfs_warn's messages to fp from now on (NULL:
 * stderr) and returns where they went before, to be put back. */
FILE *pfs_messages_to(FILE *fp);

/* qsort, and nothing for n == 0: an empty list's array is often NULL, and
 * qsort's may not be even then (C11 7.22.5; UBSan says so). */
void pfs_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* The order of size_t values, for pfs_sort; and the position of v among
 * the n sorted distinct vals, n when it is not there. */
int pfs_size_cmp(const void *a, const void *b);
size_t pfs_size_rank(const size_t *vals, size_t n, size_t v);

/* The order of doubles, for pfs_sort (NaN, which no reader sorts, equals
 * everything). */
int pfs_double_cmp(const void *a, const void *b);

/* The median of v[0..n-1]: the middle value, or the mean of the two middle
 * values when n is even. Sorts v in place. NAN when n is 0. Here, not
 * with the other statistics (analysis/robust.h), so that the plans'
 * judges can reach it. */
double pfs_median(double *v, size_t n);

/* A double as uint64_t, saturated: UINT64_MAX from 2^64 on, 0 for
 * negatives and NaN. A median of a damaged file's times reaches 2^64,
 * which a plain cast may not take (UBSan says so). */
uint64_t pfs_u64_sat(double v);

/* snprintf that reports truncation: 0 when it fit, -ENAMETOOLONG when not. */
int pfs_format(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A refusal's reason into err (cut when long: a cut message is still
 * one), then rc, so that a check reads
 * `return pfs_refuse(err, errlen, -EINVAL, "...", ...)`. */
int pfs_refuse(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Room for a refusal's reason (a plan's, a file's: one line), and for a
 * command line's, which quotes the option and its value. */
#define PFS_REFUSAL_MAX 256
#define PFS_USAGE_MAX 512

/* The directory part of path into dir, as dirname(3) says it but without
 * touching path: "a" is ".", "/a" is "/", "a/b/c" is "a/b". 0, or
 * -ENAMETOOLONG. */
int pfs_path_dir(const char *path, char *dir, size_t len);

/* Copies s into buf as one shell word: unchanged when it holds only
 * characters no shell treats specially, else in single quotes (a quote
 * inside becomes '\''), so a printed command can be pasted. Returns 0 or
 * -ENAMETOOLONG. */
int pfs_shell_quote(char *buf, size_t len, const char *s);

/* The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the
 * bytes there are none: a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, or cut short. An ASCII byte, NUL too, is 1. */
size_t pfs_utf8_len(const char *s);

/* Room for pfs_printable of a string of n bytes: each byte may become a
 * four-character escape. */
#define PFS_PRINTABLE_SIZE(n) (4 * (size_t)(n) + 1)

/* Whether the valid UTF-8 sequence str of n bytes (pfs_utf8_len) is a
 * character that moves what a terminal or an editor shows without being a
 * control: the line and paragraph separators U+2028-2029 (a new line to
 * JavaScript and some viewers), and the bidirectional marks, embeddings,
 * overrides and isolates (U+061C, U+200E-200F, U+202A-202E, U+2066-2069)
 * that reorder the rest of a line (CVE-2021-42574, "Trojan Source"). */
bool pfs_utf8_moves_text(const char *str, size_t n);

/* Whether the valid UTF-8 sequence str of n bytes is a C1 control
 * (U+0080 to U+009F): a control as much as its raw byte, which some
 * terminals obey. */
bool pfs_utf8_is_c1(const char *str, size_t n);

/* Text that came from a file or the environment (a node name, a path, a
 * label), rendered into buf for a terminal, a message or a spreadsheet
 * cell: C0 controls (newline and tab too: a field stays on its line), DEL,
 * C1 controls both as raw bytes and as UTF-8 (U+0080 to U+009F), bytes
 * that are not valid UTF-8, and the backslash itself each become \xHH, one
 * escape per byte, so that the rendering is unambiguous; valid printable
 * UTF-8 is kept as it is, so ordinary names print byte for byte. What does
 * not fit in len is cut before a whole character or escape, never inside
 * one. Returns buf (always NUL-terminated; "" when len is 0). */
const char *pfs_printable(char *buf, size_t len, const char *s);

/* The symbolic name of an errno value ("ENOSPC"), for messages that must
 * name it beside strerror's words; "unknown errno" for none. */
const char *pfs_errno_name(int err);

/* Parses a whole decimal number; rejects signs, garbage and overflow.
 * Returns 0 or -EINVAL / -ERANGE. */
int pfs_parse_u64(const char *s, uint64_t *out);

/* The environment's name as a number from 1 up, or dflt without one
 * (anything else is ignored): a test's setting, such as
 * PFSBENCH_DEBUG_TIMELINE. */
size_t pfs_env_count(const char *name, size_t dflt);

/* Parses a byte size: a number with an optional binary suffix
 * k/K, m/M, g/G, t/T, optionally followed by "iB" or "B" (4m = 4MiB).
 * Returns 0 or -EINVAL / -ERANGE. */
int pfs_parse_size(const char *s, uint64_t *out);

/* Monotonic clock in microseconds (CLOCK_MONOTONIC). */
uint64_t pfs_now_us(void);

/* The same clock in nanoseconds, inline: it times single items. */
static inline uint64_t pfs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Multiplies with overflow detection: 0, or -ERANGE. */
int pfs_mul_u64(uint64_t a, uint64_t b, uint64_t *out);

/* a x b, or UINT64_MAX when that does not fit: for needs and totals that
 * only get compared or printed, where "too much" is the right answer. */
uint64_t pfs_mul_sat_u64(uint64_t a, uint64_t b);
/* a + b, or UINT64_MAX when that does not fit. */
static inline uint64_t pfs_add_sat_u64(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The whole of a text file, also one whose size stat does not know (proc,
 * sysfs, debugfs), NUL-terminated in *out (free() it). Returns 0 or -errno. */
int pfs_read_text(const char *path, char **out);

/* A file a user named, opened for reading only when it is a regular file:
 * a FIFO, a terminal or a device would block a reader or feed it without
 * end, so opening never waits and anything else fails with EINVAL
 * (pfs_strerror_regular names it). Returns the stream, or NULL and errno. */
FILE *pfs_fopen_regular(const char *path, off_t *size);

/* strerror(err), but "not a regular file" for pfs_fopen_regular's EINVAL. */
const char *pfs_strerror_regular(int err);

/* What is written through fp, kept in memory (open_memstream): the
 * scripts, pictures and texts built before they are placed. */
struct pfs_membuf {
	char *buf; /* the text, NUL-terminated, once pfs_membuf_close succeeded */
	size_t len;
	FILE *fp;
};

/* Opens m->fp. 0, or -ENOMEM. */
int pfs_membuf_open(struct pfs_membuf *m);

/* Closes m->fp: 0 with the text in m->buf (free() it), or -ENOMEM when a
 * write or the close failed, m->buf then freed and NULL. */
int pfs_membuf_close(struct pfs_membuf *m);

/* A buffer of len bytes (at least 1) of a fixed pattern for writing files:
 * not zeros, which some storage compresses or skips. NULL when out of
 * memory; free() it. */
char *pfs_pattern_alloc(size_t len);
/* The same, aligned to align (a power of two, for O_DIRECT). */
char *pfs_pattern_alloc_aligned(size_t len, size_t align);

#endif
