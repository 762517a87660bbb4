/* test_commands.c: every command's --help, workloads and readers of results
 * files alike, shows each option's default from its table, and no help
 * string writes a default of its own; every table's defaults are values its
 * own option accepts, and they are what the command starts from. */
#include "cmocka_prelude.h"

#include "pfsbench/commands/commands.h"
#include "pfsbench/core/options.h"
#include "pfsbench/engine/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The --help lines of option o, joined: its first line starts with its
 * name after two spaces, the next ones with 29 spaces. NULL when absent. */
static char *option_text(const char *help, const struct pfs_option *o)
{
	char name[80], *text;
	const char *at = NULL, *end;
	size_t n = 0;

	if (o->kind == PFS_OPT_ARG || o->kind == PFS_OPT_ARGS)
		snprintf(name, sizeof(name), "\n  %s", o->arg);
	else if (o->flags & PFS_OPTF_OPERAND)
		snprintf(name, sizeof(name), "\n  %s=", o->long_name);
	else if (o->short_name)
		snprintf(name, sizeof(name), "\n  -%c, --%s", o->short_name, o->long_name);
	else
		snprintf(name, sizeof(name), "\n      --%s", o->long_name);
	for (const char *p = help; (p = strstr(p, name)); p++)
		if ((o->flags & PFS_OPTF_OPERAND) || strchr(" [\n", p[strlen(name)])) {
			at = p + 1;
			break;
		}
	if (!at)
		return NULL;
	text = calloc(1, strlen(at) + 1);
	assert_non_null(text);
	for (end = at; *end; ) {
		const char *nl = strchr(end, '\n');
		size_t len = nl ? (size_t)(nl - end) : strlen(end);

		size_t skip = end == at ? 0 : 29; /* a continuation's indent */

		if (skip && (len < skip || strncmp(end, "                             ", skip)))
			break;
		memcpy(text + n, end + skip, len - skip);
		n += len - skip;
		text[n++] = ' ';
		end += len + (nl != NULL);
	}
	return text;
}

/* Each option's block in help holds "(default X)" with X its table's
 * def or def_shown, and only then; no help string holds "default". */
static void check_defaults_shown(const char *who, const char *help, const struct pfs_option *table)
{
	for (const struct pfs_option *o = table; o->long_name; o++) {
		const char *def = o->def ? o->def : o->def_shown;
		char want[160], *text = option_text(help, o);

		if (!text)
			fail_msg("%s --help does not list %s", who, o->long_name);
		if (strstr(o->help, "default"))
			fail_msg("%s: --%s's help string says a default itself: '%s'", who, o->long_name,
				 o->help);
		snprintf(want, sizeof(want), "(default %s)", def ? def : "");
		if (def && !strstr(text, want))
			fail_msg("%s --help: '%s' lacks %s", who, text, want);
		if (!def && strstr(text, "(default "))
			fail_msg("%s --help: '%s' shows a default the table has not", who, text);
		free(text);
	}
}

static char *usage_of(const struct pfs_command *cmd, const struct pfs_option *table)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (cmd) {
		pfs_command_usage(f, cmd);
	} else {
		fputc('\n', f); /* as "Options:" ends its line before the list */
		pfs_opts_usage(f, table);
	}
	fclose(f);
	return buf;
}

static void test_every_command_shows_its_defaults(void **state)
{
	size_t defaults = 0;

	(void)state;
	for (size_t i = 0; pfs_commands[i]; i++) {
		const struct pfs_command *cmd = pfs_commands[i];
		char *help = usage_of(cmd, NULL), first[64];
		void *opts = calloc(1, cmd->opts_size);

		assert_non_null(opts);
		snprintf(first, sizeof(first), "Usage: pfsbench %s ", cmd->name);
		assert_memory_equal(help, first, strlen(first));
		check_defaults_shown(cmd->name, help, cmd->options);
		assert_int_equal(pfs_opts_defaults(cmd->options, opts), 0);
		for (const struct pfs_option *o = cmd->options; o->long_name; o++)
			defaults += o->def != NULL;
		free(opts);
		free(help);
	}
	/* compare's --margin at least: the loop saw a default to check */
	assert_true(defaults >= 1);
}

/* A workload's option after pfs_workload_defaults is what its table's
 * default gives when written on the command line. */
static void check_default_applied(const struct pfs_workload *wl, const struct pfs_option *o)
{
	void *dflt = calloc(1, wl->opts_size), *given = calloc(1, wl->opts_size);
	char arg[160], err[256] = "", *argv[] = { (char *)wl->name, arg, NULL };

	assert_non_null(dflt);
	assert_non_null(given);
	assert_int_equal(pfs_workload_defaults(wl, dflt), 0);
	assert_int_equal(pfs_workload_defaults(wl, given), 0);
	memset((char *)given + o->offset, 0, o->size);
	snprintf(arg, sizeof(arg), "--%s=%s", o->long_name, o->def);
	if (pfs_opts_parse(wl->options, given, 2, argv, err, sizeof(err)))
		fail_msg("%s %s: %s", wl->name, arg, err);
	assert_memory_equal((char *)dflt + o->offset, (char *)given + o->offset, o->size);
	free(dflt);
	free(given);
}

static void test_every_workload_shows_and_applies_its_defaults(void **state)
{
	(void)state;
	for (size_t w = 0; pfs_workloads[w]; w++) {
		const struct pfs_workload *wl = pfs_workloads[w];
		char *help = usage_of(NULL, wl->options);

		check_defaults_shown(wl->name, help, wl->options);
		for (const struct pfs_option *o = wl->options; o->long_name; o++)
			if (o->def)
				check_default_applied(wl, o);
		free(help);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command_shows_its_defaults),
		cmocka_unit_test(test_every_workload_shows_and_applies_its_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
