/* commands.c: the list of commands that run without MPI, and what they
 * share: parsing by their option tables and --help printed from them. A
 * new command is one file and one line here. */
#include "pfsbench/commands/commands.h"
#include "pfsbench/core/options.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

const struct pfs_command *const pfs_commands[] = {
	&pfs_command_show,
	&pfs_command_compare,
	&pfs_command_export,
	&pfs_command_plot,
	&pfs_command_report,
	&pfs_command_clean,
	NULL,
};

const struct pfs_command *pfs_command_find(const char *name)
{
	for (size_t i = 0; pfs_commands[i]; i++)
		if (!strcmp(pfs_commands[i]->name, name))
			return pfs_commands[i];
	return NULL;
}

void pfs_command_usage(FILE *out, const struct pfs_command *cmd)
{
	fprintf(out, "Usage: pfsbench %s %s\n%s\nOptions:\n", cmd->name, cmd->synopsis, cmd->about);
	pfs_opts_usage(out, cmd->options);
	if (cmd->after)
		fprintf(out, "\n%s", cmd->after);
}

int pfs_command_parse(const struct pfs_command *cmd, void *opts, int argc, char **argv)
{
	char err[512] = "";
	int rc = pfs_opts_defaults(cmd->options, opts);

	if (!rc)
		rc = pfs_opts_parse(cmd->options, opts, argc, argv, err, sizeof(err));
	if (rc == PFS_PARSE_HELP) {
		pfs_command_usage(stdout, cmd);
		return PFS_EXIT_OK;
	}
	if (rc == PFS_PARSE_OK)
		return -1;
	if (rc == -ENOMEM) {
		pfs_error("out of memory");
		return PFS_EXIT_FAILED;
	}
	fprintf(stderr, "pfsbench %s: %s\nTry 'pfsbench %s --help'.\n", cmd->name, err, cmd->name);
	return PFS_EXIT_USAGE;
}
