/* ab.c: `pfsbench ab`'s command line (include/pfsbench/commands/ab.h): ab's options
 * by their table, each side's command line built from the shared options
 * and the side's words, checked by the workload's own parser, each run's
 * results file name, the order A B B A, and compare's command line. */
#include "pfsbench/commands/ab.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/util.h"
#include "pfsbench/engine/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define AB_ROUNDS_MAX 1000
/* What -A and -B hold until given: a control character, which the parser
 * refuses in a value, so that -A '' (no options of its own) is told from
 * no -A at all. */
#define AB_UNSET "\x01"
/* Words ab adds to every run: --results PATH --label A. */
#define AB_ADDED 4

static const struct pfs_option ab_options[] = {
	PFS_OPT_NUM_DEF(struct pfs_ab_opts, rounds, "rounds", 'r', PFS_OPT_COUNT, AB_ROUNDS_MAX, "N",
			"rounds; each runs A and B once, A first in odd rounds", "2"),
	PFS_OPT_STR(struct pfs_ab_opts, results, "results", 0, "PREFIX",
		    "each run's results file is PREFIX-A1.h5, PREFIX-B1.h5, ... (required)", 0),
	PFS_OPT_STR(struct pfs_ab_opts, side[PFS_AB_A], "side-a", 'A', "'OPTIONS'",
		    "side A's options, added to the workload's; split at spaces, no quoting (required)",
		    PFS_OPTF_EMPTY_OK),
	PFS_OPT_STR(struct pfs_ab_opts, side[PFS_AB_B], "side-b", 'B', "'OPTIONS'",
		    "side B's options, the same way (required)", PFS_OPTF_EMPTY_OK),
	PFS_OPT_HELP_ENTRY,
	PFS_OPT_END,
};

const char *pfs_ab_name(unsigned side)
{
	return side == PFS_AB_A ? "A" : "B";
}

void pfs_ab_usage(FILE *out)
{
	fprintf(out,
		"Usage: pfsbench ab [--rounds N] --results PREFIX -A 'OPTIONS' -B 'OPTIONS' "
		"WORKLOAD [OPTIONS]\n"
		"Runs WORKLOAD with OPTIONS plus side A's, then plus side B's, in alternating "
		"rounds\n(A B, B A, A B, ...) in one job, each run a results file of its own, "
		"then compares\nthe A runs with the B runs.\n\nOptions:\n");
	pfs_opts_usage(out, ab_options);
	fprintf(out, "\nExample:\n  mpirun -np 4 pfsbench ab --rounds 3 --results gfs2-ext3 "
		     "-A '-m /mnt/gfs2/t' -B '-m /mnt/ext3/t' \\\n"
		     "      create-unlink -f 2000 -t se,pa\n"
		     "\nSee pfsbench(1) and docs/ab.md.\n");
}

/* A side's string into words, in place. A value cannot hold a blank, and
 * there is no quoting: docs/ab.md says so. */
static int split_words(struct pfs_ab *ab, unsigned side)
{
	const char *s = ab->opts.side[side];
	size_t n = 0;
	char *p;

	ab->words[side] = strdup(s);
	ab->word[side] = calloc(strlen(s) / 2 + 2, sizeof(char *));
	if (!ab->words[side] || !ab->word[side])
		return -ENOMEM;
	for (p = ab->words[side]; *p;) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		ab->word[side][n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	ab->nwords[side] = (int)n;
	return 0;
}

/* Every run's results file, PREFIX-A1.h5 ..., made once. */
static int make_paths(struct pfs_ab *ab, char *err, size_t errlen)
{
	uint64_t rounds = ab->opts.rounds;
	char path[PATH_MAX];

	ab->paths = calloc(PFS_AB_SIDES * rounds, sizeof(char *));
	if (!ab->paths)
		return -ENOMEM;
	for (unsigned s = 0; s < PFS_AB_SIDES; s++)
		for (uint64_t r = 1; r <= rounds; r++) {
			if (pfs_format(path, sizeof(path), "%s-%s%" PRIu64 ".h5", ab->opts.results,
				       pfs_ab_name(s), r))
				return pfs_refuse(err, errlen, -EINVAL,
						  "--results: '%.40s...' is too long", ab->opts.results);
			ab->paths[s * rounds + r - 1] = strdup(path);
			if (!ab->paths[s * rounds + r - 1])
				return -ENOMEM;
		}
	return 0;
}

/* ab's options; the workload's name at argv[*used]. */
static int parse_own(struct pfs_ab *ab, int argc, char **argv, pfs_workload_finder find, int *used,
		     char *err, size_t errlen)
{
	int rc;

	if (pfs_opts_defaults(ab_options, &ab->opts))
		return pfs_refuse(err, errlen, -EINVAL, "a default of ab's option table is no value");
	for (unsigned s = 0; s < PFS_AB_SIDES; s++)
		snprintf(ab->opts.side[s], sizeof(ab->opts.side[s]), "%s", AB_UNSET);
	rc = pfs_opts_parse_head(ab_options, &ab->opts, argc, argv, used, err, errlen);
	if (rc != PFS_PARSE_OK)
		return rc;
	for (unsigned s = 0; s < PFS_AB_SIDES; s++)
		if (!strcmp(ab->opts.side[s], AB_UNSET))
			return pfs_refuse(err, errlen, -EINVAL,
					  "give -%s 'OPTIONS', what side %s adds to the workload's "
					  "options ('' for none)",
					  pfs_ab_name(s), pfs_ab_name(s));
	if (!ab->opts.results[0])
		return pfs_refuse(err, errlen, -EINVAL,
				  "give --results PREFIX: the runs' results files are PREFIX-A1.h5, "
				  "PREFIX-B1.h5, ...");
	if (*used >= argc)
		return pfs_refuse(err, errlen, -EINVAL, "name the workload to run after ab's options");
	ab->wl = find(argv[*used]);
	if (!ab->wl)
		return pfs_refuse(err, errlen, -EINVAL, "unknown workload '%s'", argv[*used]);
	return 0;
}

int pfs_ab_parse(struct pfs_ab *ab, int argc, char **argv, pfs_workload_finder find, char *err,
		 size_t errlen)
{
	size_t most = 0;
	int used = 0, rc;

	memset(ab, 0, sizeof(*ab));
	rc = parse_own(ab, argc, argv, find, &used, err, errlen);
	if (rc != PFS_PARSE_OK)
		return rc;
	ab->shared = argv + used + 1;
	ab->nshared = argc - used - 1;
	for (unsigned s = 0; s < PFS_AB_SIDES && !rc; s++) {
		rc = split_words(ab, s);
		if ((size_t)ab->nwords[s] > most)
			most = (size_t)ab->nwords[s];
	}
	if (!rc)
		rc = make_paths(ab, err, errlen);
	if (!rc) {
		ab->argv = calloc(2 + (size_t)ab->nshared + most + AB_ADDED, sizeof(char *));
		ab->cargv = calloc(3 + PFS_AB_SIDES * ab->opts.rounds, sizeof(char *));
		if (!ab->argv || !ab->cargv)
			rc = -ENOMEM;
	}
	if (rc == -ENOMEM)
		pfs_refuse(err, errlen, rc, "out of memory");
	return rc;
}

unsigned pfs_ab_side(uint64_t round, unsigned k)
{
	return round % 2 ? k : 1 - k;
}

const char *pfs_ab_path(const struct pfs_ab *ab, unsigned side, uint64_t round)
{
	return ab->paths[side * ab->opts.rounds + round - 1];
}

char **pfs_ab_run_argv(struct pfs_ab *ab, unsigned side, uint64_t round, int *argc)
{
	int n = 0;

	ab->argv[n++] = (char *)ab->wl->name;
	for (int i = 0; i < ab->nshared; i++)
		ab->argv[n++] = ab->shared[i];
	for (int i = 0; i < ab->nwords[side]; i++)
		ab->argv[n++] = ab->word[side][i];
	if (round) {
		ab->argv[n++] = (char *)"--results";
		ab->argv[n++] = (char *)pfs_ab_path(ab, side, round);
	}
	if (round && ab->add_label[side]) {
		ab->argv[n++] = (char *)"--label";
		ab->argv[n++] = (char *)pfs_ab_name(side);
	}
	ab->argv[n] = NULL;
	*argc = n;
	return ab->argv;
}

char **pfs_ab_compare_argv(struct pfs_ab *ab, int *argc)
{
	int n = 0;

	ab->cargv[n++] = (char *)"compare";
	for (unsigned s = 0; s < PFS_AB_SIDES; s++) {
		if (s)
			ab->cargv[n++] = (char *)"--";
		for (uint64_t r = 1; r <= ab->opts.rounds; r++)
			ab->cargv[n++] = (char *)pfs_ab_path(ab, s, r);
	}
	ab->cargv[n] = NULL;
	*argc = n;
	return ab->cargv;
}

void pfs_ab_say(FILE *out, const char *lead, int argc, char **argv)
{
	char word[2 * PATH_MAX + 8];

	fprintf(out, "pfsbench ab: %s pfsbench", lead);
	for (int i = 0; i < argc; i++)
		fprintf(out, " %s", pfs_shell_quote(word, sizeof(word), argv[i]) ? argv[i] : word);
	fprintf(out, "\n");
	fflush(out);
}

void pfs_ab_free(struct pfs_ab *ab)
{
	for (unsigned s = 0; s < PFS_AB_SIDES; s++) {
		free(ab->words[s]);
		free(ab->word[s]);
		free(ab->side_opts[s]);
	}
	if (ab->paths)
		for (uint64_t i = 0; i < PFS_AB_SIDES * ab->opts.rounds; i++)
			free(ab->paths[i]);
	free(ab->paths);
	free(ab->argv);
	free(ab->cargv);
	memset(ab, 0, sizeof(*ab));
}
