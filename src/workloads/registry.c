/* registry.c: the list of workloads. A new workload is one file in this
 * directory, its two lines here (its name and its place in the list) and
 * its source in Makefile.am; nothing else names it, and nothing tests a
 * workload's name. */
#include "pfsbench/engine/workload.h"

#include <string.h>

/* Each defined in its own file; only this list (and tests/workloads.h, for
 * the tests that take one by name) declares them. */
extern const struct pfs_workload pfs_workload_create_unlink;
extern const struct pfs_workload pfs_workload_tree;
extern const struct pfs_workload pfs_workload_stream;
extern const struct pfs_workload pfs_workload_matrix;
extern const struct pfs_workload pfs_workload_bonnie;

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
