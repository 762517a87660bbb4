/* test_topology.c: ranks grouped into nodes by name; node order is the order
 * of each node's lowest rank; workers count from 1 within a node. */
#include "cmocka_prelude.h"

#include "pfsbench/core/topology.h"

#include <stdlib.h>
#include <string.h>

static char *names_of(const char *const *list, int n)
{
	char *names = calloc((size_t)n, PFS_NODE_NAME_MAX);

	for (int i = 0; i < n; i++)
		strncpy(names + (size_t)i * PFS_NODE_NAME_MAX, list[i], PFS_NODE_NAME_MAX - 1);
	return names;
}

static void test_interleaved_ranks(void **state)
{
	/* mpirun --map-by node puts consecutive ranks on different hosts */
	static const char *const list[] = { "lp02", "lp01", "lp02", "lp01", "lp03" };
	char *names = names_of(list, 5);
	struct pfs_topology t;

	(void)state;
	assert_int_equal(pfs_topology_group(&t, names, 5), 0);
	assert_int_equal(t.nnodes, 3);
	assert_string_equal(t.nodes[0].name, "lp02");
	assert_string_equal(t.nodes[1].name, "lp01");
	assert_string_equal(t.nodes[2].name, "lp03");
	assert_int_equal(t.node_of_rank[3], 1);
	assert_int_equal(t.worker_of_rank[0], 1);
	assert_int_equal(t.worker_of_rank[2], 2);
	assert_int_equal(t.worker_of_rank[3], 2);
	assert_int_equal(t.nodes[1].leader_rank, 1);
	assert_int_equal(t.nodes[2].nworkers, 1);
	assert_int_equal(t.workers_min, 1);
	assert_int_equal(t.workers_max, 2);
	pfs_topology_free(&t);
	free(names);
}

static void test_single_rank(void **state)
{
	static const char *const list[] = { "solo" };
	char *names = names_of(list, 1);
	struct pfs_topology t;

	(void)state;
	assert_int_equal(pfs_topology_group(&t, names, 1), 0);
	assert_int_equal(t.nnodes, 1);
	assert_int_equal(t.worker_of_rank[0], 1);
	assert_int_equal(t.workers_min, 1);
	pfs_topology_free(&t);
	free(names);
}

static void test_nodename_variable_overrides_host(void **state)
{
	char name[PFS_NODE_NAME_MAX], addr[PFS_ADDR_MAX];
	char longname[PFS_NODE_NAME_MAX + 8];

	(void)state;
	setenv("PFSBENCH_NODENAME", "simulated-7", 1);
	assert_int_equal(pfs_local_identity(name, addr), 0);
	assert_string_equal(name, "simulated-7");
	assert_true(addr[0] != 0);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = 0;
	setenv("PFSBENCH_NODENAME", longname, 1);
	assert_int_equal(pfs_local_identity(name, addr), -1);
	unsetenv("PFSBENCH_NODENAME");
	assert_int_equal(pfs_local_identity(name, addr), 0);
	assert_true(name[0] != 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved_ranks),
		cmocka_unit_test(test_single_rank),
		cmocka_unit_test(test_nodename_variable_overrides_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
