/* itemname.c: the patterns of the names workloads create
 * (include/pfsbench/core/itemname.h), and matching names found on disk against
 * them. The names are anyone's, so matching never reads past a name's end
 * and backtracks only over the few variable runs of our own patterns. */
#include "pfsbench/core/itemname.h"

#include <errno.h>
#include <stddef.h>

/* A [set]{m,n} of a pattern: the set's characters are [set, set_end). */
struct run {
	const char *set, *set_end;
	unsigned min, max;
};

static const char *parse_count(const char *p, unsigned *n)
{
	unsigned v = 0;

	if (*p < '0' || *p > '9')
		return NULL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > 255) /* longer than any name */
			return NULL;
	}
	*n = v;
	return p;
}

/* Parses the run at p (a '['); returns what follows it, or NULL when it
 * is malformed. */
static const char *parse_run(const char *p, struct run *r)
{
	r->set = ++p;
	while (*p && *p != ']')
		p++;
	if (!*p || p == r->set)
		return NULL;
	r->set_end = p++;
	r->min = r->max = 1;
	if (*p != '{')
		return p;
	if (!(p = parse_count(p + 1, &r->min)))
		return NULL;
	r->max = r->min;
	if (*p == ',' && !(p = parse_count(p + 1, &r->max)))
		return NULL;
	if (*p != '}' || r->max < r->min || !r->max)
		return NULL;
	return p + 1;
}

static bool in_set(const struct run *r, char c)
{
	for (const char *s = r->set; s < r->set_end; s++) {
		if (s + 2 < r->set_end && s[1] == '-') {
			if (c >= s[0] && c <= s[2])
				return true;
			s += 2;
		} else if (c == *s) {
			return true;
		}
	}
	return false;
}

static bool match_at(const char *p, const char *s)
{
	while (*p) {
		struct run r;
		const char *next;
		unsigned n = 0;

		if (*p != '[') {
			if (*s != *p)
				return false;
			p++;
			s++;
			continue;
		}
		if (!(next = parse_run(p, &r)))
			return false;
		while (n < r.max && s[n] && in_set(&r, s[n]))
			n++;
		if (n < r.min)
			return false;
		/* The longest run first, then shorter ones: a following run may
		 * share characters with this one (bonnie's random names). */
		for (;; n--) {
			if (match_at(next, s + n))
				return true;
			if (n == r.min)
				return false;
		}
	}
	return !*s;
}

bool pfs_item_name_match(const char *pattern, const char *name)
{
	return pattern && name && match_at(pattern, name);
}

int pfs_item_pattern_check(const char *pattern)
{
	struct run r;

	if (!pattern || !*pattern)
		return -EINVAL;
	for (const char *p = pattern; *p;) {
		if (*p == ']' || *p == '{' || *p == '}' || *p == '/')
			return -EINVAL;
		if (*p != '[') {
			p++;
			continue;
		}
		if (!(p = parse_run(p, &r)))
			return -EINVAL;
	}
	return 0;
}

const struct pfs_item *pfs_item_find(const struct pfs_item *items, const char *name,
				     enum pfs_item_type type, const struct pfs_item **other)
{
	const struct pfs_item *wrong = NULL;

	for (; items && items->name; items++) {
		if (!pfs_item_name_match(items->name, name))
			continue;
		if (items->type == type)
			return items;
		if (!wrong)
			wrong = items;
	}
	if (other)
		*other = wrong;
	return NULL;
}
