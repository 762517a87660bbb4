/* ab_run.c: the rounds of `pfsbench ab` (docs/ab.md): rank 0 checks both
 * sides before anything is created and every rank learns its verdict; then
 * A B, B A, A B, ..., each a whole run (pfs_engine_run_workload) with a
 * results file of its own. The first run that does not complete ends the
 * rounds; the files of the runs before it stay. Its command line is
 * src/commands/ab.c's; src/main.c compares the runs afterwards. */
#include "pfsbench/commands/ab.h"
#include "pfsbench/commands/ab_run.h"
#include "pfsbench/commands/run.h"
#include "pfsbench/core/interrupt.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/resultpath.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/engine.h"
#include "pfsbench/engine/workload.h"
#include "pfsbench/outputs/output.h"
#include "pfsbench/target/fsinfo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ab's few collectives: a failure ends the job, with its name. */
static void checked(int rc, const char *what, MPI_Comm comm)
{
	if (rc == MPI_SUCCESS)
		return;
	pfs_error("ab: %s failed; stopping the job", what);
	MPI_Abort(comm, PFS_EXIT_FAILED);
}

static bool has_option(const struct pfs_workload *wl, const char *name)
{
	for (const struct pfs_option *o = wl->options; o->long_name; o++)
		if (!strcmp(o->long_name, name))
			return true;
	return false;
}

/* One side: its options as the user gave them, then as a run gets them. */
static int check_side(struct pfs_ab *ab, unsigned side, char *err, size_t errlen)
{
	const struct pfs_workload *wl = ab->wl;
	struct pfs_common_opts *common;
	const char *name = pfs_ab_name(side);
	char why[512] = "", key[256];
	int argc, rc;
	char **argv = pfs_ab_run_argv(ab, side, 0, &argc);

	ab->side_opts[side] = calloc(1, wl->opts_size);
	if (!ab->side_opts[side])
		return pfs_refuse(err, errlen, -ENOMEM, "out of memory");
	common = ab->side_opts[side];
	rc = pfs_engine_parse(wl, common, argc, argv, why, sizeof(why));
	if (rc == PFS_PARSE_HELP || rc == PFS_PARSE_VERSION)
		return pfs_refuse(err, errlen, -EINVAL,
				  "side %s: --help and --version are no options of a run: ask "
				  "'pfsbench %s --help'", name, wl->name);
	if (rc < 0)
		return pfs_refuse(err, errlen, rc, "side %s: %s", name, why);
	if (common->results[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "side %s: --results belongs to ab, before the workload: it names "
				  "every run's file", name);
	if (common->dry_run)
		return pfs_refuse(err, errlen, -EINVAL,
				  "side %s: --dry-run makes no results file to compare", name);
	rc = wl->persist ? wl->persist(common, key, sizeof(key)) : PFS_PERSIST_NONE;
	if (rc == PFS_PERSIST_LEAVE || rc == PFS_PERSIST_RESUME)
		return pfs_refuse(err, errlen, -EINVAL,
				  "side %s: these options leave a run's files for another run to "
				  "use: ab's runs stand alone", name);
	ab->add_label[side] = !common->label[0] && has_option(wl, "label");
	/* A run's own command line, with the longest results file name. */
	memset(common, 0, wl->opts_size);
	argv = pfs_ab_run_argv(ab, side, ab->opts.rounds, &argc);
	rc = pfs_engine_parse(wl, common, argc, argv, why, sizeof(why));
	if (rc != PFS_PARSE_OK)
		return pfs_refuse(err, errlen, rc < 0 ? rc : -EINVAL, "side %s: %s", name, why);
	return 0;
}

int pfs_ab_check(struct pfs_ab *ab, char *err, size_t errlen)
{
	for (unsigned s = 0; s < PFS_AB_SIDES; s++) {
		int rc = check_side(ab, s, err, errlen);

		if (rc)
			return rc;
	}
	return 0;
}

/* What the engine's preflight would refuse of each run and can be known
 * now: a side's directory, a results file that exists or lies in a
 * directory under test. (The space a run needs and the options that
 * depend on the nodes, --shift, are still checked at each run's start.) */
static int check_targets(const struct pfs_ab *ab, char *err, size_t errlen)
{
	const char *dirs[PFS_AB_SIDES] = { NULL, NULL };
	char why[PATH_MAX + 128], key[256];

	for (unsigned s = 0; s < PFS_AB_SIDES; s++) {
		const struct pfs_common_opts *common = ab->side_opts[s];
		int persist = ab->wl->persist ? ab->wl->persist(common, key, sizeof(key))
					      : PFS_PERSIST_NONE;

		/* A run on a named file makes nothing in the directory it is in. */
		if (persist == PFS_PERSIST_NAMED)
			continue;
		if (pfs_check_dir(common->dir, why, sizeof(why)))
			return pfs_refuse(err, errlen, -EINVAL, "side %s: %s", pfs_ab_name(s), why);
		dirs[s] = common->dir;
	}
	for (unsigned s = 0; s < PFS_AB_SIDES; s++)
		for (uint64_t r = 1; r <= ab->opts.rounds; r++)
			for (unsigned d = 0; d < PFS_AB_SIDES; d++)
				if (pfs_results_path_check(pfs_ab_path(ab, s, r), dirs[d], why,
							   sizeof(why)))
					return pfs_refuse(err, errlen, -EINVAL, "%s", why);
	return 0;
}

/* On rank 0: both sides' command lines, then their targets. Prints the
 * refusal. */
static int check_on_root(struct pfs_ab *ab)
{
	char err[PATH_MAX + 256] = "";

	if (pfs_ab_check(ab, err, sizeof(err))) {
		fprintf(stderr, "pfsbench ab: %s\nTry 'pfsbench %s --help'.\n", err, ab->wl->name);
		return -1;
	}
	if (check_targets(ab, err, sizeof(err))) {
		fprintf(stderr, "pfsbench ab: %s\n", err);
		return -1;
	}
	return 0;
}

/* The run's heading on stdout, above its report: which round and side,
 * and the command line it runs. */
static void say_run(uint64_t round, uint64_t rounds, unsigned side, int argc, char **argv)
{
	char lead[96];

	snprintf(lead, sizeof(lead), "round %" PRIu64 " of %" PRIu64 ", %s:", round, rounds,
		 pfs_ab_name(side));
	pfs_ab_say(stdout, lead, argc, argv);
}

/* Whether any rank caught a signal since the rounds began. */
static bool interrupted(MPI_Comm comm)
{
	int mine = pfs_interrupted() != 0, any = 0;

	checked(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce", comm);
	return any;
}

static int run_rounds(struct pfs_ab *ab, MPI_Comm comm, int rank)
{
	uint64_t rounds = ab->opts.rounds;

	for (uint64_t r = 1; r <= rounds; r++)
		for (unsigned k = 0; k < PFS_AB_SIDES; k++) {
			unsigned s = pfs_ab_side(r, k);
			int argc, status;
			char **argv;

			/* Between two runs a signal has no engine to end a run: it
			 * ends the rounds here. */
			if (interrupted(comm)) {
				if (rank == 0)
					fprintf(stderr, "pfsbench ab: interrupted by a signal before "
							"run %s%" PRIu64 "; no more runs\n",
						pfs_ab_name(s), r);
				return PFS_EXIT_FAILED;
			}
			argv = pfs_ab_run_argv(ab, s, r, &argc);
			if (rank == 0)
				say_run(r, rounds, s, argc, argv);
			status = pfs_engine_run_workload(ab->wl, pfs_outputs, argc, argv, comm,
							 stdout, stderr);
			if (status != PFS_EXIT_OK) {
				if (rank == 0)
					fprintf(stderr, "pfsbench ab: run %s%" PRIu64 " did not complete; "
							"no more runs (the results files of those before "
							"it stay)\n",
						pfs_ab_name(s), r);
				return status;
			}
		}
	return PFS_EXIT_OK;
}

int pfs_ab_rounds(struct pfs_ab *ab, MPI_Comm comm)
{
	int rank = 0, verdict[1 + PFS_AB_SIDES] = { 0 }, status;

	checked(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank", comm);
	if (rank == 0) {
		verdict[0] = check_on_root(ab);
		for (unsigned s = 0; s < PFS_AB_SIDES; s++)
			verdict[1 + s] = ab->add_label[s];
	}
	/* Only rank 0's command line reaches a run (the engine parses there),
	 * but every rank builds the same one. */
	checked(MPI_Bcast(verdict, 1 + PFS_AB_SIDES, MPI_INT, 0, comm), "MPI_Bcast", comm);
	if (verdict[0])
		return PFS_EXIT_USAGE;
	for (unsigned s = 0; s < PFS_AB_SIDES; s++)
		ab->add_label[s] = verdict[1 + s];
	/* Held for all the rounds: each run's engine installs inside it. */
	if (pfs_interrupt_install())
		pfs_warn("cannot catch SIGINT and SIGTERM between ab's runs");
	status = run_rounds(ab, comm, rank);
	pfs_interrupt_restore();
	return status;
}
