/* silent_op.c: a workload for the engine's tests, never in the product. Its
 * one op does one item; on the rank given by SILENT_OP_RANK it returns
 * -ENOMEM instead, without calling pfs_fail, as a careless workload might.
 * The engine must still stop the run with exit 1 and a message naming the
 * node, the worker and the op. Run under mpirun like pfsbench:
 *   SILENT_OP_RANK=1 mpirun -np 2 silent_op -m DIR */
#include "pfsbench/commands/run.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

struct silent_opts {
	struct pfs_common_opts common;
};

static int silent_run_op(struct pfs_worker *w, unsigned op)
{
	const char *bad = getenv("SILENT_OP_RANK");

	(void)op;
	pfs_op_start(w, "Boom", PFS_UNIT_OPS, 1, 0);
	if (bad && atoi(bad) == w->rank)
		return -ENOMEM; /* no pfs_fail: the engine must say it */
	w->items = 1;
	return pfs_op_done(w);
}

static int silent_nothing(struct pfs_worker *w)
{
	(void)w;
	return 0;
}

static size_t silent_plan(const void *opts, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	(void)opts;
	(void)nnodes;
	return pfs_plan_put(steps, cap, 0, PFS_STEP1(PFS_ALL_NODES, 0));
}

static const struct pfs_test silent_tests[] = {
	{ "boom", PFS_ORDER_PLAN, silent_plan },
	{ NULL, 0, NULL },
};

static const struct pfs_option silent_options[] = {
	PFS_OPT_STR(struct silent_opts, common.dir, "mount", 'm', "DIR", "directory", 0),
	PFS_COMMON_OPTIONS(struct silent_opts),
	PFS_OPT_END,
};

static int silent_validate(void *opts, char *err, size_t errlen)
{
	(void)opts;
	(void)err;
	(void)errlen;
	return 0;
}

static void silent_needs(const void *opts, unsigned nranks, struct pfs_needs *needs)
{
	(void)opts;
	(void)nranks;
	needs->bytes = needs->inodes = 0;
}

static const struct pfs_workload silent_workload = {
	.name = "silent-op",
	.summary = "an op that fails without saying why (engine tests only)",
	.synopsis = "-m DIR",
	.options = silent_options,
	.opts_size = sizeof(struct silent_opts),
	.tests = silent_tests,
	.report = &pfs_output_table,
	.validate = silent_validate,
	.needs = silent_needs,
	.setup = silent_nothing,
	.run_op = silent_run_op,
	.cleanup = silent_nothing,
};

int main(int argc, char **argv)
{
	int status;

	if (MPI_Init(&argc, &argv) != MPI_SUCCESS)
		return PFS_EXIT_FAILED;
	status = pfs_engine_run_workload(&silent_workload, pfs_outputs, argc, argv, MPI_COMM_WORLD,
					 stdout, stderr);
	MPI_Finalize();
	return status;
}
