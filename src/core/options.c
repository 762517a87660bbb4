/* options.c: parses argv by a command's option table with getopt_long
 * (options, positional arguments, the "--" of two sides), sets the
 * table's defaults, prints its --help, and converts options to and from
 * their key/value view. */
#include "pfsbench/core/options.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <inttypes.h>
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

static bool is_positional(const struct pfs_option *o)
{
	return o->kind == PFS_OPT_ARG || o->kind == PFS_OPT_ARGS;
}

static int opt_name(char *buf, size_t len, const struct pfs_option *o)
{
	if (is_positional(o))
		return pfs_format(buf, len, "%s", o->long_name);
	if (o->flags & PFS_OPTF_OPERAND)
		return pfs_format(buf, len, "%s=", o->long_name);
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
		if (o->parse) {
			char why[128] = "";

			rc = o->parse(arg, &v, why, sizeof(why));
			if (rc) {
				pfs_format(err, errlen, "%s: %s", name, why);
				return -EINVAL;
			}
		} else {
			rc = o->kind == PFS_OPT_SIZE ? pfs_parse_size(arg, &v) : pfs_parse_u64(arg, &v);
		}
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
	case PFS_OPT_REAL: {
		char *end;
		double d;

		errno = 0;
		d = strtod(arg, &end);
		if (errno || end == arg || *end || !(d >= 0)) {
			pfs_format(err, errlen, "%s wants a number, 0 or more, not '%s'", name, arg);
			return -EINVAL;
		}
		if (o->max && d > (double)o->max) {
			pfs_format(err, errlen, "%s '%s' is too large (at most %" PRIu64 ")", name, arg,
				   o->max);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	}
	case PFS_OPT_VALUE:
		*(unsigned *)field = (unsigned)o->value;
		return 0;
	case PFS_OPT_ARG:
		if (!arg[0]) {
			pfs_format(err, errlen, "%s must not be empty", name);
			return -EINVAL;
		}
		*(const char **)field = arg;
		return 0;
	case PFS_OPT_ARGS:
		return -EINVAL; /* appended by positional() */
	case PFS_OPT_STRING:
		if (!arg[0] && !(o->flags & PFS_OPTF_EMPTY_OK)) {
			pfs_format(err, errlen, "%s wants a non-empty %s", name, o->arg);
			return -EINVAL;
		}
		if (pfs_format(field, o->size, "%s", arg)) {
			pfs_format(err, errlen, "%s: '%.40s...' is too long", name, arg);
			return -EINVAL;
		}
		/* Every string ends up printed as given, in reports, CSV lines
		 * and the results file: a newline in -m would split the
		 * report's header. No path or name needs one. */
		for (const char *c = arg; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f) {
				field[0] = 0;
				pfs_format(err, errlen, "%s wants printable text, without control "
					   "characters", name);
				return -EINVAL;
			}
		return 0;
	case PFS_OPT_CHOICE:
		for (unsigned i = 0; o->choices[i]; i++)
			if (!strcmp(o->choices[i], arg ? arg : o->choices[1])) {
				*(unsigned *)field = i;
				return 0;
			}
		{
			char known[128] = "";
			size_t kl = 0;

			for (unsigned i = 0; o->choices[i] && kl < sizeof(known); i++)
				kl += (size_t)snprintf(known + kl, sizeof(known) - kl, "%s%s",
						       i ? ", " : "", o->choices[i]);
			pfs_format(err, errlen, "%s wants one of %s, not '%s'", name, known, arg);
		}
		return -EINVAL;
	case PFS_OPT_HELP:
	case PFS_OPT_VERSION:
		return 0;
	}
	return -EINVAL;
}

/* A second value would silently win over the first: the command line says
 * two things, so ask which. An operand and the option it spells otherwise
 * count as one; two flags of one PFS_OPT_VALUE group exclude each other.
 * Marks o seen; -EINVAL with the message when it was. */
static int once(const struct pfs_option *table, size_t n, unsigned char *seen,
		const struct pfs_option *o, char *err, size_t errlen)
{
	char name[64], other[64];

	if (o->kind == PFS_OPT_HELP || o->kind == PFS_OPT_VERSION || o->kind == PFS_OPT_ARGS)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct pfs_option *p = &table[i];
		bool same_field = p->offset == o->offset && p->kind == o->kind;

		if (!seen[i] || (p != o && !(same_field && ((p->flags | o->flags) & PFS_OPTF_OPERAND)) &&
				 !(same_field && o->kind == PFS_OPT_VALUE)) ||
		    (p == o && (o->flags & PFS_OPTF_REPEAT)))
			continue;
		opt_name(name, sizeof(name), o);
		opt_name(other, sizeof(other), p);
		if (p == o)
			pfs_format(err, errlen, "%s is given twice", name);
		else if (o->kind == PFS_OPT_VALUE)
			pfs_format(err, errlen, "%s and %s exclude each other: give one", other, name);
		else
			pfs_format(err, errlen, "%s and %s say the same: give one", other, name);
		return -EINVAL;
	}
	seen[o - table] = 1;
	return 0;
}

/* An argument that is no option, in a table without positional entries:
 * one of the table's operands, NAME=VALUE, or refused. */
static int operand(const struct pfs_option *table, size_t n, unsigned char *seen, void *opts,
		   const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	for (size_t i = 0; eq && i < n; i++) {
		const struct pfs_option *o = &table[i];

		if (!(o->flags & PFS_OPTF_OPERAND) || strlen(o->long_name) != (size_t)(eq - arg) ||
		    strncmp(o->long_name, arg, (size_t)(eq - arg)))
			continue;
		if (once(table, n, seen, o, err, errlen))
			return -EINVAL;
		return set_value(o, opts, eq + 1, err, errlen);
	}
	pfs_format(err, errlen, "unexpected argument '%s'", arg);
	return -EINVAL;
}

/* The parse at hand: the table, what was seen, and the room for the
 * positional arguments. */
struct parser {
	const struct pfs_option *table;
	size_t n;
	unsigned char *seen;
	void *opts;
	bool positional;  /* the table has PFS_OPT_ARG or _ARGS entries */
	int argc;         /* of the whole command line: the most arguments */
	char *err;
	size_t errlen;
};

/* An argument that is no option: the next PFS_OPT_ARG not yet filled, else
 * the PFS_OPT_ARGS list, else an operand or refused. */
static int positional(struct parser *p, char *arg)
{
	for (size_t i = 0; p->positional && i < p->n; i++) {
		const struct pfs_option *o = &p->table[i];
		struct pfs_opt_args *list;

		if (o->kind == PFS_OPT_ARG && !p->seen[i]) {
			p->seen[i] = 1;
			return set_value(o, p->opts, arg, p->err, p->errlen);
		}
		if (o->kind != PFS_OPT_ARGS)
			continue;
		list = (struct pfs_opt_args *)((char *)p->opts + o->offset);
		if (o->max && list->n >= o->max)
			break;
		if (!list->v && !(list->v = calloc((size_t)p->argc + 1, sizeof(*list->v))))
			return pfs_refuse(p->err, p->errlen, -ENOMEM, "out of memory");
		list->v[list->n++] = arg;
		list->split = p->seen[i] ? list->split : list->n;
		return 0;
	}
	return operand(p->table, p->n, p->seen, p->opts, arg, p->err, p->errlen);
}

/* The table's entry of kind, or NULL. */
static const struct pfs_option *find_kind(const struct parser *p, enum pfs_opt_kind kind)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->table[i].kind == kind)
			return &p->table[i];
	return NULL;
}

/* "--" of a PFS_OPTF_SIDES list: the arguments so far are the first side.
 * seen[] of the list says the split is made. */
static int sides_split(struct parser *p, const struct pfs_option *o)
{
	struct pfs_opt_args *list = (struct pfs_opt_args *)((char *)p->opts + o->offset);

	if (p->seen[o - p->table])
		return pfs_refuse(p->err, p->errlen, -EINVAL, "'--' is given twice: it parts two sides");
	if (!list->n)
		return pfs_refuse(p->err, p->errlen, -EINVAL, "give the first side's %s before '--'",
				  o->arg);
	p->seen[o - p->table] = 1;
	list->split = list->n;
	return 0;
}

/* After the arguments: what must be there is. */
static int complete(struct parser *p)
{
	char name[64];

	for (size_t i = 0; i < p->n; i++) {
		const struct pfs_option *o = &p->table[i];
		const struct pfs_opt_args *list = (const void *)((char *)p->opts + o->offset);

		opt_name(name, sizeof(name), o);
		if (o->kind == PFS_OPT_ARG && !p->seen[i])
			return pfs_refuse(p->err, p->errlen, -EINVAL, "give %s", o->arg);
		if ((o->flags & PFS_OPTF_REQUIRED) && !p->seen[i])
			return pfs_refuse(p->err, p->errlen, -EINVAL, "give %s %s", name, o->arg);
		if (o->kind != PFS_OPT_ARGS)
			continue;
		if ((o->flags & PFS_OPTF_SIDES) && p->seen[i] && list->split == list->n)
			return pfs_refuse(p->err, p->errlen, -EINVAL,
					  "give the other side's %s after '--'", o->arg);
		if (list->n < o->value)
			return pfs_refuse(p->err, p->errlen, -EINVAL, "give %" PRIu64 " %s or more",
					  o->value, o->arg);
	}
	return 0;
}

/* One pass of getopt_long over argv, from argv[1]: "--" of a sides list
 * ends the pass at *stop (its index); else *stop is 0. */
static int pass(struct parser *p, int argc, char **argv, const struct option *lopts,
		const char *shorts, bool head, int *used, int *stop)
{
	const struct pfs_option *table = p->table;
	const struct pfs_option *sides = find_kind(p, PFS_OPT_ARGS);
	int rc = PFS_PARSE_OK, c, idx;

	*stop = 0;
	if (sides && !(sides->flags & PFS_OPTF_SIDES))
		sides = NULL;
	optind = 0; /* glibc: full reinitialisation, so parsing can be repeated */
	opterr = 0;
	while (rc == PFS_PARSE_OK && (c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		const struct pfs_option *o = NULL;

		if (c == 1) { /* "-" mode: a positional argument, in its place */
			rc = positional(p, optarg);
			continue;
		}
		if (c >= 256)
			o = &table[c - 256];
		for (size_t i = 0; !o && i < p->n; i++)
			if (table[i].short_name == c && !is_positional(&table[i]))
				o = &table[i];
		if (c == '?' || c == ':' || !o) {
			const char *bad = argv[optind - 1];

			if (c == ':')
				pfs_format(p->err, p->errlen, "option '%s' needs an argument", bad);
			else if (optopt && optopt < 256)
				pfs_format(p->err, p->errlen, "unknown option '-%c'", optopt);
			else
				pfs_format(p->err, p->errlen, "unknown option '%s'", bad);
			rc = -EINVAL;
			break;
		}
		if (once(table, p->n, p->seen, o, p->err, p->errlen))
			rc = -EINVAL;
		else if (o->kind == PFS_OPT_HELP)
			rc = PFS_PARSE_HELP;
		else if (o->kind == PFS_OPT_VERSION)
			rc = PFS_PARSE_VERSION;
		else if (set_value(o, p->opts, optarg, p->err, p->errlen))
			rc = -EINVAL;
	}
	if (used)
		*used = optind;
	if (rc != PFS_PARSE_OK || head)
		return rc;
	/* getopt stopped at the end or after "--": with sides, "--" parts
	 * them and options may follow; else all after it are arguments. */
	if (sides && optind > 1 && optind <= argc && !strcmp(argv[optind - 1], "--")) {
		*stop = optind - 1;
		return sides_split(p, sides) ? -EINVAL : PFS_PARSE_OK;
	}
	for (int i = optind; rc == PFS_PARSE_OK && i < argc; i++)
		rc = p->positional ? positional(p, argv[i])
				   : operand(table, p->n, p->seen, p->opts, argv[i], p->err, p->errlen);
	return rc;
}

/* head: stop at the first argument that is no option ("+" to getopt) and
 * say in *used how many arguments, argv[0] included, were the table's.
 * A table with positional entries takes them in their place ("-" to
 * getopt); one without, its operands after the options. */
static int parse(const struct pfs_option *table, void *opts, int argc, char **argv, bool head,
		 int *used, char *err, size_t errlen)
{
	struct parser p = { .table = table, .n = table_len(table), .opts = opts, .argc = argc,
			    .err = err, .errlen = errlen };
	struct option *lopts = calloc(p.n + 1, sizeof(*lopts));
	char shorts[3 * 64 + 3];
	size_t sl, nl = 0;
	int rc, stop, base = 0;

	for (size_t i = 0; i < p.n; i++)
		p.positional |= is_positional(&table[i]);
	sl = (size_t)snprintf(shorts, sizeof(shorts), "%s", head ? "+:" : p.positional ? "-:" : ":");
	if (!lopts)
		return -ENOMEM;
	p.seen = calloc(p.n + 1, sizeof(*p.seen));
	if (!p.seen) {
		free(lopts);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p.n; i++) {
		bool optional = table[i].kind == PFS_OPT_CHOICE && !(table[i].flags & PFS_OPTF_NEEDS_ARG);
		bool has_arg = table[i].arg != NULL && !optional;

		if ((table[i].flags & PFS_OPTF_OPERAND) || is_positional(&table[i]))
			continue; /* NAME=VALUE or in its place only, never --NAME */
		lopts[nl].name = table[i].long_name;
		lopts[nl].has_arg = optional ? optional_argument
				    : has_arg ? required_argument : no_argument;
		lopts[nl++].val = 256 + (int)i;
		if (table[i].short_name && sl + 3 < sizeof(shorts)) {
			shorts[sl++] = (char)table[i].short_name;
			if (has_arg)
				shorts[sl++] = ':';
		}
	}
	shorts[sl] = 0;

	/* Each "--" of two sides ends a pass; the next starts after it, with
	 * the "--" as its argv[0]. */
	do {
		rc = pass(&p, argc - base, argv + base, lopts, shorts, head, used, &stop);
		base += stop;
	} while (rc == PFS_PARSE_OK && stop);
	if (rc == PFS_PARSE_OK && !head)
		rc = complete(&p);
	if (rc < 0)
		pfs_opts_free(table, opts);
	free(lopts);
	free(p.seen);
	return rc;
}

int pfs_opts_parse(const struct pfs_option *table, void *opts, int argc, char **argv,
		   char *err, size_t errlen)
{
	return parse(table, opts, argc, argv, false, NULL, err, errlen);
}

int pfs_opts_parse_head(const struct pfs_option *table, void *opts, int argc, char **argv,
			int *used, char *err, size_t errlen)
{
	return parse(table, opts, argc, argv, true, used, err, errlen);
}

int pfs_opts_defaults(const struct pfs_option *table, void *opts)
{
	char err[160];

	for (const struct pfs_option *o = table; o->long_name; o++) {
		if (o->kind == PFS_OPT_CLEAR) /* --no-X: X is on unless said */
			*(bool *)((char *)opts + o->offset) = true;
		if (o->def && set_value(o, opts, o->def, err, sizeof(err)))
			return -EINVAL;
	}
	return 0;
}

void pfs_opts_free(const struct pfs_option *table, void *opts)
{
	for (const struct pfs_option *o = table; o->long_name; o++)
		if (o->kind == PFS_OPT_ARGS) {
			struct pfs_opt_args *list = (struct pfs_opt_args *)((char *)opts + o->offset);

			free(list->v);
			memset(list, 0, sizeof(*list));
		}
}

/* A help text after its 29 columns of option, in lines of at most 79
 * columns, broken at spaces; a word longer than a line stays whole. */
static void put_wrapped(FILE *out, const char *text)
{
	const size_t width = 79 - 29;

	while (strlen(text) > width) {
		size_t cut = width;

		/* "(default 4)" stays on one line */
		while (cut && (text[cut] != ' ' || (cut >= 8 && !strncmp(text + cut - 8, "(default", 8))))
			cut--;
		if (!cut)
			cut = strcspn(text, " ");
		fprintf(out, "%.*s\n%29s", (int)cut, text, "");
		text += cut + (text[cut] == ' ');
	}
	fprintf(out, "%s\n", text);
}

void pfs_opts_usage(FILE *out, const struct pfs_option *table)
{
	for (const struct pfs_option *o = table; o->long_name; o++) {
		bool space = o->arg && (o->kind != PFS_OPT_CHOICE || (o->flags & PFS_OPTF_NEEDS_ARG));
		const char *def = o->def ? o->def : o->def_shown;
		char left[64], text[512];

		if (is_positional(o))
			pfs_format(left, sizeof(left), "%s%s", o->arg, o->kind == PFS_OPT_ARGS ? " ..." : "");
		else if (o->flags & PFS_OPTF_OPERAND)
			pfs_format(left, sizeof(left), "%s=%s", o->long_name, o->arg);
		else if (o->short_name)
			pfs_format(left, sizeof(left), "-%c, --%s%s%s", o->short_name, o->long_name,
				   space ? " " : "", o->arg ? o->arg : "");
		else
			pfs_format(left, sizeof(left), "    --%s%s%s", o->long_name, space ? " " : "",
				   o->arg ? o->arg : "");
		if (pfs_format(text, sizeof(text), "%s%s%s%s", o->help, def ? " (default " : "",
			       def ? def : "", def ? ")" : ""))
			pfs_format(text, sizeof(text), "%s", o->help);
		/* a long option alone on its line, its text under the others' */
		fprintf(out, "  %-26s%s", left, strlen(left) > 26 ? "\n                             " : " ");
		put_wrapped(out, text);
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

/* ---- the key/value view ------------------------------------------------- */

const char *const pfs_progress_choices[] = { "auto", "always", "never", NULL };
const char *const pfs_output_format_choices[] = { "text", "json", "csv", NULL };
const char *const pfs_lat_detail_choices[] = { "auto", "node", "rank", NULL };

const char *pfs_kv_find(const struct pfs_kv *kv, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(kv[i].key, key))
			return kv[i].value;
	return NULL;
}

static bool is_param(const struct pfs_option *o)
{
	return o->kind != PFS_OPT_HELP && o->kind != PFS_OPT_VERSION && !is_positional(o) &&
	       o->kind != PFS_OPT_REAL && o->kind != PFS_OPT_VALUE && !(o->flags & PFS_OPTF_NOT_PARAM);
}

int pfs_opts_to_kv(const struct pfs_option *table, const void *opts,
		   int (*fn)(void *ctx, const char *key, const char *value, enum pfs_value_kind kind),
		   void *ctx)
{
	for (const struct pfs_option *o = table; o->long_name; o++) {
		const char *field = (const char *)opts + o->offset;
		char num[32];
		uint64_t u;
		unsigned c;
		int rc = 0;

		if (!is_param(o))
			continue;
		switch (o->kind) {
		case PFS_OPT_SET:
		case PFS_OPT_CLEAR:
			/* The flag's value is whether it is in effect. */
			rc = fn(ctx, o->long_name,
				*(const bool *)field == (o->kind == PFS_OPT_SET) ? "true" : "false",
				PFS_VALUE_BOOL);
			break;
		case PFS_OPT_COUNT:
		case PFS_OPT_UINT:
		case PFS_OPT_SIZE:
			memcpy(&u, field, sizeof(u));
			snprintf(num, sizeof(num), "%" PRIu64, u);
			rc = fn(ctx, o->long_name, num, PFS_VALUE_UINT);
			break;
		case PFS_OPT_STRING:
			rc = fn(ctx, o->long_name, field, PFS_VALUE_STRING);
			break;
		case PFS_OPT_CHOICE:
			memcpy(&c, field, sizeof(c));
			rc = fn(ctx, o->long_name, o->choices[c], PFS_VALUE_STRING);
			break;
		default: /* no parameter (is_param) */
			break;
		}
		if (rc)
			return rc;
	}
	return 0;
}

int pfs_opts_from_kv(const struct pfs_option *table, void *opts, const char *key,
		     const char *value)
{
	for (const struct pfs_option *o = table; o->long_name; o++) {
		char *field = (char *)opts + o->offset;
		uint64_t u;

		if (!is_param(o) || strcmp(o->long_name, key))
			continue;
		switch (o->kind) {
		case PFS_OPT_SET:
		case PFS_OPT_CLEAR:
			if (strcmp(value, "true") && strcmp(value, "false"))
				return -EINVAL;
			*(bool *)field = !strcmp(value, "true") == (o->kind == PFS_OPT_SET);
			return 0;
		case PFS_OPT_COUNT:
		case PFS_OPT_UINT:
		case PFS_OPT_SIZE:
			if (pfs_parse_u64(value, &u))
				return -EINVAL;
			memcpy(field, &u, sizeof(u));
			return 0;
		case PFS_OPT_STRING:
			return pfs_format(field, o->size, "%s", value) ? -EINVAL : 0;
		case PFS_OPT_CHOICE:
			for (unsigned i = 0; o->choices[i]; i++)
				if (!strcmp(o->choices[i], value)) {
					*(unsigned *)field = i;
					return 0;
				}
			return -EINVAL;
		default: /* no parameter (is_param) */
			break;
		}
	}
	return -ENOENT;
}
