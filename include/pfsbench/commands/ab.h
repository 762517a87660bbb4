/* ab.h: `pfsbench ab`, two configurations of one workload run in
 * alternating rounds in one job (docs/ab.md). This module is its command
 * line: ab's own options, each side's command line as the workload parses
 * it, each run's results file, the order of the runs and compare's command
 * line at the end. No MPI and no filesystem: src/commands/ab_run.c runs the
 * rounds, src/main.c calls compare. */
#ifndef PFSBENCH_AB_H
#define PFSBENCH_AB_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pfs_workload;

enum { PFS_AB_A, PFS_AB_B, PFS_AB_SIDES };

/* ab's own options, before the workload's name. */
struct pfs_ab_opts {
	uint64_t rounds;                   /* --rounds */
	char results[PATH_MAX];            /* --results PREFIX */
	char side[PFS_AB_SIDES][PATH_MAX]; /* -A, -B as given: words split at blanks */
};

/* How ab finds the workload its runs name: the registry's
 * pfs_workload_find, handed in by the command (src/main.c), so that this
 * layer below the workloads names none of them. */
typedef const struct pfs_workload *(*pfs_workload_finder)(const char *name);

struct pfs_ab {
	struct pfs_ab_opts opts;
	const struct pfs_workload *wl;
	char **shared;                 /* the workload's options after its name */
	int nshared;
	char *words[PFS_AB_SIDES];     /* each side's string, split in place */
	char **word[PFS_AB_SIDES];     /* its words */
	int nwords[PFS_AB_SIDES];
	/* Each run's results file: paths[side * rounds + round - 1]. */
	char **paths;
	/* --label A (or B) is added to the side's runs: the workload has
	 * --label and the side's options do not give one. */
	bool add_label[PFS_AB_SIDES];
	/* The side's options as the workload parsed them (pfs_ab_check). */
	void *side_opts[PFS_AB_SIDES];
	char **argv;                   /* one run's command line (pfs_ab_run_argv) */
	char **cargv;                  /* compare's (pfs_ab_compare_argv) */
};

/* "A" or "B". */
const char *pfs_ab_name(unsigned side);

/* ab's command line (argv[0] is "ab"): its options, then the workload's
 * name and its options, shared by both sides. Returns PFS_PARSE_OK or
 * PFS_PARSE_HELP, or a negative errno with a one-line message in err. ab
 * is zeroed first, and must be given to pfs_ab_free whatever the result. */
int pfs_ab_parse(struct pfs_ab *ab, int argc, char **argv, pfs_workload_finder find, char *err,
		 size_t errlen);

/* Each side's command line parsed and checked by the workload's own parser
 * (pfs_engine_parse), as every run will be, with the results file and
 * the label that ab adds: what rank 0 checks before any round. Decides
 * add_label. Returns 0 or a negative errno with a one-line message naming
 * the side in err. (src/commands/ab_run.c: it runs the engine's parser.) */
int pfs_ab_check(struct pfs_ab *ab, char *err, size_t errlen);

/* Which side runs k-th (k = 0, 1) in round (1, 2, ...): A then B in odd
 * rounds, B then A in even ones, so that A B B A A B ... */
unsigned pfs_ab_side(uint64_t round, unsigned k);

/* The results file of side's run in round. */
const char *pfs_ab_path(const struct pfs_ab *ab, unsigned side, uint64_t round);

/* The command line of side's run in round, argv[0] the workload's name,
 * then the shared options, the side's, --results and --label; round 0:
 * without the last two. NULL-terminated, in ab->argv, rebuilt on each call
 * (the parser permutes it); its count in *argc. */
char **pfs_ab_run_argv(struct pfs_ab *ab, unsigned side, uint64_t round, int *argc);

/* compare's command line: "compare", A's files, "--", B's files. */
char **pfs_ab_compare_argv(struct pfs_ab *ab, int *argc);

/* "pfsbench ab: LEAD pfsbench ARGS..." on out, each word as a shell
 * reads it back: the heading of each run's report and of the comparison. */
void pfs_ab_say(FILE *out, const char *lead, int argc, char **argv);

void pfs_ab_usage(FILE *out);
void pfs_ab_free(struct pfs_ab *ab);

#endif
