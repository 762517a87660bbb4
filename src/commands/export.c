/* export.c: `pfsbench export FILE.h5 --csv|--json [--provenance]` writes a
 * results file as CSV (RFC 4180: CRLF lines, fields quoted when they hold a
 * comma, quote, CR or LF) or as one JSON document. The row columns and keys
 * come from pfs_row_fields; provenance keys from the file itself, so neither
 * needs code when the schema grows. */
#include "pfsbench/analysis/latency.h"
#include "pfsbench/archive/archive.h"
#include "pfsbench/commands/commands.h"
#include "pfsbench/commands/export.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/results.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- CSV ----------------------------------------------------------------- */

void pfs_csv_field(FILE *out, const char *s)
{
	char small[PFS_PRINTABLE_SIZE(256)], *big = NULL;
	size_t need = PFS_PRINTABLE_SIZE(strlen(s));
	const char *text;
	bool formula, quoted;

	/* Control characters escaped as for a terminal (pfs_printable): a CSV
	 * cell may hold a newline between quotes, but whoever reads it with
	 * cat or a spreadsheet should get no ESC, and no line of its making. */
	if (need > sizeof(small) && !(big = malloc(need)))
		text = "(out of memory)";
	else
		text = pfs_printable(big ? big : small, big ? need : sizeof(small), s);
	/* A spreadsheet runs a cell that starts with one of these as a
	 * formula (=HYPERLINK(...), =cmd|...): a leading quote, inside the
	 * cell, keeps it text. */
	formula = s[0] && strchr("=+-@\t\r", s[0]);
	quoted = text[strcspn(text, ",\"")] != 0;
	if (quoted)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (const char *c = text; *c; c++) {
		if (*c == '"')
			fputc('"', out);
		fputc(*c, out);
	}
	if (quoted)
		fputc('"', out);
	free(big);
}

/* A cell of ours: a number we formatted goes as it is (it stays a number
 * to a spreadsheet); text goes through pfs_csv_field. */
static void csv_value(FILE *out, const char *value, bool text)
{
	if (text)
		pfs_csv_field(out, value);
	else
		fputs(value, out);
}

/* Records described by a field table: a header line of field names, then
 * one line per record. */
static void csv_records(FILE *out, const struct pfs_field *fields, size_t nfields,
			const void *records, size_t size, size_t n)
{
	char num[32];

	for (size_t i = 0; i < nfields; i++) {
		if (i)
			fputc(',', out);
		pfs_csv_field(out, fields[i].name);
	}
	fputs("\r\n", out);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < nfields; i++) {
			if (i)
				fputc(',', out);
			csv_value(out, pfs_field_text(&fields[i], (const char *)records + r * size,
						      num, sizeof(num)),
				  fields[i].type == PFS_FIELD_STRING);
		}
		fputs("\r\n", out);
	}
}

static void csv_rows(FILE *out, const struct pfs_archive *a)
{
	csv_records(out, pfs_row_fields, pfs_row_nfields, a->rows, sizeof(*a->rows), a->nrows);
}

static void csv_pair(FILE *out, const char *key, const char *value, bool text)
{
	pfs_csv_field(out, key);
	fputc(',', out);
	csv_value(out, value, text);
	fputs("\r\n", out);
}

/* Provenance as key,value lines: the attributes, then "parameters.NAME",
 * then "nodes.I.FIELD". */
static void csv_provenance(FILE *out, const struct pfs_archive *a)
{
	char key[128], num[32];

	csv_pair(out, "key", "value", true);
	for (size_t i = 0; i < a->nprov; i++)
		csv_pair(out, a->prov[i].key, a->prov[i].value, a->prov[i].kind == PFS_VALUE_STRING);
	for (size_t i = 0; i < a->nparams; i++) {
		snprintf(key, sizeof(key), "parameters.%s", a->params[i].key);
		csv_pair(out, key, a->params[i].value, a->params[i].kind == PFS_VALUE_STRING);
	}
	for (unsigned n = 0; n < a->nnodes; n++)
		for (size_t i = 0; i < pfs_node_nfields; i++) {
			const struct pfs_field *f = &pfs_node_fields[i];

			snprintf(key, sizeof(key), "nodes.%u.%s", n, f->name);
			csv_pair(out, key, pfs_field_text(f, &a->nodes[n], num, sizeof(num)),
				 f->type == PFS_FIELD_STRING);
		}
}

/* ---- latency -------------------------------------------------------------- */

/* Latency summaries: per (test, iteration, op) over all ranks, then the
 * finest the file holds: per row (one rank's op in one step), or per node
 * and step in a file of --latency-detail node. */
static int lat_tables(const struct pfs_archive *a, struct pfs_lat_summary **all, size_t *nall,
		      struct pfs_lat_summary **per, size_t *nper)
{
	*per = NULL;
	if (pfs_lat_groups(a->rows, a->nrows, a->lat, a->nlat, PFS_LAT_BY_ITERATION, all, nall) ||
	    pfs_lat_groups(a->rows, a->nrows, a->lat, a->nlat,
			   pfs_lat_finest(a->ri.latency_detail), per, nper)) {
		free(*all);
		*all = NULL;
		return pfs_error("the latency histograms of the file are damaged");
	}
	return 0;
}

static const char *const lat_columns[] = { "test", "iteration", "op", "node_index", "rank", "step", "items",
					   "min_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns",
					   "max_ns", NULL };

/* The values of one summary, as text, in lat_columns' order. */
static void lat_values(const struct pfs_lat_summary *s, char v[][24])
{
	snprintf(v[0], 24, "%s", s->test);
	snprintf(v[1], 24, "%" PRIu32, s->iteration);
	snprintf(v[2], 24, "%s", s->op);
	if (s->node == PFS_LAT_ALL) {
		snprintf(v[3], 24, "all");
		snprintf(v[5], 24, "all");
	} else {
		snprintf(v[3], 24, "%" PRIu32, s->node);
		snprintf(v[5], 24, "%" PRIu32, s->step);
	}
	if (s->rank == PFS_LAT_ALL)
		snprintf(v[4], 24, "all");
	else
		snprintf(v[4], 24, "%" PRIu32, s->rank);
	snprintf(v[6], 24, "%" PRIu64, s->n);
	snprintf(v[7], 24, "%" PRIu64, s->min_ns);
	snprintf(v[8], 24, "%" PRIu64, s->p50_ns);
	snprintf(v[9], 24, "%" PRIu64, s->p90_ns);
	snprintf(v[10], 24, "%" PRIu64, s->p99_ns);
	snprintf(v[11], 24, "%" PRIu64, s->p999_ns);
	snprintf(v[12], 24, "%" PRIu64, s->max_ns);
}

static void csv_lat_lines(FILE *out, const struct pfs_lat_summary *s, size_t n)
{
	char v[13][24];

	for (size_t i = 0; i < n; i++) {
		lat_values(&s[i], v);
		for (size_t c = 0; lat_columns[c]; c++) {
			if (c)
				fputc(',', out);
			/* test and op are text, and so is "all" */
			csv_value(out, v[c], c == 0 || c == 2 || !strcmp(v[c], "all"));
		}
		fputs("\r\n", out);
	}
}

static int csv_latency(FILE *out, const struct pfs_archive *a)
{
	struct pfs_lat_summary *all, *per;
	size_t nall, nper;

	if (lat_tables(a, &all, &nall, &per, &nper))
		return -1;
	for (size_t c = 0; lat_columns[c]; c++) {
		if (c)
			fputc(',', out);
		pfs_csv_field(out, lat_columns[c]);
	}
	fputs("\r\n", out);
	csv_lat_lines(out, all, nall);
	csv_lat_lines(out, per, nper);
	free(all);
	free(per);
	return 0;
}

/* ---- JSON ---------------------------------------------------------------- */

void pfs_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	while (*s) {
		size_t n = pfs_utf8_len((const char *)s);

		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f)
			fprintf(out, "\\u%04x", *s);
		else if (pfs_utf8_is_c1((const char *)s, n))
			fprintf(out, "\\u%04x", s[1]);
		else if (pfs_utf8_moves_text((const char *)s, n)) /* the same character, escaped */
			fprintf(out, "\\u%04x",
				n == 2 ? (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu)
				       : (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu));
		else if (n)
			fwrite(s, 1, n, out);
		else
			fputs("\\ufffd", out); /* not UTF-8: JSON text must be */
		s += n ? n : 1;
	}
	fputc('"', out);
}

static void json_value(FILE *out, const char *value, enum pfs_value_kind kind)
{
	if (kind == PFS_VALUE_STRING)
		pfs_json_string(out, value);
	else
		fputs(value, out); /* digits, or true/false */
}

static void json_object(FILE *out, const struct pfs_kv *kv, size_t n, const char *indent)
{
	fputc('{', out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s\n%s", i ? "," : "", indent);
		pfs_json_string(out, kv[i].key);
		fputs(": ", out);
		json_value(out, kv[i].value, kv[i].kind);
	}
	fputs(n ? "\n  }" : "}", out);
}

/* One record (a row, a node) as a JSON object of its fields. */
static void json_record(FILE *out, const struct pfs_field *fields, size_t nfields,
			const void *record)
{
	char num[32];

	fputc('{', out);
	for (size_t i = 0; i < nfields; i++) {
		const struct pfs_field *f = &fields[i];

		fputs(i ? ", " : "", out);
		pfs_json_string(out, f->name);
		fputs(": ", out);
		json_value(out, pfs_field_text(f, record, num, sizeof(num)),
			   f->type == PFS_FIELD_STRING ? PFS_VALUE_STRING : PFS_VALUE_UINT);
	}
	fputc('}', out);
}

static void json_rows(FILE *out, const struct pfs_archive *a)
{
	fputs("  \"units\": {", out);
	for (size_t i = 0; i < pfs_row_nfields; i++) {
		fputs(i ? ", " : "", out);
		pfs_json_string(out, pfs_row_fields[i].name);
		fputs(": ", out);
		pfs_json_string(out, pfs_row_fields[i].unit);
	}
	fputs("},\n  \"rows\": [", out);
	for (size_t r = 0; r < a->nrows; r++) {
		fputs(r ? ",\n    " : "\n    ", out);
		json_record(out, pfs_row_fields, pfs_row_nfields, &a->rows[r]);
	}
	fputs(a->nrows ? "\n  ]" : "]", out);
}

static void json_lat_list(FILE *out, const struct pfs_lat_summary *s, size_t n, bool *first)
{
	char v[13][24];

	for (size_t i = 0; i < n; i++) {
		lat_values(&s[i], v);
		fputs(*first ? "\n    {" : ",\n    {", out);
		*first = false;
		for (size_t c = 0; lat_columns[c]; c++) {
			fprintf(out, "%s\"%s\": ", c ? ", " : "", lat_columns[c]);
			/* test and op are text, and so is "all" */
			if (c == 0 || c == 2 || !strcmp(v[c], "all"))
				pfs_json_string(out, v[c]);
			else
				fputs(v[c], out);
		}
		fputc('}', out);
	}
}

static int json_latency(FILE *out, const struct pfs_archive *a)
{
	struct pfs_lat_summary *all, *per;
	size_t nall, nper;
	bool first = true;

	if (lat_tables(a, &all, &nall, &per, &nper))
		return -1;
	fputs(",\n  \"latency\": [", out);
	json_lat_list(out, all, nall, &first);
	json_lat_list(out, per, nper, &first);
	fputs(first ? "]" : "\n  ]", out);
	free(all);
	free(per);
	return 0;
}

static int json_document(FILE *out, const struct pfs_archive *a, bool rows)
{
	int rc = 0;

	fprintf(out, "{\n  \"schema\": \"%s\",\n  \"schema_version\": %u,\n  \"provenance\": ",
		PFS_SCHEMA_NAME, a->schema_version);
	json_object(out, a->prov, a->nprov, "    ");
	fputs(",\n  \"parameters\": ", out);
	json_object(out, a->params, a->nparams, "    ");
	fputs(",\n  \"nodes\": [", out);
	for (unsigned n = 0; n < a->nnodes; n++) {
		fputs(n ? ",\n    " : "\n    ", out);
		json_record(out, pfs_node_fields, pfs_node_nfields, &a->nodes[n]);
	}
	fputs(a->nnodes ? "\n  ]" : "]", out);
	if (rows) {
		fputs(",\n", out);
		json_rows(out, a);
		rc = json_latency(out, a);
	}
	fputs("\n}\n", out);
	return rc;
}

int pfs_export_write(FILE *out, const struct pfs_archive *a, enum pfs_export_kind kind)
{
	switch (kind) {
	case PFS_EXPORT_CSV_ROWS:
		csv_rows(out, a);
		return 0;
	case PFS_EXPORT_CSV_PROVENANCE:
		csv_provenance(out, a);
		return 0;
	case PFS_EXPORT_CSV_LATENCY:
		return csv_latency(out, a);
	case PFS_EXPORT_CSV_PROGRESS:
		csv_records(out, pfs_tick_fields, pfs_tick_nfields, a->ticks, sizeof(*a->ticks),
			    a->nticks);
		return 0;
	case PFS_EXPORT_CSV_FSSTATS:
		csv_records(out, pfs_fsstat_fields, pfs_fsstat_nfields, a->fsstats,
			    sizeof(*a->fsstats), a->nfsstats);
		return 0;
	case PFS_EXPORT_JSON:
		return json_document(out, a, true);
	case PFS_EXPORT_JSON_PROVENANCE:
		return json_document(out, a, false);
	}
	return -1;
}

/* ---- the command ------------------------------------------------------------ */

/* --csv | --json, and what of the file: the rows unless one of the four. */
enum { FORMAT_NONE, FORMAT_CSV, FORMAT_JSON };
enum { PART_ROWS, PART_PROVENANCE, PART_LATENCY, PART_PROGRESS, PART_FSSTATS };

struct export_opts {
	const char *path;
	unsigned format, part;
};

#define E struct export_opts
/* Each may be given again, as export always took it: it says the same. */
#define PART(field, lname, v, help) PFS_OPT_SETVAL(E, field, lname, 0, v, help, PFS_OPTF_REPEAT)
static const struct pfs_option export_options[] = {
	PFS_OPT_POS(E, path, "FILE.h5", "the results file"),
	PART(format, "csv", FORMAT_CSV, "the rows as CSV (RFC 4180), one header line"),
	PART(format, "json", FORMAT_JSON,
	     "one JSON document: provenance, parameters, nodes, units, rows, latency percentiles"),
	PART(part, "provenance", PART_PROVENANCE, "only the provenance (with --csv: key,value lines)"),
	PART(part, "latency", PART_LATENCY,
	     "with --csv: latency percentiles (ns) per test, iteration and op over all ranks, then "
	     "per node and step, or per rank and step in a run of --latency-detail rank"),
	PART(part, "progress", PART_PROGRESS,
	     "with --csv: the progress timeline, each rank's counts every ~100 ms while it worked"),
	PART(part, "fs-stats", PART_FSSTATS,
	     "with --csv: the filesystem's own counters per step and node"),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};
#undef PART
#undef E

static int export_main(int argc, char **argv)
{
	static const enum pfs_export_kind csv[] = {
		[PART_ROWS] = PFS_EXPORT_CSV_ROWS,         [PART_PROVENANCE] = PFS_EXPORT_CSV_PROVENANCE,
		[PART_LATENCY] = PFS_EXPORT_CSV_LATENCY,   [PART_PROGRESS] = PFS_EXPORT_CSV_PROGRESS,
		[PART_FSSTATS] = PFS_EXPORT_CSV_FSSTATS,
	};
	struct export_opts o = { 0 };
	enum pfs_export_kind kind;
	struct pfs_archive a;
	int rc = pfs_command_parse(&pfs_command_export, &o, argc, argv);

	if (rc >= 0)
		return rc;
	if (o.format == FORMAT_NONE ||
	    (o.format == FORMAT_JSON && o.part != PART_ROWS && o.part != PART_PROVENANCE)) {
		fprintf(stderr, "pfsbench export: give one of --csv or --json, and with --json at most "
				"--provenance\nTry 'pfsbench export --help'.\n");
		return PFS_EXIT_USAGE;
	}
	if (pfs_archive_load(o.path, &a))
		return PFS_EXIT_FAILED;
	if (o.format == FORMAT_JSON)
		kind = o.part == PART_PROVENANCE ? PFS_EXPORT_JSON_PROVENANCE : PFS_EXPORT_JSON;
	else
		kind = csv[o.part];
	rc = pfs_export_write(stdout, &a, kind);
	if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = pfs_error("cannot write to standard output");
	pfs_archive_free(&a);
	return rc ? PFS_EXIT_FAILED : PFS_EXIT_OK;
}

const struct pfs_command pfs_command_export = {
	.name = "export",
	.summary = "write a results file as CSV or JSON",
	.synopsis = "FILE.h5 --csv|--json\n"
		    "       [--provenance|--latency|--progress|--fs-stats]",
	.about = "Write a results file's rows and provenance as CSV or JSON on stdout.\n",
	.options = export_options,
	.opts_size = sizeof(struct export_opts),
	.main = export_main,
};
