/* commands.h: subcommands that read result files (show, compare, export).
 * They run in one process, without MPI. */
#ifndef PFSBENCH_COMMANDS_H
#define PFSBENCH_COMMANDS_H

struct pfs_command {
	const char *name;
	const char *summary;
	/* argv[0] is the command's name. Returns the exit status (PFS_EXIT_*). */
	int (*main)(int argc, char **argv);
};

/* src/show.c, src/compare.c, src/export.c */
extern const struct pfs_command pfs_command_show;
extern const struct pfs_command pfs_command_compare;
extern const struct pfs_command pfs_command_export;

/* NULL-terminated (src/commands.c). */
extern const struct pfs_command *const pfs_commands[];
const struct pfs_command *pfs_command_find(const char *name);

#endif
