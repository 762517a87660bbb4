/* test_topology.c: ranks grouped into nodes by name; node order is the order
 * of each node's lowest rank; workers count from 1 within a node. The
 * engine's three steps (core/topology.h) are played here in one process:
 * split by color, each rank's worker among its color's names, a leader's
 * node from the leaders before it, then the topology from the places. */
#include "cmocka_prelude.h"

#include "pfsbench/core/topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *names_of(const char *const *list, int n)
{
	char *names = calloc((size_t)n, PFS_NODE_NAME_MAX);

	for (int i = 0; i < n; i++)
		strncpy(names + (size_t)i * PFS_NODE_NAME_MAX, list[i], PFS_NODE_NAME_MAX - 1);
	return names;
}

/* The engine's identify (src/engine/run.c) without MPI: what each rank
 * would compute, buckets as PFSBENCH_DEBUG_NODE_BUCKETS. */
static int group(struct pfs_topology *t, const char *names, int n, unsigned buckets)
{
	char *alike = calloc((size_t)n, PFS_NODE_NAME_MAX), *node_names;
	int *color = calloc((size_t)n, sizeof(int)), *members = calloc((size_t)n, sizeof(int));
	unsigned *worker = calloc((size_t)n, sizeof(unsigned)), *first = calloc((size_t)n, sizeof(unsigned));
	uint32_t *places = calloc(2 * (size_t)n, sizeof(uint32_t));
	unsigned nnodes = 0;
	int rc;

	assert_non_null(alike);
	assert_non_null(color);
	assert_non_null(members);
	assert_non_null(worker);
	assert_non_null(first);
	assert_non_null(places);
	for (int r = 0; r < n; r++)
		color[r] = pfs_node_color(names + (size_t)r * PFS_NODE_NAME_MAX, buckets);
	/* Step 2: each rank among the ranks of its color, in rank order
	 * (MPI_Comm_split's key is the rank). first[r]: the world rank of the
	 * first with r's name. */
	for (int r = 0; r < n; r++) {
		unsigned k = 0, me = 0, f;

		for (int q = 0; q < n; q++)
			if (color[q] == color[r]) {
				if (q == r)
					me = k;
				memcpy(alike + (size_t)k * PFS_NODE_NAME_MAX,
				       names + (size_t)q * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX);
				members[k++] = q;
			}
		worker[r] = pfs_topology_worker(alike, k, me, &f);
		first[r] = (unsigned)members[f];
	}
	/* The exclusive scan of the leaders, and the node from one's leader. */
	for (int r = 0; r < n; r++) {
		unsigned before = 0;

		for (unsigned q = 0; q < first[r]; q++)
			before += worker[q] == 1;
		places[2 * r] = before;
		places[2 * r + 1] = worker[r];
		nnodes += worker[r] == 1;
	}
	node_names = calloc(nnodes, PFS_NODE_NAME_MAX);
	assert_non_null(node_names);
	for (int r = 0; r < n; r++)
		if (worker[r] == 1)
			memcpy(node_names + (size_t)places[2 * r] * PFS_NODE_NAME_MAX,
			       names + (size_t)r * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX);
	rc = pfs_topology_from_places(t, places, n, node_names, nnodes);
	free(alike);
	free(color);
	free(members);
	free(worker);
	free(first);
	free(places);
	free(node_names);
	return rc;
}

static void test_interleaved_ranks(void **state)
{
	/* mpirun --map-by node puts consecutive ranks on different hosts */
	static const char *const list[] = { "lp02", "lp01", "lp02", "lp01", "lp03" };
	char *names = names_of(list, 5);
	struct pfs_topology t;

	(void)state;
	/* Real colors, every name one color, and some sharing one. */
	for (unsigned buckets = 0; buckets <= 2; buckets++) {
		assert_int_equal(group(&t, names, 5, buckets), 0);
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
	}
	free(names);
}

/* 3,001 ranks on 97 nodes of uneven sizes, in a scrambled order, against
 * the grouping's definition (each rank against the nodes seen before it),
 * with real colors and with names forced to share few. */
static void test_many_ranks_against_definition(void **state)
{
	enum { N = 3001, M = 97 };
	char *names = calloc(N, PFS_NODE_NAME_MAX), seen[M][PFS_NODE_NAME_MAX];
	static const unsigned buckets[] = { 0, 1, 4, 7 };
	unsigned node[N], worker[N], count[M], nseen = 0;
	struct pfs_topology t;

	(void)state;
	assert_non_null(names);
	for (int r = 0; r < N; r++) {
		unsigned n = (unsigned)((r * 7919u + (unsigned)r / 13u) % M);

		/* two nodes whose 63-byte names differ in their last byte */
		if (n == 5 || n == 6) {
			memset(names + (size_t)r * PFS_NODE_NAME_MAX, 'h', PFS_NODE_NAME_MAX - 1);
			names[(size_t)r * PFS_NODE_NAME_MAX + PFS_NODE_NAME_MAX - 2] = n == 6 ? 'g' : 'h';
		} else {
			snprintf(names + (size_t)r * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX, "node%u", n);
		}
	}
	memset(count, 0, sizeof(count));
	for (int r = 0; r < N; r++) {
		unsigned k;

		for (k = 0; k < nseen; k++)
			if (!strncmp(seen[k], names + (size_t)r * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX))
				break;
		if (k == nseen)
			memcpy(seen[nseen++], names + (size_t)r * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX);
		node[r] = k;
		worker[r] = ++count[k];
	}
	assert_int_equal(nseen, M);
	for (size_t i = 0; i < sizeof(buckets) / sizeof(buckets[0]); i++) {
		assert_int_equal(group(&t, names, N, buckets[i]), 0);
		assert_int_equal(t.nnodes, M);
		for (int r = 0; r < N; r++) {
			assert_int_equal(t.node_of_rank[r], node[r]);
			assert_int_equal(t.worker_of_rank[r], worker[r]);
		}
		for (unsigned k = 0; k < M; k++) {
			assert_memory_equal(t.nodes[k].name, seen[k], PFS_NODE_NAME_MAX);
			assert_int_equal(t.nodes[k].nworkers, count[k]);
			assert_int_equal(t.node_of_rank[t.nodes[k].leader_rank], k);
			assert_int_equal(t.worker_of_rank[t.nodes[k].leader_rank], 1);
		}
		pfs_topology_free(&t);
	}
	free(names);
}

static void test_colors(void **state)
{
	char a[PFS_NODE_NAME_MAX], b[PFS_NODE_NAME_MAX];

	(void)state;
	memset(a, 0, sizeof(a));
	memset(b, 0x55, sizeof(b));
	strcpy(a, "lp01");
	strcpy(b, "lp01"); /* bytes after the NUL are not the name */
	assert_int_equal(pfs_node_color(a, 0), pfs_node_color(b, 0));
	assert_true(pfs_node_color(a, 0) >= 0);
	assert_int_not_equal(pfs_node_color("lp01", 0), pfs_node_color("lp02", 0));
	assert_int_equal(pfs_node_color("lp01", 1), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(a, sizeof(a), "n%d", i);
		assert_true(pfs_node_color(a, 3) >= 0 && pfs_node_color(a, 3) < 3);
	}
	/* A name that fills its 64 bytes without a NUL is read no further. */
	memset(a, 'x', sizeof(a));
	memset(b, 'x', sizeof(b));
	b[PFS_NODE_NAME_MAX - 1] = 'y';
	assert_int_not_equal(pfs_node_color(a, 0), pfs_node_color(b, 0));
}

/* Places that no grouping makes are refused, not half believed. */
static void test_places_not_a_grouping(void **state)
{
	static const char node_names[2][PFS_NODE_NAME_MAX] = { "a", "b" };
	static const uint32_t good[] = { 0, 1, 1, 1, 0, 2 };
	static const uint32_t later_first[] = { 1, 1, 0, 1, 0, 2 };
	static const uint32_t skipped[] = { 0, 1, 1, 1, 0, 3 };
	static const uint32_t past[] = { 0, 1, 2, 1, 0, 2 };
	static const uint32_t fewer[] = { 0, 1, 0, 2, 0, 3 };
	struct pfs_topology t;

	(void)state;
	assert_int_equal(pfs_topology_from_places(&t, good, 3, node_names[0], 2), 0);
	assert_string_equal(t.nodes[1].name, "b");
	assert_int_equal(t.workers_max, 2);
	pfs_topology_free(&t);
	assert_int_equal(pfs_topology_from_places(&t, later_first, 3, node_names[0], 2), -EINVAL);
	assert_int_equal(pfs_topology_from_places(&t, skipped, 3, node_names[0], 2), -EINVAL);
	assert_int_equal(pfs_topology_from_places(&t, past, 3, node_names[0], 2), -EINVAL);
	assert_int_equal(pfs_topology_from_places(&t, fewer, 3, node_names[0], 2), -EINVAL);
	assert_null(t.nodes);
}

static void test_single_rank(void **state)
{
	static const char *const list[] = { "solo" };
	char *names = names_of(list, 1);
	struct pfs_topology t;

	(void)state;
	assert_int_equal(group(&t, names, 1, 0), 0);
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
		cmocka_unit_test(test_many_ranks_against_definition),
		cmocka_unit_test(test_colors),
		cmocka_unit_test(test_places_not_a_grouping),
		cmocka_unit_test(test_single_rank),
		cmocka_unit_test(test_nodename_variable_overrides_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
