/* test_plan.c: the step plans of se, pa, ua, ub and uc, and the order of
 * rows they produce. The ua test replays the seed sample's measured times
 * through the plan and the completion order, and gets the seed's row order. */
#include "cmocka_prelude.h"

#include "../registry.h"

#include "pfsbench/core/options.h"
#include "pfsbench/core/results.h"
#include "pfsbench/core/topology.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* create_unlink.c's ops */
enum { CREATE, WRITE, READ, UNLINK, CREATE_UNLINK, READ_PEER, UNLINK_PEER };

static const struct pfs_test *test_named(const char *name)
{
	for (const struct pfs_test *t = pfs_workload_create_unlink.tests; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	fail_msg("no test %s", name);
	return NULL;
}

static size_t plan(const char *name, unsigned nnodes, struct pfs_step *steps, size_t cap)
{
	const struct pfs_test *t = test_named(name);
	size_t n = t->plan(NULL, nnodes, NULL, 0);

	assert_true(n <= cap);
	assert_int_equal(t->plan(NULL, nnodes, steps, cap), n);
	return n;
}

static void assert_step(const struct pfs_step *s, int node, unsigned op)
{
	assert_int_equal(s->nassign, 1);
	assert_int_equal(s->assign[0].node, node);
	assert_int_equal(s->assign[0].op, op);
}

static void test_se_is_op_major_node_minor(void **state)
{
	struct pfs_step s[64];
	size_t n = plan("se", 3, s, 64);

	(void)state;
	assert_int_equal(n, 12);
	for (unsigned op = 0; op < 4; op++)
		for (unsigned node = 0; node < 3; node++)
			assert_step(&s[op * 3 + node], (int)node, op);
	assert_int_equal(test_named("se")->order, PFS_ORDER_PLAN);
}

static void test_pa_runs_every_node_at_once(void **state)
{
	struct pfs_step s[64];

	(void)state;
	assert_int_equal(plan("pa", 5, s, 64), 4);
	for (unsigned op = 0; op < 4; op++)
		assert_step(&s[op], PFS_ALL_NODES, op);
	assert_int_equal(test_named("pa")->order, PFS_ORDER_COMPLETION);
}

static void test_ua_is_a_pipeline(void **state)
{
	struct pfs_step s[64];

	(void)state;
	assert_int_equal(plan("ua", 3, s, 64), 4);
	assert_step(&s[0], 0, CREATE);
	for (int k = 1; k < 3; k++) {
		assert_int_equal(s[k].nassign, 2);
		assert_int_equal(s[k].assign[0].node, k - 1);
		assert_int_equal(s[k].assign[0].op, UNLINK);
		assert_int_equal(s[k].assign[1].node, k);
		assert_int_equal(s[k].assign[1].op, CREATE);
	}
	assert_step(&s[3], 2, UNLINK);
	/* one node: create, then unlink */
	assert_int_equal(plan("ua", 1, s, 64), 2);
	assert_step(&s[0], 0, CREATE);
	assert_step(&s[1], 0, UNLINK);
}

static void test_ub_creates_node_by_node_then_unlinks_together(void **state)
{
	struct pfs_step s[64];

	(void)state;
	assert_int_equal(plan("ub", 4, s, 64), 5);
	for (int k = 0; k < 4; k++)
		assert_step(&s[k], k, CREATE);
	assert_step(&s[4], PFS_ALL_NODES, UNLINK);
}

static void test_uc_is_node_by_node(void **state)
{
	struct pfs_step s[64];

	(void)state;
	assert_int_equal(plan("uc", 2, s, 64), 2);
	assert_step(&s[0], 0, CREATE_UNLINK);
	assert_step(&s[1], 1, CREATE_UNLINK);
	assert_int_equal(test_named("uc")->order, PFS_ORDER_PLAN);
}

static void test_plan_respects_capacity(void **state)
{
	struct pfs_step s[3];

	(void)state;
	memset(s, 0xAB, sizeof(s));
	assert_int_equal(test_named("se")->plan(NULL, 5, s, 2), 20);
	assert_int_equal(s[2].nassign, 0xABABABABu); /* untouched past cap */
}

/* Runs a plan on paper: each step starts when the slowest op of the step
 * before it ends; durations come from the seed sample. */
static size_t replay(const char *test, unsigned nnodes, const uint64_t create_us[],
		     const uint64_t unlink_us[], struct pfs_row *rows)
{
	struct pfs_step s[64];
	size_t nsteps = plan(test, nnodes, s, 64), n = 0;
	uint64_t t = 0;

	for (size_t k = 0; k < nsteps; k++) {
		uint64_t end = t;

		for (unsigned a = 0; a < s[k].nassign; a++) {
			struct pfs_row *r = &rows[n++];
			unsigned node = (unsigned)s[k].assign[a].node;

			memset(r, 0, sizeof(*r));
			r->iteration = 1;
			r->step = (uint32_t)k;
			r->node_index = node;
			r->worker = 1;
			r->op[0] = s[k].assign[a].op == CREATE ? 'C' : 'U';
			r->start_us = t;
			r->elapsed_us = r->op[0] == 'C' ? create_us[node] : unlink_us[node];
			if (r->start_us + r->elapsed_us > end)
				end = r->start_us + r->elapsed_us;
		}
		t = end;
	}
	pfs_rows_sort(rows, n, test_named(test)->order);
	return n;
}

static void assert_order(const struct pfs_row *rows, size_t n, const char *want)
{
	char got[64] = "";

	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(got);

		got[l] = (char)('1' + rows[i].node_index);
		got[l + 1] = rows[i].op[0];
		got[l + 2] = 0;
	}
	assert_string_equal(got, want);
}

static void test_ua_reproduces_the_seed_order(void **state)
{
	/* ua iteration 1 and 2 of the seed, Microsecs by node lp01..lp05 */
	static const uint64_t c1[] = { 7169713, 8587264, 9240521, 10027705, 9880836 };
	static const uint64_t u1[] = { 7967265, 6588287, 7163597, 10486450, 4892826 };
	static const uint64_t c2[] = { 8630539, 10256548, 11937661, 10022115, 10863615 };
	static const uint64_t u2[] = { 8831908, 10888563, 6911705, 7631607, 4361014 };
	struct pfs_row rows[16];

	(void)state;
	assert_order(rows, replay("ua", 5, c1, u1, rows), "1C1U2C2U3C3U4C5C4U5U");
	assert_order(rows, replay("ua", 5, c2, u2, rows), "1C1U2C2U3C3U4C4U5C5U");
}

/* create-unlink's options with --shift N, through its own option table. */
static void *shift_opts(const char *n)
{
	const struct pfs_workload *wl = &pfs_workload_create_unlink;
	void *o = calloc(1, wl->opts_size);

	assert_non_null(o);
	assert_int_equal(pfs_workload_defaults(wl, o), 0);
	assert_int_equal(pfs_opts_from_kv(wl->options, o, "shift", n), 0);
	return o;
}

/* --shift: Read and Unlink of se, pa and ub become the peer's; ua and uc,
 * and Create and Write everywhere, stay as they were. */
static void test_shift_turns_read_and_unlink_to_the_peer(void **state)
{
	void *o = shift_opts("1");
	struct pfs_step s[64];

	(void)state;
	assert_int_equal(test_named("se")->plan(o, 3, s, 64), 12);
	for (unsigned node = 0; node < 3; node++) {
		assert_step(&s[0 + node], (int)node, CREATE);
		assert_step(&s[3 + node], (int)node, WRITE);
		assert_step(&s[6 + node], (int)node, READ_PEER);
		assert_step(&s[9 + node], (int)node, UNLINK_PEER);
	}
	assert_int_equal(test_named("pa")->plan(o, 3, s, 64), 4);
	assert_step(&s[2], PFS_ALL_NODES, READ_PEER);
	assert_step(&s[3], PFS_ALL_NODES, UNLINK_PEER);
	assert_int_equal(test_named("ub")->plan(o, 3, s, 64), 4);
	assert_step(&s[3], PFS_ALL_NODES, UNLINK_PEER);
	assert_int_equal(test_named("ua")->plan(o, 3, s, 64), 4);
	assert_int_equal(s[3].assign[0].op, UNLINK);
	assert_int_equal(test_named("uc")->plan(o, 2, s, 64), 2);
	assert_step(&s[1], 1, CREATE_UNLINK);
	free(o);
}

/* The peers: node k's is (k + N) mod nodes; bad N, one node and unequal
 * workers are refused with a message; no shift, no peers. */
static void test_shift_peers(void **state)
{
	const struct pfs_workload *wl = &pfs_workload_create_unlink;
	struct pfs_node nodes[4] = { 0 };
	struct pfs_topology topo = { .nnodes = 4, .nodes = nodes, .workers_min = 2, .workers_max = 2 };
	int peer[4];
	char err[256];
	void *o = shift_opts("3"), *none = shift_opts("0");

	(void)state;
	assert_int_equal(wl->peers(o, &topo, peer, err, sizeof(err)), 0);
	assert_true(peer[0] == 3 && peer[1] == 0 && peer[2] == 1 && peer[3] == 2);
	assert_int_equal(wl->peers(none, &topo, peer, err, sizeof(err)), 0);
	assert_true(peer[0] == -1 && peer[3] == -1);
	topo.nnodes = 3;
	assert_int_equal(wl->peers(o, &topo, peer, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "N must be 1 to 2"));
	topo.nnodes = 1;
	assert_int_equal(wl->peers(o, &topo, peer, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "2 nodes or more"));
	topo.nnodes = 4;
	topo.workers_max = 3;
	assert_int_equal(wl->peers(o, &topo, peer, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "same number of workers"));
	free(o);
	free(none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_se_is_op_major_node_minor),
		cmocka_unit_test(test_pa_runs_every_node_at_once),
		cmocka_unit_test(test_ua_is_a_pipeline),
		cmocka_unit_test(test_ub_creates_node_by_node_then_unlinks_together),
		cmocka_unit_test(test_uc_is_node_by_node),
		cmocka_unit_test(test_plan_respects_capacity),
		cmocka_unit_test(test_ua_reproduces_the_seed_order),
		cmocka_unit_test(test_shift_turns_read_and_unlink_to_the_peer),
		cmocka_unit_test(test_shift_peers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
