/* matrixdiff.c: perf_matrix's diff in `pfsbench compare`
 * (include/pfsbench/analysis/matrixdiff.h has the definitions): each side is a
 * `pfsbench matrix` results file, reduced to its matrix and each cell's
 * noise by src/plans/matrix_plan.c, or a perf_matrix text output, read strictly
 * by src/formats/matrixfmt.c; the diff's lines are matrixfmt's, with the cells
 * beyond the noise marked. Every file may be hostile. */
#include "pfsbench/analysis/matrixdiff.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/plans/matrix_plan.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "pfsbench compare"

bool pfs_matrixdiff_beyond_noise(double a, double b, double noise_a, double noise_b)
{
	double na = noise_a > 0 ? noise_a : 0, nb = noise_b > 0 ? noise_b : 0;
	double threshold = PFS_MATRIXDIFF_SIGMAS * sqrt(na * na + nb * nb);

	if (a <= 0 || b <= 0 || (noise_a < 0 && noise_b < 0))
		return false;
	if (threshold < log(PFS_MATRIXDIFF_FLOOR))
		threshold = log(PFS_MATRIXDIFF_FLOOR);
	return fabs(log(b / a)) > threshold;
}

/* One side of the diff. */
struct side {
	const char *path;
	bool is_run;         /* a results file; else a text output */
	struct pfs_matrix m; /* as perf_matrix printed it (rounded) */
	double noise[PFS_MATRIXFMT_MAX][PFS_MATRIXFMT_MAX]; /* < 0: not measured */
	bool sizes_known; /* m's sizes are the run's, or perf_matrix's */
	unsigned cells_missing;
	char op[PFS_PRINTABLE_SIZE(PFS_OP_NAME_MAX)]; /* a run's op ("Write"), "" for text */
	const char *unit;                              /* a run's rate unit, NULL for text */
	char what[192]; /* the header's words for the side */
};

/* ---- perf_matrix text outputs -------------------------------------------------------- */

/* The shape of the lines before the first empty one: lines, and numbers
 * on the first (the strict reader checks every line after). */
static void text_shape(const char *text, size_t len, unsigned *rows, unsigned *cols)
{
	const char *p = text, *end = text + len;
	bool in = false;

	*rows = *cols = 0;
	for (; p < end && *p != '\n'; p++) {
		bool blank = *p == ' ' || *p == '\t';

		*cols += !blank && !in;
		in = !blank;
	}
	for (p = text; p < end; p++)
		*rows += *p == '\n';
	*rows += len && end[-1] != '\n';
}

/* A perf_matrix output: the lines up to the first empty one (pfsbench
 * matrix's stdout goes on after one), of as many numbers each as the
 * first; sizes: like is's when it has the same shape, else perf_matrix's
 * own for 11 x 13. */
static int read_text(struct side *s, const struct side *like)
{
	char *buf = malloc(PFS_MATRIXFMT_TEXT_MAX + 1), err[160] = "";
	const char *blank;
	FILE *f = pfs_fopen_regular(s->path, NULL);
	size_t len = 0;
	unsigned rows, cols;
	int rc = -EINVAL;

	if (!f || !buf) {
		int e = f ? ENOMEM : errno;

		free(buf);
		if (f)
			fclose(f);
		pfs_error("cannot read '%s': %s", s->path, pfs_strerror_regular(e));
		return -e;
	}
	len = fread(buf, 1, PFS_MATRIXFMT_TEXT_MAX + 1, f);
	rc = ferror(f) ? -EIO : 0;
	fclose(f);
	if (rc) {
		free(buf);
		pfs_error("cannot read '%s': %s", s->path, strerror(EIO));
		return rc;
	}
	blank = len > PFS_MATRIXFMT_TEXT_MAX ? NULL : memmem(buf, len, "\n\n", 2);
	if (blank)
		len = (size_t)(blank - buf) + 1;
	else if (len && buf[0] == '\n')
		len = 0;
	text_shape(buf, len, &rows, &cols);
	memset(&s->m, 0, sizeof(s->m));
	if (like && like->sizes_known && like->m.rows == rows && like->m.cols == cols) {
		s->m = like->m;
		s->sizes_known = true;
	} else {
		pfs_matrixfmt_init_perf(&s->m);
		s->sizes_known = rows == s->m.rows && cols == s->m.cols;
	}
	s->m.rows = rows;
	s->m.cols = cols;
	if (!rows || !cols) {
		snprintf(err, sizeof(err), "no matrix in it");
		rc = -EINVAL;
	} else if (rows > PFS_MATRIXFMT_MAX || cols > PFS_MATRIXFMT_MAX) {
		snprintf(err, sizeof(err), "%u lines of %u numbers: at most %d of %d", rows, cols,
			 PFS_MATRIXFMT_MAX, PFS_MATRIXFMT_MAX);
		rc = -EINVAL;
	} else {
		rc = pfs_matrixfmt_parse(buf, len, &s->m, err, sizeof(err));
	}
	free(buf);
	if (rc) {
		fprintf(stderr,
			PROG ": '%s' is neither a results file nor a perf_matrix output: %s\n",
			s->path, err);
		return -EINVAL;
	}
	for (unsigned r = 0; r < PFS_MATRIXFMT_MAX; r++)
		for (unsigned c = 0; c < PFS_MATRIXFMT_MAX; c++)
			s->noise[r][c] = -1;
	{
		char path[PFS_PRINTABLE_SIZE(PATH_MAX)];

		(void)pfs_format(s->what, sizeof(s->what),
				 "'%s': a perf_matrix output (what it measured is not in it)",
				 pfs_printable(path, sizeof(path), s->path));
	}
	return pfs_matrixfmt_round(&s->m); /* a no-op, but for digits past two */
}

/* ---- pfsbench matrix runs -------------------------------------------------------------- */

/* A run of a workload whose results are a matrix (its reduce_matrix). */
static bool is_matrix_run(const struct pfs_archive *a)
{
	return a->ri.workload && a->ri.workload->reduce_matrix;
}

int pfs_matrixdiff_reduce(const struct pfs_archive *a, struct pfs_matrix_result *res, char *err,
			  size_t errlen)
{
	const struct pfs_workload *wl = a->ri.workload;
	void *o;
	int rc;

	if (errlen)
		err[0] = 0;
	if (!is_matrix_run(a))
		return -ENOENT;
	o = pfs_archive_opts(a, wl);
	if (!o)
		return -ENOMEM;
	rc = wl->reduce_matrix(o, a->rows, a->nrows, (unsigned)a->ri.nranks, a->nnodes, res, err,
			       errlen);
	free(o);
	return rc;
}

/* What a run measured, for the header: "'a.h5': Write, 2 ranks on 1
 * node, 2026-12-05T05:38:50Z", its op and unit from its rows (a matrix
 * run does one op). */
static void describe_run(struct side *s, const struct pfs_archive *a)
{
	char path[PFS_PRINTABLE_SIZE(PATH_MAX)], label[PFS_PRINTABLE_SIZE(sizeof(a->ri.label))];
	char when[PFS_PRINTABLE_SIZE(sizeof(a->ri.start_time))];

	s->unit = pfs_unit_rate_label(a->nrows ? pfs_row_unit(&a->rows[0]) : PFS_UNIT_BYTES);
	pfs_printable(s->op, sizeof(s->op), a->nrows ? a->rows[0].op : "");
	pfs_printable(label, sizeof(label), a->ri.label);
	(void)pfs_format(s->what, sizeof(s->what), "'%s'%s%s%s: %s, %llu rank%s on %llu node%s, %s",
			 pfs_printable(path, sizeof(path), s->path), label[0] ? " (" : "", label,
			 label[0] ? ")" : "", s->op[0] ? s->op : "no rows",
			 (unsigned long long)a->ri.nranks, a->ri.nranks == 1 ? "" : "s",
			 (unsigned long long)a->ri.nnodes, a->ri.nnodes == 1 ? "" : "s",
			 pfs_printable(when, sizeof(when), a->ri.start_time));
}

/* Two runs' cells are the same thing only when they measured one op in
 * one unit: a write run diffed against a read run says nothing. */
static int same_measure(const struct side *a, const struct side *b)
{
	if (!a->is_run || !b->is_run || (!strcmp(a->op, b->op) && !strcmp(a->unit, b->unit)))
		return 0;
	fprintf(stderr,
		PROG ": '%s' measured %s (%s) and '%s' %s (%s): the diff of their cells would "
		     "compare unlike things\n",
		a->path, a->op, a->unit, b->path, b->op, b->unit);
	return -EINVAL;
}

/* The run's matrix, rounded as its report printed it, and each cell's noise. */
static int reduce_run(struct side *s, const struct pfs_archive *a)
{
	struct pfs_matrix_result *res = malloc(sizeof(*res));
	char err[PFS_REFUSAL_MAX] = "";
	int rc = res ? pfs_matrixdiff_reduce(a, res, err, sizeof(err)) : -ENOMEM;

	describe_run(s, a);
	if (!rc) {
		s->m = res->m;
		s->sizes_known = true;
		s->cells_missing = res->cells_missing;
		for (unsigned r = 0; r < PFS_MATRIXFMT_MAX; r++)
			for (unsigned c = 0; c < PFS_MATRIXFMT_MAX; c++)
				s->noise[r][c] = res->cell[r][c].noise;
		rc = pfs_matrixfmt_round(&s->m);
	}
	if (rc == -ENOMEM)
		pfs_error("out of memory");
	else if (rc)
		pfs_error("cannot read '%s': its rows are no matrix of its parameters: %s", s->path,
			  err[0] ? err : "bad values");
	free(res);
	return rc;
}

/* ---- the diff --------------------------------------------------------------------------- */

/* "64KiB": a size in its largest whole binary unit. */
static void size_name(char *buf, size_t len, uint64_t v)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;

	while (v && v % 1024 == 0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)v, units[u]);
}

static void cell_name(char *buf, size_t len, const struct side *s, unsigned r, unsigned c)
{
	char part[2][32];

	if (!s->sizes_known) {
		snprintf(buf, len, "row %u column %u", r + 1, c + 1);
		return;
	}
	size_name(part[0], sizeof(part[0]), s->m.xfer_bytes[r]);
	size_name(part[1], sizeof(part[1]), s->m.req_bytes[c]);
	snprintf(buf, len, "transfer %s, request %s", part[0], part[1]);
}

static void noise_text(char *buf, size_t len, double noise)
{
	if (noise < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", noise * 100);
}

/* The width of the labelled table's columns: the row labels', then each
 * cell column's, the widest of its size's name and its cells (a '*' after
 * a marked one counted). */
static void label_widths(const struct side *a, const struct side *b, bool star, int *label,
			 int cols[PFS_MATRIXFMT_MAX])
{
	const struct side *named = a->sizes_known ? a : b;
	char text[400];

	*label = 0;
	for (unsigned r = 0; r < a->m.rows; r++) {
		size_name(text, sizeof(text), named->m.xfer_bytes[r]);
		*label = (int)strlen(text) > *label ? (int)strlen(text) : *label;
	}
	for (unsigned c = 0; c < a->m.cols; c++) {
		size_name(text, sizeof(text), named->m.req_bytes[c]);
		cols[c] = (int)strlen(text);
		for (unsigned r = 0; r < a->m.rows; r++) {
			int w;

			(void)pfs_matrixfmt_diff_cell(text, sizeof(text), a->m.mibps[r][c],
						      b->m.mibps[r][c]);
			w = (int)strlen(text + 1) +
			    (star && pfs_matrixdiff_beyond_noise(a->m.mibps[r][c], b->m.mibps[r][c],
								 a->noise[r][c], b->noise[r][c]));
			cols[c] = w > cols[c] ? w : cols[c];
		}
	}
}

/* With a results file on either side, the sizes and what each side
 * measured are known: the diff as a table with a header saying what was
 * compared, its rows labelled by transfer size, its columns by request
 * size, each column as wide as its widest cell. */
static void print_labelled(FILE *out, const struct side *a, const struct side *b, bool tty,
			   bool colour)
{
	const struct side *named = a->sizes_known ? a : b;
	int label, cols[PFS_MATRIXFMT_MAX];
	char text[400];

	label_widths(a, b, tty && !colour, &label, cols);
	fprintf(out, "Change of B against A, (B - A) / A x 100 of %s, by transfer size (rows) and "
		     "request size (columns)\n",
		a->unit ? a->unit : b->unit);
	fprintf(out, "A: %s\nB: %s\n", a->what, b->what);
	fprintf(out, "%*s", label, "");
	for (unsigned c = 0; c < a->m.cols; c++) {
		size_name(text, sizeof(text), named->m.req_bytes[c]);
		fprintf(out, "  %*s", cols[c], text);
	}
	fputc('\n', out);
	for (unsigned r = 0; r < a->m.rows; r++) {
		size_name(text, sizeof(text), named->m.xfer_bytes[r]);
		fprintf(out, "%*s", label, text);
		for (unsigned c = 0; c < a->m.cols; c++) {
			bool loud = pfs_matrixdiff_beyond_noise(a->m.mibps[r][c], b->m.mibps[r][c],
								a->noise[r][c], b->noise[r][c]);
			int w;

			(void)pfs_matrixfmt_diff_cell(text, sizeof(text), a->m.mibps[r][c],
						      b->m.mibps[r][c]);
			w = (int)strlen(text + 1) + (loud && tty && !colour);
			fprintf(out, "  %*s", cols[c] - w, "");
			if (loud && tty && colour)
				fprintf(out, "\033[1m%s\033[0m", text + 1);
			else
				fprintf(out, "%s%s", text + 1, loud && tty ? "*" : "");
		}
		fputc('\n', out);
	}
}

/* perf_matrix's own lines, for two of its text outputs: byte for byte
 * what `perf_matrix diff` printed, so its readers read them still. */
static void print_perf_lines(FILE *out, const struct side *a, const struct side *b, bool tty,
			     bool colour)
{
	for (unsigned r = 0; r < a->m.rows; r++) {
		for (unsigned c = 0; c < a->m.cols; c++) {
			char cell[400];
			bool loud = pfs_matrixdiff_beyond_noise(a->m.mibps[r][c], b->m.mibps[r][c],
								a->noise[r][c], b->noise[r][c]);

			(void)pfs_matrixfmt_diff_cell(cell, sizeof(cell), a->m.mibps[r][c],
						      b->m.mibps[r][c]);
			if (loud && tty && colour)
				fprintf(out, " \033[1m%s\033[0m", cell + 1);
			else
				fprintf(out, "%s%s", cell, loud && tty ? "*" : "");
		}
		fputc('\n', out);
	}
}

/* The diff, marked cells bold (or followed by '*') on a terminal; then,
 * off a terminal, the list. Returns 0, or -EIO when stdout fails. */
static int print_diff(FILE *out, const struct side *a, const struct side *b, bool tty, bool colour)
{
	const struct side *named = a->sizes_known ? a : b;
	unsigned marked = 0;
	bool measured = false;

	for (unsigned r = 0; r < a->m.rows; r++)
		for (unsigned c = 0; c < a->m.cols; c++) {
			measured |= a->noise[r][c] >= 0 || b->noise[r][c] >= 0;
			marked += pfs_matrixdiff_beyond_noise(a->m.mibps[r][c], b->m.mibps[r][c],
							      a->noise[r][c], b->noise[r][c]);
		}
	if (a->is_run || b->is_run)
		print_labelled(out, a, b, tty, colour);
	else
		print_perf_lines(out, a, b, tty, colour);
	if (!tty && !measured && (a->is_run || b->is_run))
		fprintf(out,
			"\nNo cell is marked beyond the noise: neither file measured it (a run "
			"with -i 3 or more does)\n");
	if (!tty && measured) {
		fprintf(out,
			"\nBeyond the noise (|ln(B/A)| > max(ln %.2f, %.0f x the cells' combined "
			"noise); noise of A, B):%s\n",
			PFS_MATRIXDIFF_FLOOR, PFS_MATRIXDIFF_SIGMAS, marked ? "" : " none");
		for (unsigned r = 0; r < a->m.rows; r++)
			for (unsigned c = 0; c < a->m.cols; c++) {
				char name[96], cell[400], na[16], nb[16];

				if (!pfs_matrixdiff_beyond_noise(a->m.mibps[r][c], b->m.mibps[r][c],
								 a->noise[r][c], b->noise[r][c]))
					continue;
				cell_name(name, sizeof(name), named, r, c);
				(void)pfs_matrixfmt_diff_cell(cell, sizeof(cell), a->m.mibps[r][c],
							      b->m.mibps[r][c]);
				noise_text(na, sizeof(na), a->noise[r][c]);
				noise_text(nb, sizeof(nb), b->noise[r][c]);
				fprintf(out, "  %s:%s (%s, %s)\n", name, cell, na, nb);
			}
	}
	return fflush(out) || ferror(out) ? -EIO : 0;
}

/* The two sides must be the same matrix: shape, and sizes where known. */
static int same_shape(const struct side *a, const struct side *b)
{
	if (a->m.rows != b->m.rows || a->m.cols != b->m.cols) {
		fprintf(stderr,
			PROG ": '%s' has %u rows of %u cells and '%s' %u of %u: perf_matrix's "
			     "diff needs matrices of one shape\n",
			a->path, a->m.rows, a->m.cols, b->path, b->m.rows, b->m.cols);
		return -EINVAL;
	}
	if (a->is_run && b->is_run &&
	    (memcmp(a->m.xfer_bytes, b->m.xfer_bytes, a->m.rows * sizeof(uint64_t)) ||
	     memcmp(a->m.req_bytes, b->m.req_bytes, a->m.cols * sizeof(uint64_t)))) {
		fprintf(stderr,
			PROG ": '%s' and '%s' measured different sizes (--req, --xfer): "
			     "their cells are not the same\n",
			a->path, b->path);
		return -EINVAL;
	}
	return 0;
}

int pfs_matrixdiff_compare(int argc, char **argv,
			   const struct pfs_workload *(*find)(const char *name))
{
	struct pfs_archive runs[2];
	struct side *s = NULL;
	const char *no_color = getenv("NO_COLOR");
	int kind[2], loaded = 0, status = PFS_EXIT_FAILED;

	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-')
		return -1;
	for (int i = 0; i < 2; i++) {
		kind[i] = pfs_archive_is_hdf5(argv[i + 1]);
		if (kind[i] < 0)
			return -1; /* compare says why it cannot read it */
	}
	memset(runs, 0, sizeof(runs));
	for (int i = 0; i < 2; i++)
		if (kind[i]) {
			if (pfs_archive_load(argv[i + 1], &runs[i]))
				goto out;
			loaded |= 1 << i;
			runs[i].ri.workload = find(runs[i].ri.workload_name);
		}
	/* A results file of another workload is compare's, and so is the
	 * other file then: its own table, or its refusal of a file that is no
	 * results file (exit 1), as for any such pair. */
	for (int i = 0; i < 2; i++)
		if (kind[i] && !is_matrix_run(&runs[i]) &&
		    (!kind[1 - i] || !is_matrix_run(&runs[1 - i]))) {
			status = -1;
			goto out;
		}
	for (int i = 0; i < 2; i++)
		if (kind[i] && !is_matrix_run(&runs[i])) {
			char w[PFS_PRINTABLE_SIZE(sizeof(runs[i].ri.workload_name))];

			pfs_printable(w, sizeof(w), runs[i].ri.workload_name);
			fprintf(stderr,
				PROG ": '%s' is a %s run, '%s' a perf_matrix matrix: compare "
				     "diffs a matrix only with a matrix\n",
				argv[i + 1], w, argv[2 - i]);
			status = PFS_EXIT_USAGE;
			goto out;
		}
	s = calloc(2, sizeof(*s));
	if (!s) {
		pfs_error("out of memory");
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		s[i].path = argv[i + 1];
		s[i].is_run = kind[i];
		if (kind[i] && reduce_run(&s[i], &runs[i]))
			goto out;
	}
	for (int i = 0; i < 2; i++)
		if (!kind[i] && read_text(&s[i], kind[1 - i] ? &s[1 - i] : NULL)) {
			status = PFS_EXIT_USAGE;
			goto out;
		}
	if (same_measure(&s[0], &s[1]) || same_shape(&s[0], &s[1])) {
		status = PFS_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < 2; i++)
		if (s[i].cells_missing)
			pfs_warn(
				"'%s' measured no repetition of %u cell%s (the run stopped): they diff "
				"as -.--%%",
				s[i].path, s[i].cells_missing, s[i].cells_missing == 1 ? "" : "s");
	{
		bool tty = isatty(STDOUT_FILENO);

		if (print_diff(stdout, &s[0], &s[1], tty, !(no_color && *no_color)))
			pfs_error("cannot write to standard output");
		else
			status = PFS_EXIT_OK;
	}
out:
	for (int i = 0; i < 2; i++)
		if (loaded & (1 << i))
			pfs_archive_free(&runs[i]);
	free(s);
	return status;
}
