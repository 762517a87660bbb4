/* commands.h: subcommands that run in one process, without MPI: those
 * that read result files (show, compare, export, plot, report), and clean. */
#ifndef PFSBENCH_COMMANDS_H
#define PFSBENCH_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

struct pfs_option;

/* A command's --help is printed from its fields and its option table
 * (pfs_command_usage): "Usage: pfsbench NAME SYNOPSIS", about, the
 * options with their defaults, then after. */
struct pfs_command {
	const char *name;
	const char *summary;
	const char *synopsis; /* the usage line after "pfsbench NAME " */
	const char *about;    /* what it does, lines ending in a newline */
	const char *after;    /* printed after the options, or NULL */
	const struct pfs_option *options;
	size_t opts_size;     /* of the struct the table writes */
	/* argv[0] is the command's name. Returns the exit status (PFS_EXIT_*). */
	int (*main)(int argc, char **argv);
};

/* The command's --help on out. */
void pfs_command_usage(FILE *out, const struct pfs_command *cmd);

/* Sets opts to the defaults of cmd's option table, then parses argv by it.
 * Returns -1 when the command goes on; else the exit status, after
 * printing --help on stdout (PFS_EXIT_OK) or the refusal and a hint on
 * stderr (PFS_EXIT_USAGE). What parsing allocated is freed by
 * pfs_opts_free(cmd->options, opts). */
int pfs_command_parse(const struct pfs_command *cmd, void *opts, int argc, char **argv);

/* src/commands/show.c, src/analysis/compare.c, src/commands/export.c */
extern const struct pfs_command pfs_command_show;
extern const struct pfs_command pfs_command_compare;
extern const struct pfs_command pfs_command_export;
/* src/commands/plot.c: pictures of results files, and the HTML report */
extern const struct pfs_command pfs_command_plot;
extern const struct pfs_command pfs_command_report;

/* show's report of a loaded results file on out: the run's own report,
 * byte for byte, its status when aborted, with latency each op's
 * percentiles, with fsstats the filesystem's counters per step (src/commands/show.c;
 * report embeds it). Its row lines within rows (NULL: all of them; show
 * --all), every summary in full. */
#define PFS_SHOW_ROWS_MAX 10000 /* row lines show prints without --all */
struct pfs_archive;
struct pfs_row_budget;
int pfs_show_report(FILE *out, struct pfs_archive *a, bool latency, bool fsstats,
		    struct pfs_row_budget *rows);

/* What `show --analyze` adds after the report's blank line: slow nodes,
 * imbalance, waiting (src/analysis/slownode.c). 0; -ENOMEM after saying so; -EIO
 * when writing to out failed, left for the caller to say. */
int pfs_show_analysis(FILE *out, const struct pfs_archive *a);

/* src/commands/clean.c: removes what killed runs left in a directory. It reads no
 * result file, but runs like these: one process, without MPI. */
extern const struct pfs_command pfs_command_clean;

/* NULL-terminated (src/commands/commands.c). */
extern const struct pfs_command *const pfs_commands[];
const struct pfs_command *pfs_command_find(const char *name);

#endif
