/* compare.c: `pfsbench compare A.h5 B.h5 [...]` puts runs side by side:
 * one line per (test, op) they share, files/sec of each run with its spread
 * over iterations and nodes, and each run's change against the first. A
 * change is called out only when it exceeds the noise the files themselves
 * show; the definitions are in include/pfsbench/compare.h and
 * docs/compare.md. */
#include "pfsbench/compare.h"
#include "pfsbench/archive.h"
#include "pfsbench/commands.h"
#include "pfsbench/latency.h"
#include "pfsbench/matrixdiff.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- statistics ----------------------------------------------------------- */

/* A row reduced to what the rates need, sortable by group. */
struct cmp_ent {
	uint32_t key, iteration, step, node;
	uint64_t start_us, end_us, amount; /* items, or bytes for a bytes row */
};

/* Running mean and sum of squared deviations (Welford). */
struct cmp_acc {
	double n, mean, m2;
};

static void acc_add(struct cmp_acc *a, double x)
{
	double d = x - a->mean;

	a->n += 1;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

/* Coefficient of variation (sample standard deviation / mean); -1 when
 * fewer than two values or a zero mean. */
static double acc_spread(const struct cmp_acc *a)
{
	if (a->n < 2 || a->mean <= 0)
		return -1;
	return sqrt(a->m2 / (a->n - 1)) / a->mean;
}

static int cmp_ents(const void *pa, const void *pb)
{
	const struct cmp_ent *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->iteration != b->iteration)
		return a->iteration < b->iteration ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return (a->node > b->node) - (a->node < b->node);
}

/* Depth of grouping: key, iteration, step, node. */
static bool same(const struct cmp_ent *a, const struct cmp_ent *b, int depth)
{
	return a->key == b->key && (depth < 2 || a->iteration == b->iteration) &&
	       (depth < 3 || a->step == b->step) && (depth < 4 || a->node == b->node);
}

static uint32_t key_of(struct pfs_cmp_run *run, const struct pfs_row *r)
{
	uint32_t k;

	for (k = 0; k < run->n; k++)
		if (!strcmp(run->lines[k].test, r->test) && !strcmp(run->lines[k].op, r->op))
			return k;
	memset(&run->lines[k], 0, sizeof(run->lines[k]));
	run->lines[k].unit = pfs_row_unit(r);
	pfs_row_set_text(run->lines[k].test, sizeof(run->lines[k].test), r->test);
	pfs_row_set_text(run->lines[k].op, sizeof(run->lines[k].op), r->op);
	run->n++;
	return k;
}

/* One (test, op): its iterations, steps and nodes, starting at e[*i]. */
static void stats_key(const struct cmp_ent *e, size_t n, size_t *i, struct pfs_cmp_line *line,
		      double *node_files, double *node_us, unsigned nnodes)
{
	struct cmp_acc iters = { 0, 0, 0 }, nodes = { 0, 0, 0 };
	size_t first = *i;

	memset(node_files, 0, nnodes * sizeof(*node_files));
	memset(node_us, 0, nnodes * sizeof(*node_us));
	while (*i < n && same(&e[*i], &e[first], 1)) {
		size_t it0 = *i;
		double files = 0, us = 0;

		while (*i < n && same(&e[*i], &e[it0], 2)) {
			size_t st0 = *i;
			uint64_t lo = UINT64_MAX, hi = 0;

			while (*i < n && same(&e[*i], &e[st0], 3)) {
				size_t nd0 = *i;
				uint64_t nlo = UINT64_MAX, nhi = 0, nfiles = 0;

				for (; *i < n && same(&e[*i], &e[nd0], 4); (*i)++) {
					nlo = e[*i].start_us < nlo ? e[*i].start_us : nlo;
					nhi = e[*i].end_us > nhi ? e[*i].end_us : nhi;
					nfiles += e[*i].amount;
				}
				node_files[e[nd0].node] += (double)nfiles;
				node_us[e[nd0].node] += (double)(nhi - nlo);
				lo = nlo < lo ? nlo : lo;
				hi = nhi > hi ? nhi : hi;
				files += (double)nfiles;
			}
			us += (double)(hi - lo);
		}
		/* A zero wall time counts as one microsecond, as in the table. */
		acc_add(&iters, files * 1e6 / (us > 0 ? us : 1));
	}
	for (unsigned nd = 0; nd < nnodes; nd++)
		if (node_files[nd] > 0)
			acc_add(&nodes, node_files[nd] * 1e6 / (node_us[nd] > 0 ? node_us[nd] : 1));
	line->rate = iters.mean;
	line->iterations = (unsigned)iters.n;
	line->iter_spread = acc_spread(&iters);
	line->node_spread = acc_spread(&nodes);
}

int pfs_compare_stats(const struct pfs_archive *a, struct pfs_cmp_run *out)
{
	struct cmp_ent *e = malloc((a->nrows ? a->nrows : 1) * sizeof(*e));
	double *node_files = calloc(a->nnodes ? a->nnodes : 1, sizeof(double));
	double *node_us = calloc(a->nnodes ? a->nnodes : 1, sizeof(double));
	struct pfs_lat_summary *lat = NULL;
	size_t nlat = 0;
	int rc = -ENOMEM;

	out->n = 0;
	out->lines = malloc((a->nrows ? a->nrows : 1) * sizeof(*out->lines));
	if (!e || !node_files || !node_us || !out->lines)
		goto out;
	for (size_t i = 0; i < a->nrows; i++) {
		const struct pfs_row *r = &a->rows[i];

		e[i] = (struct cmp_ent){ key_of(out, r), r->iteration, r->step, r->node_index,
					 r->start_us, r->start_us + r->elapsed_us,
					 pfs_unit_amount(pfs_row_unit(r), r->items, r->bytes) };
	}
	qsort(e, a->nrows, sizeof(*e), cmp_ents);
	for (size_t i = 0; i < a->nrows;)
		stats_key(e, a->nrows, &i, &out->lines[e[i].key], node_files, node_us, a->nnodes);
	/* Latency beside the rate, where the run recorded it. */
	if (pfs_lat_groups(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_OP, &lat, &nlat)) {
		rc = -EINVAL;
		goto out;
	}
	for (size_t k = 0; k < out->n; k++) {
		const struct pfs_lat_summary *ls =
			pfs_lat_find(lat, nlat, out->lines[k].test, out->lines[k].op);

		out->lines[k].p99_ns = ls ? ls->p99_ns : 0;
	}
	rc = 0;
out:
	free(e);
	free(node_files);
	free(node_us);
	free(lat);
	if (rc)
		pfs_compare_run_free(out);
	return rc;
}

void pfs_compare_run_free(struct pfs_cmp_run *run)
{
	free(run->lines);
	run->lines = NULL;
	run->n = 0;
}

double pfs_compare_noise(const struct pfs_cmp_line *l)
{
	if (l->iter_spread >= 0)
		return l->iter_spread;
	return l->node_spread >= 0 ? l->node_spread : 0;
}

bool pfs_compare_called_out(const struct pfs_cmp_line *a, const struct pfs_cmp_line *b,
			    double *change_pct)
{
	double na = pfs_compare_noise(a), nb = pfs_compare_noise(b);
	double threshold = PFS_CALLOUT_SIGMAS * sqrt(na * na + nb * nb);
	double change = a->rate > 0 ? (b->rate - a->rate) / a->rate : 0;

	if (threshold < PFS_CALLOUT_FLOOR)
		threshold = PFS_CALLOUT_FLOOR;
	*change_pct = change * 100;
	return a->rate > 0 && fabs(change) > threshold;
}

/* ---- the report --------------------------------------------------------------- */

#define RATE_CELL 34   /* "%10s %6s %6s %9s": rate iter% node% p99 */
#define CHANGE_CELL 16 /* " %+8.1f%% %-6s": change verdict */

static const struct pfs_cmp_line *find_line(const struct pfs_cmp_run *run, const char *test,
					    const char *op)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->lines[i].test, test) && !strcmp(run->lines[i].op, op))
			return &run->lines[i];
	return NULL;
}

static void spread_text(char *buf, size_t len, double spread)
{
	if (spread < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", spread * 100);
}

static void print_cell(FILE *out, const struct pfs_cmp_line *l, int width)
{
	char it[16], nd[16], p99[24] = "-";

	spread_text(it, sizeof(it), l->iter_spread);
	spread_text(nd, sizeof(nd), l->node_spread);
	if (l->p99_ns)
		snprintf(p99, sizeof(p99), "%.1f", (double)l->p99_ns / 1000);
	fprintf(out, "%10.*f %6s %6s %9s%*s", l->unit == PFS_UNIT_BYTES ? 1 : 0,
		pfs_rate_display(l->unit, l->rate), it, nd, p99, width - RATE_CELL, "");
}

static void print_change(FILE *out, const struct pfs_cmp_line *base, const struct pfs_cmp_line *l,
			 bool colour, bool last)
{
	double pct;
	bool loud = pfs_compare_called_out(base, l, &pct);
	const char *verdict = !loud ? "" : pct < 0 ? "slower" : "faster";

	if (loud && colour)
		fputs(pct < 0 ? "\033[1;31m" : "\033[1;32m", out);
	fprintf(out, " %+8.1f%%", pct);
	if (!last || *verdict)
		fprintf(out, " %-*s", last ? 0 : 6, verdict);
	if (loud && colour)
		fputs("\033[0m", out);
}

static const char *param_value(const struct pfs_archive *a, const char *key)
{
	const char *v = pfs_archive_param(a, key);

	return v ? v : "(none)";
}

/* One line when key's value is not the same in every run. */
static void print_if_differs(FILE *out, const struct pfs_archive *runs, size_t n, const char *key,
			     bool is_param, bool *any)
{
	const char *v0 = is_param ? param_value(&runs[0], key) : pfs_archive_get(&runs[0], key);
	bool differs = false;

	for (size_t q = 1; q < n && !differs; q++)
		differs = strcmp(v0, is_param ? param_value(&runs[q], key)
					      : pfs_archive_get(&runs[q], key)) != 0;
	if (!differs)
		return;
	if (!*any)
		fputs("Differing parameters:\n", out);
	*any = true;
	fprintf(out, "  %-16s", key);
	for (size_t q = 0; q < n; q++)
		fprintf(out, "%s%zu: %s", q ? "  " : "", q + 1,
			is_param ? param_value(&runs[q], key) : pfs_archive_get(&runs[q], key));
	fputc('\n', out);
}

/* The parameters, and the shape of the run, that are not the same in every
 * run; each parameter once, in the order of the first run that has it. */
static void print_differences(FILE *out, const struct pfs_archive *runs, size_t n)
{
	static const char *const shape[] = { "ranks", "nodes", "workers_min", "workers_max" };
	bool any = false;

	for (size_t r = 0; r < n; r++)
		for (size_t p = 0; p < runs[r].nparams; p++) {
			const char *key = runs[r].params[p].key;
			bool seen = false;

			for (size_t q = 0; q < r && !seen; q++)
				seen = strcmp(param_value(&runs[q], key), "(none)") != 0;
			if (!seen)
				print_if_differs(out, runs, n, key, true, &any);
		}
	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		print_if_differs(out, runs, n, shape[i], false, &any);
	if (any)
		fputc('\n', out);
}

int pfs_compare_print(FILE *out, const struct pfs_archive *runs, const char *const *paths,
		      size_t n, bool colour)
{
	struct pfs_cmp_run *st = calloc(n, sizeof(*st));
	char (*heading)[300] = calloc(n, sizeof(*heading));
	int *width = calloc(n, sizeof(*width));
	size_t unshared = 0;
	int rc = -ENOMEM;

	if (!st || !heading || !width)
		goto out;
	for (size_t r = 0; r < n; r++) {
		int base = RATE_CELL + (r ? CHANGE_CELL : 0);

		if (pfs_compare_stats(&runs[r], &st[r]))
			goto out;
		snprintf(heading[r], sizeof(heading[r]), "[%zu] %s %s", r + 1, runs[r].ri.fstype,
			 runs[r].ri.dir);
		width[r] = (int)strlen(heading[r]) > base ? (int)strlen(heading[r]) : base;
		fprintf(out, "%s  (%s, %s, %" PRIu64 " ranks on %" PRIu64 " nodes, %s)\n", heading[r],
			paths[r], runs[r].status == PFS_RUN_COMPLETE ? "complete" : "aborted",
			runs[r].ri.nranks, runs[r].ri.nnodes, runs[r].ri.start_time);
	}
	fputc('\n', out);
	print_differences(out, runs, n);

	/* Every column is padded to its width but the last, which ends the line. */
	fprintf(out, "%-4s %-12s %-7s", "", "", "");
	for (size_t r = 0; r < n; r++)
		fprintf(out, "   %-*s", r + 1 < n ? width[r] : 0, heading[r]);
	fprintf(out, "\n%-4s %-12s %-7s", "Test", "Op", "Unit");
	for (size_t r = 0; r < n; r++)
		fprintf(out, "   %10s %6s %6s %9s%-*s", "rate", "iter%", "node%", "p99 us",
			r + 1 < n ? width[r] - RATE_CELL : 0, r ? "   change" : "");
	fputc('\n', out);
	/* The ops every run has, in the first run's order. */
	for (size_t i = 0; i < st[0].n; i++) {
		const struct pfs_cmp_line *base = &st[0].lines[i];
		bool shared = true;

		for (size_t r = 1; r < n && shared; r++)
			shared = find_line(&st[r], base->test, base->op) != NULL;
		if (!shared) {
			unshared++;
			continue;
		}
		fprintf(out, "%-4s %-12s %-7s", base->test, base->op, pfs_unit_rate_label(base->unit));
		for (size_t r = 0; r < n; r++) {
			const struct pfs_cmp_line *l = find_line(&st[r], base->test, base->op);

			fputs("   ", out);
			if (r == 0) {
				print_cell(out, l, n > 1 ? width[r] : RATE_CELL);
				continue;
			}
			print_cell(out, l, RATE_CELL);
			print_change(out, base, l, colour, r + 1 == n);
			if (r + 1 < n)
				fprintf(out, "%*s", width[r] - RATE_CELL - CHANGE_CELL, "");
		}
		fputc('\n', out);
	}
	for (size_t r = 1; r < n; r++)
		for (size_t i = 0; i < st[r].n; i++)
			unshared += find_line(&st[0], st[r].lines[i].test, st[r].lines[i].op) == NULL;
	if (unshared)
		fprintf(out, "\n%zu (test, op) pairs are not in every run and are left out.\n", unshared);
	fprintf(out, "\nrate: files, directories, ops or MiB of all nodes / wall time of the op's "
		     "steps, mean over\niterations; iter%%, node%%: spread (coefficient of variation) "
		     "over iterations and nodes;\np99: 99th percentile latency of the op's items, all "
		     "iterations and workers.\nA change is called out when it exceeds max(%.0f%%, %.0f x "
		     "the two runs' combined noise);\nsee docs/compare.md.\n",
		PFS_CALLOUT_FLOOR * 100, PFS_CALLOUT_SIGMAS);
	rc = 0;
out:
	for (size_t r = 0; st && r < n; r++)
		pfs_compare_run_free(&st[r]);
	free(st);
	free(heading);
	free(width);
	return rc;
}

/* ---- the command ------------------------------------------------------------------ */

static void compare_usage(FILE *out)
{
	fprintf(out, "Usage: pfsbench compare A.h5 B.h5 [C.h5 ...]\n"
		     "Put runs side by side: files/sec per (test, op), spread, change against A.\n"
		     "Colour on a terminal unless NO_COLOR is set.\n"
		     "Two matrix runs, or perf_matrix outputs: perf_matrix's diff (docs/matrix.md).\n");
}

static int compare_main(int argc, char **argv)
{
	struct pfs_archive *runs;
	const char *no_color = getenv("NO_COLOR");
	int nruns = argc - 1, loaded = 0, rc = pfs_matrixdiff_compare(argc, argv);

	/* Two perf_matrix matrices: its diff (src/matrixdiff.c). */
	if (rc >= 0)
		return rc;
	rc = PFS_EXIT_FAILED;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		compare_usage(stdout);
		return PFS_EXIT_OK;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			nruns = 0;
	if (nruns < 2) {
		compare_usage(stderr);
		return PFS_EXIT_USAGE;
	}
	runs = calloc((size_t)nruns, sizeof(*runs));
	if (!runs) {
		pfs_error("out of memory");
		return PFS_EXIT_FAILED;
	}
	for (loaded = 0; loaded < nruns; loaded++)
		if (pfs_archive_load(argv[loaded + 1], &runs[loaded]))
			break;
	if (loaded == nruns) {
		bool colour = isatty(STDOUT_FILENO) && !(no_color && *no_color);

		if (pfs_compare_print(stdout, runs, (const char *const *)argv + 1, (size_t)nruns,
				      colour))
			pfs_error("out of memory");
		else if (fflush(stdout) || ferror(stdout))
			pfs_error("cannot write to standard output");
		else
			rc = PFS_EXIT_OK;
	}
	for (int i = 0; i < loaded; i++)
		pfs_archive_free(&runs[i]);
	free(runs);
	return rc;
}

const struct pfs_command pfs_command_compare = {
	.name = "compare",
	.summary = "put the results of runs side by side",
	.main = compare_main,
};
