/* gather.c: a test iteration's results, from every rank to rank 0 and on
 * to the outputs. Rows, latency cells and ticks travel as MPI datatypes
 * built from their field tables, so a field is converted, not copied as
 * raw bytes, and counts are in records: a rank's count fits an int up to
 * 2^31 records, whatever their size. Rank 0 puts the rows in the test's
 * report order and points each latency cell at its row's new place. */
#include "internal.h"

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

int pfs_gather_types(struct pfs_engine *e)
{
	if (record_type(e, pfs_row_fields, pfs_row_nfields, sizeof(struct pfs_row), &e->row_type) ||
	    record_type(e, pfs_lat_cell_fields, pfs_lat_cell_nfields, sizeof(struct pfs_lat_cell),
			&e->cell_type) ||
	    record_type(e, pfs_tick_fields, pfs_tick_nfields, sizeof(struct pfs_tick), &e->tick_type) ||
	    record_type(e, pfs_fsstat_fields, pfs_fsstat_nfields, sizeof(struct pfs_fsstat),
			&e->fsstat_type))
		return -ENOMEM;
	return 0;
}

void pfs_gather_free_types(struct pfs_engine *e)
{
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

/* Gathers n records of type t (size bytes each) from every rank to rank 0:
 * *all holds them in rank order, (*counts)[r] and (*firsts)[r] say where
 * rank r's are. Returns 0, or on every rank -ENOMEM when rank 0 had no
 * memory for them, -EOVERFLOW when more than fit an int's count; rank 0
 * says which (its status is broadcast, so no rank waits in a gather that
 * rank 0 cannot take). */
static int gather(struct pfs_engine *e, const void *mine, size_t n, MPI_Datatype t, size_t size,
		  void **all, int **counts, int **firsts, size_t *total)
{
	int my = n > INT_MAX ? -1 : (int)n, status = 0;

	*all = NULL;
	*counts = *firsts = NULL;
	*total = 0;
	if (e->rank == 0) {
		*counts = calloc((size_t)e->nranks, sizeof(int));
		*firsts = calloc((size_t)e->nranks, sizeof(int));
		status = *counts && *firsts ? 0 : -ENOMEM;
	}
	PFS_MPI_ASLEEP(e, MPI_Ibcast, &status, 1, MPI_INT, 0, e->comm);
	if (status)
		goto out;
	PFS_MPI_ASLEEP(e, MPI_Igather, &my, 1, MPI_INT, *counts, 1, MPI_INT, 0, e->comm);
	if (e->rank == 0) {
		for (int r = 0; r < e->nranks && !status; r++) {
			if ((*counts)[r] < 0 || *total + (size_t)(*counts)[r] > INT_MAX) {
				status = -EOVERFLOW;
				break;
			}
			(*firsts)[r] = (int)*total;
			*total += (size_t)(*counts)[r];
		}
		if (!status) {
			*all = malloc((*total ? *total : 1) * size);
			status = *all ? 0 : -ENOMEM;
		}
	}
	PFS_MPI_ASLEEP(e, MPI_Ibcast, &status, 1, MPI_INT, 0, e->comm);
	if (!status)
		PFS_MPI_ASLEEP(e, MPI_Igatherv, mine, my, t, *all, *counts, *firsts, t, 0, e->comm);
out:
	if (status && e->rank == 0) {
		if (status == -EOVERFLOW)
			pfs_error("more than %d results to gather in one test iteration; "
				  "use fewer ranks or iterations", INT_MAX);
		else
			pfs_error("out of memory gathering %zu results", *total);
		if (!e->failure[0])
			(void)pfs_format(e->failure, sizeof(e->failure),
					 "rank 0 could not gather test %s iteration %u: %s", e->test,
					 e->iteration, strerror(-status));
	}
	if (status) {
		free(*all);
		free(*counts);
		free(*firsts);
		*all = NULL;
		*counts = *firsts = NULL;
		*total = 0;
	}
	return status;
}

int pfs_gather_block(struct pfs_engine *e, enum pfs_order order)
{
	struct pfs_row *all_rows = NULL, *rows = NULL;
	struct pfs_lat_cell *cells = NULL;
	struct pfs_tick *ticks = NULL;
	struct pfs_fsstat *fsstats = NULL;
	int *rcount = NULL, *rfirst = NULL, *ccount = NULL, *cfirst = NULL, *tcount = NULL,
	    *tfirst = NULL, *fcount = NULL, *ffirst = NULL;
	size_t nrows = 0, ncells = 0, nticks = 0, nfsstats = 0, *perm = NULL, *place = NULL;
	int rc = 0;

	/* Each gather's failure is every rank's (its status is broadcast): the
	 * ones after it are not attempted, and the caller's agreement stops
	 * the run. */
	rc = gather(e, e->rows, e->nrows, e->row_type, sizeof(*e->rows), (void **)&all_rows,
		    &rcount, &rfirst, &nrows);
	if (!rc)
		rc = gather(e, e->cells, e->ncells, e->cell_type, sizeof(*e->cells), (void **)&cells,
			    &ccount, &cfirst, &ncells);
	if (!rc)
		rc = gather(e, e->ticks, e->nticks, e->tick_type, sizeof(*e->ticks), (void **)&ticks,
			    &tcount, &tfirst, &nticks);
	if (!rc)
		rc = gather(e, e->fsstats, e->nfsstats, e->fsstat_type, sizeof(*e->fsstats),
			    (void **)&fsstats, &fcount, &ffirst, &nfsstats);
	e->nrows = e->ncells = e->nticks = e->nfsstats = 0;
	if (e->rank != 0 || rc)
		goto out;
	e->gathered.rows += nrows;
	e->gathered.cells += ncells;
	e->gathered.ticks += nticks;
	e->gathered.fsstats += nfsstats;
	{
		uint64_t bytes = nrows * sizeof(*rows) + ncells * sizeof(*cells) +
				 nticks * sizeof(*ticks) + nfsstats * sizeof(*fsstats);

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
		for (int c = 0; c < ccount[r]; c++) {
			struct pfs_lat_cell *cell = &cells[cfirst[r] + c];

			cell->row = place[(size_t)rfirst[r] + cell->row];
		}
	struct pfs_block b = { rows, nrows, cells, ncells, ticks, nticks, fsstats, nfsstats };

	for (size_t i = 0; i < e->noutputs; i++) {
		if (!e->outputs[i].ops->block(&e->outputs[i], &e->ri, &b))
			continue;
		if (!(e->outputs[i].ops->flags & PFS_OUTPUT_RESULTS_FILE)) {
			pfs_warn("output %s failed to record test %s iteration %u",
				 e->outputs[i].ops->name, e->test, e->iteration);
			continue;
		}
		rc = -EIO;
		if (!e->failure[0])
			(void)pfs_format(e->failure, sizeof(e->failure),
					 "cannot write test %s iteration %u to the results file '%s'",
					 e->test, e->iteration, e->results_path);
	}
out:
	free(perm);
	free(place);
	free(rows);
	free(all_rows);
	free(cells);
	free(ticks);
	free(fsstats);
	free(fcount);
	free(ffirst);
	free(rcount);
	free(rfirst);
	free(ccount);
	free(cfirst);
	free(tcount);
	free(tfirst);
	return rc;
}
