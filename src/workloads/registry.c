/* registry.c: the list of workloads. A new workload is one file in this
 * directory and one line here; nothing else tests a workload's name. */
#include "pfsbench/engine/workload.h"

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
