/* gather.c: a test iteration's results, from every rank to rank 0 and on
 * to the outputs. Rows, latency cells and ticks travel as MPI datatypes
 * built from their field tables, so a field is converted, not copied as
 * raw bytes, and counts are in records: a rank's count fits an int up to
 * 2^31 records, whatever their size. Rank 0 puts the rows in the test's
 * report order and points each latency cell at its row's new place. The
 * ticks, the most of a long step's records at scale, come in rounds of
 * whole ranks when there are more than rank 0 holds at once
 * (GATHER_TICKS_ROUND): each round is written before the next comes. */
#include "internal.h"

#include "pfsbench/core/latmerge.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* An MPI struct type for a record described by a field table. */
static int record_type(struct pfs_engine *e, const struct pfs_field *fields, size_t n,
		       size_t size, MPI_Datatype *out)
{
	int *lens = calloc(n, sizeof(int));
	MPI_Aint *disps = calloc(n, sizeof(MPI_Aint));
	MPI_Datatype *types = calloc(n, sizeof(MPI_Datatype)), t;

	if (!lens || !disps || !types) {
		free(lens);
		free(disps);
		free(types);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pfs_field *f = &fields[i];

		disps[i] = (MPI_Aint)f->offset;
		lens[i] = f->type == PFS_FIELD_STRING ? (int)f->size : 1;
		types[i] = f->type == PFS_FIELD_STRING ? MPI_CHAR
			   : f->type == PFS_FIELD_U32  ? MPI_UINT32_T
						       : MPI_UINT64_T;
	}
	PFS_MPI(e, MPI_Type_create_struct, ((int)n, lens, disps, types, &t));
	/* The extent of the C struct, padding included, so arrays travel. */
	PFS_MPI(e, MPI_Type_create_resized, (t, 0, (MPI_Aint)size, out));
	PFS_MPI(e, MPI_Type_free, (&t));
	PFS_MPI(e, MPI_Type_commit, (out));
	free(lens);
	free(disps);
	free(types);
	return 0;
}

int pfs_gather_init(struct pfs_engine *e)
{
	/* Rank 0's room for each rank's counts, each kind's counts and
	 * offsets, and the rounds of ticks: taken now, so that a block's
	 * gather needs no status broadcast before it (rank 0 always has room
	 * for the counts). PFSBENCH_DEBUG_GATHER_TICKS: a test's way to have
	 * rounds in a small run. */
	e->ticks_round = pfs_env_count("PFSBENCH_DEBUG_GATHER_TICKS", GATHER_TICKS_ROUND);
	if (e->rank == 0) {
		e->gather_counts = calloc((size_t)e->nranks * GATHER_INTS, sizeof(int));
		if (!e->gather_counts)
			return -ENOMEM;
	}
	if (record_type(e, pfs_row_fields, pfs_row_nfields, sizeof(struct pfs_row), &e->row_type) ||
	    record_type(e, pfs_lat_cell_fields, pfs_lat_cell_nfields, sizeof(struct pfs_lat_cell),
			&e->cell_type) ||
	    record_type(e, pfs_tick_fields, pfs_tick_nfields, sizeof(struct pfs_tick), &e->tick_type) ||
	    record_type(e, pfs_fsstat_fields, pfs_fsstat_nfields, sizeof(struct pfs_fsstat),
			&e->fsstat_type))
		return -ENOMEM;
	return 0;
}

void pfs_gather_free(struct pfs_engine *e)
{
	free(e->gather_counts);
	e->gather_counts = NULL;
	MPI_Datatype *types[] = { &e->row_type, &e->cell_type, &e->tick_type, &e->fsstat_type };

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (*types[i] != MPI_DATATYPE_NULL)
			PFS_MPI(e, MPI_Type_free, (types[i]));
}

/* Room for one more element in *arr (of *cap, each size bytes). */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *na;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	na = realloc(*arr, ncap * size);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

int pfs_engine_add_row(struct pfs_engine *e, const struct pfs_row *r, const struct pfs_hist *lat)
{
	size_t nc;

	if (grow((void **)&e->rows, &e->rows_cap, e->nrows, sizeof(*e->rows)))
		return -ENOMEM;
	if (lat) {
		nc = pfs_hist_cells(lat, NULL, 0);
		while (e->ncells + nc > e->cells_cap)
			if (grow((void **)&e->cells, &e->cells_cap, e->cells_cap, sizeof(*e->cells)))
				return -ENOMEM;
		struct pfs_hist_cell *hc = malloc((nc ? nc : 1) * sizeof(*hc));

		if (!hc)
			return -ENOMEM;
		pfs_hist_cells(lat, hc, nc);
		for (size_t i = 0; i < nc; i++)
			e->cells[e->ncells++] = (struct pfs_lat_cell){ e->nrows, hc[i].bucket,
								       hc[i].count };
		free(hc);
	}
	e->rows[e->nrows++] = *r;
	return 0;
}

int pfs_engine_add_fsstats(struct pfs_engine *e, const struct pfs_fscounter *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pfs_fsstat *f;

		if (grow((void **)&e->fsstats, &e->fsstats_cap, e->nfsstats, sizeof(*e->fsstats)))
			return -ENOMEM;
		f = &e->fsstats[e->nfsstats++];
		memset(f, 0, sizeof(*f));
		pfs_row_set_text(f->test, sizeof(f->test), e->test);
		f->iteration = e->iteration;
		f->step = e->step;
		f->node_index = e->w.node;
		pfs_row_set_text(f->name, sizeof(f->name), c[i].name);
		f->value = c[i].value;
	}
	return 0;
}

/* What a block gathers: each kind's records on this rank, their MPI type
 * type. */
struct gather_kind {
	const void *mine;
	size_t n;
	MPI_Datatype type;
};

/* Where each kind's records land in g, in the order of the kinds. */
static void **landing(struct pfs_gathered *g, int k)
{
	void **all[GATHER_KINDS] = { (void **)&g->rows, (void **)&g->cells, (void **)&g->ticks,
				     (void **)&g->fsstats };

	return all[k];
}

static const size_t record_size[GATHER_KINDS] = {
	sizeof(struct pfs_row), sizeof(struct pfs_lat_cell), sizeof(struct pfs_tick),
	sizeof(struct pfs_fsstat),
};

void pfs_gathered_free(struct pfs_gathered *g)
{
	for (int k = 0; k < GATHER_KINDS; k++) {
		free(*landing(g, k));
		*landing(g, k) = NULL;
		g->totals[k] = 0;
	}
}

/* The records of kind k a round holds: every rank's (one round), or, for
 * the ticks, the largest round's. */
static size_t room_of(const struct pfs_gathered *g, int k)
{
	return k == 2 ? g->tick_room : g->totals[k];
}

int pfs_gather_room(struct pfs_engine *e, struct pfs_gathered *g)
{
	const int *all = e->gather_counts;
	size_t n = (size_t)e->nranks, in_round = 0;
	int status = 0;

	for (int k = 0; k < GATHER_KINDS; k++) {
		*landing(g, k) = NULL;
		g->totals[k] = 0;
		g->counts[k] = e->gather_counts + n * (GATHER_KINDS + k);
		g->firsts[k] = e->gather_counts + n * (2 * GATHER_KINDS + k);
	}
	g->round_of = e->gather_counts + n * 3 * GATHER_KINDS;
	g->round_counts = g->round_of + n;
	g->rounds = 1;
	g->tick_room = 0;
	for (int k = 0; k < GATHER_KINDS && !status; k++) {
		for (int r = 0; r < e->nranks; r++) {
			int c = all[(size_t)r * GATHER_KINDS + k];
			size_t first = g->totals[k];

			/* The ticks: a new round when this rank's would take
			 * the round past its most; a rank's all always fit. */
			if (k == 2) {
				if (in_round && in_round + (size_t)(c > 0 ? c : 0) > e->ticks_round) {
					g->rounds++;
					in_round = 0;
				}
				first = in_round;
				g->round_of[r] = g->rounds - 1;
			}
			if (c < 0 || first + (size_t)c > INT_MAX) {
				status = -EOVERFLOW;
				break;
			}
			g->counts[k][r] = c;
			g->firsts[k][r] = (int)first;
			g->totals[k] += (size_t)c;
			if (k == 2) {
				in_round += (size_t)c;
				if (in_round > g->tick_room)
					g->tick_room = in_round;
			}
		}
		if (!status) {
			*landing(g, k) = malloc((room_of(g, k) ? room_of(g, k) : 1) * record_size[k]);
			status = *landing(g, k) ? 0 : -ENOMEM;
		}
	}
	if (status) {
		size_t total = 0;

		for (int k = 0; k < GATHER_KINDS; k++)
			total += g->totals[k];
		if (status == -EOVERFLOW)
			pfs_error("more than %d results to gather in one test iteration; "
				  "use fewer ranks or iterations", INT_MAX);
		else
			pfs_error("out of memory gathering %zu results", total);
		pfs_gathered_free(g);
	}
	return status;
}

void pfs_gather_round(const struct pfs_engine *e, struct pfs_gathered *g, int w)
{
	g->round_ticks = 0;
	for (int r = 0; r < e->nranks; r++) {
		g->round_counts[r] = g->round_of[r] == w ? g->counts[2][r] : 0;
		g->round_ticks += (size_t)g->round_counts[r];
	}
}

/* An output that could not take a block or more of its ticks (what: ""
 * or "'s progress"): a warning for any output but the results file's,
 * whose failure is the run's: -EIO, said in e->failure. */
static int output_failed(struct pfs_engine *e, const struct pfs_output_ops *ops, const char *what)
{
	if (!(ops->flags & PFS_OUTPUT_RESULTS_FILE)) {
		pfs_warn("output %s failed to record test %s iteration %u%s", ops->name, e->test,
			 e->iteration, what);
		return 0;
	}
	if (!e->failure[0])
		(void)pfs_format(e->failure, sizeof(e->failure),
				 "cannot write test %s iteration %u%s to the results file '%s'", e->test,
				 e->iteration, what, e->results_path);
	return -EIO;
}

/* A round of the ticks: every rank whose round is w sends its all, the
 * others nothing; rank 0 takes them into g->ticks. */
static void gather_ticks(struct pfs_engine *e, const struct gather_kind *ticks, int mine, int round,
			 struct pfs_gathered *g, int w)
{
	if (e->rank == 0)
		pfs_gather_round(e, g, w);
	PFS_MPI_ASLEEP(e, MPI_Igatherv, ticks->mine, round == w ? mine : 0, ticks->type,
		       e->rank == 0 ? g->ticks : NULL, e->rank == 0 ? g->round_counts : NULL,
		       e->rank == 0 ? g->firsts[2] : NULL, ticks->type, 0, e->comm);
}

/* Gathers each kind's records from every rank to rank 0, into g there
 * (pfs_gather_room), the ticks' first round among them. One gather of
 * every rank's counts, one broadcast of rank 0's status and the rounds of
 * ticks, a scatter of each rank's round when there are more than one, one
 * gather of each kind's records. Returns 0, or on every rank -ENOMEM when
 * rank 0 had no memory for them, -EOVERFLOW when a kind has more than fit
 * an int's count; rank 0 says which (its status is broadcast, so no rank
 * waits in a gather that rank 0 cannot take). *rounds: the rounds of
 * ticks, *round: this rank's. */
static int gather(struct pfs_engine *e, const struct gather_kind *kinds, struct pfs_gathered *g,
		  int *rounds, int *round)
{
	int mine[GATHER_KINDS], status[2] = { 0, 1 };

	memset(g, 0, sizeof(*g));
	for (int k = 0; k < GATHER_KINDS; k++)
		mine[k] = kinds[k].n > INT_MAX ? -1 : (int)kinds[k].n;
	PFS_MPI_ASLEEP(e, MPI_Igather, mine, GATHER_KINDS, MPI_INT, e->gather_counts, GATHER_KINDS,
		       MPI_INT, 0, e->comm);
	if (e->rank == 0) {
		status[0] = pfs_gather_room(e, g);
		status[1] = status[0] ? 1 : g->rounds;
	}
	PFS_MPI_ASLEEP(e, MPI_Ibcast, status, 2, MPI_INT, 0, e->comm);
	*rounds = status[1];
	*round = 0;
	if (!status[0] && *rounds > 1)
		PFS_MPI_ASLEEP(e, MPI_Iscatter, e->rank == 0 ? g->round_of : NULL, 1, MPI_INT, round,
			       1, MPI_INT, 0, e->comm);
	for (int k = 0; k < GATHER_KINDS && !status[0]; k++) {
		if (k == 2) {
			gather_ticks(e, &kinds[k], mine[k], *round, g, 0);
			continue;
		}
		PFS_MPI_ASLEEP(e, MPI_Igatherv, kinds[k].mine, mine[k], kinds[k].type,
			       e->rank == 0 ? *landing(g, k) : NULL, e->rank == 0 ? g->counts[k] : NULL,
			       e->rank == 0 ? g->firsts[k] : NULL, kinds[k].type, 0, e->comm);
	}
	if (status[0] && e->rank == 0 && !e->failure[0])
		(void)pfs_format(e->failure, sizeof(e->failure),
				 "rank 0 could not gather test %s iteration %u: %s", e->test,
				 e->iteration, strerror(-status[0]));
	if (status[0])
		pfs_gathered_free(g);
	return status[0];
}

int pfs_gather_deliver(struct pfs_engine *e, enum pfs_order order, struct pfs_gathered *g)
{
	struct pfs_row *all_rows = g->rows, *rows = NULL;
	struct pfs_lat_cell *cells = g->cells;
	size_t nrows = g->totals[0], ncells = g->totals[1], nticks = g->round_ticks,
	       nfsstats = g->totals[3], *perm = NULL, *place = NULL;
	int rc = 0;

	e->gathered.rows += nrows;
	e->gathered.cells += ncells;
	e->gathered.ticks += g->totals[2];
	e->gathered.fsstats += nfsstats;
	if ((unsigned)g->rounds > e->gathered.tick_rounds)
		e->gathered.tick_rounds = (unsigned)g->rounds;
	{
		/* What rank 0 holds at once: every kind's records, and the
		 * largest round of ticks. */
		uint64_t bytes = nrows * sizeof(*rows) + ncells * sizeof(*cells) +
				 g->tick_room * sizeof(*g->ticks) + nfsstats * sizeof(*g->fsstats);

		if (bytes > e->gathered.block_max_bytes)
			e->gathered.block_max_bytes = bytes;
	}
	for (size_t i = 0; i < nrows; i++)
		if (all_rows[i].start_us + all_rows[i].elapsed_us > e->gathered.last_end_us)
			e->gathered.last_end_us = all_rows[i].start_us + all_rows[i].elapsed_us;

	perm = malloc((nrows ? nrows : 1) * sizeof(*perm));
	place = malloc((nrows ? nrows : 1) * sizeof(*place));
	rows = malloc((nrows ? nrows : 1) * sizeof(*rows));
	if (!perm || !place || !rows) {
		rc = -ENOMEM;
		goto out;
	}
	pfs_rows_order(all_rows, nrows, order, perm);
	for (size_t i = 0; i < nrows; i++) {
		rows[i] = all_rows[perm[i]];
		place[perm[i]] = i;
	}
	if (e->wl->review)
		e->wl->review(e->opts, (unsigned)e->nranks, rows, nrows);
	/* A cell's row was its index among its rank's rows. */
	for (int r = 0; r < e->nranks; r++)
		for (int c = 0; c < g->counts[1][r]; c++) {
			struct pfs_lat_cell *cell = &cells[g->firsts[1][r] + c];

			cell->row = place[(size_t)g->firsts[0][r] + cell->row];
		}
	struct pfs_block b = { rows, nrows, cells, ncells, g->ticks, nticks, g->fsstats, nfsstats };

	for (size_t i = 0; i < e->noutputs; i++)
		if (e->outputs[i].ops->block(&e->outputs[i], &e->ri, &b) &&
		    output_failed(e, e->outputs[i].ops, ""))
			rc = -EIO;
out:
	free(perm);
	free(place);
	free(rows);
	/* The ticks' room stays for their next rounds. */
	for (int k = 0; k < GATHER_KINDS; k++)
		if (k != 2) {
			free(*landing(g, k));
			*landing(g, k) = NULL;
		}
	return rc;
}

int pfs_gather_deliver_ticks(struct pfs_engine *e, struct pfs_gathered *g)
{
	int rc = 0;

	for (size_t i = 0; i < e->noutputs; i++) {
		const struct pfs_output_ops *ops = e->outputs[i].ops;

		if (ops->ticks && ops->ticks(&e->outputs[i], &e->ri, g->ticks, g->round_ticks) &&
		    output_failed(e, ops, "'s progress"))
			rc = -EIO;
	}
	return rc;
}

/* ---- latency merged on the node ------------------------------------------ */

/* Whether every rank has what it asked for (ok): a reduction that sleeps
 * while it waits, as the gather's collectives do. */
static bool all_ok(struct pfs_engine *e, bool ok)
{
	int mine = ok, all = 0;

	PFS_MPI_ASLEEP(e, MPI_Iallreduce, &mine, &all, 1, MPI_INT, MPI_MIN, e->comm);
	return all;
}

/* This rank's cells, keyed by their rows, at the start of a new array of
 * room cells (room >= e->ncells); NULL on no memory. */
static struct pfs_keyed_cell *keyed_cells(const struct pfs_engine *e, size_t room)
{
	struct pfs_keyed_cell *k = malloc((room ? room : 1) * sizeof(*k));

	for (size_t c = 0; k && c < e->ncells; c++)
		pfs_keyed_cell_set(&k[c], &e->rows[e->cells[c].row], (uint32_t)e->rank,
				   e->cells[c].bucket, e->cells[c].count);
	return k;
}

/* The merged cells this rank carries (k, n of them, all its own rank's)
 * become its cells, each on its first row of the cell's key that recorded
 * latency: there is one, since the rank had cells of every key it carries. */
static void carry(struct pfs_engine *e, const struct pfs_keyed_cell *k, size_t n)
{
	size_t row = 0;

	for (size_t c = 0; c < n; c++) {
		if (!c || !pfs_keyed_cell_is_of(&k[c], &e->rows[row]) || !e->rows[row].lat_count)
			for (row = 0; row < e->nrows; row++)
				if (e->rows[row].lat_count && pfs_keyed_cell_is_of(&k[c], &e->rows[row]))
					break;
		e->cells[c] = (struct pfs_lat_cell){ row, k[c].bucket, k[c].count };
	}
	e->ncells = n;
}

/* --latency-detail node: the node's ranks send their leader their block's
 * cells with their rows' keys (test, iteration, step, op); the leader
 * merges them (pfs_keyed_cells_merge) and sends each rank the merged
 * cells of the keys it is the lowest rank to have, which it then gathers
 * to rank 0 as its own first row's of that key. So rank 0 receives one
 * histogram per node, step and op, whatever the node's ranks: M x S x c_M
 * cells, not N x S x c (docs/scale.md). Messages: 4 (k - 1) a node, two
 * counts and two lists of cells; two reductions of one int over all
 * ranks, so that no rank waits for a rank that has no room. 0, or -ENOMEM
 * on every rank. */
static int merge_on_node(struct pfs_engine *e)
{
	const struct pfs_node *node = &e->topo.nodes[e->topo.node];
	const int *ranks = e->topo.node_ranks;
	unsigned k = node->nworkers;
	bool leader = node->leader_rank == e->rank, ok;
	struct pfs_keyed_cell *all = NULL;
	uint64_t mine = e->ncells, *counts = NULL, total = mine;
	MPI_Request *reqs = NULL;
	size_t n = 0, *from = NULL;
	int rc = -ENOMEM;

	/* Every rank takes part in the reductions; a node of one rank
	 * merges nothing. */
	if (k < 2)
		return all_ok(e, true) && all_ok(e, true) ? 0 : -ENOMEM;
	/* The leader's alone: its ranks' counts, requests and where each
	 * one's merged cells start. */
	if (leader) {
		counts = calloc(k, sizeof(*counts));
		reqs = calloc(k, sizeof(*reqs));
		from = calloc(k, sizeof(*from));
	}
	ok = !leader || (counts && reqs && from);
	if (leader) {
		for (unsigned w = 1; ok && w < k; w++) {
			PFS_MPI_ASLEEP(e, MPI_Irecv, &counts[w], 1, MPI_UINT64_T, ranks[w],
				       TAG_LAT_MERGE, e->comm);
			total += counts[w];
		}
		ok = ok && total <= SIZE_MAX / sizeof(*all) && total <= INT_MAX / sizeof(*all);
	} else {
		PFS_MPI_ASLEEP(e, MPI_Isend, &mine, 1, MPI_UINT64_T, ranks[0], TAG_LAT_MERGE,
			       e->comm);
		ok = ok && mine <= INT_MAX / sizeof(*all);
	}
	if (ok)
		ok = (all = keyed_cells(e, (size_t)total)) != NULL;
	if (!all_ok(e, ok))
		goto out;

	/* Up: each rank's cells to the leader, after its own. */
	if (leader) {
		n = e->ncells;
		for (unsigned w = 1; w < k; w++) {
			PFS_MPI_ASLEEP(e, MPI_Irecv, all + n, (int)(counts[w] * sizeof(*all)),
				       MPI_BYTE, ranks[w], TAG_LAT_MERGE, e->comm);
			n += counts[w];
		}
		n = pfs_keyed_cells_merge(all, n);
	} else {
		PFS_MPI_ASLEEP(e, MPI_Isend, all, (int)(mine * sizeof(*all)), MPI_BYTE, ranks[0],
			       TAG_LAT_MERGE, e->comm);
	}

	/* Down: how many each rank carries, then the cells. */
	if (leader) {
		size_t at = 0;

		memset(counts, 0, k * sizeof(*counts));
		for (unsigned w = 0; w < k; w++) {
			from[w] = at;
			while (at < n && all[at].rank == (uint32_t)ranks[w])
				at++;
			counts[w] = at - from[w];
		}
		for (unsigned w = 1; w < k; w++)
			PFS_MPI(e, MPI_Isend, (&counts[w], 1, MPI_UINT64_T, ranks[w], TAG_LAT_MERGE,
					       e->comm, &reqs[w]));
		ok = true;
		while (ok && e->cells_cap < counts[0])
			ok = !grow((void **)&e->cells, &e->cells_cap, e->cells_cap, sizeof(*e->cells));
		ok = all_ok(e, ok);
		for (unsigned w = 1; w < k; w++)
			pfs_engine_wait(e, &reqs[w]);
		if (!ok)
			goto out;
		for (unsigned w = 1; w < k; w++)
			PFS_MPI(e, MPI_Isend, (all + from[w], (int)(counts[w] * sizeof(*all)),
					       MPI_BYTE, ranks[w], TAG_LAT_MERGE, e->comm, &reqs[w]));
		for (unsigned w = 1; w < k; w++)
			pfs_engine_wait(e, &reqs[w]);
		carry(e, all, counts[0]);
	} else {
		uint64_t carried = 0;
		struct pfs_keyed_cell *mine_now;

		PFS_MPI_ASLEEP(e, MPI_Irecv, &carried, 1, MPI_UINT64_T, ranks[0], TAG_LAT_MERGE,
			       e->comm);
		/* Room for them as keyed cells, and as the rank's cells. */
		ok = carried <= INT_MAX / sizeof(*all);
		mine_now = ok ? realloc(all, (carried ? carried : 1) * sizeof(*all)) : NULL;
		all = mine_now ? mine_now : all;
		while (ok && mine_now && e->cells_cap < carried)
			if (grow((void **)&e->cells, &e->cells_cap, e->cells_cap, sizeof(*e->cells)))
				break;
		if (!all_ok(e, ok && mine_now && e->cells_cap >= carried))
			goto out;
		PFS_MPI_ASLEEP(e, MPI_Irecv, all, (int)(carried * sizeof(*all)), MPI_BYTE, ranks[0],
			       TAG_LAT_MERGE, e->comm);
		carry(e, all, (size_t)carried);
	}
	rc = 0;
out:
	if (rc && e->rank == 0 && !e->failure[0])
		(void)pfs_format(e->failure, sizeof(e->failure),
				 "out of memory merging test %s iteration %u's latency on a node",
				 e->test, e->iteration);
	free(all);
	free(counts);
	free(reqs);
	free(from);
	return rc;
}

int pfs_gather_block(struct pfs_engine *e, enum pfs_order order)
{
	struct pfs_gathered g;
	const struct gather_kind kinds[GATHER_KINDS] = {
		{ e->rows, e->nrows, e->row_type },
		{ e->cells, e->ncells, e->cell_type },
		{ e->ticks, e->nticks, e->tick_type },
		{ e->fsstats, e->nfsstats, e->fsstat_type },
	};
	int rounds = 0, round, mine = e->nticks > INT_MAX ? -1 : (int)e->nticks;
	/* A failure is every rank's (rank 0's status is broadcast): nothing
	 * is gathered, and the caller's agreement stops the run. */
	int rc = e->lat_by_node ? merge_on_node(e) : 0;

	/* kinds[1] read e->ncells before the merge */
	if (!rc) {
		struct gather_kind merged[GATHER_KINDS];

		memcpy(merged, kinds, sizeof(merged));
		merged[1].mine = e->cells;
		merged[1].n = e->ncells;
		rc = gather(e, merged, &g, &rounds, &round);
	} else {
		memset(&g, 0, sizeof(g));
	}

	if (!rc && e->rank == 0)
		rc = pfs_gather_deliver(e, order, &g);
	/* The ticks' other rounds, each written before the next comes; after
	 * a failure to write, still gathered (every rank takes part), no
	 * more written. */
	for (int w = 1; w < rounds; w++) {
		gather_ticks(e, &kinds[2], mine, round, &g, w);
		if (e->rank == 0 && !rc)
			rc = pfs_gather_deliver_ticks(e, &g);
	}
	if (e->rank == 0)
		pfs_gathered_free(&g);
	pfs_timeline_gathered(&e->timeline, e->nticks);
	e->nrows = e->ncells = e->nticks = e->nfsstats = 0;
	return rc;
}
