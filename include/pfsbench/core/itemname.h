/* itemname.h: what a workload says it creates, so that `pfsbench clean`
 * can tell its items from anything else: the names, their types, and what
 * a directory of it holds, as a table; and the patterns those names are
 * written in. Pure: no MPI, no I/O. */
#ifndef PFSBENCH_ITEMNAME_H
#define PFSBENCH_ITEMNAME_H

#include <stdbool.h>

/* A number as the text of a pattern: PFS_ITEM_STR(10) is "10", so that a
 * workload writes a name's digit count once and builds both the names and
 * their pattern from it. */
#define PFS_ITEM_STR_(x) #x
#define PFS_ITEM_STR(x) PFS_ITEM_STR_(x)

enum pfs_item_type {
	PFS_ITEM_FILE = 1, /* a regular file */
	PFS_ITEM_DIR,      /* a directory (never a symbolic link to one) */
};

/* One kind of item. A table of them ends with a NULL name. The name is a
 * pattern that matches the whole name:
 *   a character matches itself ('.' too);
 *   [set] matches one character of set, which lists characters and ranges
 *   such as a-z; [set]{n} matches exactly n of them, [set]{m,n} m to n.
 * Nothing else is special: "Bonnie.io" matches only itself, "f[0-9]{10}"
 * only f and ten digits. A directory's items say what it may hold; a
 * table may hold itself (a tree of any depth). */
struct pfs_item {
	const char *name;
	enum pfs_item_type type;
	const struct pfs_item *inside; /* a directory's items, or NULL for none */
};

/* Whether name is all of what pattern matches. A malformed pattern
 * matches nothing (pfs_item_pattern_check finds it). */
bool pfs_item_name_match(const char *pattern, const char *name);

/* 0 when pattern is well formed, else -EINVAL. */
int pfs_item_pattern_check(const char *pattern);

/* The first item of items whose name matches name and whose type is type,
 * or NULL. When none does but one of another type matches the name,
 * *other (when not NULL) is that one: a name of ours with the wrong type. */
const struct pfs_item *pfs_item_find(const struct pfs_item *items, const char *name,
				     enum pfs_item_type type, const struct pfs_item **other);

#endif
