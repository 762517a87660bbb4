/* plot.c: the commands that draw. `pfsbench plot RUN.h5 [MORE.h5 ...] -o
 * DIR` writes each run's pictures (and, for several runs, their
 * comparison) as SVG and PNG into DIR; `pfsbench report RUN.h5 [MORE.h5
 * ...] -o report.html` writes one self-contained HTML page: provenance,
 * the text report, the pictures inline, and for several runs the
 * comparison. Both read results files (and perf_matrix's text outputs,
 * drawn as heatmaps) and run gnuplot as a child process on a script of
 * numbers and sanitised names (src/pictures/plotscript.c); neither uses MPI. See
 * docs/plot.md. */
#include "pfsbench/analysis/compare.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/outdir.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/formats/matrixfmt.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/pictures/gnuplot.h"
#include "pfsbench/pictures/html.h"
#include "pfsbench/pictures/pictures.h"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- inputs ------------------------------------------------------------------ */

/* One input: a results file, or a perf_matrix text output. */
struct input {
	const char *path;
	char label[PFS_PLOT_LABEL_MAX * 2];
	bool is_matrix;  /* a perf_matrix text output */
	bool compared;   /* a results file the comparison takes: not a matrix run */
	struct pfs_archive a;
	struct pfs_matrix m;
};

/* The command line of plot and report (their option tables below). */
struct args {
	struct pfs_opt_args runs;
	char out[PATH_MAX];
	bool force;
	unsigned only;     /* plot: PFS_PLOT_SVG or _PNG; 0: both */
	const char **paths; /* runs' */
	size_t npaths;
	unsigned formats;  /* what plot draws */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static int load_input(struct input *in, const char *path)
{
	char err[256];
	FILE *fp;
	int rc;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (pfs_archive_is_hdf5(path) != 0) { /* a results file, or unreadable: the loader says why */
		if (pfs_archive_load(path, &in->a))
			return -1;
		/* --label, where the run was given one, else the file. */
		snprintf(in->label, sizeof(in->label), "%s",
			 pfs_archive_get(&in->a, "label")[0] ? pfs_archive_get(&in->a, "label")
							     : base_name(path));
		/* Matrix runs are compared cell by cell (compare's diff), and
		 * drawn as heatmaps; compare's table would be one line. */
		in->a.ri.workload = pfs_workload_find(in->a.ri.workload_name);
		in->compared = !(in->a.ri.workload && in->a.ri.workload->reduce_matrix);
		return 0;
	}
	fp = pfs_fopen_regular(path, NULL);
	if (!fp)
		return pfs_error("cannot open '%s': %s", path, pfs_strerror_regular(errno));
	pfs_matrixfmt_init_perf(&in->m);
	rc = pfs_matrixfmt_read(fp, &in->m, err, sizeof(err));
	fclose(fp);
	if (rc)
		return pfs_error("'%s' is neither a results file nor a perf_matrix output (%s)", path,
				 err);
	in->is_matrix = true;
	snprintf(in->label, sizeof(in->label), "%s", base_name(path));
	return 0;
}

static void free_inputs(struct input *in, size_t n)
{
	for (size_t i = 0; in && i < n; i++)
		if (!in[i].is_matrix && in[i].path)
			pfs_archive_free(&in[i].a);
	free(in);
}

static int load_inputs(const struct args *args, struct input **out)
{
	struct input *in = calloc(args->npaths, sizeof(*in));

	*out = in;
	if (!in)
		return pfs_error("out of memory");
	for (size_t i = 0; i < args->npaths; i++)
		if (load_input(&in[i], args->paths[i]))
			return -1;
	return 0;
}

/* The script of every picture of the inputs. */
static int build_script(struct input *in, size_t n, unsigned formats, struct pfs_plot_script *s,
			char **script, size_t *len)
{
	struct pfs_membuf m = { 0 };
	const char **labels = calloc(n, sizeof(*labels));
	struct pfs_archive *runs = calloc(n, sizeof(*runs));
	size_t nruns = 0;
	int rc = -ENOMEM;

	*script = NULL;
	if (pfs_membuf_open(&m) || !labels || !runs)
		goto out;
	rc = pfs_plot_script_begin(s, m.fp, formats);
	for (size_t i = 0; i < n && !rc; i++) {
		char prefix[32] = "";

		if (n > 1)
			snprintf(prefix, sizeof(prefix), "r%zu-", i + 1);
		if (in[i].is_matrix) {
			rc = pfs_pictures_heatmap(s, &in[i].m, prefix, in[i].label);
			continue;
		}
		rc = pfs_pictures_run(s, &in[i].a, prefix, in[i].label);
		if (in[i].compared) {
			runs[nruns] = in[i].a;
			labels[nruns++] = in[i].label;
		}
	}
	if (!rc && nruns > 1)
		rc = pfs_pictures_compare(s, runs, nruns, labels);
	if (rc == -ENOMEM)
		pfs_error("out of memory");
	else if (rc && rc != -EINVAL)
		pfs_error("cannot write the pictures' script: %s", strerror(-rc));
out:
	if (m.fp && pfs_membuf_close(&m) && !rc)
		rc = pfs_error("out of memory");
	*script = m.buf;
	*len = m.len;
	free(labels);
	free(runs);
	return rc ? -1 : 0;
}

/* ---- gnuplot's files ------------------------------------------------------- */

static const char *const exts[] = { "svg", "png" };

/* Whether the name in the output directory may be written: a name that
 * exists is refused without --force, and with it refused unless it is a
 * file or a symbolic link (which placing replaces, never follows). Says
 * why not. */
static bool may_write(const struct pfs_outdir *od, const char *name, const char *shown,
		      bool force)
{
	mode_t m = pfs_outdir_lookup(od, name);

	if (!m)
		return true;
	if (S_ISDIR(m))
		pfs_error("'%s' is a directory: pfsbench replaces only files", shown);
	else if (!force)
		pfs_error("'%s' exists: remove it, choose another -o, or overwrite with --force",
			  shown);
	else if (!S_ISREG(m) && !S_ISLNK(m))
		pfs_error("'%s' is neither a file nor a symbolic link: pfsbench replaces only those",
			  shown);
	else
		return true;
	return false;
}

/* The file name of picture p in format e. */
static int pic_file(char *buf, size_t len, const struct pfs_plot_script *s, size_t p, unsigned e)
{
	return pfs_format(buf, len, "%s.%s", s->pics[p].name, exts[e]);
}

/* Checks every picture's name in the output directory (bad input: exit 2,
 * nothing made), then runs gnuplot in the private directory and places
 * its files. Returns an exit status. */
static int draw(struct pfs_outdir *od, const struct args *args, const struct pfs_plot_script *s,
		const char *gnuplot, const char *script, size_t len)
{
	char name[PATH_MAX], shown[PATH_MAX * 2];
	int rc;

	for (size_t p = 0; p < s->npics; p++)
		for (unsigned e = 0; e < 2; e++) {
			if (!(s->formats & (1u << e)) || pic_file(name, sizeof(name), s, p, e))
				continue;
			snprintf(shown, sizeof(shown), "%s/%s", args->out, name);
			if (!may_write(od, name, shown, args->force))
				return PFS_EXIT_USAGE;
		}
	if (pfs_outdir_make(od) || pfs_outdir_stage(od) ||
	    pfs_gnuplot_run(gnuplot, script, len, od->stage_fd))
		return PFS_EXIT_FAILED;
	for (size_t p = 0; p < s->npics; p++)
		for (unsigned e = 0; e < 2; e++) {
			if (!(s->formats & (1u << e)))
				continue;
			if (pic_file(name, sizeof(name), s, p, e))
				return pfs_error("a picture's name is too long"), PFS_EXIT_FAILED;
			rc = pfs_outdir_place(od, name, name, args->force);
			if (rc)
				return rc == -EEXIST ? PFS_EXIT_USAGE : PFS_EXIT_FAILED;
		}
	return PFS_EXIT_OK;
}

/* ---- the plot command ------------------------------------------------------------ */

#define A struct args
static const struct pfs_option plot_options[] = {
	PFS_OPT_POS_ALL(A, runs, "RUN.h5", 1, 0, "results files, or perf_matrix text outputs", 0),
	PFS_OPT_STR(A, out, "output", 'o', "DIR", "where the pictures go (made when missing)",
		    PFS_OPTF_REQUIRED),
	PFS_OPT_SETVAL(A, only, "svg", 0, PFS_PLOT_SVG, "SVG only", 0),
	PFS_OPT_SETVAL(A, only, "png", 0, PFS_PLOT_PNG, "PNG only", 0),
	PFS_OPT_FLAG(A, force, "force", 0, "overwrite pictures of the same names in DIR"),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};

static const struct pfs_option report_options[] = {
	PFS_OPT_POS_ALL(A, runs, "RUN.h5", 1, 0, "results files", 0),
	PFS_OPT_STR(A, out, "output", 'o', "FILE", "the page", PFS_OPTF_REQUIRED),
	PFS_OPT_FLAG(A, force, "force", 0, "overwrite an existing FILE"),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};
#undef A

/* -1 when the command goes on, else the exit status (see
 * pfs_command_parse). */
static int parse(int argc, char **argv, struct args *a, const struct pfs_command *cmd)
{
	int rc;

	memset(a, 0, sizeof(*a));
	rc = pfs_command_parse(cmd, a, argc, argv);
	a->paths = (const char **)a->runs.v;
	a->npaths = a->runs.n;
	a->formats = a->only ? a->only : PFS_PLOT_SVG | PFS_PLOT_PNG;
	return rc;
}

static int plot_main(int argc, char **argv)
{
	struct pfs_plot_script s = { 0 };
	struct pfs_outdir od;
	struct input *in = NULL;
	struct args args;
	char gnuplot[PATH_MAX], *script = NULL;
	size_t len = 0;
	bool placed = false; /* then kept, whatever happens to stdout */
	int rc = parse(argc, argv, &args, &pfs_command_plot), status = PFS_EXIT_USAGE;

	if (rc >= 0) {
		pfs_opts_free(plot_options, &args);
		return rc;
	}
	/* -o is opened once, here; all that follows goes by its descriptor. */
	if (pfs_outdir_open(&od, args.out))
		goto out;
	if (pfs_gnuplot_find(gnuplot, sizeof(gnuplot))) {
		pfs_gnuplot_missing("plot");
		goto out;
	}
	status = PFS_EXIT_FAILED;
	if (load_inputs(&args, &in) || build_script(in, args.npaths, args.formats, &s, &script, &len))
		goto out;
	if (!s.npics) {
		pfs_error("nothing to draw: the files hold no rows");
		goto out;
	}
	status = draw(&od, &args, &s, gnuplot, script, len);
	if (status != PFS_EXIT_OK)
		goto out;
	placed = true;
	for (size_t p = 0; p < s.npics; p++)
		for (unsigned e = 0; e < 2; e++)
			if (s.formats & (1u << e))
				printf("%s/%s.%s\n", args.out, s.pics[p].name, exts[e]);
	if (fflush(stdout))
		status = PFS_EXIT_FAILED;
out:
	pfs_outdir_close(&od, status != PFS_EXIT_OK && !placed);
	free_inputs(in, args.npaths);
	pfs_plot_script_free(&s);
	free(script);
	pfs_opts_free(plot_options, &args);
	return status;
}

/* ---- the report command ---------------------------------------------------------- */

/* A capture of what a command writes to a FILE *. */
static int capture_open(struct pfs_membuf *c)
{
	return pfs_membuf_open(c) ? pfs_error("out of memory") : 0;
}

/* What it wrote, as a string (free() it); NULL when out of memory or when
 * it failed (rc). */
static char *capture_close(struct pfs_membuf *c, int rc)
{
	if (pfs_membuf_close(c))
		return NULL;
	if (rc) {
		free(c->buf);
		return NULL;
	}
	return c->buf;
}

/* The page stays a page whatever the run's size (docs/plot.md, "Big
 * runs"): a text of more than this many bytes is cut at a line's end,
 * and the provenance lists this many nodes at most. */
#define REPORT_TEXT_MAX (1u << 20)
#define REPORT_NODES_MAX 256u

/* Cuts text after its last whole line within REPORT_TEXT_MAX, saying how
 * much was left out and which show (its options, opts) prints the whole. */
static void cut_text(char *text, char *note, size_t len, const char *opts, const char *path)
{
	size_t n = strlen(text), keep;

	note[0] = '\0';
	if (n <= REPORT_TEXT_MAX)
		return;
	for (keep = REPORT_TEXT_MAX; keep > 0 && text[keep - 1] != '\n'; keep--)
		;
	text[keep] = '\0';
	snprintf(note, len, "The first %zu of %zu bytes; pfsbench show %s '%s' prints all.", keep,
		 n, opts, path);
}

static void provenance(FILE *out, const struct pfs_archive *a)
{
	fputs("<details><summary>Provenance: what was measured, on what, with what</summary>\n"
	      "<table>\n",
	      out);
	for (size_t i = 0; i < a->nprov; i++) {
		fputs("<tr><th>", out);
		pfs_html_text(out, a->prov[i].key);
		fputs("</th><td>", out);
		pfs_html_text(out, a->prov[i].value);
		fputs("</td></tr>\n", out);
	}
	for (size_t i = 0; i < a->nparams; i++) {
		fputs("<tr><th>parameter ", out);
		pfs_html_text(out, a->params[i].key);
		fputs("</th><td>", out);
		pfs_html_text(out, a->params[i].value);
		fputs("</td></tr>\n", out);
	}
	for (unsigned n = 0; n < a->nnodes && n < REPORT_NODES_MAX; n++) {
		char mem[32];

		snprintf(mem, sizeof(mem), "%.1f GiB", (double)a->nodes[n].mem_bytes / 1073741824.0);
		fprintf(out, "<tr><th>node %u</th><td>", n + 1);
		pfs_html_text(out, a->nodes[n].name);
		fputs(" (", out);
		pfs_html_text(out, a->nodes[n].addr);
		fprintf(out, ", %u workers, %s, kernel ", a->nodes[n].nworkers, mem);
		pfs_html_text(out, a->nodes[n].kernel);
		fputs(")</td></tr>\n", out);
	}
	if (a->nnodes > REPORT_NODES_MAX)
		fprintf(out, "<tr><th>nodes</th><td>the first %u of %u</td></tr>\n", REPORT_NODES_MAX,
			a->nnodes);
	fputs("</table></details>\n", out);
}

/* The SVG gnuplot wrote, inline, then removed (the report made it). */
static int figure(FILE *out, struct pfs_outdir *od, const struct pfs_plot_picture *p)
{
	char name[PATH_MAX], *svg = NULL;
	size_t len;
	int rc;

	if (pfs_format(name, sizeof(name), "%s.svg", p->name))
		return pfs_error("a picture's name is too long");
	rc = pfs_outdir_take(od, name, &svg, &len);
	if (rc)
		return pfs_error("cannot read '%s' that gnuplot wrote: %s", name, strerror(-rc));
	pfs_html_figure(out, "image/svg+xml", svg, len, p->caption);
	free(svg);
	return 0;
}

/* The pictures of the prefix (a run's, or the comparison). */
static int figures(FILE *out, struct pfs_outdir *dir, const struct pfs_plot_script *s, const char *prefix,
		   bool *used)
{
	size_t n = strlen(prefix);

	for (size_t p = 0; p < s->npics; p++) {
		if (used[p] || strncmp(s->pics[p].name, prefix, n))
			continue;
		used[p] = true;
		if (figure(out, dir, &s->pics[p]))
			return -1;
	}
	return 0;
}

/* A run: what it is, its analysis, its pictures, its text report, its
 * provenance (folded: it is long). */
static int run_section(FILE *out, struct input *in, size_t i, size_t n, struct pfs_outdir *dir,
		       const struct pfs_plot_script *s, bool *used, const char *gnuplot_note)
{
	const struct pfs_archive *a = &in->a;
	char prefix[32] = "", *report = NULL, *analysis = NULL, cut[PATH_MAX + 128];
	struct pfs_row_budget rows = { .lines_max = PFS_SHOW_ROWS_MAX, .path = in->path };
	struct pfs_membuf c;
	int rc = -1;

	if (n > 1)
		snprintf(prefix, sizeof(prefix), "r%zu-", i + 1);
	if (!in->is_matrix) {
		if (capture_open(&c))
			return -1;
		/* What show --latency prints, and --fs-stats where the run
		 * recorded the filesystem's own counters: its first rows. */
		report = capture_close(&c, pfs_show_report(c.fp, &in->a, true, in->a.nfsstats > 0,
							   &rows));
		if (!report || capture_open(&c))
			goto out;
		analysis = capture_close(&c, pfs_show_analysis(c.fp, a));
		if (!analysis)
			goto out;
	}
	fprintf(out, "<section id=\"run%zu\">\n<h2>", i + 1);
	pfs_html_text(out, in->label);
	fputs("</h2>\n<p>", out);
	pfs_html_text(out, in->path);
	if (in->is_matrix) {
		fputs(": a perf_matrix output.</p>\n", out);
	} else {
		fputs(": ", out);
		pfs_html_text(out, pfs_archive_get(a, "workload"));
		fputs(" on ", out);
		pfs_html_text(out, pfs_archive_get(a, "fstype"));
		fputs(" ", out);
		pfs_html_text(out, pfs_archive_get(a, "mount_point"));
		fprintf(out, ", %u node%s, %s.</p>\n", a->nnodes, a->nnodes == 1 ? "" : "s",
			a->status == PFS_RUN_COMPLETE ? "complete" : "aborted");
		if (analysis[0]) {
			fputs("<h3>Analysis</h3>\n", out);
			cut_text(analysis, cut, sizeof(cut), "--analyze", in->path);
			pfs_html_pre(out, analysis);
		}
	}
	if (gnuplot_note)
		fprintf(out, "<p class=\"note\">%s</p>\n", gnuplot_note);
	if (figures(out, dir, s, prefix, used))
		goto out;
	if (!in->is_matrix) {
		fputs("<h3>Report</h3>\n", out);
		cut_text(report, cut, sizeof(cut),
			 a->nfsstats ? "--all --latency --fs-stats" : "--all --latency", in->path);
		if (cut[0]) {
			fputs("<p class=\"note\">", out);
			pfs_html_text(out, cut);
			fputs("</p>\n", out);
		}
		pfs_html_pre(out, report);
		provenance(out, a);
	}
	fputs("</section>\n", out);
	rc = 0;
out:
	free(report);
	free(analysis);
	return rc;
}

static int compare_section(FILE *out, struct input *in, size_t n, struct pfs_outdir *dir,
			   const struct pfs_plot_script *s, bool *used)
{
	struct pfs_archive *runs = calloc(n, sizeof(*runs));
	const char **paths = calloc(n, sizeof(*paths));
	size_t nruns = 0;
	struct pfs_membuf c;
	char *text = NULL;
	int rc = -1;

	if (!runs || !paths) {
		pfs_error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (in[i].compared) {
			runs[nruns] = in[i].a;
			paths[nruns++] = in[i].path;
		}
	rc = 0;
	if (nruns < 2)
		goto out;
	rc = -1;
	if (capture_open(&c))
		goto out;
	struct pfs_cmp_opts o = { PFS_CMP_TEXT, false, PFS_CMP_MARGIN, 0, false };

	text = capture_close(&c, pfs_compare_print(c.fp, runs, paths, nruns, &o));
	if (!text)
		goto out;
	fputs("<section id=\"compare\">\n<h2>Comparison</h2>\n", out);
	pfs_html_pre(out, text);
	rc = figures(out, dir, s, "compare", used);
	fputs("</section>\n", out);
out:
	free(text);
	free(runs);
	free(paths);
	return rc;
}

static int write_page(FILE *out, struct input *in, size_t n, struct pfs_outdir *dir,
		      const struct pfs_plot_script *s, const char *gnuplot_note)
{
	bool *used = calloc(s->npics ? s->npics : 1, sizeof(*used));
	char title[256];
	size_t compared = 0;
	int rc = 0;

	if (!used)
		return pfs_error("out of memory");
	for (size_t i = 0; i < n; i++)
		compared += in[i].compared;
	snprintf(title, sizeof(title), "pfsbench report: %s%s", in[0].label,
		 n > 1 ? " and more" : "");
	pfs_html_begin(out, title);
	fputs("<header><h1>pfsbench report</h1>\n<nav><ul>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<li><a href=\"#run%zu\">", i + 1);
		pfs_html_text(out, in[i].label);
		fputs("</a></li>\n", out);
	}
	if (compared > 1)
		fputs("<li><a href=\"#compare\">Comparison</a></li>\n", out);
	fputs("</ul></nav></header>\n", out);
	for (size_t i = 0; i < n && !rc; i++)
		rc = run_section(out, &in[i], i, n, dir, s, used, gnuplot_note);
	if (!rc && compared > 1)
		rc = compare_section(out, in, n, dir, s, used);
	fprintf(out, "<footer><p>Written by pfsbench %s (docs/plot.md).</p></footer>\n",
		PACKAGE_VERSION);
	pfs_html_end(out);
	free(used);
	return rc;
}

/* The page's name in the private directory until it is placed: not a
 * picture's (those have no leading dot). */
#define PAGE_STAGED ".page"

static int report_main(int argc, char **argv)
{
	struct pfs_plot_script s = { 0 };
	struct pfs_outdir od;
	struct input *in = NULL;
	struct args args;
	char gnuplot[PATH_MAX], *script = NULL;
	const char *note = NULL, *name;
	size_t len = 0;
	FILE *out = NULL;
	bool placed = false; /* then kept, whatever happens to stdout */
	int rc = parse(argc, argv, &args, &pfs_command_report), status = PFS_EXIT_USAGE, fd;

	if (rc >= 0) {
		pfs_opts_free(report_options, &args);
		return rc;
	}
	/* The page's directory is opened once, here; all that follows goes
	 * by its descriptor. */
	if (pfs_outdir_open_file(&od, args.out, &name) || !may_write(&od, name, args.out, args.force))
		goto out;
	status = PFS_EXIT_FAILED;
	if (load_inputs(&args, &in) || build_script(in, args.npaths, PFS_PLOT_SVG, &s, &script, &len) ||
	    pfs_outdir_stage(&od))
		goto out;
	if (pfs_gnuplot_find(gnuplot, sizeof(gnuplot))) {
		/* The page is still worth having: the text says the most. */
		pfs_warn("report: gnuplot is not installed, so the page has no pictures: install "
			 "Debian's %s (apt-get install %s)",
			 PFS_GNUPLOT_PACKAGE, PFS_GNUPLOT_PACKAGE);
		note = "No pictures: gnuplot was not installed where this report was written "
		       "(Debian's gnuplot-nox).";
		s.npics = 0;
	} else if (s.npics && pfs_gnuplot_run(gnuplot, script, len, od.stage_fd)) {
		goto out;
	}
	fd = pfs_outdir_create(&od, PAGE_STAGED);
	if (fd < 0)
		goto out;
	if (!(out = fdopen(fd, "w"))) {
		pfs_error("cannot write '%s': %s", args.out, strerror(errno));
		close(fd);
		goto out;
	}
	rc = write_page(out, in, args.npaths, &od, &s, note);
	if (ferror(out) | fclose(out) || rc) {
		out = NULL;
		if (!rc)
			pfs_error("cannot write '%s': %s", args.out, strerror(errno));
		goto out;
	}
	out = NULL;
	rc = pfs_outdir_place(&od, PAGE_STAGED, name, args.force);
	if (rc) {
		status = rc == -EEXIST ? PFS_EXIT_USAGE : PFS_EXIT_FAILED;
		goto out;
	}
	placed = true;
	printf("%s\n", args.out);
	status = fflush(stdout) ? PFS_EXIT_FAILED : PFS_EXIT_OK;
out:
	if (out)
		fclose(out);
	pfs_outdir_close(&od, status != PFS_EXIT_OK && !placed);
	free_inputs(in, args.npaths);
	pfs_plot_script_free(&s);
	free(script);
	pfs_opts_free(report_options, &args);
	return status;
}

const struct pfs_command pfs_command_plot = {
	.name = "plot",
	.summary = "draw the pictures of results files (gnuplot): SVG and PNG",
	.synopsis = "RUN.h5 [MORE.h5 ...] -o DIR [--svg | --png] [--force]",
	.about = "Draw the pictures of results files with gnuplot, as SVG and PNG files in DIR:\n"
		 "each op's rate per node and worker, the timeline of the steps with the barrier\n"
		 "waits, the rate over time, the latency CDFs, and for several runs their\n"
		 "comparison. A perf_matrix text output is drawn as a heatmap (docs/plot.md).\n",
	.options = plot_options,
	.opts_size = sizeof(struct args),
	.main = plot_main,
};

const struct pfs_command pfs_command_report = {
	.name = "report",
	.summary = "write a self-contained HTML report of results files",
	.synopsis = "RUN.h5 [MORE.h5 ...] -o FILE.html [--force]",
	.about = "Write one self-contained HTML page (no network, pictures inline): each run's\n"
		 "provenance, text report and pictures, and for several runs the comparison.\n",
	.options = report_options,
	.opts_size = sizeof(struct args),
	.main = report_main,
};
