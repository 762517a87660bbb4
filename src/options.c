/* options.c: parses argv by a workload's option table with getopt_long. */
#include "pfsbench/options.h"
#include "pfsbench/util.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static size_t table_len(const struct pfs_option *t)
{
	size_t n = 0;

	while (t[n].long_name)
		n++;
	return n;
}

static int opt_name(char *buf, size_t len, const struct pfs_option *o)
{
	if (o->short_name)
		return pfs_format(buf, len, "-%c/--%s", o->short_name, o->long_name);
	return pfs_format(buf, len, "--%s", o->long_name);
}

static int set_value(const struct pfs_option *o, void *opts, const char *arg, char *err,
		     size_t errlen)
{
	char *field = (char *)opts + o->offset;
	char name[64];
	uint64_t v;
	int rc;

	opt_name(name, sizeof(name), o);
	switch (o->kind) {
	case PFS_OPT_SET:
	case PFS_OPT_CLEAR:
		*(bool *)field = o->kind == PFS_OPT_SET;
		return 0;
	case PFS_OPT_COUNT:
	case PFS_OPT_UINT:
	case PFS_OPT_SIZE:
		rc = o->kind == PFS_OPT_SIZE ? pfs_parse_size(arg, &v) : pfs_parse_u64(arg, &v);
		if (rc == -ERANGE || (!rc && o->max && v > o->max)) {
			pfs_format(err, errlen, "%s '%s' is too large", name, arg);
			return -EINVAL;
		}
		if (rc) {
			pfs_format(err, errlen, "%s wants %s, not '%s'", name,
				   o->kind == PFS_OPT_SIZE ? "a size such as 4096, 64k or 4m"
							   : "a whole number",
				   arg);
			return -EINVAL;
		}
		if (v == 0 && o->kind != PFS_OPT_UINT) {
			pfs_format(err, errlen, "%s must be at least 1", name);
			return -EINVAL;
		}
		*(uint64_t *)field = v;
		return 0;
	case PFS_OPT_STRING:
		if (!arg[0]) {
			pfs_format(err, errlen, "%s wants a non-empty %s", name, o->arg);
			return -EINVAL;
		}
		if (pfs_format(field, o->size, "%s", arg)) {
			pfs_format(err, errlen, "%s: '%.40s...' is too long", name, arg);
			return -EINVAL;
		}
		return 0;
	case PFS_OPT_HELP:
	case PFS_OPT_VERSION:
		return 0;
	}
	return -EINVAL;
}

int pfs_opts_parse(const struct pfs_option *table, void *opts, int argc, char **argv,
		   char *err, size_t errlen)
{
	size_t n = table_len(table);
	struct option *lopts = calloc(n + 1, sizeof(*lopts));
	char shorts[3 * 64 + 2] = ":";
	size_t sl = 1;
	int rc = PFS_PARSE_OK, c, idx;

	if (!lopts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		bool has_arg = table[i].arg != NULL;

		lopts[i].name = table[i].long_name;
		lopts[i].has_arg = has_arg ? required_argument : no_argument;
		lopts[i].val = 256 + (int)i;
		if (table[i].short_name && sl + 3 < sizeof(shorts)) {
			shorts[sl++] = (char)table[i].short_name;
			if (has_arg)
				shorts[sl++] = ':';
		}
	}
	shorts[sl] = 0;

	optind = 0; /* glibc: full reinitialisation, so parsing can be repeated */
	opterr = 0;
	while (rc == PFS_PARSE_OK && (c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		const struct pfs_option *o = NULL;

		if (c >= 256)
			o = &table[c - 256];
		for (size_t i = 0; !o && i < n; i++)
			if (table[i].short_name == c)
				o = &table[i];
		if (c == '?' || c == ':' || !o) {
			const char *bad = argv[optind - 1];

			if (c == ':')
				pfs_format(err, errlen, "option '%s' needs an argument", bad);
			else if (optopt && optopt < 256)
				pfs_format(err, errlen, "unknown option '-%c'", optopt);
			else
				pfs_format(err, errlen, "unknown option '%s'", bad);
			rc = -EINVAL;
			break;
		}
		if (o->kind == PFS_OPT_HELP)
			rc = PFS_PARSE_HELP;
		else if (o->kind == PFS_OPT_VERSION)
			rc = PFS_PARSE_VERSION;
		else if (set_value(o, opts, optarg, err, errlen))
			rc = -EINVAL;
	}
	if (rc == PFS_PARSE_OK && optind < argc) {
		pfs_format(err, errlen, "unexpected argument '%s'", argv[optind]);
		rc = -EINVAL;
	}
	free(lopts);
	return rc;
}

void pfs_opts_usage(FILE *out, const struct pfs_option *table)
{
	for (const struct pfs_option *o = table; o->long_name; o++) {
		char left[64];

		if (o->short_name)
			pfs_format(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->long_name,
				   o->arg ? " " : "", o->arg ? o->arg : "");
		else
			pfs_format(left, sizeof(left), "    --%s%s%s", o->long_name,
				   o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
}

int pfs_tests_select(const char *list, const char *const *names, unsigned char *sel,
		     unsigned *nsel, char *err, size_t errlen)
{
	const char *p = list;

	*nsel = 0;
	if (!list || !*list) {
		for (unsigned i = 0; names[i] && i < PFS_MAX_TESTS; i++)
			sel[(*nsel)++] = (unsigned char)i;
		return 0;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		unsigned i;

		for (i = 0; names[i]; i++)
			if (strlen(names[i]) == len && !strncmp(names[i], p, len))
				break;
		if (!names[i] || len == 0) {
			char known[128] = "";
			size_t kl = 0;

			for (unsigned k = 0; names[k] && kl < sizeof(known); k++)
				kl += (size_t)snprintf(known + kl, sizeof(known) - kl, "%s%s",
						       k ? "," : "", names[k]);
			pfs_format(err, errlen, "unknown test '%.*s' in -t (known: %s)", (int)len, p,
				   known);
			return -EINVAL;
		}
		if (*nsel >= PFS_MAX_TESTS) {
			pfs_format(err, errlen, "-t lists more than %d tests", PFS_MAX_TESTS);
			return -EINVAL;
		}
		sel[(*nsel)++] = (unsigned char)i;
		p += len;
		if (*p == ',' && !*++p) {
			pfs_format(err, errlen, "-t ends with a comma");
			return -EINVAL;
		}
	}
	return 0;
}

int pfs_tests_name(const char *const *names, const unsigned char *sel, unsigned nsel, char *list,
		   size_t len)
{
	size_t n = 0;

	if (!len)
		return -ENAMETOOLONG;
	list[0] = 0;
	for (unsigned i = 0; i < nsel; i++) {
		if (pfs_format(list + n, len - n, "%s%s", i ? "," : "", names[sel[i]]))
			return -ENAMETOOLONG;
		n += strlen(list + n);
	}
	return 0;
}
