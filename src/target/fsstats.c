/* fsstats.c: GFS2's lock statistics (debugfs glstats and sbstats) as
 * counters summed by glock type, and deltas between snapshots. The kernel
 * side is fs/gfs2/glock.c: gfs2_glstats_seq_show writes one line a glock,
 * gfs2_sbstats_seq_show one line a glock type and statistic, one column a
 * possible CPU. */
#include "pfsbench/target/fsstats.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As sbstats names them (the kernel's gfs2_gltype[], less its "type"
 * header): index = glock type. */
static const char *const type_names[PFS_GLOCK_TYPES] = {
	"reserved", "nondisk", "inode", "rgrp", "meta", "iopen", "flock", "plock", "quota", "journal",
};

const char *pfs_glock_type_name(unsigned type)
{
	return type < PFS_GLOCK_TYPES ? type_names[type] : NULL;
}

/* Adds v to *sum; -ERANGE past INT64_MAX. */
static int add(int64_t *sum, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX - (uint64_t)*sum)
		return -ERANGE;
	*sum += (int64_t)v;
	return 0;
}

/* An unsigned number in base at *p (after blanks); *p moves past it.
 * Returns 0, -EPROTO when there is none, -ERANGE when it is too big. */
static int number(const char **p, int base, uint64_t *out)
{
	char *end;
	unsigned long long v;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	if (!((**p >= '0' && **p <= '9') || (base == 16 && **p && strchr("abcdefABCDEF", **p))))
		return -EPROTO;
	errno = 0;
	v = strtoull(*p, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	*p = end;
	*out = (uint64_t)v;
	return 0;
}

/* The number that follows key (" dcnt:") in line; -EPROTO without key. */
static int number_after(const char *line, const char *key, uint64_t *out)
{
	const char *p = strstr(line, key);

	if (!p)
		return -EPROTO;
	p += strlen(key);
	return number(&p, 10, out);
}

/* Copies the line at *text into buf (NUL-terminated, without its newline)
 * and moves *text to the next. Returns 1 for a line, 0 at the end, -EPROTO
 * for a line longer than buf. */
static int next_line(const char **text, char *buf, size_t len)
{
	size_t n;

	if (!**text)
		return 0;
	n = strcspn(*text, "\n");
	if (n >= len)
		return -EPROTO;
	memcpy(buf, *text, n);
	buf[n] = 0;
	*text += (*text)[n] ? n + 1 : n;
	return 1;
}

/* "G: n:TYPE/NUMBER ... dcnt: D qcnt: Q" */
static int glstats_line(const char *line, struct pfs_fsstats *st)
{
	const char *p = line;
	uint64_t type, num, d, q;
	int rc;

	if (strncmp(p, "G: n:", 5))
		return -EPROTO;
	p += 5;
	if ((rc = number(&p, 10, &type)) || *p++ != '/' || (rc = number(&p, 16, &num)))
		return rc ? rc : -EPROTO;
	if (type >= PFS_GLOCK_TYPES)
		return -EPROTO;
	if ((rc = number_after(p, " dcnt:", &d)) || (rc = number_after(p, " qcnt:", &q)))
		return rc;
	if ((rc = add(&st->gl[type].dlm_requests, d)) || (rc = add(&st->gl[type].queued, q)))
		return rc;
	return add(&st->gl[type].glocks, 1);
}


/* "TYPE STAT: N N ..." (one column a CPU); the header "type cpu: 0 1 ..." */
static int sbstats_line(const char *line, struct pfs_fsstats *st)
{
	char name[32], stat[32];
	int off = 0, rc = 0, columns = 0;
	int64_t *sum = NULL;
	const char *p;
	unsigned type;

	if (sscanf(line, "%31s %31s%n", name, stat, &off) != 2)
		return -EPROTO;
	if (!strcmp(name, "type"))
		return strcmp(stat, "cpu:") ? -EPROTO : 0;
	for (type = 0; type < PFS_GLOCK_TYPES && strcmp(name, type_names[type]); type++)
		;
	if (type == PFS_GLOCK_TYPES)
		return -EPROTO;
	if (!strcmp(stat, "dlm:"))
		sum = &st->sb[type].dlm_requests;
	else if (!strcmp(stat, "queue:"))
		sum = &st->sb[type].queued;
	else if (stat[strlen(stat) - 1] != ':')
		return -EPROTO;
	for (p = line + off; !rc && *p; columns++) {
		uint64_t v;

		if (!(rc = number(&p, 10, &v)) && sum)
			rc = add(sum, v);
		while (*p == ' ' || *p == '\t')
			p++;
	}
	return rc ? rc : columns ? 0 : -EPROTO;
}

/* Runs parse_line on every line of text that is not empty; sets the have
 * bit when all of them parsed. */
static int parse_lines(const char *text, int (*parse_line)(const char *, struct pfs_fsstats *),
		       unsigned bit, struct pfs_fsstats *st)
{
	char line[4096]; /* sbstats: 16 characters a possible CPU */
	int rc;

	while ((rc = next_line(&text, line, sizeof(line))) > 0)
		if (line[0] && (rc = parse_line(line, st)))
			return rc;
	if (!rc)
		st->have |= bit;
	return rc;
}

int pfs_fsstats_parse_glstats(const char *text, struct pfs_fsstats *st)
{
	memset(st->gl, 0, sizeof(st->gl));
	return parse_lines(text, glstats_line, PFS_FSSTATS_GLSTATS, st);
}

int pfs_fsstats_parse_sbstats(const char *text, struct pfs_fsstats *st)
{
	memset(st->sb, 0, sizeof(st->sb));
	return parse_lines(text, sbstats_line, PFS_FSSTATS_SBSTATS, st);
}

/* Reads dir/name and parses it; -ENOENT when it does not exist. */
static int read_part(const char *dir, const char *name,
		     int (*parse)(const char *, struct pfs_fsstats *), struct pfs_fsstats *st)
{
	char path[PATH_MAX], *text;
	int rc = pfs_format(path, sizeof(path), "%s/%s", dir, name);

	if (rc || (rc = pfs_read_text(path, &text)))
		return rc;
	rc = parse(text, st);
	free(text);
	return rc;
}

int pfs_fsstats_snapshot(const char *table_dir, struct pfs_fsstats *st)
{
	int gl, sb;

	memset(st, 0, sizeof(*st));
	gl = read_part(table_dir, "glstats", pfs_fsstats_parse_glstats, st);
	sb = read_part(table_dir, "sbstats", pfs_fsstats_parse_sbstats, st);
	if (gl && gl != -ENOENT)
		return gl;
	if (sb && sb != -ENOENT)
		return sb;
	return st->have ? 0 : -ENOENT;
}

static void subtract(const struct pfs_glock_counts *b, const struct pfs_glock_counts *a,
		     struct pfs_glock_counts *d)
{
	d->dlm_requests = a->dlm_requests - b->dlm_requests;
	d->queued = a->queued - b->queued;
	d->glocks = a->glocks - b->glocks;
}

int pfs_fsstats_delta(const struct pfs_fsstats *before, const struct pfs_fsstats *after,
		      struct pfs_fsstats *delta)
{
	bool stale = false;

	memset(delta, 0, sizeof(*delta));
	delta->have = before->have & after->have;
	for (unsigned t = 0; t < PFS_GLOCK_TYPES; t++) {
		if (delta->have & PFS_FSSTATS_GLSTATS)
			subtract(&before->gl[t], &after->gl[t], &delta->gl[t]);
		if (delta->have & PFS_FSSTATS_SBSTATS) {
			subtract(&before->sb[t], &after->sb[t], &delta->sb[t]);
			stale |= delta->sb[t].dlm_requests < 0 || delta->sb[t].queued < 0;
		}
	}
	return stale ? -ESTALE : 0;
}
