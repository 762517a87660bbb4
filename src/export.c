/* export.c: `pfsbench export FILE.h5 --csv|--json [--provenance]` writes a
 * results file as CSV (RFC 4180: CRLF lines, fields quoted when they hold a
 * comma, quote, CR or LF) or as one JSON document. The row columns and keys
 * come from pfs_row_fields; provenance keys from the file itself, so neither
 * needs code when the schema grows. */
#include "pfsbench/archive.h"
#include "pfsbench/commands.h"
#include "pfsbench/export.h"
#include "pfsbench/results.h"
#include "pfsbench/topology.h"
#include "pfsbench/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- CSV ----------------------------------------------------------------- */

void pfs_csv_field(FILE *out, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_rows(FILE *out, const struct pfs_archive *a)
{
	char num[32];

	for (size_t i = 0; i < pfs_row_nfields; i++) {
		if (i)
			fputc(',', out);
		pfs_csv_field(out, pfs_row_fields[i].name);
	}
	fputs("\r\n", out);
	for (size_t r = 0; r < a->nrows; r++) {
		for (size_t i = 0; i < pfs_row_nfields; i++) {
			if (i)
				fputc(',', out);
			pfs_csv_field(out, pfs_field_text(&pfs_row_fields[i], &a->rows[r], num, sizeof(num)));
		}
		fputs("\r\n", out);
	}
}

static void csv_pair(FILE *out, const char *key, const char *value)
{
	pfs_csv_field(out, key);
	fputc(',', out);
	pfs_csv_field(out, value);
	fputs("\r\n", out);
}

/* Provenance as key,value lines: the attributes, then "parameters.NAME",
 * then "nodes.I.FIELD". */
static void csv_provenance(FILE *out, const struct pfs_archive *a)
{
	char key[128], num[32];

	csv_pair(out, "key", "value");
	for (size_t i = 0; i < a->nprov; i++)
		csv_pair(out, a->prov[i].key, a->prov[i].value);
	for (size_t i = 0; i < a->nparams; i++) {
		snprintf(key, sizeof(key), "parameters.%s", a->params[i].key);
		csv_pair(out, key, a->params[i].value);
	}
	for (unsigned n = 0; n < a->nnodes; n++)
		for (size_t i = 0; i < pfs_node_nfields; i++) {
			const struct pfs_field *f = &pfs_node_fields[i];

			snprintf(key, sizeof(key), "nodes.%u.%s", n, f->name);
			csv_pair(out, key, pfs_field_text(f, &a->nodes[n], num, sizeof(num)));
		}
}

/* ---- JSON ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = 0;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

void pfs_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', out);
	while (*s) {
		size_t n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s < 0x20)
			fprintf(out, "\\u%04x", *s);
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

static void json_document(FILE *out, const struct pfs_archive *a, bool rows)
{
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
	}
	fputs("\n}\n", out);
}

/* ---- the command ------------------------------------------------------------ */

static void export_usage(FILE *out)
{
	fprintf(out, "Usage: pfsbench export FILE.h5 --csv|--json [--provenance]\n"
		     "Write a results file's rows and provenance as CSV or JSON on stdout.\n"
		     "  --csv         the rows as CSV (RFC 4180), one header line\n"
		     "  --json        one JSON document: provenance, parameters, nodes, units, rows\n"
		     "  --provenance  only the provenance (with --csv: key,value lines)\n");
}

static int export_main(int argc, char **argv)
{
	const char *path = NULL;
	bool csv = false, json = false, prov = false;
	struct pfs_archive a;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--csv")) {
			csv = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--provenance")) {
			prov = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			export_usage(stdout);
			return PFS_EXIT_OK;
		} else if (argv[i][0] == '-' || path) {
			fprintf(stderr, "pfsbench export: unexpected argument '%s'\n", argv[i]);
			export_usage(stderr);
			return PFS_EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (!path || csv == json) {
		fprintf(stderr, "pfsbench export: give one FILE.h5 and one of --csv or --json\n");
		export_usage(stderr);
		return PFS_EXIT_USAGE;
	}
	if (pfs_archive_load(path, &a))
		return PFS_EXIT_FAILED;
	if (json)
		json_document(stdout, &a, !prov);
	else if (prov)
		csv_provenance(stdout, &a);
	else
		csv_rows(stdout, &a);
	rc = fflush(stdout) || ferror(stdout) ? pfs_error("cannot write to standard output") : 0;
	pfs_archive_free(&a);
	return rc ? PFS_EXIT_FAILED : PFS_EXIT_OK;
}

const struct pfs_command pfs_command_export = {
	.name = "export",
	.summary = "write a results file as CSV or JSON",
	.main = export_main,
};
