/* test_topology.c: ranks grouped into nodes by name; node order is the order
 * of each node's lowest rank; workers count from 1 within a node. The
 * engine's three steps (core/topology.h) are played here in one process:
 * split by color, each rank's worker among its color's names, a leader's
 * node from the leaders before it, then each rank's topology from the
 * nodes' records and its own node's ranks. */
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
 * would compute, buckets as PFSBENCH_DEBUG_NODE_BUCKETS. Each rank's node
 * and worker into node[] and worker[] (when not NULL), rank 0's topology
 * into t; each rank's own topology is checked to list its node's ranks
 * with itself at its worker's place. */
static int group(struct pfs_topology *t, const char *names, int n, unsigned buckets,
		 unsigned *node, unsigned *worker_of)
{
	char *alike = calloc((size_t)n, PFS_NODE_NAME_MAX);
	int *color = calloc((size_t)n, sizeof(int)), *members = calloc((size_t)n, sizeof(int));
	int *mine = calloc((size_t)n, sizeof(int));
	unsigned *worker = calloc((size_t)n, sizeof(unsigned)), *first = calloc((size_t)n, sizeof(unsigned));
	unsigned *nmine = calloc((size_t)n, sizeof(unsigned)), *place = calloc((size_t)n, sizeof(unsigned));
	struct pfs_node_rec *recs;
	unsigned nnodes = 0;
	int rc = 0;

	assert_non_null(alike);
	assert_non_null(color);
	assert_non_null(members);
	assert_non_null(mine);
	assert_non_null(worker);
	assert_non_null(first);
	assert_non_null(nmine);
	assert_non_null(place);
	for (int r = 0; r < n; r++)
		color[r] = pfs_node_color(names + (size_t)r * PFS_NODE_NAME_MAX, buckets);
	/* Step 2: each rank among the ranks of its color, in rank order
	 * (MPI_Comm_split's key is the rank). first[r]: the world rank of the
	 * first with r's name; nmine[r], how many have it. */
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
		for (unsigned i = 0; i < k; i++)
			nmine[r] += !strncmp(alike + (size_t)i * PFS_NODE_NAME_MAX,
					     alike + (size_t)me * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX);
	}
	/* The exclusive scan of the leaders, and the node from one's leader. */
	for (int r = 0; r < n; r++) {
		unsigned before = 0;

		for (unsigned q = 0; q < first[r]; q++)
			before += worker[q] == 1;
		place[r] = before;
		nnodes += worker[r] == 1;
	}
	/* Step 3: each leader's record, in node order as rank 0 puts them. */
	recs = calloc(nnodes, sizeof(*recs));
	assert_non_null(recs);
	for (int r = 0; r < n; r++)
		if (worker[r] == 1) {
			struct pfs_node_rec *c = &recs[place[r]];
			int second = -1;

			for (int q = r + 1; q < n && second < 0; q++)
				if (first[q] == (unsigned)r)
					second = q;
			c->leader_plus1 = (uint32_t)r + 1;
			c->second_plus1 = (uint32_t)(second + 1);
			c->nworkers = nmine[r];
			c->node = place[r];
			memcpy(c->name, names + (size_t)r * PFS_NODE_NAME_MAX, PFS_NODE_NAME_MAX);
		}
	for (int r = n - 1; r >= 0 && !rc; r--) {
		struct pfs_topology mine_t;
		unsigned k = 0;

		for (int q = 0; q < n; q++)
			if (first[q] == first[r])
				mine[k++] = q;
		rc = pfs_topology_from_nodes(r ? &mine_t : t, recs, nnodes, n, r, mine, k);
		if (rc)
			break;
		struct pfs_topology *me = r ? &mine_t : t;

		assert_int_equal(me->node_ranks[me->worker - 1], r);
		assert_int_equal(me->node, place[r]);
		if (node)
			node[r] = me->node;
		if (worker_of)
			worker_of[r] = me->worker;
		if (r)
			pfs_topology_free(&mine_t);
	}
	free(alike);
	free(color);
	free(members);
	free(mine);
	free(worker);
	free(first);
	free(nmine);
	free(place);
	free(recs);
	return rc;
}

static void test_interleaved_ranks(void **state)
{
	/* mpirun --map-by node puts consecutive ranks on different hosts */
	static const char *const list[] = { "lp02", "lp01", "lp02", "lp01", "lp03" };
	char *names = names_of(list, 5);
	struct pfs_topology t;
	unsigned node[5], worker[5];

	(void)state;
	/* Real colors, every name one color, and some sharing one. */
	for (unsigned buckets = 0; buckets <= 2; buckets++) {
		assert_int_equal(group(&t, names, 5, buckets, node, worker), 0);
		assert_int_equal(t.nnodes, 3);
		assert_string_equal(t.nodes[0].name, "lp02");
		assert_string_equal(t.nodes[1].name, "lp01");
		assert_string_equal(t.nodes[2].name, "lp03");
		assert_int_equal(node[3], 1);
		assert_int_equal(worker[0], 1);
		assert_int_equal(worker[2], 2);
		assert_int_equal(worker[3], 2);
		assert_int_equal(t.nodes[1].leader_rank, 1);
		assert_int_equal(t.nodes[1].second_rank, 3);
		assert_int_equal(t.nodes[2].second_rank, -1);
		/* rank 0's own node: lp02, ranks 0 and 2 */
		assert_int_equal(t.node, 0);
		assert_int_equal(t.node_ranks[0], 0);
		assert_int_equal(t.node_ranks[1], 2);
		assert_int_equal(pfs_topology_worker_here(&t, 2), 2);
		assert_int_equal(pfs_topology_worker_here(&t, 1), 0);
		assert_int_equal(pfs_topology_node_led_by(&t, 4), 2);
		assert_int_equal(pfs_topology_node_led_by(&t, 3), -1);
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
	unsigned node[N], worker[N], count[M], nseen = 0, got_node[N], got_worker[N];
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
		assert_int_equal(group(&t, names, N, buckets[i], got_node, got_worker), 0);
		assert_int_equal(t.nnodes, M);
		for (int r = 0; r < N; r++) {
			assert_int_equal(got_node[r], node[r]);
			assert_int_equal(got_worker[r], worker[r]);
		}
		for (unsigned k = 0; k < M; k++) {
			assert_memory_equal(t.nodes[k].name, seen[k], PFS_NODE_NAME_MAX);
			assert_int_equal(t.nodes[k].nworkers, count[k]);
			assert_int_equal(node[t.nodes[k].leader_rank], k);
			assert_int_equal(worker[t.nodes[k].leader_rank], 1);
			if (count[k] > 1) {
				assert_int_equal(node[t.nodes[k].second_rank], k);
				assert_int_equal(worker[t.nodes[k].second_rank], 2);
			}
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

/* Records that no grouping makes, or that contradict a rank's own node,
 * are refused, not half believed. Nodes a (ranks 0, 2) and b (rank 1). */
static void test_records_not_a_grouping(void **state)
{
	static const struct pfs_node_rec good[] = { { 1, 3, 2, 0, "a" }, { 2, 0, 1, 1, "b" } };
	const int a_ranks[] = { 0, 2 }, b_ranks[] = { 1 }, wrong[] = { 0, 1 }, falling[] = { 2, 0 };
	struct pfs_topology t;

	(void)state;
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 3, 2, a_ranks, 2), 0);
	assert_string_equal(t.nodes[1].name, "b");
	assert_int_equal(t.workers_max, 2);
	assert_int_equal(t.worker, 2);
	pfs_topology_free(&t);
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 3, 1, b_ranks, 1), 0);
	assert_int_equal(t.node, 1);
	pfs_topology_free(&t);
	/* this rank's node as the records do not say it */
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 3, 1, wrong, 2), -EINVAL);
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 3, 0, falling, 2), -EINVAL);
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 3, 1, a_ranks, 2), -EINVAL);
	/* ranks that do not add up */
	assert_int_equal(pfs_topology_from_nodes(&t, good, 2, 4, 1, b_ranks, 1), -EINVAL);
	/* Records no grouping makes, refused by a rank of either node. */
	static const struct pfs_node_rec bad[][2] = {
		{ { 1, 3, 2, 0, "a" }, { 0, 0, 0, 1, "" } },  /* no record of b */
		{ { 1, 3, 2, 0, "a" }, { 2, 0, 1, 0, "b" } },  /* b's in a's place */
		{ { 2, 0, 1, 0, "b" }, { 1, 3, 2, 1, "a" } },  /* leaders falling */
		{ { 1, 0, 2, 0, "a" }, { 2, 0, 1, 1, "b" } },  /* a's second rank missing */
		{ { 1, 3, 2, 0, "a" }, { 2, 3, 1, 1, "b" } },  /* b of one rank with a second */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(pfs_topology_from_nodes(&t, bad[i], 2, 3, 0, a_ranks, 2), -EINVAL);
		assert_int_equal(pfs_topology_from_nodes(&t, bad[i], 2, 3, 1, b_ranks, 1), -EINVAL);
	}
	assert_null(t.nodes);
}

static void test_single_rank(void **state)
{
	static const char *const list[] = { "solo" };
	char *names = names_of(list, 1);
	struct pfs_topology t;

	(void)state;
	assert_int_equal(group(&t, names, 1, 0, NULL, NULL), 0);
	assert_int_equal(t.nnodes, 1);
	assert_int_equal(t.worker, 1);
	assert_int_equal(t.nodes[0].second_rank, -1);
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
		cmocka_unit_test(test_records_not_a_grouping),
		cmocka_unit_test(test_single_rank),
		cmocka_unit_test(test_nodename_variable_overrides_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
