/* fsstats.c: GFS2's lock statistics (debugfs glstats and sbstats) as
 * counters summed by glock type, a block device's /sys stat and a DRBD 8.4
 * device's /proc/drbd lines, and deltas between snapshots. The kernel
 * sides: fs/gfs2/glock.c (gfs2_glstats_seq_show writes one line a glock,
 * gfs2_sbstats_seq_show one line a glock type and statistic, one column a
 * possible CPU); block/genhd.c's part_stat_show (one line, described in
 * Documentation/block/stat.rst); drivers/block/drbd/drbd_proc.c. */
#include "pfsbench/target/fsstats.h"
#include "pfsbench/core/util.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

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

/* ---- a block device's own counters ------------------------------------- */

static const struct {
	const char *name;
	bool gauge;
} blk_fields[PFS_BLK_FIELDS] = {
	[PFS_BLK_READ_IOS] = { "read_ios", false },
	[PFS_BLK_READ_MERGES] = { "read_merges", false },
	[PFS_BLK_READ_SECTORS] = { "read_sectors", false },
	[PFS_BLK_READ_TICKS] = { "read_ticks_ms", false },
	[PFS_BLK_WRITE_IOS] = { "write_ios", false },
	[PFS_BLK_WRITE_MERGES] = { "write_merges", false },
	[PFS_BLK_WRITE_SECTORS] = { "write_sectors", false },
	[PFS_BLK_WRITE_TICKS] = { "write_ticks_ms", false },
	[PFS_BLK_IN_FLIGHT] = { "in_flight", true },
	[PFS_BLK_IO_TICKS] = { "io_ticks_ms", false },
	[PFS_BLK_TIME_IN_QUEUE] = { "time_in_queue_ms", false },
	[PFS_BLK_DISCARD_IOS] = { "discard_ios", false },
	[PFS_BLK_DISCARD_MERGES] = { "discard_merges", false },
	[PFS_BLK_DISCARD_SECTORS] = { "discard_sectors", false },
	[PFS_BLK_DISCARD_TICKS] = { "discard_ticks_ms", false },
	[PFS_BLK_FLUSH_IOS] = { "flush_ios", false },
	[PFS_BLK_FLUSH_TICKS] = { "flush_ticks_ms", false },
};

const char *pfs_blkstat_name(unsigned field)
{
	return field < PFS_BLK_FIELDS ? blk_fields[field].name : NULL;
}

bool pfs_blkstat_is_gauge(unsigned field)
{
	return field < PFS_BLK_FIELDS && blk_fields[field].gauge;
}

int pfs_blkstats_parse(const char *text, struct pfs_blkstats *st)
{
	char line[1024];
	const char *p = line;
	int rc = next_line(&text, line, sizeof(line));

	memset(st, 0, sizeof(*st));
	if (rc <= 0 || *text)
		return rc < 0 ? rc : -EPROTO;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		if (st->nfields == PFS_BLK_FIELDS)
			return -EPROTO;
		if ((rc = number(&p, 10, &st->v[st->nfields])))
			return rc;
		if (*p && *p != ' ' && *p != '\t')
			return -EPROTO;
		st->nfields++;
	}
	return st->nfields == 11 || st->nfields == 15 || st->nfields == 17 ? 0 : -EPROTO;
}

int pfs_blkstats_read(const char *path, struct pfs_blkstats *st)
{
	char *text;
	int rc = pfs_read_text(path, &text);

	if (rc)
		return rc;
	rc = pfs_blkstats_parse(text, st);
	free(text);
	return rc;
}

/* ---- DRBD 8.4 ------------------------------------------------------------- */

static const struct {
	const char *key; /* as /proc/drbd writes it */
	const char *name;
	bool gauge;
} drbd_fields[PFS_DRBD_FIELDS] = {
	[PFS_DRBD_NS] = { "ns:", "ns_kib", false },  [PFS_DRBD_NR] = { "nr:", "nr_kib", false },
	[PFS_DRBD_DW] = { "dw:", "dw_kib", false },  [PFS_DRBD_DR] = { "dr:", "dr_kib", false },
	[PFS_DRBD_AL] = { "al:", "al", false },      [PFS_DRBD_BM] = { "bm:", "bm", false },
	[PFS_DRBD_LO] = { "lo:", "lo", true },       [PFS_DRBD_PE] = { "pe:", "pe", true },
	[PFS_DRBD_UA] = { "ua:", "ua", true },       [PFS_DRBD_AP] = { "ap:", "ap", true },
	[PFS_DRBD_EP] = { "ep:", "ep", true },       [PFS_DRBD_OOS] = { "oos:", "oos_kib", true },
};

const char *pfs_drbd_name(unsigned field)
{
	return field < PFS_DRBD_FIELDS ? drbd_fields[field].name : NULL;
}

bool pfs_drbd_is_gauge(unsigned field)
{
	return field < PFS_DRBD_FIELDS && drbd_fields[field].gauge;
}

/* A word "key:value" of line into buf; -EPROTO without key or when the
 * value does not fit. */
static int word_after(const char *line, const char *key, char *buf, size_t len)
{
	const char *p = strstr(line, key);
	size_t n;

	if (!p)
		return -EPROTO;
	p += strlen(key);
	n = strcspn(p, " \t");
	if (!n || n >= len)
		return -EPROTO;
	memcpy(buf, p, n);
	buf[n] = 0;
	return 0;
}

/* "A/B" into a and b. */
static int split_pair(const char *pair, char *a, char *b, size_t len)
{
	const char *slash = strchr(pair, '/');
	size_t n = slash ? (size_t)(slash - pair) : 0;

	if (!n || n >= len || !slash[1] || strlen(slash + 1) >= len || strchr(slash + 1, '/'))
		return -EPROTO;
	memcpy(a, pair, n);
	a[n] = 0;
	strcpy(b, slash + 1);
	return 0;
}

/* " N: cs:X ro:A/B ds:A/B P flags": *minor and the state; 1 when line is
 * a device's first line, 0 when it is some other line. */
static int drbd_state_line(const char *line, unsigned *minor, struct pfs_drbd *d)
{
	const char *p = line;
	char pair[40];
	uint64_t m;
	int rc;

	while (*p == ' ')
		p++;
	if ((rc = number(&p, 10, &m)))
		return rc == -ERANGE ? rc : 0;
	if (strncmp(p, ": cs:", 5))
		return 0;
	if (m > UINT_MAX)
		return -ERANGE;
	*minor = (unsigned)m;
	memset(d, 0, sizeof(*d));
	if ((rc = word_after(p, " cs:", d->cs, sizeof(d->cs))))
		return rc;
	if (!strcmp(d->cs, "Unconfigured"))
		return 1;
	d->configured = true;
	if ((rc = word_after(p, " ro:", pair, sizeof(pair))) ||
	    (rc = split_pair(pair, d->role, d->peer_role, sizeof(d->role))) ||
	    (rc = word_after(p, " ds:", pair, sizeof(pair))) ||
	    (rc = split_pair(pair, d->disk, d->peer_disk, sizeof(d->disk))))
		return rc;
	/* After ds's word: a blank, the protocol letter (a blank for none). */
	p = strstr(p, " ds:") + 4;
	p += strcspn(p, " ");
	if (p[0] != ' ' || !p[1])
		return -EPROTO;
	d->protocol = p[1];
	if (d->protocol != ' ' && (d->protocol < 'A' || d->protocol > 'C'))
		return -EPROTO;
	return 1;
}

/* "    ns:N nr:N ... wo:C oos:N": every counter must be there. */
static int drbd_counters_line(const char *line, struct pfs_drbd *d)
{
	for (unsigned i = 0; i < PFS_DRBD_FIELDS; i++) {
		const char *p = strstr(line, drbd_fields[i].key);
		int rc;

		/* A key's own start, not the tail of a longer key. */
		while (p && p != line && p[-1] != ' ' && p[-1] != '\t')
			p = strstr(p + 1, drbd_fields[i].key);
		if (!p)
			return -EPROTO;
		p += strlen(drbd_fields[i].key);
		/* The kernel prints lo, pe, ua, ap with %d: a negative one is a
		 * count gone wrong, not a number to keep. */
		if ((rc = number(&p, 10, &d->v[i])))
			return rc;
		if (*p && *p != ' ' && *p != '\t')
			return -EPROTO;
		d->have |= 1u << i;
	}
	return 0;
}

int pfs_drbd_parse(const char *text, unsigned minor, struct pfs_drbd *d)
{
	char line[1024];
	int rc;

	memset(d, 0, sizeof(*d));
	while ((rc = next_line(&text, line, sizeof(line))) > 0) {
		unsigned m;

		rc = drbd_state_line(line, &m, d);
		if (rc < 0 || (rc == 1 && m == minor))
			break;
	}
	if (rc <= 0)
		return rc < 0 ? rc : -ENOENT;
	if (!d->configured)
		return 0;
	rc = next_line(&text, line, sizeof(line));
	return rc < 0 ? rc : !rc ? -EPROTO : drbd_counters_line(line, d);
}

int pfs_drbd_state_text(const struct pfs_drbd *d, char *buf, size_t len)
{
	if (!d->configured)
		return pfs_format(buf, len, "cs:%s", d->cs);
	if (d->protocol == ' ')
		return pfs_format(buf, len, "cs:%s ro:%s/%s ds:%s/%s", d->cs, d->role, d->peer_role,
				  d->disk, d->peer_disk);
	return pfs_format(buf, len, "cs:%s ro:%s/%s ds:%s/%s protocol %c", d->cs, d->role,
			  d->peer_role, d->disk, d->peer_disk, d->protocol);
}

/* ---- which device --------------------------------------------------------- */

int pfs_blkdev_find(const char *path, const char *sysfs_dev, dev_t *dev, char *name,
		    size_t namelen, char *stat_path, size_t statlen)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct stat sb;
	const char *base;
	ssize_t n;

	if (stat(path, &sb))
		return -errno;
	*dev = S_ISBLK(sb.st_mode) ? sb.st_rdev : sb.st_dev;
	if (pfs_format(link, sizeof(link), "%s/%u:%u", sysfs_dev, major(*dev), minor(*dev)) ||
	    pfs_format(stat_path, statlen, "%s/stat", link))
		return -ENAMETOOLONG;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!*base || access(stat_path, R_OK))
		return -ENODEV;
	return pfs_format(name, namelen, "%s", base) ? -ENAMETOOLONG : 0;
}

int pfs_counter_delta(uint64_t before, uint64_t after, bool gauge, uint64_t *delta)
{
	if (gauge)
		*delta = after;
	else if (after >= before)
		*delta = after - before;
	else if (before <= UINT32_MAX && before >= (uint64_t)1 << 31 && after < (uint64_t)1 << 31)
		*delta = after + ((uint64_t)1 << 32) - before;
	else
		return -ESTALE;
	return 0;
}
