/* registry.c: the list of workloads. A new workload is one file in this
 * directory and one line here; nothing else tests a workload's name. */
#include "pfsbench/workload.h"

#include "pfsbench/options.h"

#include <string.h>

const struct pfs_workload *const pfs_workloads[] = {
	&pfs_workload_create_unlink,
	&pfs_workload_tree,
	&pfs_workload_stream,
	&pfs_workload_matrix,
	&pfs_workload_bonnie,
	NULL,
};

const struct pfs_workload *pfs_workload_find(const char *name)
{
	for (size_t i = 0; pfs_workloads[i]; i++)
		if (!strcmp(pfs_workloads[i]->name, name))
			return pfs_workloads[i];
	return NULL;
}

int pfs_workload_parse(const struct pfs_workload *wl, void *opts, int argc, char **argv, char *err,
		       size_t errlen)
{
	struct pfs_common_opts *common = opts;
	const char *names[PFS_MAX_TESTS + 1] = { 0 };
	int rc;

	wl->defaults(opts);
	common->iterations = 1;
	common->drop_caches = true;
	rc = pfs_opts_parse(wl->options, opts, argc, argv, err, errlen);
	for (unsigned i = 0; wl->tests[i].name && i < PFS_MAX_TESTS; i++)
		names[i] = wl->tests[i].name;
	if (rc == PFS_PARSE_OK)
		rc = pfs_tests_select(common->test_list, names, common->tests, &common->ntests, err,
				      errlen);
	/* The results file records the tests that run, also when -t was left
	 * at its default (all). */
	if (rc == PFS_PARSE_OK)
		rc = pfs_tests_name(names, common->tests, common->ntests, common->test_list,
				    sizeof(common->test_list));
	if (rc == PFS_PARSE_OK)
		rc = wl->validate(opts, err, errlen);
	return rc;
}
