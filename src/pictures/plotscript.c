/* plotscript.c: gnuplot scripts for pfsbench's pictures; see
 * include/pfsbench/pictures/plotscript.h. A picture is its data blocks (numbers
 * only, written once) and a body of commands, written once per format
 * after the terminal and the output file are set. Names from a results
 * file pass through pfs_plot_safe before they are quoted. */
#include "pfsbench/pictures/plotscript.h"
#include "pfsbench/core/util.h"
#include "pfsbench/formats/matrixfmt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Tableau's ten, less its red, which marks the slow. */
static const unsigned palette[] = { 0x1f77b4, 0xff7f0e, 0x2ca02c, 0x9467bd, 0x8c564b,
				    0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f, 0xaec7e8 };
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))
#define SLOW_COLOUR 0xd62728u
/* The factor of a node that stalled (infinitely slower), as the data say it. */
#define STALLED 1e300
#define WAIT_COLOUR 0x999999u
/* More lanes than this and a picture labels only each node's first. */
#define LANE_LABELS_MAX 48
/* More nodes than this and the rate-over-time legend is left out. */
#define LEGEND_NODES_MAX 16

/* ---- the script ----------------------------------------------------------- */

int pfs_plot_script_begin(struct pfs_plot_script *s, FILE *fp, unsigned formats)
{
	memset(s, 0, sizeof(*s));
	if (!(formats & (PFS_PLOT_SVG | PFS_PLOT_PNG)))
		return -EINVAL;
	s->fp = fp;
	s->formats = formats;
	fputs("# pfsbench: pictures of results files (docs/plot.md)\n", fp);
	return 0;
}

void pfs_plot_script_free(struct pfs_plot_script *s)
{
	free(s->pics);
	memset(s, 0, sizeof(*s));
}

/* src as gnuplot may see it in a quoted string, cut at cap - 1 bytes. */
static void safe_cut(char *dst, size_t len, const char *src, size_t cap)
{
	static const char keep[] = " ._-+=/:,()[]#";
	size_t n = 0, max = len ? len - 1 : 0;

	if (!len)
		return;
	if (max > cap - 1)
		max = cap - 1;
	for (; *src && n < max; src++) {
		unsigned char c = (unsigned char)*src;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  (c && strchr(keep, c));

		dst[n++] = ok ? (char)c : '?';
	}
	if (*src && max > 6)
		memcpy(dst + max - 3, "...", 3);
	dst[n] = 0;
}

void pfs_plot_safe(char *dst, size_t len, const char *src)
{
	safe_cut(dst, len, src, PFS_PLOT_LABEL_MAX);
}

void pfs_plot_script_about(struct pfs_plot_script *s, const char *what, const char *about)
{
	pfs_plot_safe(s->what, sizeof(s->what), what);
	safe_cut(s->about, sizeof(s->about), about, sizeof(s->about));
}

static bool name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= PFS_PLOT_NAME_MAX)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
			return false;
	return true;
}

/* A data block's name: $d<picture>_<k>. */
static void block_name(char *buf, size_t len, const struct pfs_plot_script *s, size_t k)
{
	snprintf(buf, len, "$d%zu_%zu", s->npics, k);
}

/* Writes the body once per format, after its terminal and output. */
static int picture(struct pfs_plot_script *s, const char *name, const char *caption, unsigned width,
		   unsigned height, const char *body)
{
	struct pfs_plot_picture *p;

	if (s->npics == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct pfs_plot_picture *np = realloc(s->pics, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		s->pics = np;
		s->cap = cap;
	}
	p = &s->pics[s->npics];
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->caption, sizeof(p->caption), "%s", caption ? caption : "");
	if (s->formats & PFS_PLOT_SVG)
		fprintf(s->fp,
			"set terminal svg size %u,%u noenhanced font 'sans,11' background '#ffffff'\n"
			"set output '%s.svg'\n%sunset output\n",
			width, height, name, body);
	if (s->formats & PFS_PLOT_PNG)
		fprintf(s->fp,
			"set terminal pngcairo size %u,%u noenhanced font 'sans,10' background '#ffffff'\n"
			"set output '%s.png'\n%sunset output\n",
			width, height, name, body);
	s->npics++;
	return ferror(s->fp) ? -EIO : 0;
}

/* A body is built in memory (pfs_membuf), then written once per format. */
static int body_open(struct pfs_membuf *b)
{
	if (pfs_membuf_open(b))
		return -ENOMEM;
	/* Each picture starts from gnuplot's defaults, whatever came before.
	 * A NaN in a block is a gap: "($2)" makes it undefined, which breaks
	 * a line, where "2" would join its neighbours. */
	fputs("reset\n", b->fp);
	return 0;
}

/* ---- the heading inside each picture ------------------------------------------- */

/* Its lines are drawn in this font, about this many pixels apart and
 * with characters about this wide on average (tenths of a pixel). */
#define HEADING_FONT "',12'"
#define HEADING_LINE_PX 19u
#define HEADING_CHAR_DPX 75u

/* What a heading takes of its picture: the picture is made this much
 * taller, and at least this wide, so that no line of it is cut. */
struct heading_size {
	unsigned height, width;
};

static unsigned at_least(unsigned v, unsigned min)
{
	return v < min ? min : v;
}

/* Opens the multiplot of rows x cols panels with the picture's heading as
 * its title, which gnuplot makes room for above the panels: the title
 * (what, headed by the workload), the subtitle (which run,
 * pfs_plot_script_about) and the notes, '\n' between lines, one for each
 * mark the picture uses. Every picture is a multiplot, of one panel or
 * more, so that every one carries its heading the same way. Returns the
 * room the heading takes (struct heading_size). The title and
 * the notes are the callers' words around names already safe, without
 * quotes (tests/unit/test_plotscript.c checks they balance). */
static struct heading_size heading(FILE *fp, const struct pfs_plot_script *s, size_t rows,
				   size_t cols, const char *title, const char *notes)
{
	unsigned lines = 1 + (s->about[0] != 0);
	size_t longest = strlen(s->what) + 2 + strlen(title), line = 0;

	longest = strlen(s->about) > longest ? strlen(s->about) : longest;
	fprintf(fp, "set multiplot layout %zu,%zu title \"%s%s%s%s%s", rows, cols, s->what,
		s->what[0] ? ": " : "", title, s->about[0] ? "\\n" : "", s->about);
	for (const char *p = notes; p && *p; p++) {
		if (p == notes || p[-1] == '\n') {
			fputs("\\n", fp);
			lines++;
			line = 0;
		}
		if (*p != '\n')
			fputc(*p, fp);
		longest = ++line > longest ? line : longest;
	}
	fputs("\" font " HEADING_FONT "\n", fp);
	return (struct heading_size){ lines * HEADING_LINE_PX + 8,
				      (unsigned)(longest * HEADING_CHAR_DPX / 10 + 40) };
}

/* Appends a note line to notes (len bytes), cut if it does not fit. */
static void note(char *notes, size_t len, const char *line)
{
	size_t n = strlen(notes);

	if (n + 2 < len)
		snprintf(notes + n, len - n, "%s%s", n ? "\n" : "", line);
}

/* The units of a picture's panels, as its title says them: "files/s" or
 * "files/s, MiB/s". */
static void units_text(char *buf, size_t len, const bool *seen)
{
	buf[0] = 0;
	for (int u = 0; u < PFS_UNIT_COUNT; u++)
		if (seen[u]) {
			size_t n = strlen(buf);

			snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				 pfs_unit_rate_label((enum pfs_unit)u));
		}
}

/* ---- lanes on an axis -------------------------------------------------------- */

static bool node_late(const struct pfs_plot_flag *flags, size_t nflags, uint32_t node)
{
	for (size_t i = 0; i < nflags; i++)
		if (flags[i].node_index == node && !flags[i].op[0])
			return true;
	return false;
}

/* "set Xtics ("n1 w1" 0, ...)": every lane, or each node's first when
 * there are too many to read. */
/* Returns the length of the longest label written. */
static size_t lane_tics(FILE *fp, const char *axis, const struct pfs_plot_lane *lanes,
			size_t nlanes, const struct pfs_plot_flag *flags, size_t nflags)
{
	char node[PFS_PLOT_LABEL_MAX], label[PFS_PLOT_LABEL_MAX + 32];
	bool first = true;
	size_t longest = 0;

	fprintf(fp, "set %s (", axis);
	for (size_t l = 0; l < nlanes; l++) {
		bool node_first = !l || lanes[l].node_index != lanes[l - 1].node_index;

		if (nlanes > LANE_LABELS_MAX && !node_first)
			continue;
		pfs_plot_safe(node, sizeof(node), lanes[l].node);
		/* worker 0: the node's workers together (pfs_plot_thin) */
		if (lanes[l].worker)
			snprintf(label, sizeof(label), "%s w%u%s", node, lanes[l].worker,
				 node_late(flags, nflags, lanes[l].node_index) ? " (late)" : "");
		else
			snprintf(label, sizeof(label), "%s (all)%s", node,
				 node_late(flags, nflags, lanes[l].node_index) ? " (late)" : "");
		fprintf(fp, "%s\"%s\" %zu", first ? "" : ", ", label, l);
		longest = strlen(label) > longest ? strlen(label) : longest;
		first = false;
	}
	fputs(")\n", fp);
	return longest;
}

/* The index of s among names (the first nnames), added when new. */
static size_t intern(const char **names, size_t *nnames, const char *s)
{
	for (size_t i = 0; i < *nnames; i++)
		if (!strcmp(names[i], s))
			return i;
	names[*nnames] = s;
	return (*nnames)++;
}

/* ---- timeline --------------------------------------------------------------- */

int pfs_plot_timeline_script(struct pfs_plot_script *s, const char *name, const char *caption,
			     const struct pfs_plot_lane *lanes, size_t nlanes,
			     const struct pfs_plot_bar *bars, size_t nbars,
			     const struct pfs_plot_flag *flags, size_t nflags)
{
	const char **ops = malloc((nbars ? nbars : 1) * sizeof(*ops));
	size_t nops = 0, npanels = 0;
	char blk[32], label[PFS_PLOT_LABEL_MAX];
	char notes[256] = "";
	struct pfs_membuf b;
	struct heading_size head;
	bool any_wait = false, any_late = false;
	double lm;
	int rc;

	if (!ops)
		return -ENOMEM;
	if (!name_ok(name) || !nbars || !nlanes) {
		free(ops);
		return -EINVAL;
	}
	for (size_t i = 0; i < nbars; i++)
		intern(ops, &nops, bars[i].op);
	if (body_open(&b)) {
		free(ops);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nbars; i++) {
		npanels += !i || strcmp(bars[i].test, bars[i - 1].test);
		any_wait |= pfs_plot_wait_us(&bars[i]) > 0;
	}
	for (size_t l = 0; l < nlanes; l++)
		any_late |= node_late(flags, nflags, lanes[l].node_index);
	if (any_wait)
		note(notes, sizeof(notes), "grey: the wait of a rank at the barrier until the last rank of the step was done");
	if (any_late)
		note(notes, sizeof(notes), "(late): a node show --analyze says leaves the barriers late");
	head = heading(b.fp, s, npanels, 1, "the steps of each test, a lane per node and worker (seconds)",
		       notes);
	fprintf(b.fp,
		"set xlabel 'seconds since the run began (one clock for all nodes)'\n"
		"set yrange [%f:-0.6]\nset grid xtics\n"
		"set key outside top right horizontal samplen 2\nset rmargin at screen 0.97\n",
		(double)nlanes - 0.4);
	/* The key above each panel and one left margin for all, wide enough
	 * for the longest lane label (about 7 pixels a character of the 1000),
	 * so the lanes line up from test to test. */
	lm = (7.0 * (double)lane_tics(b.fp, "ytics", lanes, nlanes, flags, nflags) + 20.0) / 1000.0;
	fprintf(b.fp, "set lmargin at screen %.3f\n", lm < 0.06 ? 0.06 : lm > 0.4 ? 0.4 : lm);
	for (size_t i = 0, j, panel = 0; i < nbars; i = j, panel++) {
		bool waits = false;

		for (j = i; j < nbars && !strcmp(bars[j].test, bars[i].test); j++)
			;
		/* The bars: start, end, lane, colour of the op. */
		block_name(blk, sizeof(blk), s, 2 * panel);
		fprintf(s->fp, "%s << EOD\n", blk);
		for (size_t k = i; k < j; k++)
			fprintf(s->fp, "%.6f %.6f %zu %u\n", (double)bars[k].start_us / 1e6,
				(double)bars[k].end_us / 1e6, bars[k].lane,
				palette[intern(ops, &nops, bars[k].op) % NPALETTE]);
		fputs("EOD\n", s->fp);
		/* The waits: from a bar's end to its step's end. */
		block_name(blk, sizeof(blk), s, 2 * panel + 1);
		fprintf(s->fp, "%s << EOD\n", blk);
		for (size_t k = i; k < j; k++)
			if (pfs_plot_wait_us(&bars[k])) {
				fprintf(s->fp, "%.6f %.6f %zu\n", (double)bars[k].end_us / 1e6,
					(double)bars[k].step_end_us / 1e6, bars[k].lane);
				waits = true;
			}
		fputs("EOD\n", s->fp);
		pfs_plot_safe(label, sizeof(label), bars[i].test);
		fprintf(b.fp, "set title \"test %s\"\nplot ", label);
		if (waits)
			fprintf(b.fp,
				"$d%zu_%zu using (($1+$2)/2):3:1:2:($3-0.42):($3+0.42) with boxxyerror "
				"fs transparent solid 0.35 noborder lc rgb '#%06x' title 'barrier wait', ",
				s->npics, 2 * panel + 1, WAIT_COLOUR);
		fprintf(b.fp,
			"$d%zu_%zu using (($1+$2)/2):3:1:2:($3-0.3):($3+0.3):4 with boxxyerror "
			"fs solid 0.9 noborder lc rgb variable notitle",
			s->npics, 2 * panel);
		/* The legend: each op of the panel, in its colour for the run. */
		for (size_t o = 0; o < nops; o++) {
			bool here = false;

			for (size_t k = i; k < j && !here; k++)
				here = !strcmp(bars[k].op, ops[o]);
			if (!here)
				continue;
			pfs_plot_safe(label, sizeof(label), ops[o]);
			fprintf(b.fp, ", NaN with boxes fs solid 0.9 lc rgb '#%06x' title \"%s\"",
				palette[o % NPALETTE], label);
		}
		fputc('\n', b.fp);
	}
	fputs("unset multiplot\n", b.fp);
	rc = pfs_membuf_close(&b);
	if (!rc)
		rc = picture(s, name, caption, at_least(1000, head.width),
			     (unsigned)(npanels * (110 + 22 * (nlanes < 60 ? nlanes : 60))) + head.height,
			     b.buf);
	free(b.buf);
	free(ops);
	return rc;
}

/* ---- rates per node and worker -------------------------------------------- */

int pfs_plot_rates_script(struct pfs_plot_script *s, const char *name, const char *caption,
			  const struct pfs_plot_lane *lanes, size_t nlanes,
			  const struct pfs_plot_rate *rates, size_t nrates)
{
	char blk[32], test[PFS_PLOT_LABEL_MAX], op[PFS_PLOT_LABEL_MAX], notes[400] = "", units[64],
		title[128];
	size_t ngroups = 0, cols, rows, pw;
	bool seen[PFS_UNIT_COUNT] = { false }, any_slow = false, too_short = false, unlike = false,
	     few = false;
	struct pfs_membuf b;
	struct heading_size head;
	int rc;

	if (!name_ok(name) || !nrates || !nlanes)
		return -EINVAL;
	for (size_t i = 0; i < nrates; i++) {
		ngroups += !i || rates[i].group != rates[i - 1].group;
		if ((int)rates[i].unit >= 0 && rates[i].unit < PFS_UNIT_COUNT)
			seen[rates[i].unit] = true;
		any_slow |= rates[i].slow > 0;
		too_short |= rates[i].withheld == PFS_PLOT_TOO_SHORT;
		unlike |= rates[i].withheld == PFS_PLOT_NOT_ALIKE;
		few |= rates[i].withheld == PFS_PLOT_FEW_NODES;
	}
	cols = ngroups < 4 ? ngroups : 4;
	rows = (ngroups + cols - 1) / cols;
	pw = 120 + 28 * nlanes;
	pw = pw < 260 ? 260 : pw > 900 ? 900 : pw;
	if (body_open(&b))
		return -ENOMEM;
	units_text(units, sizeof(units), seen);
	snprintf(title, sizeof(title), "the rate of each op per node and worker (%s)", units);
	if (any_slow)
		note(notes, sizeof(notes),
		     "red, Nx slower (or stalled): a node show --analyze names slow in that op, by the "
		     "rate of the median node / its rate");
	if (too_short)
		note(notes, sizeof(notes),
		     "hatched, not judged: steps < 10 ms: too short to time, no node judged slow "
		     "or even there");
	if (unlike)
		note(notes, sizeof(notes),
		     "hatched, not judged: no like steps of 3 nodes or more to set side by side, no "
		     "node judged there");
	if (few)
		note(notes, sizeof(notes),
		     "hatched, not judged: < 3 nodes: it takes 3 nodes or more to tell a slow one");
	head = heading(b.fp, s, rows, cols, title, notes);
	fprintf(b.fp,
		"set boxwidth 0.8\nset style fill solid 0.85 noborder\n"
		"set xrange [-0.6:%f]\nset yrange [0:*]\nset grid ytics\nset xtics rotate by 45 right\n"
		"set offsets 0,0,graph 0.12,0\n",
		(double)nlanes - 0.4);
	lane_tics(b.fp, "xtics", lanes, nlanes, NULL, 0);
	for (size_t i = 0, j, g = 0; i < nrates; i = j, g++) {
		bool slow = false;

		for (j = i; j < nrates && rates[j].group == rates[i].group; j++)
			slow |= rates[j].slow > 0;
		block_name(blk, sizeof(blk), s, g);
		fprintf(s->fp, "%s << EOD\n", blk);
		/* A node that stalled is slower by an infinite factor: written as
		 * a number gnuplot reads, and labelled "stalled" as show
		 * --analyze says it. */
		for (size_t k = i; k < j; k++)
			fprintf(s->fp, "%zu %.9g %u %.6g\n", rates[k].lane, rates[k].rate,
				rates[k].slow > 0 ? SLOW_COLOUR
						  : palette[lanes[rates[k].lane].node_index % NPALETTE],
				isfinite(rates[k].slow) ? rates[k].slow : STALLED);
		fputs("EOD\n", s->fp);
		pfs_plot_safe(test, sizeof(test), rates[i].test);
		pfs_plot_safe(op, sizeof(op), rates[i].op);
		/* Withheld: the bars hatched, and why written above them. */
		if (rates[i].withheld != PFS_PLOT_JUDGED)
			fprintf(b.fp,
				"set label 1 \"not judged: %s\" at graph 0.5, graph 0.95 center font ',9' "
				"tc rgb '#555555'\n",
				rates[i].withheld == PFS_PLOT_TOO_SHORT	  ? "steps < 10 ms"
				: rates[i].withheld == PFS_PLOT_FEW_NODES ? "< 3 nodes"
									  : "no like steps");
		else
			fputs("unset label 1\n", b.fp);
		fprintf(b.fp,
			"set title \"%s %s\"\nset ylabel '%s'\n"
			"plot %s using 1:2:3 with boxes lc rgb variable %snotitle",
			test, op, pfs_unit_rate_label(rates[i].unit), blk,
			rates[i].withheld != PFS_PLOT_JUDGED ? "fs pattern 4 border " : "");
		if (slow)
			fprintf(b.fp,
				", %s using 1:($4>0?$2:NaN):($4>=%g?'stalled':sprintf($4<10?'%%.1fx "
				"slower':'%%.0fx slower',$4)) with labels offset 0,0.8 tc rgb '#%06x' "
				"notitle",
				blk, STALLED, SLOW_COLOUR);
		fputc('\n', b.fp);
	}
	fputs("unset multiplot\n", b.fp);
	rc = pfs_membuf_close(&b);
	if (!rc)
		rc = picture(s, name, caption, at_least((unsigned)(cols * pw), head.width),
			     (unsigned)(rows * 300) + head.height, b.buf);
	free(b.buf);
	return rc;
}

/* ---- rate over time ----------------------------------------------------------- */

int pfs_plot_progress_script(struct pfs_plot_script *s, const char *name, const char *caption,
			     const struct pfs_plot_progress_panel *panels, size_t npanels,
			     const char *const *node_names)
{
	char blk[32], label[PFS_PLOT_LABEL_MAX], title[128];
	unsigned nnodes = npanels ? panels[0].p->nnodes : 0;
	struct heading_size head;
	struct pfs_membuf b;
	int rc;

	if (!name_ok(name) || !npanels || !nnodes)
		return -EINVAL;
	for (size_t k = 0; k < npanels; k++) {
		const struct pfs_plot_progress *p = panels[k].p;

		if (!p->nbins || p->nnodes != nnodes)
			return -EINVAL;
		block_name(blk, sizeof(blk), s, k);
		fprintf(s->fp, "%s << EOD\n", blk);
		for (size_t i = 0; i < p->nbins; i++) {
			fprintf(s->fp, "%.6f",
				((double)p->t0_us + ((double)i + 0.5) * (double)p->bin_us) / 1e6);
			for (unsigned n = 0; n < nnodes; n++) {
				double v = p->rate[(size_t)n * p->nbins + i];

				if (isnan(v))
					fputs(" NaN", s->fp);
				else
					fprintf(s->fp, " %.9g", v);
			}
			fputc('\n', s->fp);
		}
		fputs("EOD\n", s->fp);
	}
	if (body_open(&b))
		return -ENOMEM;
	snprintf(title, sizeof(title), "%s over time, a line per node, a panel per test",
		 pfs_unit_rate_label(panels[0].p->unit));
	head = heading(b.fp, s, npanels, 1, title, NULL);
	fprintf(b.fp, "set ylabel '%s'\nset yrange [0:*]\nset grid\nset key outside right top\n",
		pfs_unit_rate_label(panels[0].p->unit));
	for (size_t k = 0; k < npanels; k++) {
		pfs_plot_safe(label, sizeof(label), panels[k].test);
		fprintf(b.fp,
			"set title \"test %s\"\n"
			"set xlabel 'seconds since the run began (bins of %.3g ms)'\nplot ",
			label, (double)panels[k].p->bin_us / 1000.0);
		for (unsigned n = 0; n < nnodes; n++) {
			pfs_plot_safe(label, sizeof(label), node_names[n]);
			fprintf(b.fp, "%s$d%zu_%zu using 1:($%u) with lines lw 1.5 lc rgb '#%06x' ",
				n ? ", " : "", s->npics, k, n + 2, palette[n % NPALETTE]);
			if (nnodes > LEGEND_NODES_MAX)
				fputs("notitle", b.fp);
			else
				fprintf(b.fp, "title \"%s\"", label);
		}
		fputc('\n', b.fp);
	}
	fputs("unset multiplot\n", b.fp);
	rc = pfs_membuf_close(&b);
	if (!rc)
		rc = picture(s, name, caption, at_least(1000, head.width),
			     (unsigned)(npanels * 260) + head.height, b.buf);
	free(b.buf);
	return rc;
}

/* ---- latency CDF ------------------------------------------------------------- */

int pfs_plot_latency_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_plot_cdf_curve *curves, size_t ncurves)
{
	const char **ops = malloc((ncurves ? ncurves : 1) * sizeof(*ops));
	char blk[32], label[PFS_PLOT_LABEL_MAX];
	double lo = INFINITY, hi = 0;
	size_t npanels = 0, nops = 0;
	struct pfs_membuf b;
	struct heading_size head;
	int rc;

	if (!ops)
		return -ENOMEM;
	if (!name_ok(name) || !ncurves) {
		free(ops);
		return -EINVAL;
	}
	for (size_t c = 0; c < ncurves; c++) {
		const struct pfs_plot_cdf *d = curves[c].cdf;

		block_name(blk, sizeof(blk), s, c);
		fprintf(s->fp, "%s << EOD\n", blk);
		for (size_t i = 0; i < d->n; i++)
			fprintf(s->fp, "%.9g %.9g\n", d->x_us[i], d->y[i]);
		fputs("EOD\n", s->fp);
		npanels += !c || strcmp(curves[c].test, curves[c - 1].test);
		intern(ops, &nops, curves[c].op);
		if (d->n) {
			lo = d->x_us[0] < lo ? d->x_us[0] : lo;
			hi = d->x_us[d->n - 1] > hi ? d->x_us[d->n - 1] : hi;
		}
	}
	if (body_open(&b)) {
		free(ops);
		return -ENOMEM;
	}
	/* One x range for every panel, so tests compare at a glance. */
	lo = lo > 0.001 ? lo : 0.001;
	hi = hi > lo ? hi : lo * 10;
	head = heading(b.fp, s, npanels, 1,
		       "latency of each op, all iterations and ranks (CDF, us), a panel per test", NULL);
	fprintf(b.fp,
		"set logscale x\nset format x '%%g'\nset yrange [0:1]\n"
		"set xrange [%.9g:%.9g]\nset xlabel 'latency (us, log scale)'\n"
		"set ylabel 'fraction of items <= x'\nset grid\nset key outside right top\n",
		lo / 1.2, hi * 1.2);
	for (size_t c = 0, j; c < ncurves; c = j) {
		pfs_plot_safe(label, sizeof(label), curves[c].test);
		fprintf(b.fp, "set title \"test %s\"\nplot ", label);
		for (j = c; j < ncurves && !strcmp(curves[j].test, curves[c].test); j++) {
			pfs_plot_safe(label, sizeof(label), curves[j].op);
			fprintf(b.fp, "%s$d%zu_%zu using 1:2 with lines lw 1.5 lc rgb '#%06x' title \"%s\"",
				j > c ? ", " : "", s->npics, j,
				palette[intern(ops, &nops, curves[j].op) % NPALETTE], label);
		}
		fputc('\n', b.fp);
	}
	fputs("unset multiplot\n", b.fp);
	rc = pfs_membuf_close(&b);
	if (!rc)
		rc = picture(s, name, caption, at_least(1000, head.width),
			     (unsigned)(npanels * 280) + head.height, b.buf);
	free(b.buf);
	free(ops);
	return rc;
}

/* ---- several runs ----------------------------------------------------------- */

/* The y range of the comparison is its rates' range widened by this
 * factor each way: an interval from runs of few iterations can span
 * decades, and an axis stretched to hold it would flatten the rates. */
#define CMP_MARGIN 4.0

/* Whether every line has the same unit: then the axis says it once. */
static bool cmp_one_unit(const struct pfs_plot_cmp *c)
{
	for (size_t l = 1; l < c->nlines; l++)
		if (c->lines[l].unit != c->lines[0].unit)
			return false;
	return true;
}

int pfs_plot_compare_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_plot_cmp *c, const char *const *labels)
{
	char blk[32], test[PFS_PLOT_LABEL_MAX], op[PFS_PLOT_LABEL_MAX], notes[400] = "",
		title[160], base_label[PFS_PLOT_LABEL_MAX];
	double w, lo = INFINITY, hi = 0;
	bool one_unit, any_interval = false, any_cut = false, any_called = false;
	struct pfs_membuf b;
	struct heading_size head;
	int rc;

	if (!name_ok(name) || !c->nlines || c->nruns < 2)
		return -EINVAL;
	for (size_t k = 0; k < c->nlines * c->nruns; k++)
		if (pfs_plot_cmp_drawn(&c->cells[k])) {
			lo = c->cells[k].rate < lo ? c->cells[k].rate : lo;
			hi = c->cells[k].rate > hi ? c->cells[k].rate : hi;
		}
	if (!(hi > 0))
		return -EINVAL;
	one_unit = cmp_one_unit(c);
	w = 0.8 / (double)c->nruns;
	/* The marks this picture uses, to explain each in it: a whisker cut
	 * where its bound, on the base's rate, lies beyond the axis. */
	for (size_t l = 0; l < c->nlines; l++)
		for (size_t r = 1; r < c->nruns; r++) {
			const struct pfs_plot_cmp_cell *cell = &c->cells[l * c->nruns + r];
			const struct pfs_plot_cmp_cell *bc = &c->cells[l * c->nruns];

			if (!pfs_plot_cmp_drawn(cell))
				continue;
			any_called |= cell->called_out;
			if (!cell->interval || !(cell->low > 0) || !isfinite(cell->high) ||
			    !pfs_plot_cmp_drawn(bc) || !(cell->ratio > 0))
				continue;
			any_interval = true;
			any_cut |= bc->rate * cell->low < lo / CMP_MARGIN ||
				   bc->rate * cell->high > hi * CMP_MARGIN;
		}
	/* One block per run: x, its rate, the base's rate and compare's
	 * ratio (NaN where the base's rate is 0), the interval's bounds (NaN
	 * without one, and for the base) and whether it calls the change out. */
	for (size_t r = 0; r < c->nruns; r++) {
		block_name(blk, sizeof(blk), s, r);
		fprintf(s->fp, "%s << EOD\n", blk);
		for (size_t l = 0; l < c->nlines; l++) {
			const struct pfs_plot_cmp_cell *cell = &c->cells[l * c->nruns + r];
			const struct pfs_plot_cmp_cell *base = &c->cells[l * c->nruns];
			double x = (double)l - 0.4 + w * ((double)r + 0.5);

			/* A rate of 0 has no bar; against a base of 0, a rate
			 * has a bar but no ratio and no whisker. */
			if (!pfs_plot_cmp_drawn(cell))
				continue;
			fprintf(s->fp, "%.6f %.9g ", x, cell->rate);
			if (pfs_plot_cmp_drawn(base) && (!r || cell->ratio > 0))
				fprintf(s->fp, "%.9g %.9g ", base->rate, r ? cell->ratio : 1.0);
			else
				fputs("NaN NaN ", s->fp);
			if (r && cell->interval && cell->low > 0 && isfinite(cell->high))
				fprintf(s->fp, "%.9g %.9g %d\n", cell->low, cell->high,
					cell->called_out);
			else
				fprintf(s->fp, "NaN NaN %d\n", r ? cell->called_out : 0);
		}
		fputs("EOD\n", s->fp);
	}
	if (body_open(&b))
		return -ENOMEM;
	pfs_plot_safe(base_label, sizeof(base_label), labels[0]);
	snprintf(title, sizeof(title), "the rate of each op in %zu runs, against %s (%s, log scale)",
		 c->nruns, base_label, one_unit ? pfs_unit_rate_label(c->lines[0].unit) : "unit by op");
	if (any_interval) {
		char line[200];

		snprintf(line, sizeof(line),
			 "whiskers: the interval compare gives the ratio to %s, times the rate of %s",
			 base_label, base_label);
		note(notes, sizeof(notes), line);
	}
	if (any_cut)
		note(notes, sizeof(notes),
		     "triangle at the edge of the axis: a whisker cut there, going on beyond (the axis "
		     "spans the rates 4x each way)");
	if (any_called)
		note(notes, sizeof(notes), "*: a change compare calls out");
	head = heading(b.fp, s, 1, 1, title, notes);
	/* An interval's bound beyond the axis is drawn at the axis, with a
	 * triangle pointing on. */
	fprintf(b.fp,
		"cmp_lo = %.9g\ncmp_hi = %.9g\n"
		"cmp_clip(v) = v < cmp_lo ? cmp_lo : v > cmp_hi ? cmp_hi : v\n"
		"set logscale y 10\nset yrange [cmp_lo:cmp_hi]\nset xrange [-0.6:%f]\n"
		"set grid ytics\nset key outside top center horizontal\nset format y '%%g'\n"
		"set ylabel \"%s (log scale)\"\nset xtics rotate by 45 right\nset xtics (",
		lo / CMP_MARGIN, hi * CMP_MARGIN, (double)c->nlines - 0.4,
		one_unit ? pfs_unit_rate_label(c->lines[0].unit) : "rate per second, unit by each op");
	for (size_t l = 0; l < c->nlines; l++) {
		pfs_plot_safe(test, sizeof(test), c->lines[l].test);
		pfs_plot_safe(op, sizeof(op), c->lines[l].op);
		fprintf(b.fp, "%s\"%s %s%s%s%s\" %zu", l ? ", " : "", test, op, one_unit ? "" : " (",
			one_unit ? "" : pfs_unit_rate_label(c->lines[l].unit), one_unit ? "" : ")", l);
	}
	fputs(")\nplot ", b.fp);
	for (size_t r = 0; r < c->nruns; r++) {
		pfs_plot_safe(test, sizeof(test), labels[r]);
		fprintf(b.fp,
			"%s$d%zu_%zu using 1:2:($1-%f):($1+%f):(cmp_lo):2 with boxxyerror fs solid 0.8 "
			"noborder lc rgb '#%06x' title \"%s\"",
			r ? ", " : "", s->npics, r, w * 0.45, w * 0.45, palette[r % NPALETTE], test);
		if (!r)
			continue;
		fprintf(b.fp,
			", $d%zu_%zu using 1:2:(cmp_clip($3*$5)):(cmp_clip($3*$6)) with yerrorbars pt 7 ps 0.4 "
			"lc rgb '#000000' notitle, "
			"$d%zu_%zu using 1:($3*$6>cmp_hi?cmp_hi:NaN) with points pt 9 ps 1.1 "
			"lc rgb '#000000' notitle, "
			"$d%zu_%zu using 1:($3*$5<cmp_lo?cmp_lo:NaN) with points pt 11 ps 1.1 "
			"lc rgb '#000000' notitle, "
			"$d%zu_%zu using 1:($7>0?$2*1.6:NaN):('*') with labels font ',16' notitle",
			s->npics, r, s->npics, r, s->npics, r, s->npics, r);
	}
	fputs("\nunset multiplot\n", b.fp);
	rc = pfs_membuf_close(&b);
	if (!rc) {
		unsigned width = (unsigned)(160 + 22 * c->nruns * c->nlines);

		rc = picture(s, name, caption, at_least(at_least(width, 500), head.width),
			     460 + head.height, b.buf);
	}
	free(b.buf);
	return rc;
}

/* ---- matrix heatmap --------------------------------------------------------------- */

void pfs_plot_size_text(char *buf, size_t len, unsigned long long bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	unsigned u = 0;

	while (u < 6 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%s", bytes, units[u]);
}

int pfs_plot_heatmap_script(struct pfs_plot_script *s, const char *name, const char *caption,
			    const struct pfs_matrix *m)
{
	char blk[32], size[32];
	struct pfs_membuf b;
	struct heading_size head;
	int rc;

	if (!name_ok(name) || !m->rows || !m->cols || m->rows > PFS_MATRIXFMT_MAX ||
	    m->cols > PFS_MATRIXFMT_MAX)
		return -EINVAL;
	/* x y value: a cell that was not run (request over transfer) is NaN. */
	block_name(blk, sizeof(blk), s, 0);
	fprintf(s->fp, "%s << EOD\n", blk);
	for (unsigned r = 0; r < m->rows; r++) {
		for (unsigned c = 0; c < m->cols; c++) {
			bool run = m->req_bytes[c] <= m->xfer_bytes[r] && isfinite(m->mibps[r][c]);

			if (run)
				fprintf(s->fp, "%u %u %.9g\n", c, r, m->mibps[r][c]);
			else
				fprintf(s->fp, "%u %u NaN\n", c, r);
		}
		fputc('\n', s->fp);
	}
	fputs("EOD\n", s->fp);
	if (body_open(&b))
		return -ENOMEM;
	head = heading(b.fp, s, 1, 1, "MiB/s of each transfer and request size",
		       "blank cell: a request larger than its transfer, not run");
	fprintf(b.fp,
		"set xrange [-0.5:%f]\nset yrange [-0.5:%f]\nset xlabel 'request size'\n"
		"set ylabel 'transfer size'\nset cblabel 'MiB/s'\nset xtics rotate by 45 right\n"
		"set palette defined (0 '#f7fbff', 0.5 '#6baed6', 1 '#08306b')\nset tics nomirror\n",
		(double)m->cols - 0.5, (double)m->rows - 0.5);
	fputs("set xtics (", b.fp);
	for (unsigned c = 0; c < m->cols; c++) {
		pfs_plot_size_text(size, sizeof(size), (unsigned long long)m->req_bytes[c]);
		fprintf(b.fp, "%s'%s' %u", c ? ", " : "", size, c);
	}
	fputs(")\nset ytics (", b.fp);
	for (unsigned r = 0; r < m->rows; r++) {
		pfs_plot_size_text(size, sizeof(size), (unsigned long long)m->xfer_bytes[r]);
		fprintf(b.fp, "%s'%s' %u", r ? ", " : "", size, r);
	}
	/* "pixels": each cell a rectangle of its own. A plain image is
	 * embedded in an SVG as a bitmap of a pixel a cell, which browsers
	 * smooth into a gradient when they scale it up. */
	fprintf(b.fp,
		")\nplot %s using 1:2:3 with image pixels notitle, "
		"%s using 1:2:(valid(3) ? sprintf('%%.0f',$3) : '') with labels font ',8' notitle\n"
		"unset multiplot\n",
		blk, blk);
	rc = pfs_membuf_close(&b);
	if (!rc) {
		rc = picture(s, name, caption, at_least(120 + 64 * m->cols, head.width),
			     120 + 34 * m->rows + head.height, b.buf);
	}
	free(b.buf);
	return rc;
}
