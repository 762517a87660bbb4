/* commands.c: the list of commands that run without MPI. A new command is
 * one file and one line here. */
#include "pfsbench/commands/commands.h"

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
