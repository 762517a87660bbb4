/* matrixfmt.c: perf_matrix.pl's matrix text (its lines, a labelled form,
 * its diff), the reader of its old outputs, a cell's rate and the outlier
 * rule. perf_matrix.pl itself is lost (the list archive scrubbed the
 * attachment), so its output rules come from the outputs in the seed and
 * the issue, and the outlier rule's details are decisions: docs/formats.md
 * says which is which. */
#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void pfs_matrixfmt_init_perf(struct pfs_matrix *m)
{
	memset(m, 0, sizeof(*m));
	m->rows = PFS_MATRIXFMT_PERF_ROWS;
	m->cols = PFS_MATRIXFMT_PERF_COLS;
	for (unsigned r = 0; r < m->rows; r++)
		m->xfer_bytes[r] = (uint64_t)1 << (20 + r);
	for (unsigned c = 0; c < m->cols; c++)
		m->req_bytes[c] = (uint64_t)1 << (10 + c);
}

int pfs_matrixfmt_cell_mibps(uint64_t req_bytes, uint64_t xfer_bytes, uint64_t moved_bytes,
			     uint64_t elapsed_ns, double *mibps)
{
	if (!req_bytes || !xfer_bytes)
		return -EINVAL;
	if (req_bytes > xfer_bytes) {
		*mibps = 0; /* not run: perf_matrix prints 0.00 */
		return 0;
	}
	if (!elapsed_ns)
		return -EINVAL;
	*mibps = ((double)moved_bytes / (1 << 20)) / ((double)elapsed_ns / 1e9);
	return 0;
}

int pfs_matrixfmt_average_runs(const double *mibps, size_t n, bool *kept,
			       struct pfs_matrixfmt_runs *out)
{
	double sum = 0, squares = 0, var, kept_sum = 0, largest = 0, slack;
	size_t nkept = 0;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(mibps[i]) || mibps[i] < 0)
			return -EINVAL;
		sum += mibps[i];
		largest = mibps[i] > largest ? mibps[i] : largest;
	}
	out->mean_all = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		squares += (mibps[i] - out->mean_all) * (mibps[i] - out->mean_all);
	var = squares / (double)n;
	out->stddev = sqrt(var);
	/* A repetition exactly one deviation away in exact arithmetic (both
	 * of two, always) is kept: the bound allows for the rounding of the
	 * mean, the deviation and the square root, at most a few n x epsilon
	 * x the largest value (some 1e-13 of it; nothing measured is that
	 * close by chance). Without it, one of two was discarded about half
	 * the time. */
	slack = 8.0 * (double)n * DBL_EPSILON * largest;
	for (size_t i = 0; i < n; i++) {
		double d = mibps[i] - out->mean_all;
		bool keep = fabs(d) <= out->stddev + slack;

		if (kept)
			kept[i] = keep;
		if (keep) {
			kept_sum += mibps[i];
			nkept++;
		}
	}
	if (!nkept) {
		for (size_t i = 0; kept && i < n; i++)
			kept[i] = true;
		kept_sum = sum;
		nkept = n;
	}
	out->mean_kept = kept_sum / (double)nkept;
	out->nkept = nkept;
	return 0;
}

static int check_matrix(const struct pfs_matrix *m)
{
	if (!m || !m->rows || !m->cols || m->rows > PFS_MATRIXFMT_MAX || m->cols > PFS_MATRIXFMT_MAX)
		return -EINVAL;
	for (unsigned r = 0; r < m->rows; r++)
		for (unsigned c = 0; c < m->cols; c++)
			if (!isfinite(m->mibps[r][c]) || m->mibps[r][c] < 0)
				return -EINVAL;
	return 0;
}

/* Flushed here, so that a full disk is reported by the call that wrote. */
static int finish(FILE *fp)
{
	return fflush(fp) || ferror(fp) ? -EIO : 0;
}

int pfs_matrixfmt_print(FILE *fp, const struct pfs_matrix *m)
{
	int rc = check_matrix(m);

	for (unsigned r = 0; !rc && r < m->rows; r++) {
		for (unsigned c = 0; c < m->cols; c++)
			fprintf(fp, " %.2f", m->mibps[r][c]);
		fputc('\n', fp);
	}
	return rc ? rc : finish(fp);
}

/* "1KiB", "4MiB", "1GiB"; a size that is no whole KiB in bytes: "1536B". */
static int size_label(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;

	while (bytes && bytes % 1024 == 0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bytes /= 1024;
		u++;
	}
	return pfs_format(buf, len, "%" PRIu64 "%s", bytes, units[u]);
}

enum { CELL_MAX = 48 };

/* A cell of the labelled matrix: its rate, or "-" where the request is
 * larger than the transfer, since that cell was never run. */
static int labelled_cell(char *buf, const struct pfs_matrix *m, unsigned r, unsigned c)
{
	if (m->req_bytes[c] > m->xfer_bytes[r])
		return pfs_format(buf, CELL_MAX, "-");
	return pfs_format(buf, CELL_MAX, "%.2f", m->mibps[r][c]);
}

int pfs_matrixfmt_print_labelled(FILE *fp, const struct pfs_matrix *m)
{
	return pfs_matrixfmt_print_titled(fp, m,
					  "MiB/s by transfer size (rows) and request size (columns)");
}

int pfs_matrixfmt_print_titled(FILE *fp, const struct pfs_matrix *m, const char *title)
{
	char label[CELL_MAX], cell[CELL_MAX];
	int width[PFS_MATRIXFMT_MAX], row_width = 0;
	int rc = check_matrix(m);

	if (rc)
		return rc;
	/* Every column as wide as its widest label or cell, right-aligned. */
	for (unsigned r = 0; r < m->rows; r++) {
		if ((rc = size_label(label, sizeof(label), m->xfer_bytes[r])))
			return rc;
		if ((int)strlen(label) > row_width)
			row_width = (int)strlen(label);
	}
	for (unsigned c = 0; c < m->cols; c++) {
		if ((rc = size_label(label, sizeof(label), m->req_bytes[c])))
			return rc;
		width[c] = (int)strlen(label);
		for (unsigned r = 0; r < m->rows; r++) {
			if ((rc = labelled_cell(cell, m, r, c)))
				return rc;
			if ((int)strlen(cell) > width[c])
				width[c] = (int)strlen(cell);
		}
	}
	fprintf(fp, "%s\n%*s", title, row_width, "");
	for (unsigned c = 0; c < m->cols; c++) {
		(void)size_label(label, sizeof(label), m->req_bytes[c]);
		fprintf(fp, "  %*s", width[c], label);
	}
	fputc('\n', fp);
	for (unsigned r = 0; r < m->rows; r++) {
		(void)size_label(label, sizeof(label), m->xfer_bytes[r]);
		fprintf(fp, "%*s", row_width, label);
		for (unsigned c = 0; c < m->cols; c++) {
			(void)labelled_cell(cell, m, r, c);
			fprintf(fp, "  %*s", width[c], cell);
		}
		fputc('\n', fp);
	}
	return finish(fp);
}

int pfs_matrixfmt_print_diff(FILE *fp, const struct pfs_matrix *a, const struct pfs_matrix *b)
{
	int rc = check_matrix(a);

	if (!rc)
		rc = check_matrix(b);
	if (!rc && (a->rows != b->rows || a->cols != b->cols))
		rc = -EINVAL;
	for (unsigned r = 0; !rc && r < a->rows; r++) {
		for (unsigned c = 0; c < a->cols; c++) {
			/* " %.2f%%" of any finite double fits: DBL_MAX has 309 digits */
			char cell[DBL_MAX_10_EXP + 16];

			(void)pfs_matrixfmt_diff_cell(cell, sizeof(cell), a->mibps[r][c], b->mibps[r][c]);
			fputs(cell, fp);
		}
		fputc('\n', fp);
	}
	return rc ? rc : finish(fp);
}

int pfs_matrixfmt_diff_cell(char *buf, size_t len, double a, double b)
{
	/* change = (after - before) / before x 100 */
	if (a == 0 || b == 0)
		return pfs_format(buf, len, " -.--%%");
	return pfs_format(buf, len, " %.2f%%", (b - a) / a * 100);
}

int pfs_matrixfmt_round(struct pfs_matrix *m)
{
	char buf[CELL_MAX];
	int rc = check_matrix(m);

	for (unsigned r = 0; !rc && r < m->rows; r++)
		for (unsigned c = 0; !rc && c < m->cols; c++)
			if (!(rc = pfs_format(buf, sizeof(buf), "%.2f", m->mibps[r][c])))
				m->mibps[r][c] = strtod(buf, NULL);
	return rc;
}

/* ---- reading old outputs ------------------------------------------------- */

/* More digits than this on either side of the point is no MiB/s figure. */
enum { DIGITS_MAX = 15 };

static size_t count_digits(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && p[n] >= '0' && p[n] <= '9')
		n++;
	return n;
}

/* digits, optionally '.' and digits: what " %.2f" prints, and no more */
static bool is_number(const char *tok, size_t len)
{
	const char *end = tok + len;
	size_t whole = count_digits(tok, end), frac;

	if (!whole || whole > DIGITS_MAX)
		return false;
	if (whole == len)
		return true;
	if (tok[whole] != '.')
		return false;
	frac = count_digits(tok + whole + 1, end);
	return frac && frac <= DIGITS_MAX && whole + 1 + frac == len;
}

static int fail(int rc, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Puts the message in err, if there is one, and returns rc. */
static int fail(int rc, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap); /* a cut message is still a message */
		va_end(ap);
	}
	return rc;
}

/* A printable copy of at most 20 bytes of a bad token for the message. */
static void token_excerpt(char *out, const char *tok, size_t len)
{
	size_t n = len > 20 ? 20 : len;

	for (size_t i = 0; i < n; i++)
		out[i] = (tok[i] >= 0x20 && tok[i] < 0x7f) ? tok[i] : '?';
	strcpy(out + n, len > n ? "..." : "");
}

/* One line of cols numbers into cells. */
static int parse_line(const char *p, const char *end, unsigned line, unsigned cols, double *cells,
		      char *err, size_t errlen)
{
	unsigned n = 0;

	for (;;) {
		const char *tok;
		char num[2 * DIGITS_MAX + 2], shown[24];

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		for (tok = p; p < end && *p != ' ' && *p != '\t'; p++)
			;
		if (!is_number(tok, (size_t)(p - tok))) {
			token_excerpt(shown, tok, (size_t)(p - tok));
			return fail(-EINVAL, err, errlen, "line %u: '%s' is not a number", line, shown);
		}
		if (n == cols)
			return fail(-EINVAL, err, errlen, "line %u: more than %u numbers", line, cols);
		memcpy(num, tok, (size_t)(p - tok));
		num[p - tok] = '\0';
		cells[n++] = strtod(num, NULL);
	}
	if (n != cols)
		return fail(-EINVAL, err, errlen, "line %u: %u number%s, want %u", line, n,
				   n == 1 ? "" : "s", cols);
	return 0;
}

int pfs_matrixfmt_parse(const char *text, size_t len, struct pfs_matrix *m, char *err,
			size_t errlen)
{
	double cells[PFS_MATRIXFMT_MAX][PFS_MATRIXFMT_MAX];
	const char *p = text, *end = len ? text + len : text;
	unsigned row = 0;
	int rc;

	if (!m || !m->rows || !m->cols || m->rows > PFS_MATRIXFMT_MAX || m->cols > PFS_MATRIXFMT_MAX ||
	    (!text && len))
		return fail(-EINVAL, err, errlen, "no matrix size to read into");
	if (len > PFS_MATRIXFMT_TEXT_MAX)
		return fail(-EINVAL, err, errlen, "more than %d bytes: not a perf_matrix output",
				   PFS_MATRIXFMT_TEXT_MAX);
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *line_end = eol ? eol : end;

		if (row == m->rows)
			return fail(-EINVAL, err, errlen, "line %u: more than %u lines", row + 1, m->rows);
		rc = parse_line(p, line_end, row + 1, m->cols, cells[row], err, errlen);
		if (rc)
			return rc;
		row++;
		p = eol ? eol + 1 : end;
	}
	if (row != m->rows)
		return fail(-EINVAL, err, errlen, "%u line%s, want %u", row, row == 1 ? "" : "s",
				   m->rows);
	for (unsigned r = 0; r < m->rows; r++)
		memcpy(m->mibps[r], cells[r], m->cols * sizeof(double));
	return 0;
}

int pfs_matrixfmt_read(FILE *fp, struct pfs_matrix *m, char *err, size_t errlen)
{
	char *buf = malloc(PFS_MATRIXFMT_TEXT_MAX + 1);
	size_t len;
	int rc, saved;

	if (!buf)
		return fail(-ENOMEM, err, errlen, "out of memory");
	errno = 0;
	len = fread(buf, 1, PFS_MATRIXFMT_TEXT_MAX + 1, fp);
	saved = errno;
	if (ferror(fp))
		rc = fail(-EIO, err, errlen, "cannot read: %s", strerror(saved ? saved : EIO));
	else
		rc = pfs_matrixfmt_parse(buf, len, m, err, errlen);
	free(buf);
	return rc;
}
