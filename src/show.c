/* show.c: `pfsbench show FILE.h5` prints a run's text report from its
 * results file. It feeds the stored rows, in the stored (report) order, to
 * the same output that printed the report during the run, so the table is
 * byte for byte what the run printed. */
#include "pfsbench/archive.h"
#include "pfsbench/commands.h"
#include "pfsbench/output.h"
#include "pfsbench/util.h"
#include "pfsbench/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show_usage(FILE *out)
{
	fprintf(out, "Usage: pfsbench show FILE.h5\n"
		     "Print the text report of the run stored in a results file.\n");
}

/* The run's options, rebuilt from its stored parameters through the
 * workload's own table (the inverse of the writer's write_parameters), so a
 * report that reads them (tree's) prints what the run printed. Options the
 * file lacks keep their defaults. NULL when out of memory. */
static void *rebuild_opts(const struct pfs_workload *wl, const struct pfs_archive *a)
{
	void *opts = calloc(1, wl->opts_size);

	if (!opts)
		return NULL;
	wl->defaults(opts);
	for (const struct pfs_option *op = wl->options; op->long_name; op++) {
		char *field = (char *)opts + op->offset;
		const char *v = NULL;
		uint64_t u;

		for (size_t i = 0; i < a->nparams && !v; i++)
			if (!strcmp(a->params[i].key, op->long_name))
				v = a->params[i].value;
		if (!v)
			continue;
		if (op->kind == PFS_OPT_SET || op->kind == PFS_OPT_CLEAR)
			/* Stored: whether the flag is in effect. */
			*(bool *)field = !strcmp(v, "true") == (op->kind == PFS_OPT_SET);
		else if (op->kind == PFS_OPT_STRING)
			snprintf(field, op->size, "%s", v);
		else if (op->kind != PFS_OPT_HELP && op->kind != PFS_OPT_VERSION && !pfs_parse_u64(v, &u))
			memcpy(field, &u, sizeof(u));
	}
	return opts;
}

static int show_main(int argc, char **argv)
{
	const struct pfs_workload *wl;
	struct pfs_output o = { .ops = &pfs_output_table, .fp = stdout };
	struct pfs_archive a;
	void *opts = NULL;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		show_usage(stdout);
		return PFS_EXIT_OK;
	}
	if (argc != 2 || (argv[1][0] == '-' && argv[1][1])) {
		show_usage(stderr);
		return PFS_EXIT_USAGE;
	}
	if (pfs_archive_load(argv[1], &a))
		return PFS_EXIT_FAILED;
	wl = pfs_workload_find(pfs_archive_get(&a, "workload"));
	if (wl && wl->report) {
		opts = rebuild_opts(wl, &a);
		if (!opts) {
			pfs_error("out of memory");
			pfs_archive_free(&a);
			return PFS_EXIT_FAILED;
		}
		o.ops = wl->report;
		a.ri.workload = wl;
		a.ri.opts = opts;
	}
	rc = o.ops->begin(&o, &a.ri);
	if (!rc && a.nrows)
		rc = o.ops->block(&o, &a.ri, a.rows, a.nrows);
	if (!rc)
		rc = o.ops->end(&o, &a.ri, a.status, a.reason);
	if (!rc && a.status != PFS_RUN_COMPLETE)
		rc = printf("Status: aborted: %s\n", a.reason) < 0 ? -1 : 0;
	if (fflush(stdout) || rc)
		rc = pfs_error("cannot write the report to standard output");
	pfs_archive_free(&a);
	free(opts);
	return rc ? PFS_EXIT_FAILED : PFS_EXIT_OK;
}

const struct pfs_command pfs_command_show = {
	.name = "show",
	.summary = "print the text report of a results file",
	.main = show_main,
};
